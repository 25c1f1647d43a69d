// A project's git history as the changes defect prediction counts: which
// commits touched which of today's files and functions (seed 000, Schwa;
// ALGORITHMS.md §3.1). Read with libgit2, the only component that sees it.
#pragma once

#include "mosaic/support/Expected.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mosaic::predict {

/// A function's lines in today's file (1-based, inclusive), as the front
/// end gives them.
struct FunctionSpan {
  std::string name;
  unsigned begin = 0, end = 0;
};

/// One diff of a commit against one of its parents (against nothing for a
/// root commit) touching one file that exists at the revision analysed.
struct Touch {
  std::string file;                   ///< its path at the revision: a rename carries its history
  std::vector<std::size_t> functions; ///< indices into the file's FunctionSpans whose lines it changed
};

struct Commit {
  std::string id;        ///< full hexadecimal id
  std::string summary;   ///< first line of the message
  std::string message;   ///< the whole message
  std::string email;     ///< the author's
  std::int64_t time = 0; ///< committer time, seconds since the epoch
  bool merge = false;    ///< it has several parents
  /// A merge has a diff per parent, so a file can be touched twice (as
  /// Schwa does: ALGORITHMS.md §3.1).
  std::vector<Touch> touches;
};

struct HistoryOptions {
  std::string revision = "HEAD"; ///< where history ends (a fix's parent, to predict before the fix)
  std::size_t maxCommits = 0;    ///< the newest n commits only; 0: all (Schwa's default)
  /// A merge touches nothing: the commits it brings count on their own.
  /// Schwa diffs a merge against each parent, so against the side branch it
  /// repeats everything the main line did since they parted (the default,
  /// as Schwa).
  bool skipMerges = false;
  /// The files that count, by path: C and C++ sources and headers (Schwa's
  /// own list is of Java, PHP, Python...; ours for C and C++).
  std::string filePattern = R"(.+\.(c|cc|cp|cpp|cxx|c\+\+|h|hh|hpp|hxx|h\+\+|inc|inl|ipp|tcc)$)";
};

struct History {
  std::string workTree;              ///< the repository's work tree, absolute, ending in '/'
  std::string revision;              ///< the commit analysed, full id
  std::vector<std::string> files;    ///< files at the revision that match the pattern
  std::vector<Commit> commits;       ///< newest first, only those touching one of `files`
  std::int64_t oldest = 0;           ///< commit time of the oldest commit of the whole history (Schwa's `begin`)
  std::int64_t newest = 0;           ///< commit time of the revision (Schwa's `last`)
  std::size_t walked = 0;            ///< commits read (of those, `commits` touched a file)
  bool shallow = false;              ///< a shallow clone: the history is cut, older changes unseen
};

/// The history of the repository containing `path`, with the functions
/// whose changes are tracked (keyed by path, absolute or relative to the
/// work tree; spans in the revision's lines). Lines are followed back
/// through every diff to today's numbering, so a change is a function's
/// when its lines are inside that function's lines today.
/// Errors: Input when `path` is in no git repository or the revision does
/// not exist.
Expected<History> readHistory(const std::string &path, const std::map<std::string, std::vector<FunctionSpan>> &functions,
                              const HistoryOptions &options = {});

} // namespace mosaic::predict
