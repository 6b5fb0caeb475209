// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify %s
// main reads i while t1 may be inside an atomic section that reads i and
// then writes it (the shape of SV-COMP's pthread/fib_*-racy tasks, labelled
// racy). The read meets only the section's first access (a read) in one
// state, but it is unordered with the section's write, and in C the
// section is no synchronisation: a race. explore and auto answered
// race-free here (a wrong verdict). explore now reports a possible race
// with its reason (SV-COMP's elimination_backoff_stack, of this shape, is
// labelled race-free); so does auto, whose final stage is then whoop's.
// expected-verdict: race
// expected-verdict(explore,whoop): possible-race
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int i = 1, j = 1;
void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  i = i + j; // expected-race
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t id1;
  pthread_create(&id1, 0, t1, 0);
  int r = i; // expected-race
  return r;
}
