// RUN: %crace --verify --engine=kiss %s
// Issue 19: a race after a lock-protected state change. The worker reads
// `state` under the mutex and writes `data` only when main has already
// set the state; main then writes `data` itself. With ts size 0 the
// worker runs at its creation and sees state 0 (no write), so only the
// ts-size-1 pass (the worker waits while main changes the state) finds the
// race. kiss answered unknown here before that pass.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int state;
int data;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int s = state;
  pthread_mutex_unlock(&m);
  if (s == 1)
    data = 1; // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  state = 1;
  pthread_mutex_unlock(&m);
  data = 2; // expected-race
  pthread_join(t, 0);
  return 0;
}
