// RUN: %crace --engine=explore --all-races --no-pdp --stats %s > %t
// RUN: %FileCheck --check-prefix=DPOR %s < %t
// RUN: %FileCheck --check-prefix=COVER %s < %t
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Coverage check for readers3.c (README.md in this folder): each of the
// 2^3 = 8 Mazurkiewicz traces (each read before or after main's store)
// leaves its own combination in seen[] and fails its own assertion. Plain
// DPOR must report all eight assertion lines (COVER, in any order).
// Executions: 12 of DPOR's own, as readers3 (the seen[] stores are each
// written by one thread only; 4 of them the first level's probe), plus 3
// race-hint replays, 15.
// PDP prunes subspaces that cannot race, not those where an assertion
// fails: it reaches 7 of the 8 combinations. Its partner threads (added
// where a subspace was pruned) make it explore more than plain DPOR here:
// 23 executions (20 of its own).
// DPOR: crace: verdict: race-free (8 findings,
// DPOR: executions 15.00{{$}}
// DPOR: race_hints_tried 3.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 23.00{{$}}
// PDP: race_hints_tried 3.00{{$}}
// PDP: complete 1.00
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
int seen[3];
void *reader(void *p) {
  seen[(long)p] = atomic_load(&x);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, reader, (void *)0);
  pthread_create(&b, 0, reader, (void *)1);
  pthread_create(&c, 0, reader, (void *)2);
  atomic_store(&x, 1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  int v = seen[0] * 100 + seen[1] * 10 + seen[2];
  assert(v != 0);   // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 1);   // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 10);  // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 11);  // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 100); // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 101); // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 110); // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  assert(v != 111); // COVER-DAG: assertion fails in some run at {{.*}}coverage_readers3.c:[[@LINE]]:3
  return 0;
}
