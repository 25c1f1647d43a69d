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

} // namespace mosaic::driver
