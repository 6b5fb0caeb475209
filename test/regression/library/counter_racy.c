// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify %s
// RUN: %not %crace --engine=lockset %s 2>&1 | %FileCheck %s
// A library without main: its exported functions run concurrently (library
// mode), each also with itself, on one shared object per parameter type.
// The hit count is updated outside the lock; count_total has no lock.
// CHECK: crace: note: no unit defines main: checking the input as a library
// CHECK: possible data race on 'library object <struct counter>.hits'
// CHECK: crace: checked as a library: entry points counter_add, counter_get, count_total called concurrently, 2 calls each
// RUN: %not %crace --engine=lockset --format=json %s 2>/dev/null | %FileCheck --check-prefix=JSON %s
// JSON: "harness": "library: entry points counter_add, counter_get, count_total called concurrently, 2 calls each
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>

struct counter {
  pthread_mutex_t m;
  long n;
  long hits;
};
static long total;

void counter_add(struct counter *c, long k) {
  pthread_mutex_lock(&c->m);
  c->n += k;
  pthread_mutex_unlock(&c->m);
  c->hits++; // expected-race
}

long counter_get(struct counter *c) {
  pthread_mutex_lock(&c->m);
  long v = c->n;
  pthread_mutex_unlock(&c->m);
  return v;
}

void count_total(void) { total++; } // expected-race

// Not exported: the harness does not call it (it is called by nobody).
static void reset(struct counter *c) { c->hits = 0; }
