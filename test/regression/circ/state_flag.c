// RUN: %crace --verify --engine=circ %s
// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify --engine=auto %s
// CIRC's own example (Henzinger, Jhala, Majumdar, PLDI'04, Figure 1):
// unboundedly many threads; the one that finds `state` 0 sets it to 1
// under the lock, writes x unprotected, and resets state. No lock protects
// x, so the lockset analysis and whoop report it; circ infers that while a
// thread is between the test and the reset, state is 1 for every other
// thread, which then skips x.
// The portfolio (--engine=auto) proves it with circ after whoop.
// expected-verdict: race-free
// expected-verdict(whoop): possible-race
#include <pthread.h>
int x, state;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  for (;;) {
    pthread_mutex_lock(&m);
    int old = state;
    if (state == 0)
      state = 1;
    pthread_mutex_unlock(&m);
    if (old == 0) {
      x = x + 1;                          // expected-race(whoop)
      pthread_mutex_lock(&m);
      state = 0;
      pthread_mutex_unlock(&m);
    }
  }
  return 0;
}
int main(void) {
  pthread_t t;
  for (;;)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
