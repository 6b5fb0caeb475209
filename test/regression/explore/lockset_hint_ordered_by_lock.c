// RUN: %not %crace --engine=explore --no-pdp --max-executions=1 --stats %s 2>&1 | FileCheck %s
// The worker's `counter++` holds no lock; main's holds `m`. In explore's
// first run the worker does its increment and then locks and unlocks `m`
// before main locks it, so the two increments are ordered through `m`
// (happens-before, as ThreadSanitizer would compute it, sees no race). No
// lock is common to the two accesses, though: a lockset hint replays the
// run with the worker held just before its increment, main goes on to its
// own, and both are enabled together — a race, confirmed in that state,
// within one execution of the search (before: verdict unknown).
// CHECK-DAG: error: data race on 'counter'
// CHECK-DAG: verdict: race
// CHECK-DAG: race_hints_confirmed {{ *}}1.00
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
volatile int busy;
void *worker(void *a) {
  counter++; // the lock that should be here was removed
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  for (int i = 0; i < 100; i++)
    busy = i; // main's slice runs out here; the worker runs
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
