// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// lastzero(3), as lastzero2 (the argument there, general N: 2^(N-2) (N+3)).
// Mazurkiewicz traces: N=3: 2 * 6 = 12.
// Four threads: the first iterative-deepening level (at most 3 threads)
// contributes 2 of the executions (1 of the 2 with PDP).
// Without PDP, 14 executions for 12 traces (2 runs of the first level): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 14.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 2.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
#define N 3
atomic_int array[N + 1];
void *writer(void *p) {
  long j = (long)p;
  atomic_store(&array[j], atomic_load(&array[j - 1]) + 1);
  return 0;
}
int main(void) {
  pthread_t t[N];
  for (long j = 1; j <= N; j++)
    pthread_create(&t[j - 1], 0, writer, (void *)j);
  int i;
  for (i = N; atomic_load(&array[i]) != 0; i--)
    ;
  for (int j = 0; j < N; j++)
    pthread_join(t[j], 0);
  return i;
}
