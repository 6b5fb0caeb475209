// RUN: %crace --verify --engine=explore %s
// The race happens only for some inputs (a nondeterministic value that
// selects the cell): the explore engine samples inputs, so it finds the
// race for the values it tries but cannot prove race freedom.
// expected-verdict: race
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int cells[4];
void *worker(void *p) {
  cells[0] = 1;                                     // expected-race
  return 0;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 3)
    return 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[i] = 2;                                     // expected-race
  pthread_join(t, 0);
  return 0;
}
