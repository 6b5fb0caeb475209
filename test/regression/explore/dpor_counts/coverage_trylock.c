// RUN: %crace --engine=explore --all-races --no-pdp --stats %s > %t
// RUN: %FileCheck --check-prefix=DPOR %s < %t
// RUN: %FileCheck --check-prefix=COVER %s < %t
// Coverage check for the lock rule of DPOR (README.md in this folder): a
// plain lock is not reversed with the release of its mutex by the holder,
// but a trylock is (it is enabled while the mutex is held, and fails).
// main's trylock either comes before t1's critical section (it succeeds and
// reads 0), inside it (it fails: 2) or after it (it succeeds and reads 1):
// three outcomes, each failing its own assertion. Plain DPOR must report
// all three assertion lines (COVER, in any order).
// Mazurkiewicz traces: 3 (a failed trylock is independent of t1's store).
// Without PDP, 3 executions for 3 traces: one per trace (4 before the
// lock rule).
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (3 findings,
// DPOR: executions 3.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int s;
void *t1(void *p) {
  pthread_mutex_lock(&m);
  s = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  int v = 2;
  if (pthread_mutex_trylock(&m) == 0) {
    v = s;
    pthread_mutex_unlock(&m);
  }
  pthread_join(a, 0);
  assert(v != 0); // COVER-DAG: assertion fails in some run at {{.*}}coverage_trylock.c:[[@LINE]]:3
  assert(v != 1); // COVER-DAG: assertion fails in some run at {{.*}}coverage_trylock.c:[[@LINE]]:3
  assert(v != 2); // COVER-DAG: assertion fails in some run at {{.*}}coverage_trylock.c:[[@LINE]]:3
  return 0;
}
