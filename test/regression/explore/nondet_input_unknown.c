// RUN: %crace --verify --engine=explore %s
// Race-free for every input, but the input goes through arithmetic, so it
// is sampled, not enumerated (an input only compared with constants, or
// with few values where it is used, would be: input_classes_*.c): the
// explore engine must say unknown, never race-free.
// expected-verdict: unknown
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int cells[4];
void *worker(void *p) {
  cells[0] = 1;
  return 0;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[1 + (unsigned)i % 3] = 2;
  pthread_join(t, 0);
  return 0;
}
