// SIGINT as a request to stop (Interrupt.h).
#include "Interrupt.h"

namespace mosaic::driver {

namespace {
// A signal handler can only reach a flag of static storage.
volatile std::sig_atomic_t interrupted = 0;
void onInterrupt(int) { interrupted = 1; }
} // namespace

InterruptGuard::InterruptGuard() {
  interrupted = 0;
  previous_ = std::signal(SIGINT, onInterrupt);
}

InterruptGuard::~InterruptGuard() { release(); }

void InterruptGuard::release() {
  if (released_) return;
  std::signal(SIGINT, previous_);
  released_ = true;
}

const volatile std::sig_atomic_t *InterruptGuard::flag() const { return &interrupted; }
bool InterruptGuard::raised() const { return interrupted != 0; }

} // namespace mosaic::driver
