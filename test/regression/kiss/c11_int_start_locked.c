// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// The race-free twin of c11_int_start_race.c: x under a mutex. The int
// start routines run (called with their own type by __kiss_run) and no
// race is found; unknown, since KISS never proves race freedom.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores
// CHECK-NOT: invalid function pointer
#include <threads.h>
mtx_t m;
int x;
int w(void *a) {
  mtx_lock(&m);
  x++;
  mtx_unlock(&m);
  return 1;
}
int main(void) {
  thrd_t a, b;
  mtx_init(&m, mtx_plain);
  thrd_create(&a, w, 0);
  thrd_create(&b, w, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return x;
}
