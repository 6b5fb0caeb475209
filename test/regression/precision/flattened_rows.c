// RUN: %crace --verify --engine=lockset %s -- -fno-strict-aliasing
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing -DROW | %FileCheck %s --check-prefix=ROW
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing -DFLAT | %FileCheck %s --check-prefix=FLAT
// A 2-D array is one array to C programs: `int *p = &m[0][0]; p[i]` and
// `m[0][i]` walk every row, so an index into a row may reach the next
// rows (model/PointsTo.h: arraysAround, arraySteps). The workers write
// cells of 'g.cells' under the lock and main writes 'g.hits' without it:
// race-free, since the cells still stay inside 'cells'. With ROW, main
// writes a cell of row 2 without the lock, which a worker's index into
// row 0 reaches; with FLAT main writes it through a flat pointer into
// row 0 too. Both are races a row-bounded index would have hidden.
// expected-verdict: race-free
// ROW: warning: possible data race on 'g.cells
// ROW-NOT: g.hits
// FLAT: warning: possible data race on 'g.cells
// FLAT-NOT: g.hits
#include <pthread.h>
struct grid {
  int cells[4][4];
  int hits;
};
struct grid g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
  int i = *(int *)arg;
  pthread_mutex_lock(&m);
  g.cells[0][i & 15] = 1;
  int *p = &g.cells[0][0];
  p[(i + 1) & 15] = 2;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int a = 9, b = 10;
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  g.hits = 1;
#ifdef ROW
  g.cells[2][1] = 0;
#endif
#ifdef FLAT
  int *q = g.cells[0];
  q[b] = 0;
#endif
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return g.hits;
}
