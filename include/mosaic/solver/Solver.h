// Flipping a branch of a run's path condition with Z3 (issue 22, TARDIS
// §7.1): the constraint to flip and the constraints its slice keeps, the
// flipped one negated, solved with a per-query timeout; a model gives new
// values for the input bytes the slice constrains. Z3 stays in this
// component's sources.
#pragma once

#include "mosaic/solver/PathCondition.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mosaic::solver {

enum class Verdict { Sat, Unsat, Unknown };

struct Answer {
  Verdict verdict = Verdict::Unknown;
  /// Sat: a value for every input byte the query constrains (indices into
  /// SymbolicTrace::inputs); the others keep their run's values.
  std::map<std::uint32_t, std::uint8_t> bytes;
  /// Unsat: kept constraints (indices into the trace's constraints, not
  /// the flipped one) that with the flipped one are already unsatisfiable:
  /// Z3's unsat core, in the trace's order. What stood in the flip's way
  /// (words.c: the loop's last test pins a string's length the flip must
  /// change).
  std::vector<std::size_t> core;
  std::string why;     ///< Unknown: Z3's reason ("timeout", "canceled", ...)
  bool cached = false; ///< answered from the cache, without Z3
};

/// The query of flipping constraint `flip`: its slice (slice()), the
/// others as the run took them, `flip` negated.
struct Query {
  std::vector<std::size_t> keep; ///< indices of the constraints kept, `flip` last
  std::size_t flip = 0;
  /// The cache's key: a 64-bit hash of each clause's text (clauseText,
  /// `flip` negated), in order. Two queries that differ share a key only
  /// if a clause's hashes collide (odds about n / 2^64 for n distinct
  /// clauses); an answer is checked by running its test anyway. Texts as
  /// keys held up to 4 KB a clause for every query ever offered.
  std::string key;
};
Query flipQuery(const SymbolicTrace &trace, std::size_t flip);

/// The flip queries of one trace, made together: slices by one Slicer and
/// each constraint's clause text printed once per polarity. Made one by
/// one (flipQuery), every flip printed and walked every constraint before
/// it again: on http_parser.c that was 17 of the concolic side's 21 s in
/// a 60 s run. The trace must outlive it.
class TraceQueries {
public:
  explicit TraceQueries(const SymbolicTrace &trace);
  Query flip(std::size_t flip);
  /// clauseText of constraint `i`, its condition negated when `flipped`.
  const std::string &clause(std::size_t i, bool flipped);

private:
  const SymbolicTrace &trace_;
  Slicer slicer_;
  std::vector<std::optional<std::string>> texts_[2]; ///< [flipped][constraint]
  std::vector<std::optional<std::uint64_t>> hashes_[2]; ///< [flipped][constraint]: of the text
};

struct SolverStats {
  std::uint64_t queries = 0, sat = 0, unsat = 0, unknown = 0, cached = 0;
  double seconds = 0; ///< in Z3
};

/// One Z3 context for every query of a run (making one costs more than
/// most queries), and a cache of answers by query text: a path condition
/// that repeats (many tests share a prefix) is solved once.
class PathSolver {
public:
  /// `timeoutMs` per query: ours, 1 s by default, SymCC's QSYM backend
  /// gives each query 10 s and most of a run's solved queries take
  /// milliseconds. 0: Z3 is not asked, every query is undecided.
  /// `cores`: an unsatisfiable query is asked again for its unsat core
  /// (Answer::core); off, Z3's context sees nothing but the queries, so
  /// that a run without cores makes the same models as before them.
  explicit PathSolver(unsigned timeoutMs = 1000, bool cores = true);
  ~PathSolver();
  PathSolver(const PathSolver &) = delete;
  PathSolver &operator=(const PathSolver &) = delete;

  Answer solve(const SymbolicTrace &trace, const Query &query);
  const SolverStats &stats() const { return stats_; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::map<std::string, Answer> cache_;
  SolverStats stats_;
};

} // namespace mosaic::solver
