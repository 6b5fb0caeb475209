// RUN: %crace --verify --engine=explore --all-races %s
// RUN: not %crace --engine=explore %s 2>&1 | FileCheck %s
// The race needs three bool inputs to be 1, read by two threads after
// their locked steps: every combination is tried (the odometer starts at
// 0), so the race is found, and the interleaving shows the inputs.
// expected-verdict: race
// CHECK: unlock m, then inputs 1, 1
// CHECK: unlock m, then inputs 1
// CHECK: verdict: race
#include <pthread.h>
extern _Bool __VERIFIER_nondet_bool(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;
void *t1(void *p) {
  pthread_mutex_lock(&m);
  y = 1;
  pthread_mutex_unlock(&m);
  _Bool a = __VERIFIER_nondet_bool();
  _Bool b = __VERIFIER_nondet_bool();
  if (a && b)
    x = 1;                                          // expected-race
  return 0;
}
void *t2(void *p) {
  pthread_mutex_lock(&m);
  y = 2;
  pthread_mutex_unlock(&m);
  if (__VERIFIER_nondet_bool())
    x = 2;                                          // expected-race
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
