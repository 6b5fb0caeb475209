// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// The thread writes x only for one input value out of 2^32: the bmc treats
// the input as symbolic and finds it.
// expected-verdict: race
// CHECK: error: data race on 'x'
// CHECK: verdict: race
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *p) {
  int n = *(int *)p;
  if (n == 123456)
    x = 1;                                          // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  int n = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, &n);
  int v = x;                                        // expected-race(kiss)
  pthread_join(h, 0);
  return v;
}
