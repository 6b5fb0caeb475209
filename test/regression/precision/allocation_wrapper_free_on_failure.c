// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// pool_create() frees its block and returns null when a second allocation
// fails (as memcached's cache_create does): freeing keeps no copy of the
// pointer, so it is still an allocation wrapper (frontend/HeapCloning.h).
// Each call is its own heap object, and the two threads' pools do not
// race. The shared statistics do.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
// CHECK: possible data race on 'served'
// CHECK-NOT: possible data race
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct pool {
  char *name;
  long used;
};
struct pool *pool_create(const char *name) {
  struct pool *p = calloc(1, sizeof *p);
  char *nm = strdup(name);
  if (p == NULL || nm == NULL) {
    free(p);
    free(nm);
    return NULL;
  }
  p->name = nm;
  return p;
}
struct pool *a, *b;
long served;
static void *use_a(void *x) {
  a->used++;
  served++; // expected-race
  return 0;
}
static void *use_b(void *x) {
  b->used++;
  served++; // expected-race
  return 0;
}
int main(void) {
  a = pool_create("a");
  b = pool_create("b");
  if (!a || !b)
    return 1;
  pthread_t t1, t2;
  pthread_create(&t1, 0, use_a, 0);
  pthread_create(&t2, 0, use_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return (int)(a->used + b->used);
}
