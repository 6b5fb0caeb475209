// RUN: %crace --verify --engine=explore --no-pdp --all-races %s
// RUN: %crace --engine=explore --no-pdp --stats %s 2>&1 | FileCheck %s
// Bool inputs have a declared domain of two values: the explore engine
// tries both (main reads one before its first visible step, the worker one
// later) and so proves the program race-free, saying that it did.
// expected-verdict: race-free
// CHECK: every value of each input of at most 1 bit(s) was tried
// CHECK: input_variants {{[1-9]}}
#include <pthread.h>
extern _Bool __VERIFIER_nondet_bool(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;
void *t(void *p) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  if (__VERIFIER_nondet_bool()) {
    pthread_mutex_lock(&m);
    y = 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  _Bool b = __VERIFIER_nondet_bool();
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  if (b)
    x++;
  else
    y--;
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  return 0;
}
