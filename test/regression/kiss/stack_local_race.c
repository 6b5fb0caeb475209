// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss --stats %s | %FileCheck %s
// A local variable of main passed to a thread by pointer: the stack slot
// is a race target of kiss, and main's and the thread's unprotected
// updates race.
// expected-verdict: race
// CHECK: data race on 'counter'
// CHECK: verdict: race
// CHECK: kiss_query_status.local variable counter of main (stack_local_race.c:18){{ +}}1.00
#include <pthread.h>
void *t(void *arg) {
  int *c = arg;
  *c = *c + 1;                                      // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  int counter = 0;
  pthread_create(&h, 0, t, &counter);
  counter = counter + 1;                            // expected-race(kiss)
  pthread_join(h, 0);
  return counter;
}
