// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// The write comes after 20 iterations of a loop, beyond the default unwind
// bound of 8: the race is not found and the bound is reported (unknown,
// never race-free). With --unwind=20 the race is found.
// RUN: %not %crace --engine=kiss --unwind=20 %s | %FileCheck --check-prefix=DEEP %s
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: unwinding bound 8 reached
// DEEP: error: data race on 'x'
// DEEP: verdict: race
#include <pthread.h>
int x;
void *t(void *p) {
  int s = 0;
  for (int i = 0; i < 20; i++)
    s += i;
  if (s == 190)
    x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = x;
  pthread_join(h, 0);
  return v;
}
