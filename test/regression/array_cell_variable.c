// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A variable index may hit any cell: it conflicts with a constant one.
// expected-verdict: possible-race
// expected-verdict(explore): race-free
#include <pthread.h>
int a[4];
int idx;
void *t0(void *p) { a[2] = 1; return 0; }        // expected-race(lockset)
void *t1(void *p) { a[idx] = 1; return 0; }      // expected-race(lockset)
int main(void) {
  pthread_t h[2];
  pthread_create(&h[0], 0, t0, 0);
  pthread_create(&h[1], 0, t1, 0);
  return 0;
}
