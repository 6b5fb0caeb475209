// RUN: %crace --verify --engine=lockset %s -- -fno-strict-aliasing
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing -DOUTSIDE | %FileCheck %s --check-prefix=OUTSIDE
// A walk over length-prefixed labels, p = &rec.data[0] then p += 1 + *p
// in a loop, stays in 'data' (model/PointsTo.h: decayOf follows the loop's
// phi back to &rec.data[0]); so does q = &rec.data[i] stepped by a
// variable count (a strided location stepped by whole elements). The
// workers do both under the lock, main writes 'rec.len' without it:
// race-free even without C's type rules. With OUTSIDE main also writes
// an element of 'data' unlocked: a race the report names by the array.
// ('data' is not the first member: a byte walk from the struct's own
// address may be one over all of it, object_bytes_walk.c.)
// expected-verdict: race-free
// OUTSIDE: warning: possible data race on 'rec.data[*]'
// OUTSIDE-NOT: rec.len
#include <pthread.h>
struct record {
  int len;
  unsigned char data[64];
  int *owner;
};
struct record rec;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
  int i = *(int *)arg;
  pthread_mutex_lock(&m);
  unsigned char *p = &rec.data[0];
  unsigned char *end = rec.data + 63;
  while (p < end && *p)
    p += 1 + *p;
  *p = 0;
  unsigned char *q = &rec.data[i & 31];
  q += i & 15;
  *q = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int a = 1, b = 2;
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  rec.len = 3;
#ifdef OUTSIDE
  rec.data[b] = 7;
#endif
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return rec.len;
}
