// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// C11 start routines return int, not void *: models/c11threads.c hands
// them to __crace_thread_create cast to void *(*)(void *), and the
// runtime's __kiss_run calls them as that type. The transform makes
// __kiss_run call them with their own type (the bmc reaches no function of
// another type through a pointer: "possible call through an invalid
// function pointer at function '__kiss_run'", unknown).
// expected-verdict: race
// CHECK: data race on 'x'
// CHECK: verdict: race
#include <threads.h>
int x;
int w(void *a) {
  x++;                                              // expected-race(kiss)
  return 0;
}
int main(void) {
  thrd_t a, b;
  thrd_create(&a, w, 0);
  thrd_create(&b, w, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  return x;
}
