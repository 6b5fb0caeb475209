// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss --stats %s | %FileCheck %s
// RUN: %not %crace --engine=kiss --emit-sequential %t.ll %s
// RUN: llvm-as %t.ll -o /dev/null
// RUN: %FileCheck --check-prefix=IR %s < %t.ll
// Two objects from one malloc site (in a loop), each handed to its own
// thread, which alone writes it (main initialises it before the thread
// exists). The site is one target of kiss that stands for both objects;
// writes at the same offset of the two objects are no race: the check
// compares the object (__crace_bmc_same_object) before the bytes. Without
// it the comparison of addresses in two objects is arbitrary and the query
// ends unknown; with it the query finds no race.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores
// CHECK: kiss_targets{{ +}}1.00
// CHECK: kiss_query_status.heap object allocated at heap_two_instances.c:33{{ +}}0.00
// IR: targets: 'heap object allocated at heap_two_instances.c:33'
// IR: declare i1 @__crace_bmc_same_object(ptr, ptr)
#include <pthread.h>
#include <stdlib.h>
void *t(void *arg) {
  int *v = arg;
  *v = 1;
  *v = *v + 1;
  return 0;
}
int main(void) {
  pthread_t h[2];
  int *obj[2];
  for (int i = 0; i < 2; i++) {
    // (line 33 below: the allocation site)
    obj[i] = malloc(sizeof(int));
    *obj[i] = 0;
    pthread_create(&h[i], 0, t, obj[i]);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  int sum = *obj[0] + *obj[1];
  free(obj[0]);
  free(obj[1]);
  return sum;
}
