// A fixture unit's harness, built and served, for tests of the execution
// engine; and a small builder of test cases by hand.
#pragma once

#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/harness/Build.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Description.h"
#include "mosaic/testcase/TestCase.h"
#include "common/UnitModel.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace mosaic::test {

inline harness::Toolchain testToolchain() { return driver::toolchain(); }

struct UnitHarness {
  model::Program program;
  std::unique_ptr<testcase::Catalog> catalog;
  harness::Harness built;
  model::UnitDescription description;
  std::unique_ptr<exec::ForkServer> server;

  /// Analyses, builds (cached under the test binary's folder) and serves
  /// `unit`; `namespaces` false serves it as on a machine without them;
  /// `weakMutation` builds it with the mutants' infection probes.
  static std::unique_ptr<UnitHarness> make(const std::string &dbDir, const std::string &unit, bool sanitize = false,
                                           bool namespaces = true, bool weakMutation = false, bool schemata = false) {
    auto h = std::make_unique<UnitHarness>();
    auto p = analysis::analyzeUnit({dbDir, unit});
    if (!p) throw std::runtime_error(p.error().message + "\n" + p.error().detail);
    h->program = std::move(*p);
    (void)model::selectTargets(h->program, {});
    h->catalog = std::make_unique<testcase::Catalog>(h->program);
    const std::string work = std::string(MOSAIC_BINARY_DIR) + "/test-harnesses";
    auto b = harness::buildHarness(h->program, *h->catalog, testToolchain(), {work, sanitize, 2, {}, weakMutation, schemata});
    if (!b) throw std::runtime_error(b.error().message + "\n" + b.error().detail);
    h->built = std::move(*b);
    auto d = model::readDescription(h->built.description);
    if (!d) throw std::runtime_error(d.error().message);
    h->description = std::move(*d);
    exec::ServerOptions so;
    so.harness = h->built.binary;
    so.env = exec::sanitizerEnvironment(1024);
    so.sanitized = sanitize;
    so.pidNamespace = so.fileSandbox = namespaces;
    auto s = exec::ForkServer::start(so, h->description.blocks, h->description.sides,
                                     weakMutation || schemata ? h->description.mutants : 0);
    if (!s) throw std::runtime_error(s.error().message + "\n" + s.error().detail);
    h->server = std::move(*s);
    return h;
  }

  const model::Callable &callable(const std::string &name) const {
    for (const auto &c : program.callables)
      if (c.qualifiedName == name) return c;
    throw std::runtime_error("no callable " + name);
  }

  /// A test that calls `name` with `args` (values built by statements).
  testcase::TestCase call(const std::string &name, const std::vector<Arg> &args) const {
    testcase::TestCase t;
    appendCall(t, name, args);
    return t;
  }

  void appendCall(testcase::TestCase &t, const std::string &name, const std::vector<Arg> &args) const {
    test::appendCall(program, t, name, args);
  }

  exec::RunResult run(const testcase::TestCase &t, exec::Limits limits = {}) {
    auto r = server->run(testcase::encode(t), limits);
    if (!r) throw std::runtime_error(r.error().message);
    return *r;
  }

  /// The branch of function `function` at source line `line`.
  const model::BranchInfo &branch(const std::string &function, unsigned line) const {
    for (const auto &f : description.functions)
      if (f.name == function)
        for (const auto &b : f.branches)
          if (b.line == line) return b;
    throw std::runtime_error("no branch at " + function + ":" + std::to_string(line));
  }

  /// Distance of a side in the last trace; -1 when it was not evaluated.
  double distance(std::uint32_t side) const {
    const double v = server->trace().sides()[side];
    return v == 0.0 ? -1.0 : v - 1.0;
  }

  /// The integer observed for statement `stmt`'s result in the last trace.
  std::optional<std::int64_t> result(std::uint32_t stmt) const {
    for (const auto &o : server->trace().observations())
      if (o.statement == stmt && o.target == MOSAIC_OBS_RESULT && o.field == -1) return o.integer;
    return std::nullopt;
  }
};

} // namespace mosaic::test
