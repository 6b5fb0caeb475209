// RUN: %crace --verify --engine=explore %s
// Race-free for every input, but the inputs are sampled, not enumerated:
// the explore engine must say unknown, never race-free.
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
  if (i < 1 || i > 3)
    return 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cells[i] = 2;
  pthread_join(t, 0);
  return 0;
}
