// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// lastzero(2) of Abdulla et al., "Optimal dynamic partial order reduction"
// (POPL 2014), with main as the reading thread: writer j (1..N) does
// a[j] = a[j-1] + 1, main looks for the last zero: for (i = N; a[i] != 0;
// i--). All accesses are atomic (race-free).
// Argument, general N: a[0] is never written, so main stops at some index
// i in 0..N: it read a[N..i+1] after their writes (a written a[k] is at
// least 1) and, for i >= 1, a[i] before writer i's store. The free choices
// are, for j = 2..N, whether writer j reads a[j-1] before or after writer
// j-1 stores it; for 1 <= i < N, main's reading order forces writer i+1's
// read before writer i's store (writer i+1's store < main's read of a[i+1]
// < main's read of a[i] < writer i's store). Traces: 2^(N-1) for i = 0,
// 2^(N-1) for i = N and 2^(N-2) for each i in 1..N-1, so 2^(N-2) (N+3).
// Mazurkiewicz traces: N=2: 5.
// Without PDP, 5 executions for 5 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 5.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
#define N 2
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
