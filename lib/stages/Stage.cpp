// Running stages in order; the deadline.
#include "mosaic/stages/Stage.h"

namespace mosaic::stages {

Deadline Deadline::in(double seconds, const volatile std::sig_atomic_t *stop) {
  Deadline d;
  d.stop = stop;
  if (seconds < 1e9) // ours: beyond 30 years is never
    d.end = std::chrono::steady_clock::now() +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  return d;
}

void runStages(const std::vector<std::unique_ptr<Stage>> &stages, Work &work, Context &context) {
  for (const auto &stage : stages) stage->run(work, context);
}

} // namespace mosaic::stages
