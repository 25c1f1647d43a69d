// The units a crash's search tries (Targets.h).
#include "mosaic/crash/Targets.h"

#include <algorithm>

namespace mosaic::crash {

std::vector<TargetChoice> targetChoices(const StackTrace &trace, const PlacedTrace &placed, size_t maxUnits) {
  const auto deepest = placed.deepestUnitFrame();
  if (!deepest) return {};
  std::vector<exec::Frame> frames;
  std::vector<std::pair<size_t, std::string>> starts; // index in frames, unit
  std::optional<exec::Frame> beyond;                    // the first frame of a unit past maxUnits
  for (size_t i = *deepest; i < placed.frames.size(); ++i) {
    const PlacedFrame &p = placed.frames[i];
    if (p.place == Place::External) break;
    exec::Frame f = p.frame.frame;
    f.file = p.file;
    const bool again = std::any_of(frames.begin(), frames.end(), [&f](const exec::Frame &g) {
      return g.function == f.function && g.line == f.line && g.file == f.file;
    });
    if (again) break;
    const bool newUnit = p.place == Place::Unit &&
                         std::none_of(starts.begin(), starts.end(), [&p](const auto &s) { return s.second == p.file; });
    if (newUnit) {
      if (starts.size() == maxUnits) {
        beyond = f;
        break;
      }
      starts.emplace_back(frames.size(), p.file);
    }
    frames.push_back(f);
  }
  std::vector<TargetChoice> out;
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1].first : frames.size();
    TargetChoice c;
    c.unit = starts[k].second;
    c.target.kind = trace.kind;
    c.target.frames.assign(frames.begin(), frames.begin() + static_cast<std::ptrdiff_t>(end));
    c.target.deepest = frames[starts[k].first];
    c.traceFrames = end;
    if (k + 1 < starts.size()) c.target.caller = frames[end];
    else c.target.caller = beyond;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<model::CallableId> entryCallables(const model::Program &program,
                                              const std::vector<model::CallableId> &offered, const PlacedTrace &placed) {
  std::vector<model::CallableId> out;
  const auto deepest = placed.deepestUnitFrame();
  if (!deepest) return out;
  for (size_t i = *deepest; i < placed.frames.size() && out.empty(); ++i) {
    const PlacedFrame &p = placed.frames[i];
    if (p.place == Place::External) break;
    for (model::CallableId c : offered)
      if (sameFunction(program.callable(c).qualifiedName, p.frame.frame.function) &&
          std::find(out.begin(), out.end(), c) == out.end())
        out.push_back(c);
  }
  return out;
}

} // namespace mosaic::crash
