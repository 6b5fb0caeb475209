// RUN: %crace --verify --engine=explore --enumerate-inputs=8 %s
// RUN: not %crace --engine=explore --seed=1 %s 2>&1 | FileCheck %s --check-prefix=SAMPLED
// A race only for one char value: by default char inputs are sampled (and
// this value is unlikely), so the answer is unknown, never race-free; with
// --enumerate-inputs=8 every char value is tried and the race is found.
// expected-verdict: race
// SAMPLED: verdict: unknown
// SAMPLED: nondeterministic inputs were sampled
#include <pthread.h>
extern char __VERIFIER_nondet_char(void);
int x;
void *t(void *p) {
  x = 1;                                            // expected-race
  return 0;
}
int main(void) {
  char c = __VERIFIER_nondet_char();
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (c == 'M')
    x = 2;                                          // expected-race
  pthread_join(h, 0);
  return 0;
}
