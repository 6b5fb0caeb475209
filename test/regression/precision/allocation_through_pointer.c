// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// A thread library's allocator is called through its ops table, so the
// frontend cannot inline it at each call (frontend/HeapCloning.h). It
// returns a fresh block it never touches, so points-to makes each call
// through the table its own heap object, named after the call
// (model/PointsTo.h): the two statistics blocks stay apart and each thread
// writes its own without a lock. The log buffer is written by both: a
// race. lib_alloc_zeroed writes into its block (memset), so its calls
// stay one object: 'z1' and 'z2' are one object, and their unlocked
// writes are a (false) possible race the lockset engine keeps.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
// CHECK-DAG: possible data race on '{{(struct [a-z_]+\.[a-z_]+ in the )?}}heap object returned by the call at {{.*}}allocation_through_pointer.c:65:13'
// CHECK-DAG: possible data race on '{{(struct [a-z_]+\.[a-z_]+ in the )?}}heap object allocated at {{.*}}allocation_through_pointer.c:35:
// CHECK-NOT: allocation_through_pointer.c:59:
// CHECK-NOT: allocation_through_pointer.c:61:
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct stats {
  long n;
};
struct alloc_ops {
  void *(*alloc)(size_t n);
};
static void *lib_alloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    abort();
  return p;
}
static void *lib_alloc_zeroed(size_t n) {
  void *p = malloc(n);
  if (p)
    memset(p, 0, n);
  return p;
}
struct alloc_ops ops = {lib_alloc};
struct alloc_ops zops = {lib_alloc_zeroed};
struct stats *a, *b, *z1, *z2;
char *log_buf;
static void *count_a(void *x) {
  a->n++;
  if (z1)
    z1->n++; // expected-race(lockset)
  log_buf[0] = 'a'; // expected-race
  return 0;
}
static void *count_b(void *x) {
  b->n++;
  if (z2)
    z2->n++; // expected-race(lockset)
  log_buf[0] = 'b'; // expected-race
  return 0;
}
int main(void) {
  a = ops.alloc(sizeof *a);
  a->n = 0;
  b = ops.alloc(sizeof *b);
  b->n = 0;
  z1 = zops.alloc(sizeof *z1);
  z2 = zops.alloc(sizeof *z2);
  log_buf = ops.alloc(16);
  pthread_t t1, t2;
  pthread_create(&t1, 0, count_a, 0);
  pthread_create(&t2, 0, count_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return (int)(a->n + b->n);
}
