// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %crace --verify --engine=explore --args="a b" %s
// The race needs argc > 2: argc is an input (1..4), not fixed at 1
// (issue 14: explore said race-free "assuming argc = 1"). With --args the
// user fixes one command line, and the verdict says so.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (argc > 2)
    x = 2;                                                       // expected-race
  pthread_join(h, 0);
  return 0;
}
