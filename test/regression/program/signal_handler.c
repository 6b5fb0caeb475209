// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A signal handler may run at any point after it is installed: its write
// races with main's.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <signal.h>
#include <unistd.h>
int x;
static void handler(int s) { x = s; }                            // expected-race
int main(void) {
  signal(SIGINT, handler);
  x = 2;                                                         // expected-race
  pause();
  return 0;
}
