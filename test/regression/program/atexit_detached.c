// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// exit() runs the atexit handlers in the exiting thread while the thread
// that was never joined still runs.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
static void bye(void) { x = 0; }                                 // expected-race
int main(void) {
  pthread_t h;
  atexit(bye);
  pthread_create(&h, 0, t, 0);
  exit(0);
}
