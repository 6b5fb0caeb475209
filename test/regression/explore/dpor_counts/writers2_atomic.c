// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads atomic_store to one variable. The two stores are dependent,
// nothing else is: a trace is an order of the stores.
// Mazurkiewicz traces: 2! = 2.
// Without PDP, 2 executions for 2 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 2.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *w(void *p) { atomic_store(&x, (int)(long)p); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, (void *)1);
  pthread_create(&b, 0, w, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
