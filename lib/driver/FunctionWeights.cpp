// generate's --function-weights (FunctionWeights.h).
#include "FunctionWeights.h"

#include "mosaic/support/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace mosaic::driver {

std::vector<predict::FunctionSpan> functionSpans(const model::Program &p) {
  namespace fs = std::filesystem;
  std::vector<predict::FunctionSpan> out;
  std::error_code ec;
  const fs::path unit = fs::weakly_canonical(p.unit, ec);
  auto add = [&](const std::string &name, const model::SourceRange &r) {
    if (r.beginLine == 0 || r.endLine < r.beginLine || fs::weakly_canonical(r.file, ec) != unit) return;
    for (const auto &s : out)
      if (s.begin == r.beginLine && s.end == r.endLine) return; // one definition, several callables (constructor variants)
    out.push_back({name, r.beginLine, r.endLine});
  };
  for (const model::Callable &c : p.callables)
    if (!c.isImplicit) add(c.qualifiedName.empty() ? c.name : c.qualifiedName, c.location);
  for (const model::Skipped &s : p.skipped)
    if (s.what == "function" || s.what == "method" || s.what == "constructor" || s.what == "destructor")
      add(s.name, s.location);
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.begin < b.begin; });
  return out;
}

Expected<std::map<std::string, double>> readFunctionWeights(const std::string &path) {
  if (!std::filesystem::exists(path)) return Error::input("--function-weights: no file '" + path + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(readFile(path));
  } catch (const std::exception &e) {
    return Error::input("--function-weights: '" + path + "' is not JSON: " + e.what());
  }
  if (!j.is_object()) return Error::input("--function-weights: '" + path + "' is not a JSON object of names to scores");
  std::map<std::string, double> out;
  for (const auto &[name, score] : j.items()) {
    if (!score.is_number() || score.get<double>() < 0)
      return Error::input("--function-weights: the score of '" + name + "' in '" + path + "' is not a number >= 0");
    out[name] = score.get<double>();
  }
  return out;
}

std::vector<double> targetWeights(const model::Program &program, const std::map<std::string, double> &scores) {
  double highest = 0;
  for (const auto &[name, score] : scores) highest = std::max(highest, score);
  if (highest <= 0) return {};
  std::vector<double> weights(program.callables.size(), 1.0);
  bool named = false;
  for (const model::Callable &c : program.callables) {
    auto it = scores.find(c.qualifiedName.empty() ? c.name : c.qualifiedName);
    if (it == scores.end()) it = scores.find(c.name);
    if (it == scores.end() || c.id >= weights.size()) continue;
    weights[c.id] = 1.0 + it->second / highest;
    named = true;
  }
  return named ? weights : std::vector<double>{};
}

} // namespace mosaic::driver
