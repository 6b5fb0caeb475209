// RUN: %crace --verify %s
// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %not %crace %s | %FileCheck %s
// CHECK: (inputs 1234567) write x
// CHECK: crace: verdict: race (1 finding, engine 'kiss')
// expected-verdict: race
// expected-verdict(lockset): possible-race
// expected-verdict(explore): unknown
// The race needs one input value out of 2^32: explore samples inputs that
// go through arithmetic (it enumerates only inputs compared with constants
// and nothing else) and misses it (unknown), the lockset engine cannot
// confirm it; the portfolio's last stage, kiss (a bounded model checker
// over the sequentialised program), finds the value and confirms the race.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *a) {
  int k = __VERIFIER_nondet_int();
  if ((unsigned)k + 7u == 1234574u)
    x = 1;                                // expected-race(lockset,kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = x;                              // expected-race(lockset,kiss)
  pthread_join(h, 0);
  return v;
}
