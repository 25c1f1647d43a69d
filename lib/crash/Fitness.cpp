// The crash fitness (Fitness.h).
#include "mosaic/crash/Fitness.h"

#include "Paths.h"
#include "mosaic/search/Reach.h"

#include <algorithm>
#include <cstdlib>

namespace mosaic::crash {

namespace {

// ν(x) = x / (x + 1) (ALGORITHMS.md §1.1), as the search normalises.
double nu(double x) { return search::Reach::normalise(x); }

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

namespace {

// A function's name without its parameter list, the qualifiers after it
// and ABI tags: "Shelf::at[abi:cxx11](int) const" -> "Shelf::at".
std::string bareName(std::string name) {
  for (size_t at; (at = name.find("[abi:")) != std::string::npos;) {
    const size_t end = name.find(']', at);
    if (end == std::string::npos) break;
    name.erase(at, end - at + 1);
  }
  const size_t close = name.rfind(')');
  if (close == std::string::npos) return name;
  for (std::string_view rest = std::string_view(name).substr(close + 1); !rest.empty();) {
    const size_t word = rest.find_first_not_of(' ');
    if (word == std::string_view::npos) break;
    rest.remove_prefix(word);
    bool known = false;
    for (std::string_view q : {"const", "volatile", "noexcept", "&&", "&"})
      if (rest.substr(0, q.size()) == q) {
        rest.remove_prefix(q.size());
        known = true;
        break;
      }
    if (!known) return name; // not a parameter list after all
  }
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
    if (depth == 0) {
      // "operator()" is a name, not a parameter list.
      const bool callOperator = i + 2 == close + 1 && i >= 8 && name.compare(i - 8, 8, "operator") == 0;
      return i == 0 || callOperator ? name : name.substr(0, i);
    }
  }
  return name;
}

} // namespace

bool sameFunction(const std::string &a, const std::string &b) { return a == b || bareName(a) == bareName(b); }

double frameDistance(const exec::Frame &target, const exec::Frame &run) {
  if (!sameFile(target.file, run.file)) return nu(3);
  if (!sameFunction(target.function, run.function)) return nu(2);
  if (target.line == 0) return 0; // a trace that names no line: any line of the function
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
