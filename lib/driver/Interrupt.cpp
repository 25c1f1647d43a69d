// SIGINT and SIGTERM as a request to stop (Interrupt.h).
#include "Interrupt.h"

namespace mosaic::driver {

namespace {
// A signal handler can only reach a flag of static storage.
volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int sig) {
  if (interrupted) { // the second: as if nothing had been installed
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  interrupted = sig;
}
} // namespace

InterruptGuard::InterruptGuard() {
  interrupted = 0;
  previousInt_ = std::signal(SIGINT, onInterrupt);
  previousTerm_ = std::signal(SIGTERM, onInterrupt);
}

InterruptGuard::~InterruptGuard() { release(); }

void InterruptGuard::release() {
  if (released_) return;
  std::signal(SIGINT, previousInt_);
  std::signal(SIGTERM, previousTerm_);
  released_ = true;
}

const volatile std::sig_atomic_t *InterruptGuard::flag() const { return &interrupted; }
bool InterruptGuard::raised() const { return interrupted != 0; }

} // namespace mosaic::driver
