// RUN: %crace --verify --engine=explore %s
// The worker is joined unless the input is exactly 123456: a race only
// that one value of 2^32 shows. The input is only compared with
// constants, so explore tries that value (a class of its own) and
// confirms the race; sampling would almost never draw it.
// expected-verdict: race
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *worker(void *p) {
  x = 1;                                     // expected-race
  return 0;
}
int main(void) {
  int key = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (key != 123456)
    pthread_join(t, 0);
  x = 2;                                     // expected-race
  return 0;
}
