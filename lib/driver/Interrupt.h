// Ctrl-C or SIGTERM during a search: the search stops and what it found is
// still written; a second signal ends mosaic at once, leaving what is
// already written intact. One guard for every subcommand that searches.
#pragma once

#include <csignal>

namespace mosaic::driver {

/// While alive, SIGINT and SIGTERM set a flag instead of ending mosaic; a
/// second one takes its default action (mosaic ends). The previous
/// handlers are put back at destruction. One guard at a time.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard &) = delete;
  InterruptGuard &operator=(const InterruptGuard &) = delete;
  /// The flag, for search::Budget::stop.
  const volatile std::sig_atomic_t *flag() const;
  bool raised() const;
  /// Puts the previous handlers back now.
  void release();

private:
  void (*previousInt_)(int) = nullptr;
  void (*previousTerm_)(int) = nullptr;
  bool released_ = false;
};

} // namespace mosaic::driver
