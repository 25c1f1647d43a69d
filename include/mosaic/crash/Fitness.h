// How close a test's run came to a crash (seed 003; ALGORITHMS.md §5.2):
// EvoCrash's and Botsing's WeightedSum, 3·d_s + 2·d_e + d_tr, over what a
// run shows: whether it reached the target line (d_s, from the search's
// approach level and branch distance), whether it failed the same way
// (d_e), and how far its stack is from the trace's project frames (d_tr).
// Pure functions: the search's criterion computes their inputs.
#pragma once

#include "mosaic/crash/Trace.h"

#include <string>
#include <vector>

namespace mosaic::crash {

/// How a run failed, in the trace's terms: from the fork server's outcome
/// (a signal, abort, an uncaught exception) or from the sanitized
/// harness's report (read by parseTrace).
struct RunFailure {
  bool failed = false;
  FailureKind kind;
};

/// Whether a run's failure is the one the trace reports: the same class and
/// name (an Unknown trace kind takes any failure; libFuzzer's "deadly
/// signal", which names none, any signal). Sanitizer classes compare by the
/// class alone, whichever sanitizer reports it.
bool sameKind(const FailureKind &want, const RunFailure &got);

/// Whether two files are one: equal, or one path a suffix of the other
/// (debug information names a file as its compile command did; a trace, as
/// another machine's did).
bool sameFile(const std::string &a, const std::string &b);

/// Whether two traces name one function: equal, or equal without their
/// parameter lists, qualifiers and ABI tags (gdb prints `checkIndex`, the
/// symboliser `checkIndex(int, int)`).
bool sameFunction(const std::string &a, const std::string &b);

/// Botsing's frame distance: ν(3) another file, ν(2) another function of the
/// file, else ν(ν(|Δline|)) (0 for the same line).
double frameDistance(const exec::Frame &target, const exec::Frame &run);

/// d_tr: ν(Σ over the target frames, innermost first, of the least frame
/// distance to a run frame at or after the one the previous target frame
/// matched) — the frames must appear in order. A target frame with nothing
/// left to match counts ν(3). 0 when the run's stack holds them all.
double traceDistance(const std::vector<exec::Frame> &target, const std::vector<exec::Frame> &run);

/// WeightedSum: 3·d_s + 2·d_e + d_tr, each in [0, 1]; d_e and d_tr count 1
/// until the line is reached (d_s == 0). 0: reproduced.
double weightedSum(double ds, double de, double dtr);

/// The crash fitness a search minimises (--crash-fitness).
enum class CrashFitness { WeightedSum, STDistance };

/// ReCore's STDistance (Rößler et al. 2013, re-implemented by seed 003;
/// ALGORITHMS.md §5.2: |R| − lcp − (1 − d) plus an exception penalty): the
/// `frames` target lines, outermost first, are reached one after another.
/// With `reached` of them reached in order and `next` ∈ [0, 1] the distance
/// to the next one (ν(approach + ν(branch distance))), it is
/// (frames − reached − 1) + next + 1 while a frame is left, then the
/// penalty: 0 for the same failure with the trace's frames, else 1.
/// 0: reproduced.
double stDistance(size_t frames, size_t reached, double next, bool sameFailure);

} // namespace mosaic::crash
