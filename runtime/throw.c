/* The stack at a C++ throw (issue 21): the harness is linked with
 * -Wl,--wrap=__cxa_throw, so every throw of the unit and the project goes
 * through here first. The frames are noted, then the real __cxa_throw
 * (libstdc++'s, or a sanitizer's interceptor of it) takes over. An
 * exception the unit catches costs one backtrace(); one that leaves the
 * unit carries the thrower's stack (mosaic_rt_stack_keep_throw), not the
 * harness's catch's. Its own archive member: linked only into harnesses
 * that throw, so a C harness needs no __cxa_throw. */
#include "internal.h"

void __real___cxa_throw(void *object, void *type, void (*destroy)(void *)) __attribute__((noreturn));
void __wrap___cxa_throw(void *object, void *type, void (*destroy)(void *)) __attribute__((noreturn));

void __wrap___cxa_throw(void *object, void *type, void (*destroy)(void *)) {
  mosaic_rt_stack_note_throw();
  __real___cxa_throw(object, type, destroy);
}
