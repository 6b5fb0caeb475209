// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// One writer (main, after creating the readers) and two reader threads of
// one atomic variable. Reads are independent of each other; each read is
// before or after the store, independently of the other read.
// Mazurkiewicz traces: 2^2 = 4.
// Without PDP, 4 executions for 4 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 4.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *r(void *p) { return (void *)(long)atomic_load(&x); }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, r, 0);
  pthread_create(&b, 0, r, 0);
  atomic_store(&x, 1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
