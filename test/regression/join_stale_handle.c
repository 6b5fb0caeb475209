// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The handle passed to pthread_join was read before pthread_create wrote
// it, so the join does not wait for this thread.
// expected-verdict: possible-race
// expected-verdict(explore): unknown
#include <pthread.h>
int x;
void *w(void *a) {
  x = 1;                    // expected-race(lockset)
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_t stale = t;
  pthread_create(&t, 0, w, 0);
  pthread_join(stale, 0);
  return x;                 // expected-race(lockset)
}
