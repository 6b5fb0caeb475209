// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// After the barrier both threads write 'sum': a real race (the explore
// engine shows the interleaving); the phases before it are ordered by the
// barrier, which the lockset engine does not model (possible-race there).
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
int a[2];
int sum;
pthread_barrier_t b;
void *w(void *p) {
  long i = (long)p;
  a[i] = 1;                                  // expected-race(lockset)
  pthread_barrier_wait(&b);
  sum = a[0] + a[1];                         // expected-race
  return 0;
}
int main(void) {
  pthread_barrier_init(&b, 0, 2);
  pthread_t h[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, (void *)i);
  return 0;
}
