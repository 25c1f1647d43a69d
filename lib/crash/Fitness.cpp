// The crash fitness (Fitness.h).
#include "mosaic/crash/Fitness.h"

#include "Paths.h"

#include <algorithm>
#include <cstdlib>

namespace mosaic::crash {

namespace {

double nu(double x) { return x / (x + 1.0); }

} // namespace

bool sameKind(const FailureKind &want, const RunFailure &got) {
  if (!got.failed) return false;
  if (want.cls == FailureClass::Unknown) return true;
  if (want.cls != got.kind.cls) return false;
  if (want.cls == FailureClass::Signal && want.name.empty()) return true;
  return want.name == got.kind.name;
}

bool sameFile(const std::string &a, const std::string &b) {
  if (a == b) return true;
  const auto x = paths::components(a), y = paths::components(b);
  // One path is the other's tail, whole components.
  return !x.empty() && !y.empty() && paths::sharedSuffix(x, y) == std::min(x.size(), y.size());
}

double frameDistance(const exec::Frame &target, const exec::Frame &run) {
  if (!sameFile(target.file, run.file)) return nu(3);
  if (target.function != run.function) return nu(2);
  const double delta = std::abs(static_cast<double>(target.line) - static_cast<double>(run.line));
  return nu(nu(delta));
}

double traceDistance(const std::vector<exec::Frame> &target, const std::vector<exec::Frame> &run) {
  double sum = 0;
  size_t from = 0;
  for (const exec::Frame &t : target) {
    double best = nu(3);
    size_t at = run.size();
    for (size_t i = from; i < run.size(); ++i)
      if (const double d = frameDistance(t, run[i]); d < best) {
        best = d;
        at = i;
      }
    sum += best;
    if (at < run.size()) from = at + 1;
  }
  return nu(sum);
}

double weightedSum(double ds, double de, double dtr) {
  if (ds > 0) return 3 * ds + 2 + 1;
  return 2 * de + dtr;
}

double stDistance(size_t frames, size_t reached, double next, bool sameFailure) {
  if (reached < frames) return static_cast<double>(frames - reached - 1) + next + 1;
  return sameFailure ? 0 : 1;
}

} // namespace mosaic::crash
