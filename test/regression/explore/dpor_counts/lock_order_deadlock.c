// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two locks taken in opposite orders (t1: a then b, main: b then a). Either
// one thread's whole nesting comes first (2 traces), or each thread holds
// its first lock and blocks on the other: a deadlock, a maximal trace of
// its own. Taking a first in t1 and b first in main without deadlock is
// impossible.
// Mazurkiewicz traces: 3.
// Plain DPOR reports the deadlock; with PDP the single execution does not
// reach it (PDP keeps every race, not every deadlock).
// Without PDP, 3 executions for 3 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 3.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *t1(void *p) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  pthread_join(t, 0);
  return 0;
}
