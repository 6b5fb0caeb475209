// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// 'status' has no body: a pointer it returned would be of unknown origin.
// But it returns an int, which on LP64 cannot hold a pointer, so its
// result points nowhere (PointsTo::mayHoldPointer). Stored into an
// unknown element of 'S.vals', it no longer makes every load from 'S' (and
// so 'S.p') look like a pointer of unknown origin, which would pair the
// unlocked write through 'q' with 'counter', locked everywhere.
// CHECK-NOT: on 'counter'
// CHECK: possible data race on 'x'
// CHECK-NOT: on 'counter'
#include <pthread.h>
int status(void);
int pick(void);
struct s {
  int *p;
  int vals[4];
} S;
static int x;
int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) {
  S.vals[pick() & 3] = status();
  int *q = S.p;
  *q = 2;
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  S.p = &x;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
