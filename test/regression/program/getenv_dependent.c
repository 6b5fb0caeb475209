// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// getenv searches the environment, whose strings are inputs: never
// race-free from a search that sampled them.
// expected-verdict: possible-race
// expected-verdict(explore): unknown
#include <pthread.h>
#include <stdlib.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race(lockset)
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (getenv("RACE"))
    x = 2;                                                       // expected-race(lockset)
  pthread_join(h, 0);
  return 0;
}
