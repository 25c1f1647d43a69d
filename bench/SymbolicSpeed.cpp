// The cost of concolic execution's symbolic harness (issue 22): the same
// random tests of a unit run through the fast harness and through the
// symbolic one (the pass's symbolic mode, shadow memory, a region per
// test), each in a fork server with one fresh child per test as the
// concolic side runs them. Reported as tests per second each way and their
// ratio, with what the traces held. Not a test: timings vary; the ratio
// is what one run measures.
//
// usage: mosaic_bench_symbolic BUILD_DIR UNIT [TESTS] [SEED]
// With MOSAIC_BENCH_DUMP=FILE, the first test the symbolic harness timed
// out on is written to FILE (run it with `harness FILE` to look).
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/harness/Build.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Description.h"
#include "mosaic/solver/PathCondition.h"
#include "mosaic/testcase/TestFactory.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

using namespace mosaic;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s BUILD_DIR UNIT [TESTS] [SEED]\n", argv[0]);
    return 2;
  }
  const int count = argc > 3 ? std::atoi(argv[3]) : 500;
  const std::uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  auto program = analysis::analyzeUnit({argv[1], argv[2]});
  if (!program || !model::selectTargets(*program, {}) || program->targets.empty()) {
    std::fprintf(stderr, "analysis failed, or no targets\n");
    return 2;
  }
  const testcase::Catalog catalog(*program);
  const harness::Toolchain tc = driver::toolchain();
  const std::string work = (std::filesystem::temp_directory_path() / "mosaic-bench-symbolic").string();
  struct Built {
    harness::Harness harness;
    std::unique_ptr<exec::ForkServer> server;
  } fast, symbolic;
  for (Built *b : {&fast, &symbolic}) {
    harness::BuildOptions o;
    o.workDir = work;
    o.symbolic = b == &symbolic;
    auto h = harness::buildHarness(*program, catalog, tc, o);
    if (!h) {
      std::fprintf(stderr, "%s\n%s\n", h.error().message.c_str(), h.error().detail.c_str());
      return 2;
    }
    auto desc = model::readDescription(h->description);
    exec::ServerOptions so;
    so.harness = h->binary;
    so.symbolic = o.symbolic;
    auto s = exec::ForkServer::start(so, desc->blocks, desc->sides);
    if (!s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 2;
    }
    b->harness = std::move(*h);
    b->server = std::move(*s);
  }

  Rng rng(seed);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(catalog, pool, rng, {});
  std::vector<std::vector<std::uint8_t>> tests;
  for (int i = 0; i < count; ++i) tests.push_back(testcase::encode(factory.randomTest(program->targets)));

  exec::Limits limits;
  limits.persistent = false;
  std::uint64_t nodes = 0, constraints = 0, concretized = 0, traces = 0;
  // Each test through both, one after the other, so that the machine's
  // load falls on both alike; a first round unmeasured (page cache, the
  // servers' first forks).
  double fastSeconds = 0, symbolicSeconds = 0;
  // The test's own CPU time, as the server reads it from the child's clock:
  // the cost of the instrumentation itself, without the fork, the round
  // trip and reading the trace (what a per-instruction overhead means).
  std::uint64_t fastCpuUs = 0, symbolicCpuUs = 0;
  int fastTimeouts = 0, symbolicTimeouts = 0;
  for (int round = 0; round < 2; ++round)
    for (const auto &t : tests) {
      auto start = Clock::now();
      auto f = fast.server->run(t, limits);
      const double tf = seconds(start);
      start = Clock::now();
      auto r = symbolic.server->run(t, limits);
      std::optional<solver::SymbolicTrace> trace;
      if (r)
        if (auto read = solver::readSymbolicTrace(symbolic.server->symbolic())) trace = std::move(*read);
      const double ts = seconds(start);
      if (round == 0) continue;
      fastSeconds += tf;
      symbolicSeconds += ts;
      if (f && r) {
        fastCpuUs += f->cpuUs;
        symbolicCpuUs += r->cpuUs;
      }
      fastTimeouts += f && f->outcome == exec::Outcome::Timeout;
      symbolicTimeouts += r && r->outcome == exec::Outcome::Timeout;
      if (const char *dump = std::getenv("MOSAIC_BENCH_DUMP"); dump && symbolicTimeouts == 1 && r &&
                                                               r->outcome == exec::Outcome::Timeout)
        if (std::FILE *out = std::fopen(dump, "wb")) {
          std::fwrite(t.data(), 1, t.size(), out);
          std::fclose(out);
        }
      if (trace) {
        ++traces;
        nodes += trace->nodes.size();
        constraints += trace->constraints.size();
        concretized += trace->concretized;
      }
    }
  std::printf("unit %s: %d random tests (seed %llu)\n", argv[2], count, static_cast<unsigned long long>(seed));
  std::printf("fast harness      %8.0f tests/s  (%d timed out)\n", count / fastSeconds, fastTimeouts);
  std::printf("symbolic harness  %8.0f tests/s  (%d timed out) = %.2fx the fast harness's time per test (reading "
              "each trace included)\n",
              count / symbolicSeconds, symbolicTimeouts, symbolicSeconds / fastSeconds);
  if (fastCpuUs > 0)
    std::printf("test's own CPU    %8.1f us fast, %.1f us symbolic = %.2fx (the child's clock: no fork, no round "
                "trip)\n",
                static_cast<double>(fastCpuUs) / count, static_cast<double>(symbolicCpuUs) / count,
                static_cast<double>(symbolicCpuUs) / static_cast<double>(fastCpuUs));
  if (traces)
    std::printf("per trace: %.0f nodes, %.1f constraints, %.1f values made concrete\n",
                static_cast<double>(nodes) / static_cast<double>(traces),
                static_cast<double>(constraints) / static_cast<double>(traces),
                static_cast<double>(concretized) / static_cast<double>(traces));
  return 0;
}
