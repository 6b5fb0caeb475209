// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The same through sigaction; ignoring another signal installs nothing.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <signal.h>
#include <string.h>
int x;
static void handler(int s) { x = 1; }                            // expected-race
int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, 0);
  sa.sa_handler = handler;
  sigaction(SIGTERM, &sa, 0);
  x = 2;                                                         // expected-race
  return 0;
}
