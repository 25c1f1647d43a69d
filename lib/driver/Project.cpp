// `mosaic project` (Project.h): units, budgets, workers, the stored state
// and the root CMakeLists.txt.
#include "mosaic/driver/Project.h"

#include "FunctionWeights.h"
#include "HtmlReport.h"
#include "Interrupt.h"
#include "ProjectFiles.h"
#include "ProjectReports.h"
#include "Shards.h"
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/emit/Suite.h"
#include "mosaic/predict/Bads.h"
#include "mosaic/predict/History.h"
#include "mosaic/predict/Schwa.h"
#include "mosaic/support/Process.h"
#include "mosaic/support/Text.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include <fnmatch.h>
#include <functional>
#include <optional>
#include <sstream>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

namespace mosaic::driver {

namespace fs = std::filesystem;

namespace {

// FNV-1a, 64 bits (the FNV specification's offset basis and prime): a
// stable hash of a unit's inputs, the same across runs and machines.
struct Fnv {
  std::uint64_t h = 14695981039346656037ull;
  void add(std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull; // a separator: ("ab", "c") differs from ("a", "bc")
  }
  std::string hex() const { return fmt::format("{:016x}", h); }
};

struct PlannedUnit {
  std::string path, relative, id;
  double score = 0, budget = 0;
  std::string functionWeights; ///< its functions' defect-prediction scores (a file), or ""
  std::string key;
  // What its run gave.
  std::optional<std::vector<std::string>> headers; ///< the project headers it depends on, once known
  std::string command;                             ///< its compile command, as the database writes it
  std::string status = "queued"; // queued, running, done, failed, interrupted, unchanged
  int exitCode = -1;
  double seconds = 0;
  nlohmann::json stats; // generate --json
  std::string error;
};

// Every header of the project (by its path in the project) and a hash of
// its content, read once at the start of a run.
using HeaderHashes = std::map<std::string, std::string>;

HeaderHashes headerHashes(const std::string &root, const std::string &outDir) {
  static const std::vector<std::string> kHeaderExtensions = {".h", ".hh", ".hpp", ".hxx", ".inc", ".inl", ".ipp", ".tcc"};
  HeaderHashes out;
  std::error_code ec;
  const fs::path skip = fs::weakly_canonical(outDir, ec);
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path &p = it->path();
    if (it->is_directory(ec) && (p.filename().string().rfind('.', 0) == 0 || fs::weakly_canonical(p, ec) == skip)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) &&
        std::find(kHeaderExtensions.begin(), kHeaderExtensions.end(), p.extension().string()) != kHeaderExtensions.end()) {
      Fnv f;
      f.add(readFile(p.string()));
      out[p.lexically_relative(root).generic_string()] = f.hex();
    }
  }
  return out;
}

// The hash of the headers a unit depends on: those its last harness build
// listed when they are known, otherwise every header of the project (its
// first run: any header edit then redoes it).
std::string dependencyHash(const HeaderHashes &all, const std::optional<std::vector<std::string>> &headers) {
  Fnv f;
  if (headers) {
    for (const std::string &h : *headers) {
      f.add(h);
      const auto it = all.find(h);
      f.add(it == all.end() ? "(gone)" : it->second);
    }
  } else {
    for (const auto &[path, hash] : all) f.add(path), f.add(hash);
  }
  return f.hex();
}

// The project headers the unit's harness was compiled with: its depfile
// (harness/Build.cpp writes harness.d), the newest in its work folder.
std::optional<std::vector<std::string>> harnessHeaders(const fs::path &work, const std::string &root,
                                                       const HeaderHashes &all) {
  std::error_code ec;
  fs::path newest;
  fs::file_time_type when{};
  for (const auto &e : fs::directory_iterator(work, ec)) {
    const fs::path d = e.path() / "harness.d";
    if (fs::exists(d, ec) && (newest.empty() || fs::last_write_time(d, ec) > when))
      newest = d, when = fs::last_write_time(d, ec);
  }
  if (newest.empty()) return std::nullopt;
  std::string text = readFile(newest.string());
  const size_t colon = text.find(": ");
  if (colon == std::string::npos) return std::nullopt;
  std::vector<std::string> out;
  std::istringstream words(text.substr(colon + 2));
  for (std::string w; words >> w;) {
    if (w == "\\") continue; // a continued line
    const fs::path rel = fs::weakly_canonical(w, ec).lexically_relative(root);
    if (all.count(rel.generic_string())) out.push_back(rel.generic_string());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Each file's compile command, as the database writes it.
std::map<std::string, std::string> commandsByFile(const std::string &buildDir) {
  const fs::path db = fs::path(buildDir).extension() == ".json" ? fs::path(buildDir)
                                                                : fs::path(buildDir) / "compile_commands.json";
  std::map<std::string, std::string> out;
  try {
    std::error_code ec;
    for (const auto &e : nlohmann::json::parse(readFile(db.string()))) {
      const std::string file =
          fs::weakly_canonical(fs::path(e.value("directory", "")) / e.value("file", ""), ec).string();
      out[file] += e.dump();
    }
  } catch (const std::exception &) {
  }
  return out;
}

// What makes a unit's result reusable: mosaic itself (its executable's
// size and time), the unit's file, the project's headers, its command,
// and the options that change what a search writes.
std::string keyOf(const PlannedUnit &u, const std::string &headers, const std::string &command, const ProjectOptions &o) {
  Fnv f;
  struct stat st {};
  if (stat("/proc/self/exe", &st) == 0) f.add(fmt::format("{}:{}", st.st_size, st.st_mtim.tv_sec));
  f.add(readFile(u.path));
  f.add(headers);
  f.add(command);
  f.add(fmt::format("max-executions={}", o.maxExecutions));
  f.add(fmt::format("seed={} verify={} allocation={} budget={}/{}", o.seed, o.verify, o.allocation, o.budgetSeconds,
                    o.budgetPerUnitSeconds));
  return f.hex();
}

std::string idOf(const std::string &relative) {
  std::string id;
  for (char c : relative) id.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return id;
}

bool matchesAny(const std::vector<std::string> &globs, const std::string &relative) {
  for (const std::string &g : globs)
    if (fnmatch(g.c_str(), relative.c_str(), 0) == 0) return true;
  return false;
}

std::string selfExecutable() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).string();
}

nlohmann::json unitJson(const PlannedUnit &u) {
  nlohmann::json j = {{"file", u.relative}, {"id", u.id},          {"key", u.key},          {"status", u.status},
                      {"exit_code", u.exitCode}, {"score", u.score}, {"budget_seconds", u.budget},
                      {"seconds", u.seconds},    {"error", u.error}, {"stats", u.stats}};
  if (u.headers) j["headers"] = *u.headers;
  return j;
}

// One line of a finished unit: its tests and llvm-cov's branch coverage.
std::string summaryOf(const PlannedUnit &u) {
  if (u.status == "failed" || u.status == "interrupted") return u.status + (u.error.empty() ? "" : ": " + u.error);
  std::string s = u.status;
  if (u.stats.contains("tests")) {
    const auto &t = u.stats["tests"];
    s += fmt::format(", {} tests", t.value("verified", false) ? t.value("passed", 0) : t.value("kept", 0));
    if (t.value("failing", 0) > 0) s += fmt::format(", {} failing", t.value("failing", 0));
  }
  if (u.stats.contains("llvm_cov") && u.stats["llvm_cov"].value("branches", 0.0) > 0) {
    const auto &c = u.stats["llvm_cov"];
    s += fmt::format(", branches {:.1f}%", 100.0 * c.value("branches_covered", 0.0) / c.value("branches", 1.0));
  }
  return s;
}

// llvm-cov's branches covered and counted over the units measured so far.
std::pair<double, double> branchesOf(const std::vector<PlannedUnit> &units) {
  double covered = 0, branches = 0;
  for (const PlannedUnit &u : units)
    if (u.stats.contains("llvm_cov")) {
      covered += u.stats["llvm_cov"].value("branches_covered", 0.0);
      branches += u.stats["llvm_cov"].value("branches", 0.0);
    }
  return {covered, branches};
}

class Runner {
public:
  /// `afterRun` runs on a worker, outside the lock, on the unit's result.
  Runner(const ProjectOptions &o, std::string root, std::vector<PlannedUnit> &units, std::ostream &out,
         const volatile std::sig_atomic_t *stop, std::function<void(PlannedUnit &)> afterRun)
      : o_(o), root_(std::move(root)), units_(units), out_(out), stop_(stop), self_(selfExecutable()),
        afterRun_(std::move(afterRun)) {}

  void run(const std::string &statePath) {
    statePath_ = statePath;
    finished_ = static_cast<std::size_t>(
        std::count_if(units_.begin(), units_.end(), [](const PlannedUnit &u) { return u.status != "queued"; }));
    std::vector<std::thread> workers;
    const std::size_t n = std::max<std::uint64_t>(1, std::min<std::uint64_t>(o_.jobs, units_.size()));
    for (std::size_t w = 0; w < n; ++w) workers.emplace_back([this] { work(); });
    // The progress view while units run: looked at every 10 s, printed
    // when it changed or a minute passed (ours).
    if (o_.progress) {
      std::unique_lock lock(m_);
      const auto begin = std::chrono::steady_clock::now();
      auto printed = begin;
      std::string last;
      while (!changed_.wait_for(lock, std::chrono::seconds(10), [&] { return finished_ == units_.size(); })) {
        const auto now = std::chrono::steady_clock::now();
        const std::string line = statusLine();
        if (line == last && now - printed < std::chrono::minutes(1)) continue;
        fmt::print(out_, "progress     after {:.0f} s: {}\n", std::chrono::duration<double>(now - begin).count(), line);
        last = line;
        printed = now;
      }
    }
    for (auto &t : workers) t.join();
    save();
  }

private:
  void work() {
    for (;;) {
      PlannedUnit *u = nullptr;
      PlannedUnit result; // filled outside the lock, copied in under it: the progress view reads units_
      {
        std::lock_guard lock(m_);
        while (next_ < units_.size() && units_[next_].status != "queued") ++next_;
        if (next_ == units_.size() || (stop_ && *stop_)) break;
        u = &units_[next_++];
        u->status = "running";
        started_[u->id] = std::chrono::steady_clock::now();
        result = *u;
      }
      runUnit(result);
      afterRun_(result);
      std::lock_guard lock(m_);
      *u = std::move(result);
      started_.erase(u->id);
      ++finished_;
      fmt::print(out_, "[{}/{}]{:>6} {}: {} ({:.0f} s for {:.0f} s of search)\n", done(), units_.size(), "",
                 u->relative, summaryOf(*u), u->seconds, u->budget);
      save();
      changed_.notify_all();
    }
    std::lock_guard lock(m_);
    // Units never started because of an interrupt count as finished for the view.
    while (next_ < units_.size()) {
      if (units_[next_].status == "queued") ++finished_;
      ++next_;
    }
    changed_.notify_all();
  }

  void runUnit(PlannedUnit &u) {
    const fs::path out = fs::path(o_.outDir);
    std::error_code ec;
    fs::remove_all(out / "units" / u.id, ec); // ours: what an older run of this unit wrote
    fs::create_directories(out / "logs", ec);
    fs::create_directories(out / "results", ec);
    const std::string json = (out / "results" / (u.id + ".json")).string();
    fs::remove(json, ec);
    std::vector<std::string> argv{self_, "generate", "-p", o_.unit.buildDir, u.path,
                                  "-o", (out / "units" / u.id).string(), "--budget", fmt::format("{:.1f}s", u.budget),
                                  "--seed", std::to_string(o_.seed), "--json", json, "--no-progress",
                                  "--work-dir", (out / "work" / u.id).string()};
    if (!o_.verify) argv.push_back("--no-verify");
    // Units at once that would not each find two free CPUs share one each.
    if (2 * o_.jobs > std::max<std::uint64_t>(1, std::thread::hardware_concurrency())) argv.push_back("--one-cpu");
    if (o_.maxExecutions) argv.insert(argv.end(), {"--max-executions", std::to_string(o_.maxExecutions)});
    if (!u.functionWeights.empty()) argv.insert(argv.end(), {"--function-weights", u.functionWeights});
    ProcessOptions po;
    po.ownGroup = true;
    po.stop = stop_;
    const auto start = std::chrono::steady_clock::now();
    auto r = runProcess(argv, po);
    u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r) std::ofstream(out / "logs" / (u.id + ".log")) << r->output;
    u.exitCode = r ? r->exitCode : -1;
    try {
      u.stats = nlohmann::json::parse(readFile(json));
    } catch (const std::exception &) {
      u.stats = nlohmann::json::object();
    }
    if (!r || r->interrupted || (stop_ && *stop_)) {
      u.status = "interrupted";
    } else if (r->exitCode == kExitOk || r->exitCode == kExitFindings) {
      u.status = "done";
    } else {
      u.status = "failed";
      // The first error line mosaic printed (the log has the rest).
      const std::string &output = r->output;
      const size_t at = output.find("mosaic: error:");
      u.error = at == std::string::npos ? fmt::format("exit code {}", r->exitCode)
                                        : output.substr(at, output.find('\n', at) - at);
    }
  }

  std::size_t done() const {
    return static_cast<std::size_t>(std::count_if(units_.begin(), units_.end(), [](const PlannedUnit &u) {
      return u.status == "done" || u.status == "failed" || u.status == "unchanged";
    }));
  }

  std::string statusLine() const {
    std::size_t queued = 0;
    double left = 0;
    const auto now = std::chrono::steady_clock::now();
    for (const PlannedUnit &u : units_)
      if (u.status == "queued") ++queued, left += u.budget;
    std::string running;
    for (const auto &[id, since] : started_) {
      for (const PlannedUnit &u : units_)
        if (u.id == id) {
          running += (running.empty() ? "" : ", ") + u.relative;
          left += std::max(0.0, u.budget - std::chrono::duration<double>(now - since).count());
        }
    }
    const auto [covered, branches] = branchesOf(units_); // coverage so far
    const std::string coverage =
        branches > 0 ? fmt::format("; branches {:.1f}% of the units measured", 100.0 * covered / branches) : "";
    return fmt::format("{} done, {} running ({}), {} queued{}; about {:.0f} s of search left", done(), started_.size(),
                       running, queued, coverage, left / static_cast<double>(std::max<std::uint64_t>(1, o_.jobs)));
  }

  void save() const {
    nlohmann::json j = {{"format", 1}, {"root", root_}, {"units", nlohmann::json::array()}};
    for (const PlannedUnit &u : units_) j["units"].push_back(unitJson(u));
    const std::string tmp = statePath_ + ".tmp";
    std::ofstream(tmp) << j.dump(2) << "\n";
    std::error_code ec;
    fs::rename(tmp, statePath_, ec); // whole or not at all: an interrupted write leaves the last state
  }

  const ProjectOptions &o_;
  std::string root_; ///< the project's folder
  std::vector<PlannedUnit> &units_;
  std::ostream &out_;
  const volatile std::sig_atomic_t *stop_;
  std::string self_, statePath_;
  std::function<void(PlannedUnit &)> afterRun_;
  std::mutex m_;
  std::condition_variable changed_;
  std::size_t next_ = 0, finished_ = 0;
  std::map<std::string, std::chrono::steady_clock::time_point> started_;
};

// OUT/CMakeLists.txt: every unit's suite that was written (units by id and
// path in the project), as a subdirectory; two suites of one name (a.c in
// two folders) cannot share a build, and the second is named in a comment
// instead.
void writeRootCMake(const std::string &outDir, const std::vector<std::pair<std::string, std::string>> &units) {
  std::string text =
      "# Generated by mosaic project: every unit's suite in one build.\n"
      "#   cmake -S . -B build && cmake --build build && ctest --test-dir build\n"
      "cmake_minimum_required(VERSION 3.16)\n"
      "# Clang, as each suite asks (their flags are as Clang 19 read them).\n"
      "if(NOT CMAKE_C_COMPILER)\n  set(CMAKE_C_COMPILER clang-19)\nendif()\n"
      "if(NOT CMAKE_CXX_COMPILER)\n  set(CMAKE_CXX_COMPILER clang++-19)\nendif()\n"
      "project(mosaic_project_tests LANGUAGES C CXX)\nenable_testing()\n\n";
  std::set<std::string> stems;
  std::error_code ec;
  for (const auto &[id, relative] : units) {
    if (!fs::exists(fs::path(outDir) / "units" / id / "CMakeLists.txt", ec)) continue;
    const std::string stem = fs::path(relative).stem().string();
    if (!stems.insert(stem).second) {
      text += fmt::format("# units/{}: its targets are named {}_* like another unit's; build it on its own\n", id, stem);
      continue;
    }
    text += fmt::format("add_subdirectory(units/{})\n", id);
  }
  std::ofstream(fs::path(outDir) / "CMakeLists.txt") << text;
}

// --merge: the shards' units, logs and results copied into -o, their
// states joined (a unit in two shards: the one that finished), one root
// CMakeLists.txt.
int mergeShards(const ProjectOptions &o, std::ostream &out, std::ostream &err) {
  std::error_code ec;
  fs::create_directories(o.outDir, ec);
  std::map<std::string, nlohmann::json> units;
  std::vector<std::string> order;
  std::string root;
  for (const std::string &dir : o.merge) {
    nlohmann::json state;
    try {
      state = nlohmann::json::parse(readFile((fs::path(dir) / "project.json").string()));
    } catch (const std::exception &e) {
      fmt::print(err, "mosaic: error: --merge '{}' holds no readable project.json: {}\n", dir, e.what());
      return kExitUsage;
    }
    if (root.empty()) root = state.value("root", "");
    for (const auto &u : state.value("units", nlohmann::json::array())) {
      const std::string id = u.value("id", ""), status = u.value("status", "");
      if (id.empty()) continue;
      const bool finished = status == "done" || status == "unchanged";
      auto it = units.find(id);
      if (it != units.end()) {
        const std::string was = it->second.value("status", "");
        if (was == "done" || was == "unchanged" || !finished) continue;
      } else {
        order.push_back(id);
      }
      units[id] = u;
      for (const char *part : {"units", "logs", "results"}) {
        const fs::path from = fs::path(dir) / part;
        for (const std::string &name : {id, id + ".log", id + ".json"})
          if (fs::exists(from / name, ec)) {
            fs::remove_all(fs::path(o.outDir) / part / name, ec);
            fs::create_directories(fs::path(o.outDir) / part, ec);
            fs::copy(from / name, fs::path(o.outDir) / part / name, fs::copy_options::recursive, ec);
          }
      // The suite names the project relative to where it was written.
      const fs::path cmake = fs::path(o.outDir) / "units" / id / "CMakeLists.txt";
      if (fs::exists(cmake, ec)) {
        const std::string text = readFile(cmake.string());
        const std::string moved = emit::relocateSuite(text, fs::weakly_canonical(fs::path(dir) / "units" / id, ec).string(),
                                                      fs::weakly_canonical(cmake.parent_path(), ec).string());
        if (moved != text) std::ofstream(cmake) << moved;
      }
      }
    }
  }
  nlohmann::json merged = {{"format", 1}, {"root", root}, {"merged_from", o.merge}, {"units", nlohmann::json::array()}};
  std::vector<std::pair<std::string, std::string>> roots;
  int findings = 0, finished = 0;
  for (const std::string &id : order) {
    merged["units"].push_back(units[id]);
    roots.emplace_back(id, units[id].value("file", id));
    findings += units[id].value("exit_code", 0) == kExitFindings;
    finished += units[id].value("status", "") == "done" || units[id].value("status", "") == "unchanged";
  }
  std::ofstream(fs::path(o.outDir) / "project.json") << merged.dump(2) << "\n";
  writeRootCMake(o.outDir, roots);
  writeJUnit(o.outDir, roots);
  writeSarif(o.outDir, root, roots);
  writeHtmlReport(o.outDir);
  fmt::print(out, "merged       {} shards: {} units, {} finished, {} not\n", o.merge.size(), order.size(), finished,
             static_cast<int>(order.size()) - finished);
  fmt::print(out, "written      {}/CMakeLists.txt over every suite; the state in {}/project.json; the report in "
                  "{}/report/index.html\n",
             o.outDir, o.outDir, o.outDir);
  return findings ? kExitFindings : kExitOk;
}

/// --dry-run: the units as this run would take them (the riskiest first),
/// printed and in OUT/plan.json.
int writePlan(const std::string &outDir, const std::vector<PlannedUnit> &units, double total, const std::string &allocation,
              std::ostream &out, std::ostream &err) {
  nlohmann::json list = nlohmann::json::array();
  fmt::print(out, "\n{:>5}  {:>9}  {:>8}  {:<9}  {}\n", "rank", "score", "budget", "state", "unit");
  std::size_t rank = 0;
  for (const PlannedUnit &u : units) {
    const std::string state = u.status == "unchanged" ? "unchanged" : "to run";
    fmt::print(out, "{:>5}  {:>9.3f}  {:>7.1f}s  {:<9}  {}\n", ++rank, u.score, u.budget, state, u.relative);
    list.push_back({{"id", u.id}, {"path", u.relative}, {"file", u.path}, {"score", u.score},
                    {"budget_seconds", u.budget}, {"state", state}});
  }
  const nlohmann::json plan = {{"total_seconds", total}, {"allocation", allocation}, {"units", list}};
  const fs::path file = fs::path(outDir) / "plan.json";
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream f(file);
  f << plan.dump(1) << "\n";
  if (!f) {
    fmt::print(err, "mosaic: error: cannot write {}\n", file.string());
    return kExitInternal;
  }
  fmt::print(out, "\nplan         {} (--dry-run: no unit was run)\n", file.string());
  return kExitOk;
}

/// The compile database's files this run takes as units: library code
/// (unless --include-tests), within --include and out of --exclude, never
/// the run's own output.
std::vector<PlannedUnit> selectUnits(const ProjectOptions &o, const std::vector<std::string> &files,
                                     const std::string &root, const std::string &outDir) {
  std::vector<PlannedUnit> units;
  for (const std::string &f : files) {
    const std::string relative = fs::path(f).lexically_relative(root).generic_string();
    if (!o.includeTests && !notLibraryCode(f, root).empty()) continue;
    if (!o.include.empty() && !matchesAny(o.include, relative)) continue;
    if (matchesAny(o.exclude, relative)) continue;
    if (f.rfind(outDir + "/", 0) == 0) continue; // never our own output
    PlannedUnit u;
    u.path = f;
    u.relative = relative;
    u.id = idOf(relative);
    units.push_back(std::move(u));
  }
  return units;
}

/// Each unit's budget out of `total` seconds: BADS over Schwa's scores
/// (with each unit's function weights written under OUT/work, for the
/// search to call the riskier functions more), or even (--allocation
/// even, or no history to read). Returns what the plan says of it.
std::string allocateBudgets(const ProjectOptions &o, const std::string &root, const std::string &outDir, bool sharded,
                            double total, std::vector<PlannedUnit> &units) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> budgets;
  std::string note = o.allocation;
  if (o.allocation != "bads") {
    budgets = predict::allocateEven(units.size(), total);
  } else {
    // Each unit's functions from the front end, for Schwa at function level
    // (a unit that does not parse is scored as a file only).
    std::map<std::string, std::vector<predict::FunctionSpan>> spans;
    for (PlannedUnit &u : units) {
      if (!o.functionWeights) break;
      analysis::FrontEndOptions fe;
      fe.buildDir = o.unit.buildDir;
      fe.unit = u.path;
      fe.projectSamples = false;
      if (auto program = analysis::analyzeUnit(fe)) spans[u.path] = functionSpans(*program);
    }
    auto history = predict::readHistory(root, spans);
    if (!history) {
      note = "even (" + history.error().message + ")";
      budgets = predict::allocateEven(units.size(), total);
    } else {
      const predict::Prediction p = predict::schwa(*history, spans);
      std::vector<double> scores;
      std::error_code ec;
      const fs::path tree = fs::weakly_canonical(history->workTree, ec);
      for (PlannedUnit &u : units) {
        const std::string relative = fs::path(u.path).lexically_relative(tree).generic_string();
        const auto it = p.files.find(relative);
        u.score = it == p.files.end() ? 0 : it->second.score;
        scores.push_back(u.score);
        // Its functions' scores, for the search to call the riskier ones
        // more (generate's --function-weights).
        const auto f = p.functions.find(relative);
        const auto s = spans.find(u.path);
        if (f == p.functions.end() || s == spans.end()) continue;
        nlohmann::json weights = nlohmann::json::object();
        for (std::size_t k = 0; k < f->second.size() && k < s->second.size(); ++k)
          if (f->second[k].score > 0) weights[s->second[k].name] = f->second[k].score;
        if (weights.empty()) continue;
        const fs::path file = fs::path(outDir) / "work" / (u.id + ".functions.json");
        fs::create_directories(file.parent_path(), ec);
        std::ofstream(file) << weights.dump(1) << "\n";
        u.functionWeights = file.string();
      }
      // Sharded, every shard must compute the same budgets: the
      // prediction's own time, which differs, is not taken off.
      const double prediction = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      budgets = predict::allocateBads(scores, total, sharded ? 0.0 : prediction);
      note = fmt::format("bads over {} commits{} ({:.1f} s)", history->walked,
                         history->shallow ? ", a shallow clone" : "", prediction);
    }
  }
  for (std::size_t k = 0; k < units.size(); ++k) units[k].budget = budgets[k];
  return note;
}

/// Keeps the units of `shard` (assigned over every shard by budget: every
/// shard computes the same assignment). Returns what the plan says of it.
std::string keepShard(const Shard &shard, std::vector<PlannedUnit> &units) {
  std::vector<std::string> names;
  std::vector<double> budgets;
  for (const PlannedUnit &u : units) names.push_back(u.relative), budgets.push_back(u.budget);
  const auto assigned = assignShards(budgets, names, shard.count);
  std::vector<PlannedUnit> mine;
  double ours = 0;
  for (std::size_t k = 0; k < units.size(); ++k)
    if (assigned[k] == shard.index) ours += units[k].budget, mine.push_back(std::move(units[k]));
  const std::string note = fmt::format("shard {} of {}: {} of the {} units, {:.0f} s of search", shard.index,
                                       shard.count, mine.size(), units.size(), ours);
  units = std::move(mine);
  return note;
}

/// What an earlier run (its state in `statePath`) finished with the same
/// inputs is kept: such a unit is "unchanged", with its result; every
/// unit gets its key over its command, options and headers. Returns how
/// many are unchanged.
std::size_t resumeUnchanged(const ProjectOptions &o, const std::string &statePath, const HeaderHashes &headers,
                            std::vector<PlannedUnit> &units) {
  std::map<std::string, nlohmann::json> before;
  try {
    const nlohmann::json state = nlohmann::json::parse(readFile(statePath));
    for (const auto &u : state.at("units")) before[u.value("id", "")] = u;
  } catch (const std::exception &) {
  }
  const auto commands = commandsByFile(o.unit.buildDir);
  std::size_t unchanged = 0;
  for (PlannedUnit &u : units) {
    const auto c = commands.find(u.path);
    u.command = c == commands.end() ? "" : c->second;
    const auto b = before.find(u.id);
    if (b != before.end() && b->second.contains("headers") && b->second["headers"].is_array())
      u.headers = b->second["headers"].get<std::vector<std::string>>();
    u.key = keyOf(u, dependencyHash(headers, u.headers), u.command, o);
    if (b != before.end() && b->second.value("key", "") == u.key &&
        (b->second.value("status", "") == "done" || b->second.value("status", "") == "unchanged")) {
      u.status = "unchanged";
      u.exitCode = b->second.value("exit_code", 0);
      u.stats = b->second.value("stats", nlohmann::json::object());
      u.seconds = b->second.value("seconds", 0.0);
      ++unchanged;
    } else {
      u.headers.reset(); // what this run's harness build lists, after it runs
      u.key = keyOf(u, dependencyHash(headers, u.headers), u.command, o);
    }
  }
  return unchanged;
}

/// After the units ran: the project-wide files (CMakeLists.txt over every
/// suite, JUnit, SARIF, the HTML report) and the summary; the exit code.
int finishProject(const std::string &outDir, const std::string &root, const std::string &statePath,
                  const std::vector<PlannedUnit> &units, std::size_t unchanged, std::ostream &out) {
  std::vector<std::pair<std::string, std::string>> roots;
  for (const PlannedUnit &u : units) roots.emplace_back(u.id, u.relative);
  writeRootCMake(outDir, roots);
  const std::size_t junitCases = writeJUnit(outDir, roots);
  const std::size_t findingCount = writeSarif(outDir, root, roots);
  writeHtmlReport(outDir);

  int findings = 0, failed = 0, interrupted = 0;
  for (const PlannedUnit &u : units) {
    findings += u.exitCode == kExitFindings;
    failed += u.status == "failed";
    interrupted += u.status == "interrupted" || u.status == "queued";
  }
  if (const auto [covered, branches] = branchesOf(units); branches > 0)
    fmt::print(out, "coverage     llvm-cov branches {:.0f}/{:.0f} ({:.1f}%) over the units measured\n", covered, branches,
               100.0 * covered / branches);
  fmt::print(out, "units        {} done ({} unchanged), {} failed, {} not run{}\n",
             units.size() - static_cast<std::size_t>(failed + interrupted), unchanged, failed, interrupted,
             interrupted ? " (interrupted: run again to resume)" : "");
  fmt::print(out, "written      {}/CMakeLists.txt over every suite; the state in {}; junit.xml ({} tests of the "
                  "verification runs); findings.sarif ({} findings); the report in {}/report/index.html\n",
             outDir, statePath, junitCases, findingCount, outDir);
  return findings ? kExitFindings : kExitOk;
}

} // namespace

int project(const ProjectOptions &o, std::ostream &out, std::ostream &err) {
  if (o.outDir.empty()) {
    fmt::print(err, "mosaic: error: -o is required\n");
    return kExitUsage;
  }
  if (!o.merge.empty()) return mergeShards(o, out, err);
  if (o.unit.buildDir.empty()) {
    fmt::print(err, "mosaic: error: -p is required (but with --merge)\n");
    return kExitUsage;
  }
  std::map<std::string, std::string> environment;
  for (char **e = environ; *e; ++e)
    if (const char *eq = std::strchr(*e, '=')) environment[std::string(static_cast<const char *>(*e), eq)] = eq + 1;
  auto shard = shardOf(o.shard, environment);
  if (!shard) {
    fmt::print(err, "mosaic: error: {}\n", shard.error().message);
    return kExitUsage;
  }
  if (o.allocation != "bads" && o.allocation != "even") {
    fmt::print(err, "mosaic: error: --allocation '{}': bads or even\n", o.allocation);
    return kExitUsage;
  }
  auto files = databaseFiles(o.unit.buildDir);
  if (!files) {
    fmt::print(err, "mosaic: error: {}\n", files.error().message);
    return kExitUsage;
  }
  std::error_code ec;
  fs::create_directories(o.outDir, ec);
  if (ec) {
    fmt::print(err, "mosaic: error: cannot make -o '{}': {}\n", o.outDir, ec.message());
    return kExitUsage;
  }
  const std::string outDir = fs::weakly_canonical(o.outDir, ec).string();
  const std::string root = commonFolder(*files);
  std::vector<PlannedUnit> units = selectUnits(o, *files, root, outDir);
  if (units.empty()) {
    fmt::print(err, "mosaic: error: no unit left of the {} files of the compile database (library code{})\n",
               files->size(), o.include.empty() && o.exclude.empty() ? "" : ", --include and --exclude");
    return kExitUsage;
  }

  const double total = o.budgetSeconds > 0 ? o.budgetSeconds : o.budgetPerUnitSeconds * static_cast<double>(units.size());
  const std::string allocationNote = allocateBudgets(o, root, outDir, shard->has_value(), total, units);
  const std::string shardNote = *shard ? keepShard(**shard, units) : "";
  // The riskiest first: an interrupted run has spent its time where it counts.
  std::sort(units.begin(), units.end(), [](const PlannedUnit &a, const PlannedUnit &b) {
    return a.budget != b.budget ? a.budget > b.budget : a.relative < b.relative;
  });
  const std::string statePath = (fs::path(outDir) / "project.json").string();
  const HeaderHashes headers = headerHashes(root, outDir);
  const std::size_t unchanged = resumeUnchanged(o, statePath, headers, units);
  fmt::print(out, "project      {} ({} units of {} files; {} left out)\n", root, units.size(), files->size(),
             files->size() - units.size());
  fmt::print(out, "budget       {:.0f} s of search, {}, {} at once\n", total, allocationNote, o.jobs);
  if (!shardNote.empty()) fmt::print(out, "shard        {}\n", shardNote);
  if (unchanged) fmt::print(out, "resumed      {} units unchanged since the last run, kept\n", unchanged);
  if (o.dryRun) return writePlan(outDir, units, total, allocationNote, out, err);

  InterruptGuard guard;
  // After a unit's run: the headers its harness was built with, and its key
  // over their contents as they were when this run started.
  const auto afterRun = [&](PlannedUnit &u) {
    if (u.status != "done") return;
    u.headers = harnessHeaders(fs::path(outDir) / "work" / u.id, root, headers);
    u.key = keyOf(u, dependencyHash(headers, u.headers), u.command, o);
  };
  Runner(o, root, units, out, guard.flag(), afterRun).run(statePath);
  return finishProject(outDir, root, statePath, units, unchanged, out);
}

} // namespace mosaic::driver
