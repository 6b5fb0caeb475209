// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify %s
// RUN: %crace %s 2>&1 | %FileCheck %s
// RUN: %crace --library --list-entry-points %s | %FileCheck --check-prefix=LIST %s
// Every access of the library's object is under its lock: proved race-free
// for concurrent calls, under the harness's printed assumptions. The static
// function and the constructor are not entry points.
// CHECK: crace: verdict: race-free
// CHECK: library harness: the entry points counter_add, counter_get run concurrently
// CHECK: the harness's objects start zero-filled
// LIST: entry point counter_add [entry]: exported by counter_locked.c:
// LIST-NEXT: entry point counter_get [entry]: exported by counter_locked.c:
// LIST-NEXT: harness: 2 concurrent entry point(s) x 2 threads
// expected-verdict: race-free
#include <pthread.h>

struct counter {
  pthread_mutex_t m;
  long n;
};
static int ready;

__attribute__((constructor)) static void setup(void) { ready = 1; }
__attribute__((constructor)) void setup_exported(void) { ready = 2; }

static void bump(struct counter *c, long k) { c->n += k; }

void counter_add(struct counter *c, long k) {
  pthread_mutex_lock(&c->m);
  bump(c, k);
  pthread_mutex_unlock(&c->m);
}

long counter_get(struct counter *c) {
  pthread_mutex_lock(&c->m);
  long v = c->n;
  pthread_mutex_unlock(&c->m);
  return v;
}
