// The crash fitness (Fitness.h).
#include "mosaic/crash/Fitness.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace mosaic::crash {

namespace {

double nu(double x) { return x / (x + 1.0); }

std::vector<std::string> components(const std::string &path) {
  std::vector<std::string> out;
  for (const auto &c : std::filesystem::path(path).lexically_normal())
    if (const std::string s = c.string(); !s.empty() && s != "." && s != "/") out.push_back(s);
  return out;
}

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
  const auto x = components(a), y = components(b);
  if (x.empty() || y.empty()) return false;
  const size_t n = std::min(x.size(), y.size());
  return std::equal(x.end() - n, x.end(), y.end() - n);
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

} // namespace mosaic::crash
