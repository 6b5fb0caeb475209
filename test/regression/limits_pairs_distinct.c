// RUN: %not %crace --engine=lockset --max-findings=0 --max-pairs=100 %s | %FileCheck %s
// The pairing bound counts findings -- pairs of source locations -- not
// instruction pairs. 'a' is updated 32 times on one line by two threads:
// over 2000 conflicting instruction pairs, but one finding. Counted by
// instruction pairs, the bound of 100 was used up on 'a' and the race on
// 'b' was never looked at (as ypbind's injected race was, behind the many
// instructions that reach crace's RPC model object).
// CHECK-DAG: possible data race on 'a'
// CHECK-DAG: possible data race on 'b'
// CHECK-NOT: search for further pairs stopped
#include <pthread.h>
int a, b;
#define FOUR(x) x++; x++; x++; x++;
#define MANY(x) FOUR(x) FOUR(x) FOUR(x) FOUR(x) FOUR(x) FOUR(x) FOUR(x) FOUR(x)
void *t(void *arg) {
  MANY(a)
  b = 1;
  return 0;
}
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t, 0);
  pthread_create(&y, 0, t, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
