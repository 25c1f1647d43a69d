// Placing a trace's frames in a project (ProjectFrames.h).
#include "mosaic/crash/ProjectFrames.h"

#include "Paths.h"

#include <filesystem>

namespace mosaic::crash {

namespace fs = std::filesystem;
using paths::components;
using paths::sharedSuffix;

namespace {

// The one candidate that shares the longest suffix with `file` (at least
// its name), or "" when none does or two share it.
std::string bestSuffix(const std::string &file, const std::vector<std::string> &candidates) {
  const std::vector<std::string> want = components(file);
  if (want.empty()) return "";
  size_t best = 0;
  std::string found;
  bool tie = false;
  for (const std::string &c : candidates) {
    const size_t n = sharedSuffix(want, components(c));
    if (n == 0 || n < best) continue;
    if (n > best) {
      best = n;
      found = c;
      tie = false;
    } else if (c != found) {
      tie = true;
    }
  }
  return tie ? "" : found;
}

bool systemPath(const std::string &file) {
  for (const char *p : {"/usr/", "/lib/", "/lib64/", "/opt/"})
    if (file.rfind(p, 0) == 0) return true;
  return false;
}

// The files under `root` named `name` (a header a frame names).
std::vector<std::string> filesNamed(const std::string &root, const std::string &name) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec))
    if (it->path().filename() == name && it->is_regular_file(ec)) out.push_back(it->path().string());
  return out;
}

} // namespace

std::optional<size_t> PlacedTrace::deepestUnitFrame() const {
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i].place == Place::Unit) return i;
  return std::nullopt;
}

std::vector<PlacedFrame> PlacedTrace::projectFrames() const {
  std::vector<PlacedFrame> out;
  for (const PlacedFrame &f : frames)
    if (f.place != Place::External) out.push_back(f);
  return out;
}

PlacedTrace placeFrames(const StackTrace &trace, const std::vector<std::string> &units, const std::string &root) {
  PlacedTrace out;
  for (const TraceFrame &t : trace.frames) {
    PlacedFrame p{t, Place::External, ""};
    const std::string &file = t.frame.file;
    if (!file.empty() && !systemPath(file)) {
      if (std::string unit = bestSuffix(file, units); !unit.empty()) {
        p.place = Place::Unit;
        p.file = unit;
      } else if (!root.empty()) {
        // A header of the project: the file itself, or the same suffix
        // under the root (another machine's checkout).
        std::error_code ec;
        const fs::path direct = fs::path(file).is_absolute() ? fs::path(file) : fs::path(root) / file;
        const fs::path r = fs::weakly_canonical(root, ec);
        const fs::path d = fs::weakly_canonical(direct, ec);
        const auto rel = d.lexically_relative(r);
        if (fs::is_regular_file(d, ec) && !rel.empty() && *rel.begin() != "..") {
          p.place = Place::Project;
          p.file = d.string();
        } else if (std::string header = bestSuffix(file, filesNamed(root, fs::path(file).filename().string()));
                   !header.empty()) {
          p.place = Place::Project;
          p.file = header;
        }
      }
    }
    out.frames.push_back(std::move(p));
  }
  return out;
}

} // namespace mosaic::crash
