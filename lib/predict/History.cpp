// Reading a git history with libgit2 (History.h).
//
// The walk goes from the revision back, children before parents. Each
// commit carries what of today's files it has, and under which path (a
// rename renames it back), with, for files whose functions are tracked, a
// map from each of its lines to today's line (0: a line that does not
// survive). A diff against a parent says which of the commit's lines
// changed (mapped to today's functions) and gives the parent's map: lines
// outside the hunks shift, lines a hunk replaced map where their
// replacements do, lines it only removed do not survive. A parent
// reached from several children keeps the first map it was given.
#include "mosaic/predict/History.h"

#include <git2.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <mutex>
#include <regex>
#include <unordered_map>

namespace mosaic::predict {

namespace fs = std::filesystem;

namespace {

template <class T, void (*Free)(T *)> struct Freer {
  void operator()(T *p) const { Free(p); }
};
using Repo = std::unique_ptr<git_repository, Freer<git_repository, git_repository_free>>;
using CommitPtr = std::unique_ptr<git_commit, Freer<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Freer<git_tree, git_tree_free>>;
using DiffPtr = std::unique_ptr<git_diff, Freer<git_diff, git_diff_free>>;
using PatchPtr = std::unique_ptr<git_patch, Freer<git_patch, git_patch_free>>;
using WalkPtr = std::unique_ptr<git_revwalk, Freer<git_revwalk, git_revwalk_free>>;
using ObjectPtr = std::unique_ptr<git_object, Freer<git_object, git_object_free>>;
using BlobPtr = std::unique_ptr<git_blob, Freer<git_blob, git_blob_free>>;

std::string lastGitError() {
  const git_error *e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

void initOnce() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); }); // shut down at exit by the OS
}

std::string hex(const git_oid &id) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &id);
  return buf;
}

// What a commit has of today's files: path at that commit -> today's path
// and, when its functions are tracked, the line map.
struct Tracked {
  std::string today;
  std::shared_ptr<const std::vector<unsigned>> toToday; ///< index = line - 1; 0 = gone; null = not tracked
};
using Files = std::map<std::string, Tracked>;

std::size_t countLines(const char *data, std::size_t size) {
  std::size_t n = static_cast<std::size_t>(std::count(data, data + size, '\n'));
  if (size > 0 && data[size - 1] != '\n') ++n;
  return n;
}

struct Hunk {
  unsigned oldStart, oldLines, newStart, newLines;
};

std::vector<Hunk> hunksOf(git_diff *diff, std::size_t delta) {
  std::vector<Hunk> out;
  git_patch *raw = nullptr;
  if (git_patch_from_diff(&raw, diff, delta) != 0 || !raw) return out;
  PatchPtr patch(raw);
  for (std::size_t h = 0; h < git_patch_num_hunks(patch.get()); ++h) {
    const git_diff_hunk *hunk = nullptr;
    std::size_t lines = 0;
    if (git_patch_get_hunk(&hunk, &lines, patch.get(), h) == 0 && hunk)
      out.push_back({static_cast<unsigned>(hunk->old_start), static_cast<unsigned>(hunk->old_lines),
                     static_cast<unsigned>(hunk->new_start), static_cast<unsigned>(hunk->new_lines)});
  }
  return out;
}

// Today's functions whose lines the hunks changed, and the parent's map.
std::vector<std::size_t> followHunks(const std::vector<Hunk> &hunks, const std::vector<unsigned> &child,
                                     const std::vector<FunctionSpan> &spans, std::vector<unsigned> &parent) {
  std::vector<bool> touched(spans.size(), false);
  auto touch = [&](unsigned lo, unsigned hi) { // today's lines lo..hi (a gap when hi = lo + 1 and nothing between)
    for (std::size_t k = 0; k < spans.size(); ++k)
      if (spans[k].begin <= lo && hi <= spans[k].end) touched[k] = true;
  };
  auto today = [&](unsigned line) { return line >= 1 && line <= child.size() ? child[line - 1] : 0u; };
  std::size_t parentLines = child.size();
  for (const Hunk &h : hunks) parentLines = parentLines + h.oldLines - std::min<std::size_t>(h.newLines, parentLines + h.oldLines);
  parent.assign(parentLines, 0);
  unsigned ip = 1, ic = 1; // the next unchanged line in the parent and in the child
  auto copyUntil = [&](unsigned parentEnd) {
    for (; ip < parentEnd && ip <= parent.size(); ++ip, ++ic) parent[ip - 1] = today(ic);
  };
  for (const Hunk &h : hunks) {
    // A side with no lines names the line before the change.
    const unsigned firstOld = h.oldLines ? h.oldStart : h.oldStart + 1;
    const unsigned firstNew = h.newLines ? h.newStart : h.newStart + 1;
    copyUntil(firstOld);
    ic = firstNew; // (the unchanged runs agree; this keeps a malformed hunk from drifting)
    if (h.newLines) {
      for (unsigned l = firstNew; l < firstNew + h.newLines; ++l)
        if (const unsigned t = today(l)) touch(t, t);
    } else {
      // Lines removed between child lines newStart and newStart + 1.
      const unsigned before = today(h.newStart), after = today(h.newStart + 1);
      if (before && after) touch(before, after);
      else if (before || after) touch(before ? before : after, before ? before : after);
    }
    // The parent's lines the child replaced live on in the lines that
    // replaced them (the i-th in the i-th, the rest in the last): a line
    // fixed twice is the same function's both times. Lines removed without
    // replacement (a deleted function) do not survive.
    for (unsigned i = 0; i < h.oldLines && firstOld + i <= parent.size(); ++i)
      parent[firstOld + i - 1] = h.newLines ? today(firstNew + std::min(i, h.newLines - 1)) : 0u;
    ip = firstOld + h.oldLines;
    ic = firstNew + h.newLines;
  }
  copyUntil(static_cast<unsigned>(parent.size()) + 1);
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < touched.size(); ++k)
    if (touched[k]) out.push_back(k);
  return out;
}

class Reader {
public:
  Reader(git_repository *repo, const std::map<std::string, std::vector<FunctionSpan>> &functions,
         const HistoryOptions &o)
      : repo_(repo), functions_(functions), o_(o), pattern_(o.filePattern) {}

  Expected<History> read() {
    History h;
    if (const char *wd = git_repository_workdir(repo_)) h.workTree = wd;
    h.shallow = git_repository_is_shallow(repo_) == 1;
    git_object *rawObj = nullptr;
    if (git_revparse_single(&rawObj, repo_, o_.revision.c_str()) != 0)
      return Error::input("no revision '" + o_.revision + "' in the repository: " + lastGitError());
    ObjectPtr obj(rawObj);
    git_object *rawCommit = nullptr;
    if (git_object_peel(&rawCommit, obj.get(), GIT_OBJECT_COMMIT) != 0)
      return Error::input("'" + o_.revision + "' is not a commit: " + lastGitError());
    CommitPtr head(reinterpret_cast<git_commit *>(rawCommit));
    const git_oid headId = *git_commit_id(head.get());
    h.revision = hex(headId);
    h.newest = git_commit_time(head.get());
    h.oldest = h.newest;
    auto files = todaysFiles(head.get(), h);
    if (!files) return files.takeError();

    git_revwalk *rawWalk = nullptr;
    if (git_revwalk_new(&rawWalk, repo_) != 0) return Error::internal("git_revwalk_new: " + lastGitError());
    WalkPtr walk(rawWalk);
    git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
    git_revwalk_push(walk.get(), &headId);
    std::unordered_map<std::string, std::shared_ptr<const Files>> pending;
    pending[h.revision] = std::make_shared<const Files>(std::move(*files));
    git_oid id;
    while (git_revwalk_next(&id, walk.get()) == 0) {
      git_commit *rawC = nullptr;
      if (git_commit_lookup(&rawC, repo_, &id) != 0) continue;
      CommitPtr c(rawC);
      h.oldest = std::min<std::int64_t>(h.oldest, git_commit_time(c.get())); // the whole history's (Schwa's `begin`)
      if (o_.maxCommits && h.walked >= o_.maxCommits) continue;
      ++h.walked;
      const std::string key = hex(id);
      auto it = pending.find(key);
      if (it == pending.end()) continue; // reached only through commits that kept none of today's files
      const std::shared_ptr<const Files> mine = it->second;
      pending.erase(it);
      Commit out = describe(c.get(), key);
      const unsigned parents = git_commit_parentcount(c.get());
      for (unsigned p = 0; p < std::max(parents, 1u); ++p) {
        CommitPtr parent;
        if (parents) {
          git_commit *rawP = nullptr;
          if (git_commit_parent(&rawP, c.get(), p) != 0) continue; // a shallow clone's cut
          parent.reset(rawP);
        }
        auto given = diffAgainst(c.get(), parent.get(), mine, out);
        if (!given) return given.takeError();
        if (!parent) continue;
        const std::string pk = hex(*git_commit_id(parent.get()));
        auto &slot = pending[pk];
        if (!slot) slot = std::move(*given);
        else if (*given != slot) { // a second child: what the first did not carry
          auto merged = std::make_shared<Files>(*slot);
          for (const auto &[path, t] : **given) merged->emplace(path, t);
          slot = std::move(merged);
        }
      }
      out.merge = parents > 1;
      if (out.merge && o_.skipMerges) out.touches.clear(); // its maps went to the parents all the same
      if (!out.touches.empty()) h.commits.push_back(std::move(out));
    }
    return h;
  }

private:
  // Today's files matching the pattern, with identity maps for those whose
  // functions are tracked.
  Expected<Files> todaysFiles(git_commit *head, History &h) {
    git_tree *rawTree = nullptr;
    if (git_commit_tree(&rawTree, head) != 0) return Error::internal("git_commit_tree: " + lastGitError());
    TreePtr tree(rawTree);
    struct Walk {
      Reader *self;
      std::vector<std::string> paths;
    } w{this, {}};
    git_tree_walk(
        tree.get(), GIT_TREEWALK_PRE,
        [](const char *root, const git_tree_entry *e, void *payload) -> int {
          auto *w = static_cast<Walk *>(payload);
          if (git_tree_entry_type(e) != GIT_OBJECT_BLOB) return 0;
          const std::string path = std::string(root) + git_tree_entry_name(e);
          if (std::regex_match(path, w->self->pattern_)) w->paths.push_back(path);
          return 0;
        },
        &w);
    Files files;
    for (const std::string &path : w.paths) {
      Tracked t{path, nullptr};
      if (tracked(path)) {
        git_tree_entry *rawEntry = nullptr;
        if (git_tree_entry_bypath(&rawEntry, tree.get(), path.c_str()) == 0) {
          git_blob *rawBlob = nullptr;
          if (git_blob_lookup(&rawBlob, repo_, git_tree_entry_id(rawEntry)) == 0) {
            BlobPtr blob(rawBlob);
            auto lines = std::make_shared<std::vector<unsigned>>(
                countLines(static_cast<const char *>(git_blob_rawcontent(blob.get())),
                           static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
            for (std::size_t k = 0; k < lines->size(); ++k) (*lines)[k] = static_cast<unsigned>(k + 1);
            t.toToday = std::move(lines);
          }
          git_tree_entry_free(rawEntry);
        }
      }
      files.emplace(path, std::move(t));
    }
    h.files = std::move(w.paths);
    return files;
  }

  const std::vector<FunctionSpan> *tracked(const std::string &today) const {
    auto it = functions_.find(today);
    return it == functions_.end() ? nullptr : &it->second;
  }

  Commit describe(git_commit *c, const std::string &id) const {
    Commit out;
    out.id = id;
    if (const char *m = git_commit_message(c)) out.message = m;
    if (const char *s = git_commit_summary(c)) out.summary = s;
    if (const git_signature *a = git_commit_author(c); a && a->email) out.email = a->email;
    out.time = git_commit_time(c);
    return out;
  }

  // The diff parent -> c (nothing -> c for a root): the touches of today's
  // files into `out`, and what the parent has of them.
  Expected<std::shared_ptr<const Files>> diffAgainst(git_commit *c, git_commit *parent,
                                                     const std::shared_ptr<const Files> &mineShared, Commit &out) {
    const Files &mine = *mineShared;
    git_tree *rawNew = nullptr, *rawOld = nullptr;
    if (git_commit_tree(&rawNew, c) != 0) return Error::internal("git_commit_tree: " + lastGitError());
    TreePtr newTree(rawNew), oldTree;
    if (parent) {
      if (git_commit_tree(&rawOld, parent) != 0) return Error::internal("git_commit_tree: " + lastGitError());
      oldTree.reset(rawOld);
    }
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.context_lines = 0;
    git_diff *rawDiff = nullptr;
    if (git_diff_tree_to_tree(&rawDiff, repo_, oldTree.get(), newTree.get(), &opts) != 0)
      return Error::internal("git_diff_tree_to_tree: " + lastGitError());
    DiffPtr diff(rawDiff);
    git_diff_find_options find;
    git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
    find.flags = GIT_DIFF_FIND_RENAMES;
    git_diff_find_similar(diff.get(), &find);

    std::shared_ptr<Files> changed; // copied on the first change of what the parent has
    auto edit = [&]() -> Files & {
      if (!changed) changed = std::make_shared<Files>(mine);
      return *changed;
    };
    const std::size_t n = git_diff_num_deltas(diff.get());
    for (std::size_t d = 0; d < n; ++d) {
      const git_diff_delta *delta = git_diff_get_delta(diff.get(), d);
      if (delta->status == GIT_DELTA_DELETED) continue; // not in c: none of today's files
      const std::string path = delta->new_file.path, before = delta->old_file.path ? delta->old_file.path : path;
      auto it = mine.find(path);
      if (it == mine.end()) continue;
      const Tracked &t = it->second;
      Touch touch{t.today, {}};
      Tracked inParent{t.today, nullptr};
      if (t.toToday) {
        if (const auto *spans = tracked(t.today)) {
          auto parentMap = std::make_shared<std::vector<unsigned>>();
          touch.functions = followHunks(hunksOf(diff.get(), d), *t.toToday, *spans, *parentMap);
          inParent.toToday = std::move(parentMap);
        }
      }
      out.touches.push_back(std::move(touch));
      if (!parent) continue;
      Files &f = edit();
      f.erase(path);
      // Added here: the parent has no such file (an older one of that name
      // was another file). Renamed: it had it under the old name.
      if (delta->status != GIT_DELTA_ADDED && delta->status != GIT_DELTA_UNTRACKED) f[before] = std::move(inParent);
    }
    if (!parent) return std::shared_ptr<const Files>();
    if (!changed) return mineShared;
    return std::shared_ptr<const Files>(std::move(changed));
  }

  git_repository *repo_;
  const std::map<std::string, std::vector<FunctionSpan>> &functions_;
  const HistoryOptions &o_;
  std::regex pattern_;
};

} // namespace

Expected<History> readHistory(const std::string &path, const std::map<std::string, std::vector<FunctionSpan>> &functions,
                              const HistoryOptions &options) {
  initOnce();
  git_repository *raw = nullptr;
  if (git_repository_open_ext(&raw, path.c_str(), 0, nullptr) != 0)
    return Error::input("no git repository at or above " + path + " (" + lastGitError() + ")");
  Repo repo(raw);
  // The tracked functions keyed by their path in the work tree.
  std::map<std::string, std::vector<FunctionSpan>> relative;
  const char *wd = git_repository_workdir(repo.get());
  std::error_code ec;
  const fs::path root = wd ? fs::weakly_canonical(wd, ec) : fs::path();
  for (const auto &[file, spans] : functions) {
    fs::path p(file);
    if (p.is_absolute() && !root.empty()) p = fs::weakly_canonical(p, ec).lexically_relative(root);
    relative[p.generic_string()] = spans;
  }
  return Reader(repo.get(), relative, options).read();
}

} // namespace mosaic::predict
