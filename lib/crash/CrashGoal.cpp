// The crash criterion (CrashGoal.h).
#include "mosaic/crash/CrashGoal.h"

#include "mosaic/search/Reach.h"

#include <algorithm>
#include <csignal>
#include <limits>
#include <map>

namespace mosaic::crash {

namespace {

std::string signalName(int sig) {
  static const std::map<int, std::string> names = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
                                                   {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"}, {SIGTRAP, "SIGTRAP"},
                                                   {SIGSYS, "SIGSYS"}};
  auto it = names.find(sig);
  return it == names.end() ? "signal " + std::to_string(sig) : it->second;
}

// The blocks of `f` that hold the frame's line; its entry block for a line of its
// signature (from its declared line to its first statement's), where a
// stack overflow's report puts the frame that ran out of stack.
std::vector<std::uint32_t> blocksAt(const model::FunctionInfo &f, const exec::Frame &frame) {
  // A frame without a line (a trace that names only functions): its
  // function's entry.
  if (frame.line == 0) return sameFunction(f.name, frame.function) ? std::vector<std::uint32_t>{f.entry} : std::vector<std::uint32_t>{};
  const std::uint32_t line = frame.line;
  std::vector<std::uint32_t> blocks;
  std::uint32_t first = std::numeric_limits<std::uint32_t>::max();
  for (const model::BlockInfo &b : f.blocks) {
    for (std::uint32_t l : b.lines) first = std::min(first, l);
    if (std::find(b.lines.begin(), b.lines.end(), line) != b.lines.end()) blocks.push_back(b.id);
  }
  if (blocks.empty() && f.line != 0 && f.line <= line && line < first) blocks.push_back(f.entry);
  return blocks;
}

// How far a run came from a line: 0 when it ran one of the line's blocks,
// else the least ν(approach level + ν(branch distance)) to one of them (1
// without a Reach to measure it).
double lineDistance(const std::vector<std::uint32_t> &blocks, const search::Execution &e, const search::Reach *reach) {
  double d = std::numeric_limits<double>::infinity();
  for (std::uint32_t b : blocks) {
    const bool ran = b < e.blocks.size() && e.blocks[b];
    d = std::min(d, ran ? 0.0 : reach ? search::Reach::normalise(reach->block(b, e)) : 1.0);
  }
  return d;
}

class CrashCriterion final : public search::Criterion {
public:
  CrashCriterion(CrashTarget target, RunFrames frames) : target_(std::move(target)), frames_(std::move(frames)) {}
  std::string_view name() const override { return "crash"; }
  std::string_view plural() const override { return "crashes"; }
  void goals(std::uint32_t fi, const search::Reach &reach, std::vector<search::Goal> &out) const override {
    const model::FunctionInfo &f = reach.description().functions[fi];
    if (!sameFile(target_.deepest.file, f.file.empty() ? reach.description().unit : f.file)) return;
    std::vector<std::uint32_t> blocks = blocksAt(f, target_.deepest);
    if (blocks.empty()) return;
    search::Goal g{.function = fi, .line = target_.deepest.line, .blocks = blocks};
    g.label = target_.kind.str() + " at " + target_.deepest.str();
    for (const FrameBlocks &fb : framePath(g, reach))
      if (fb.function != fi) g.waypoints.insert(g.waypoints.end(), fb.blocks.begin(), fb.blocks.end());
    out.push_back(std::move(g));
  }
  bool covered(const search::Goal &g, const search::Execution &e) const override {
    // Only a run that reached the line can be one; the rest cost nothing.
    for (std::uint32_t b : g.blocks)
      if (b < e.blocks.size() && e.blocks[b]) return distance(g, e, nullptr).total() == 0;
    return false;
  }
  double fitness(const search::Goal &g, const search::Execution &e, const search::Reach &reach) const override {
    if (target_.fitness == CrashFitness::WeightedSum) return distance(g, e, &reach).total();
    // STDistance: the frames' lines reached outermost first, then the failure.
    const std::vector<FrameBlocks> &path = framePath(g, reach);
    size_t reached = 0;
    double next = 0;
    for (; reached < path.size(); ++reached)
      if ((next = lineDistance(path[reached].blocks, e, &reach)) > 0) break;
    if (reached < path.size()) return stDistance(path.size(), reached, next, false);
    const CrashDistance d = distance(g, e, &reach);
    return stDistance(path.size(), reached, 0, d.de == 0 && d.dtr == 0);
  }
  double notCalled(const search::Goal &g, const search::Reach &reach) const override {
    if (target_.fitness == CrashFitness::WeightedSum)
      return weightedSum(search::Reach::normalise(reach.notCalled(g.function)), 1, 1);
    const std::vector<FrameBlocks> &path = framePath(g, reach);
    return stDistance(path.size(), 0, search::Reach::normalise(reach.notCalled(path.front().function)), false);
  }

  CrashDistance distance(const search::Goal &g, const search::Execution &e, const search::Reach *reach) const {
    CrashDistance d;
    d.ds = lineDistance(g.blocks, e, reach);
    if (d.ds > 0) return d;
    d.de = sameKind(target_.kind, runFailure(e)) ? 0 : 1;
    if (!e.failed() && !e.threw) return d;
    d.enteredInside = target_.caller && e.stoppedCallable &&
                      std::find(target_.insideEntries.begin(), target_.insideEntries.end(), *e.stoppedCallable) !=
                          target_.insideEntries.end();
    if (!d.enteredInside) {
      d.dtr = traceDistance(target_.frames, frames_(e));
      return d;
    }
    std::vector<exec::Frame> withCaller = target_.frames;
    withCaller.push_back(*target_.caller);
    d.dtr = traceDistance(withCaller, frames_(e));
    return d;
  }

private:
  // A target frame's line in the unit: its function and the blocks that hold it.
  struct FrameBlocks {
    std::uint32_t function = 0;
    std::vector<std::uint32_t> blocks;
  };

  // STDistance's path: the target frames whose lines the harness
  // instruments, outermost first, ending at the goal's (always there).
  // Found once, on the first call (a search evaluates on one thread).
  const std::vector<FrameBlocks> &framePath(const search::Goal &g, const search::Reach &reach) const {
    if (!path_.empty()) return path_;
    const model::UnitDescription &d = reach.description();
    for (size_t i = target_.frames.size(); i-- > 1;) {
      const exec::Frame &frame = target_.frames[i];
      for (std::uint32_t fi = 0; fi < d.functions.size(); ++fi) {
        const model::FunctionInfo &f = d.functions[fi];
        if (!sameFile(frame.file, f.file.empty() ? d.unit : f.file)) continue;
        FrameBlocks fb{.function = fi, .blocks = blocksAt(f, frame)};
        if (!fb.blocks.empty()) {
          path_.push_back(std::move(fb));
          break;
        }
      }
    }
    path_.push_back({.function = g.function, .blocks = g.blocks});
    return path_;
  }

  CrashTarget target_;
  RunFrames frames_;
  mutable std::vector<FrameBlocks> path_;
};

} // namespace

double CrashDistance::total() const { return weightedSum(ds, de, dtr); }

RunFailure runFailure(const search::Execution &e) {
  using exec::Outcome;
  switch (e.outcome()) {
  case Outcome::Crash: return {true, {FailureClass::Signal, signalName(e.result.signal), ""}};
  case Outcome::Abort: return {true, {FailureClass::Signal, "SIGABRT", ""}};
  case Outcome::Timeout: return {true, {FailureClass::Timeout, "timeout", ""}};
  case Outcome::OutOfMemory: return {true, {FailureClass::OutOfMemory, "out-of-memory", ""}};
  case Outcome::Exit: return {true, {FailureClass::Unknown, "exit(" + std::to_string(e.result.exitCode) + ")", ""}};
  case Outcome::Sanitizer: {
    auto t = parseTrace(e.report);
    return {true, t ? t->kind : FailureKind{FailureClass::Sanitizer, "", ""}};
  }
  case Outcome::Ok:
    if (e.threw && !e.exceptionType.empty()) return {true, {FailureClass::Exception, e.exceptionType, ""}};
    return {};
  case Outcome::HarnessError: return {};
  }
  return {};
}

std::unique_ptr<const search::Criterion> crashCriterion(CrashTarget target, RunFrames frames) {
  return std::make_unique<CrashCriterion>(std::move(target), std::move(frames));
}

CrashDistance crashDistance(const CrashTarget &target, const search::Goal &goal, const search::Execution &e,
                            const search::Reach &reach, const RunFrames &frames) {
  return CrashCriterion(target, frames).distance(goal, e, &reach);
}

} // namespace mosaic::crash
