// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Barrier-separated phases: each thread writes its own cell, then only the
// first thread reads both. The barrier orders the phases: race-free, which
// only an engine that executes the barrier can show.
// expected-verdict: race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
int a[2];
int sum;
pthread_barrier_t b;
void *w(void *p) {
  long i = (long)p;
  a[i] = 1;                                  // expected-race(lockset)
  pthread_barrier_wait(&b);
  if (i == 0)
    sum = a[0] + a[1];                       // expected-race(lockset)
  return 0;
}
int main(void) {
  pthread_barrier_init(&b, 0, 2);
  pthread_t h[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, (void *)i);
  return 0;
}
