// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// Every object is allocated through the program's own wrappers (xmalloc,
// and xzalloc around it). Each call of a wrapper is its own heap object
// (frontend/HeapCloning.cpp), so the two statistics blocks are two
// objects: each thread writes its own without a lock, no race. The log
// buffer is written by both: a race, named after the wrapper's call.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
// CHECK: possible data race on 'heap object allocated by xmalloc() called at {{.*}}allocation_wrapper.c:45:13'
// CHECK-NOT: possible data race
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct stats {
  long n;
};
void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p)
    abort();
  return p;
}
void *xzalloc(size_t n) {
  void *p = xmalloc(n);
  memset(p, 0, n);
  return p;
}
struct stats *a, *b;
char *log_buf;
static void *count_a(void *x) {
  a->n++;
  log_buf[0] = 'a';                                              // expected-race
  return 0;
}
static void *count_b(void *x) {
  b->n++;
  log_buf[0] = 'b';                                              // expected-race
  return 0;
}
int main(void) {
  a = xzalloc(sizeof *a);
  b = xzalloc(sizeof *b);
  log_buf = xmalloc(16);
  pthread_t t1, t2;
  pthread_create(&t1, 0, count_a, 0);
  pthread_create(&t2, 0, count_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return (int)(a->n + b->n);
}
