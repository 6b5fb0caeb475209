// RUN: %crace --verify --engine=explore %s
// The off-by-one variant of input_classes_assumed_index.c: i may be 3,
// a class of its own, and explore confirms the race on cells[3].
// expected-verdict: race
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void assume_abort_if_not(int cond) {
  if (!cond)
    abort();
}
int cells[4];
void *worker(void *p) {
  cells[3] = 1;                              // expected-race
  return 0;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  assume_abort_if_not(0 <= i && i <= 3);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[i] = 2;                              // expected-race
  pthread_join(t, 0);
  return 0;
}
