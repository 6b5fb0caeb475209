// RUN: %crace --verify --engine=kiss --kiss-yields=all %s
// RUN: %not %crace --engine=kiss --kiss-yields=all --stats %s | %FileCheck %s
// These runs place schedule points before every visible operation
// (--kiss-yields=all, KISS's form): with the default, the lockset analysis
// proves the object race-free and kiss has no target (yields_racy.c).
// A heap object shared by main and a thread, every access under the
// mutex that the object itself holds: kiss checks the object (a target)
// and finds no race; since KISS covers only balanced executions the
// verdict is unknown, never race-free.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores (balanced executions, ts size 0, unwind 8); this does not prove race freedom
// CHECK: kiss_query_status.heap object allocated at heap_lock_protected.c:30{{ +}}0.00
#include <pthread.h>
#include <stdlib.h>
struct counter {
  pthread_mutex_t m;
  int n;
};
void *t(void *arg) {
  struct counter *c = arg;
  pthread_mutex_lock(&c->m);
  c->n = c->n + 1;
  pthread_mutex_unlock(&c->m);
  return 0;
}
int main(void) {
  pthread_t h;
  // (line 27 below: the allocation site)
  struct counter *c = malloc(sizeof *c);
  pthread_mutex_init(&c->m, 0);
  c->n = 0;
  pthread_create(&h, 0, t, c);
  pthread_mutex_lock(&c->m);
  c->n = c->n + 1;
  pthread_mutex_unlock(&c->m);
  pthread_join(h, 0);
  int n = c->n;
  free(c);
  return n;
}
