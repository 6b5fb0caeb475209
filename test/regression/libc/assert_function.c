// RUN: %crace --verify --engine=explore %s
// `assert` called as a function, without <assert.h> (goblint-bench's
// pfscan_assert does this; glibc has no such function): checked as the
// macro checks, so explore runs past it instead of stopping the thread at
// an unknown external function. The assertion holds; the race after it is
// confirmed. (Before: unknown, explore stopped main at the call.)
// expected-verdict: race
#include <pthread.h>
void assert(int);
int n, m;
void *w(void *a) {
  n++;                                                   // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  assert(m == 0);
  n++;                                                   // expected-race
  pthread_join(t, 0);
  return 0;
}
