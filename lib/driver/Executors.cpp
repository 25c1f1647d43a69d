// Running a test on the fork server (Executors.h).
#include "Executors.h"

#include "mosaic/testcase/TestCase.h"

namespace mosaic::driver {

std::optional<search::Execution> ServerExecutor::run(const testcase::TestCase &test) {
  auto r = server_.run(testcase::encode(test), limits_);
  if (!r) {
    lastError_ = r.error().message;
    return std::nullopt;
  }
  search::Execution e = search::toExecution(*r, server_.trace(), options_);
  search::noteStoppedCallable(e, test);
  if (options_.outputs)
    search::collectOutputs(e, test, options_.observations ? e.observations : server_.trace().observations());
  return e;
}

std::optional<search::Execution> SchemataRunner::run(const testcase::TestCase &test, std::optional<std::uint32_t> mutant,
                                                     std::vector<std::uint32_t> *reached) {
  server_.setMutant(mutant);
  auto r = server_.run(testcase::encode(test), limits_);
  server_.setMutant(std::nullopt);
  if (!r) return std::nullopt;
  search::Execution e = search::toExecution(*r, server_.trace(), {.observations = true});
  search::noteStoppedCallable(e, test);
  if (reached) {
    reached->clear();
    const auto area = server_.trace().mutantArea();
    for (std::uint32_t m = 0; m < area.size(); ++m)
      if (area[m] != 0.0) reached->push_back(m);
  }
  return e;
}

} // namespace mosaic::driver
