// RUN: %crace --verify --engine=circ %s
// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify %s
// A value barrier (SV-COMP pthread-race-challenges/value-barrier, distilled):
// main writes `data` and then sets the flag `ready` (a _Bool) under the
// lock; every thread waits on the condition variable until it sees the
// flag, then reads `data`. No lock protects `data`, so whoop keeps the
// pair; circ learns that a thread past the wait sees `ready` set, which
// main sets only after its write, and that nothing clears it.
// expected-verdict: race-free
// expected-verdict(whoop): possible-race
#include <pthread.h>
#include <stdlib.h>
_Bool ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int data;
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  int x = data;                           // expected-race(whoop)
  (void)x;
  return 0;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  pthread_t t;
  for (int i = 0; i < n; i++)
    pthread_create(&t, 0, reader, 0);
  data = 42;                              // expected-race(whoop)
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
