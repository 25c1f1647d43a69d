// Executions per second of the execution engine, three ways, in one run:
//   in-process  the harness runs the same test in a loop, no isolation (the upper bound)
//   fork server mosaic's way: one fork per test, sandboxed, outcome and trace back
//   fork+exec   the naive way: a new harness process per test
// Reported as tests per second and as ratios. Not a test: timings vary.
//
// usage: mosaic_bench_exec BUILD_DIR UNIT [SECONDS_PER_MODE]
#include "mosaic/analysis/FrontEnd.h"
#include "mosaic/driver/Toolchain.h"
#include "mosaic/exec/ForkServer.h"
#include "mosaic/harness/Build.h"
#include "mosaic/model/Derive.h"
#include "mosaic/model/Description.h"
#include "mosaic/support/Process.h"
#include "mosaic/testcase/TestFactory.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace mosaic;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s BUILD_DIR UNIT [SECONDS_PER_MODE]\n", argv[0]);
    return 2;
  }
  const double budget = argc > 3 ? std::atof(argv[3]) : 3.0;
  auto program = analysis::analyzeUnit({argv[1], argv[2]});
  if (!program || !model::selectTargets(*program, {})) {
    std::fprintf(stderr, "analysis failed\n");
    return 2;
  }
  const testcase::Catalog catalog(*program);
  const harness::Toolchain tc = driver::toolchain();
  const std::string work = (std::filesystem::temp_directory_path() / "mosaic-bench").string();
  auto h = harness::buildHarness(*program, catalog, tc, {work, false, 2, {}});
  if (!h) {
    std::fprintf(stderr, "%s\n%s\n", h.error().message.c_str(), h.error().detail.c_str());
    return 2;
  }
  auto desc = model::readDescription(h->description);

  // One small test: a call of the first target on a fixed small argument.
  Rng rng(1);
  testcase::ConstantPool pool;
  testcase::TestFactory factory(catalog, pool, rng, {.maxLength = 2});
  testcase::TestCase test;
  factory.appendCall(test, program->targets.front());
  const auto bytes = testcase::encode(test);
  const std::string file = work + "/bench-test.bin";
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char *>(bytes.data()), bytes.size());

  // In-process: the runtime's --bench loop prints its own rate.
  auto inproc = runProcess({h->binary, "--bench", "2000000", file});
  double inRate = 0;
  if (inproc) std::sscanf(inproc->output.c_str(), "%*u tests in %*f s: %lf", &inRate);

  // Fork server: one fork per test, and persistent children.
  auto server = exec::ForkServer::start({h->binary, "", "", {}}, desc->blocks, desc->sides);
  if (!server) {
    std::fprintf(stderr, "%s\n", server.error().message.c_str());
    return 2;
  }
  auto measure = [&](bool persistent) {
    exec::Limits limits;
    limits.persistent = persistent;
    std::uint64_t n = 0;
    const auto start = Clock::now();
    while (seconds(start) < budget) {
      auto r = (*server)->run(bytes, limits);
      if (!r || r->outcome != exec::Outcome::Ok) break;
      ++n;
    }
    return n / seconds(start);
  };
  const double serverRate = measure(false);
  const double persistentRate = measure(true);

  // Fork + exec of the harness per test.
  std::uint64_t n = 0;
  auto start = Clock::now();
  while (seconds(start) < budget) {
    if (!runProcess({h->binary, file})) break;
    ++n;
  }
  const double execRate = n / seconds(start);

  std::printf("unit %s, test of %zu statements, features 0x%x\n", argv[2], test.statements.size(), (*server)->features());
  std::printf("in-process   %10.0f tests/s  (upper bound)\n", inRate);
  std::printf("persistent   %10.0f tests/s  = %.4f of in-process, %.1fx fork+exec (globals restored per test)\n",
              persistentRate, inRate > 0 ? persistentRate / inRate : 0, execRate > 0 ? persistentRate / execRate : 0);
  std::printf("fork server  %10.0f tests/s  = %.4f of in-process, %.1fx fork+exec (one fork per test)\n", serverRate,
              inRate > 0 ? serverRate / inRate : 0, execRate > 0 ? serverRate / execRate : 0);
  std::printf("fork+exec    %10.0f tests/s\n", execRate);
  return 0;
}
