// RUN: %crace --verify --engine=explore %s
// RUN: %crace --engine=explore %s 2>&1 | FileCheck %s
// An int input decides whether the threads are started (and then joined):
// the program only compares it with constants, so one value of each class
// (here 0 and everything else) stands for all 2^32, and explore proves the
// program race-free, saying how (the ldv-races container_of tasks' shape).
// Sampled inputs would leave it unknown.
// expected-verdict: race-free
// CHECK: an input the program only compares with constants
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_t t1, t2;
int shared;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  shared++;
  pthread_mutex_unlock(&m);
  return 0;
}
int probe(void) {
  int res = __VERIFIER_nondet_int();
  if (res)
    return -1;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  return 0;
}
int main(void) {
  int mode = __VERIFIER_nondet_int();
  if (probe() == 0) {
    pthread_join(t1, 0);
    pthread_join(t2, 0);
  }
  switch (mode) {
  case 1:
    shared = 1;
    break;
  case 2:
    shared = 2;
    break;
  }
  return 0;
}
