// GRT's components that are formulas (Grt.h): option names, bloodhound's
// and orienteering's weights, impurity's fuzzing, TF-IDF.
#include "mosaic/search/Grt.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

namespace mosaic::search {

namespace {

struct Component {
  const char *name;
  bool GrtOptions::*flag;
};
constexpr Component kComponents[] = {
    {"constant-mining", &GrtOptions::constantMining}, {"impurity", &GrtOptions::impurity},
    {"elephant-brain", &GrtOptions::elephantBrain},   {"detective", &GrtOptions::detective},
    {"orienteering", &GrtOptions::orienteering},      {"bloodhound", &GrtOptions::bloodhound},
};

} // namespace

Expected<GrtOptions> parseGrtComponents(const std::string &names, GrtOptions base) {
  for (const Component &c : kComponents) base.*c.flag = names == "all";
  if (names == "all" || names == "none") return base;
  std::stringstream in(names);
  std::string name;
  while (std::getline(in, name, ',')) {
    const auto *c = std::find_if(std::begin(kComponents), std::end(kComponents),
                                 [&](const Component &k) { return name == k.name; });
    if (c == std::end(kComponents))
      return Error::input("--grt-components: unknown component '" + name +
                          "' (all, none, or constant-mining, impurity, elephant-brain, detective, orienteering, "
                          "bloodhound)");
    base.*c->flag = true;
  }
  return base;
}

std::string grtComponentNames(const GrtOptions &options) {
  std::string out;
  for (const Component &c : kComponents)
    if (options.*c.flag) out += (out.empty() ? "" : ",") + std::string(c.name);
  return out.empty() ? "none" : out;
}

double bloodhoundBase(double uncoveredRatio, double successes, double maxSuccesses, double alpha) {
  const double successRatio = maxSuccesses > 0 ? successes / maxSuccesses : 0.0;
  return alpha * uncoveredRatio + (1 - alpha) * (1 - successRatio);
}

double bloodhoundDecay(std::uint64_t k, std::size_t callables, double p) {
  if (k == 0) return 1.0;
  const double kd = static_cast<double>(k);
  const double decay = (-3.0 / std::log(1 - p)) * std::pow(p, kd) / kd;
  const double floor = 1.0 / std::log(static_cast<double>(callables) + 3);
  return std::max(decay, floor);
}

double bloodhoundWeight(double uncoveredRatio, double successes, double maxSuccesses, std::uint64_t k,
                        std::size_t callables, double alpha, double p) {
  const double w0 = bloodhoundBase(uncoveredRatio, successes, maxSuccesses, alpha);
  return k == 0 ? w0 : bloodhoundDecay(k, callables, p) * w0;
}

double orienteeringWeight(const Execution &run, std::size_t size) {
  double micros = 0;
  for (const StatementRun &s : run.statements) micros += s.nanos / 1000.0;
  return 1.0 / (std::max(1.0, micros) * std::sqrt(static_cast<double>(std::max<std::size_t>(1, size))));
}

std::uint64_t fuzzNumber(std::uint64_t value, unsigned bits, bool isSigned, bool floating, double stddev, Rng &rng) {
  const double delta = rng.gaussian() * stddev;
  if (floating) {
    double d;
    std::memcpy(&d, &value, sizeof d);
    d += delta;
    std::uint64_t out;
    std::memcpy(&out, &d, sizeof out);
    return out;
  }
  // The value as the type holds it, moved by a whole delta, then wrapped to
  // the type's width as a cast back would.
  const std::int64_t step = static_cast<std::int64_t>(std::llround(delta));
  std::uint64_t moved = value + static_cast<std::uint64_t>(step);
  if (bits >= 64) return moved;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  moved &= mask;
  if (isSigned && (moved >> (bits - 1)) & 1) moved |= ~mask; // sign-extended, as Primitive holds signed values
  return moved;
}

std::string fuzzString(const std::string &s, Rng &rng) {
  const auto printable = [&] { return static_cast<char>(rng.uniform(32, 126)); };
  switch (s.empty() ? 0 : rng.index(4)) {
  case 0: { // insert
    std::string out = s;
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(rng.index(s.size() + 1)), printable());
    return out;
  }
  case 1: { // remove
    std::string out = s;
    out.erase(rng.index(s.size()), 1);
    return out;
  }
  case 2: { // replace
    std::string out = s;
    out[rng.index(s.size())] = printable();
    return out;
  }
  default: { // substring
    const std::size_t from = rng.index(s.size());
    return s.substr(from, rng.index(s.size() - from) + 1);
  }
  }
}

double tfIdf(double tf, std::size_t documents, std::size_t containing) {
  const double d = static_cast<double>(documents) + 1;
  const double rest = d - static_cast<double>(std::min(containing, documents));
  return tf * std::log(d / rest);
}

void weighLiteralsByTfIdf(testcase::ConstantPool &pool, const model::Program &program) {
  std::map<std::string, double> tf;
  for (const model::Callable &c : program.callables) {
    for (std::int64_t v : c.constants.integers) ++tf[model::integerLiteralKey(v)];
    for (std::int64_t v : c.constants.chars) ++tf[model::integerLiteralKey(v)];
    for (double v : c.constants.floats) ++tf[model::floatLiteralKey(v)];
    for (const std::string &v : c.constants.strings) ++tf[model::stringLiteralKey(v)];
  }
  const auto &docs = program.literalDocuments;
  pool.weighStatic([&](const std::string &key) {
    const auto t = tf.find(key);
    const auto h = docs.holding.find(key);
    // The unit is one of the documents, and holds each of its literals.
    const size_t holding = 1 + (h == docs.holding.end() ? 0 : h->second);
    return tfIdf(t == tf.end() ? 1.0 : t->second, docs.files + 1, holding);
  });
}

Expected<GrtOptions> parseSearchComponents(const std::string &names) {
  auto parsed = parseGrtComponents(names);
  if (!parsed || parsed->impurity || parsed->elephantBrain || parsed->detective || parsed->orienteering)
    return Error::input("--search-components: '" + names +
                        "': only constant-mining and bloodhound (or none) are available to a search other than grt");
  return parsed;
}

} // namespace mosaic::search
