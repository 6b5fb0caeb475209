// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Three writers of one atomic variable: two threads and main (after it
// created both). The three stores are pairwise dependent and all three are
// enabled together, so every order of them is feasible and a trace is one
// such order.
// Mazurkiewicz traces: 3! = 6.
// Without PDP, 6 executions for 6 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 6.00{{$}}
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
  atomic_store(&x, 3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
