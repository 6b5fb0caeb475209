// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// The signal is blocked while main writes, so the handler cannot run then
// (a blocked signal stays pending until it is unblocked). Masks are not
// modelled: the static engines report the pair (over-approximation), and
// explore, which would otherwise "confirm" it, must not: unknown.
// expected-verdict: race-free
// expected-verdict(lockset): possible-race
// expected-verdict(explore): unknown
#include <signal.h>
#include <string.h>
#include <unistd.h>
int x;
static void handler(int s) { x = 1; }                            // expected-race(lockset)
int main(void) {
  sigset_t set, old;
  memset(&set, 0xff, sizeof set); /* every signal */
  sigprocmask(SIG_BLOCK, &set, &old);
  signal(SIGUSR1, handler);
  x = 2;                                                         // expected-race(lockset)
  sigprocmask(SIG_SETMASK, &old, 0);
  pause();
  return 0;
}
