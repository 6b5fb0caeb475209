// RUN: %crace --verify --engine=explore %s
// An index the program only uses after `assume_abort_if_not(0 <= i &&
// i < 3)`: where it indexes, it has three values, each tried as a class
// of its own (the others are one class each side and abort), so explore
// proves that the worker's cell 3 is never main's (goblint's 09-regions
// tasks). Sampling would leave it unknown.
// expected-verdict: race-free
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void assume_abort_if_not(int cond) {
  if (!cond)
    abort();
}
pthread_mutex_t m[4];
int cells[4];
void *worker(void *p) {
  cells[3] = 1;
  return 0;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  assume_abort_if_not(0 <= i && i < 3);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m[i]);
  cells[i] = 2;
  pthread_mutex_unlock(&m[i]);
  pthread_join(t, 0);
  return 0;
}
