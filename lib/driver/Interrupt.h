// Ctrl-C during a search: the search stops and what it found is still
// written. One guard for every subcommand that searches.
#pragma once

#include <csignal>

namespace mosaic::driver {

/// While alive, SIGINT sets a flag instead of ending mosaic; the previous
/// handler is put back at destruction. One at a time.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard &) = delete;
  InterruptGuard &operator=(const InterruptGuard &) = delete;
  /// The flag, for search::Budget::stop.
  const volatile std::sig_atomic_t *flag() const;
  bool raised() const;
  /// Puts the previous handler back now (a second Ctrl-C ends mosaic).
  void release();

private:
  void (*previous_)(int) = nullptr;
  bool released_ = false;
};

} // namespace mosaic::driver
