// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss --stats %s | %FileCheck %s
// The threads share a global that nothing writes: kiss has no target and
// says what is missing.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no memory that threads share is written (no shared global variable, heap or stack object that an access may write), so there is no target to check
// CHECK: kiss_targets{{ +}}0.00
#include <pthread.h>
int config;
void *t(void *p) { return (void *)(long)config; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = config;
  pthread_join(h, 0);
  return v;
}
