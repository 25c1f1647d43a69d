// Models of the analysis fixtures, built once per test binary.
#pragma once

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/model/Derive.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace mosaic::test {

inline std::string fixturePath(const std::string &name) {
  return std::string(MOSAIC_SOURCE_DIR) + "/tests/fixtures/analysis/" + name;
}

/// The model of tests/fixtures/analysis/<name>, parsed with the fixture
/// compile_commands.json and with default targets. Throws if it fails.
inline const model::Program &fixtureModel(const std::string &name) {
  static std::map<std::string, model::Program> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  auto p = analysis::analyzeUnit({MOSAIC_FIXTURE_DB_DIR, fixturePath(name)});
  if (!p) throw std::runtime_error(p.error().message + "\n" + p.error().detail);
  if (!model::selectTargets(*p, {})) throw std::runtime_error("selectTargets failed");
  return cache.emplace(name, std::move(*p)).first->second;
}

/// The callable with this signature (or, failing that, the only one with
/// this qualified name).
inline const model::Callable &callable(const model::Program &p, const std::string &key) {
  for (const auto &c : p.callables)
    if (c.signature == key) return c;
  const model::Callable *found = nullptr;
  for (const auto &c : p.callables)
    if (c.qualifiedName == key) {
      if (found) throw std::runtime_error("ambiguous callable " + key);
      found = &c;
    }
  if (!found) throw std::runtime_error("no callable " + key);
  return *found;
}

inline const model::Record &record(const model::Program &p, const std::string &name) {
  for (const auto &r : p.records)
    if (r.name == name) return r;
  throw std::runtime_error("no record " + name);
}

inline const model::Enum &enumNamed(const model::Program &p, const std::string &name) {
  for (const auto &e : p.enums)
    if (e.name == name) return e;
  throw std::runtime_error("no enum " + name);
}

inline const model::Type &paramType(const model::Program &p, const model::Callable &c, size_t i) {
  return p.type(c.params.at(i).type);
}

inline std::vector<std::string> skippedReasons(const model::Program &p, const std::string &name) {
  std::vector<std::string> out;
  for (const auto &s : p.skipped)
    if (s.name == name) out.push_back(s.reason);
  return out;
}

inline bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace mosaic::test
