// RUN: %crace --verify --engine=explore --max-threads=4 %s
// RUN: %not %crace --engine=explore --max-threads=4 %s 2>&1 | %FileCheck %s
// main creates 100 threads before its own unlocked write. In the search's
// first probe (3 threads), the creations past the bound park their
// threads: each gets a handle and does not run, and main goes on to the
// write, which races with a worker's read (SV-COMP's
// goblint-regression/28-race_reach_61 creates 10000). Before, main waited
// at the bound and the race was never found. The interleaving says which
// threads were parked.
// expected-verdict: race
// CHECK: data race on 'x'
// CHECK: then {{[0-9]+}} threads created and parked at the thread bound of {{[0-9]+}} (not started in this interleaving)
// CHECK: verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  int v = x; // expected-race
  pthread_mutex_unlock(&m);
  return (void *)(long)v;
}
int main(void) {
  pthread_t t[100];
  for (int i = 0; i < 100; i++)
    pthread_create(&t[i], 0, worker, 0);
  x = 1; // expected-race
  for (int i = 0; i < 100; i++)
    pthread_join(t[i], 0);
  return 0;
}
