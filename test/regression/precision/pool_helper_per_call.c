// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Two pools share one pair of helpers that pop and push a free list kept
// in the blocks themselves (as memcached's do_cache_alloc and
// do_cache_free). Shared, pool_get would hand either thread what either
// pool holds, and its malloc would be one heap object for both; inlined at
// each call (frontend/HeapCloning.h, inlinePoolHelpers), each thread's
// call reaches its own pool and allocates its own block. The statistics
// both threads bump do race.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
struct pool {
  void *head;
  long total;
};
void *pool_get(struct pool *p) {
  void *r = p->head;
  if (r) {
    p->head = *(void **)r;
    return r;
  }
  p->total++;
  return malloc(32);
}
void pool_put(struct pool *p, void *b) {
  *(void **)b = p->head;
  p->head = b;
}
struct pool pa, pb;
long served;
static void *use_a(void *x) {
  long *v = pool_get(&pa);
  if (!v)
    return 0;
  v[1] = 1;
  pool_put(&pa, v);
  served++; // expected-race
  return 0;
}
static void *use_b(void *x) {
  long *v = pool_get(&pb);
  if (!v)
    return 0;
  v[1] = 2;
  pool_put(&pb, v);
  served++; // expected-race
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, use_a, 0);
  pthread_create(&t2, 0, use_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return (int)served;
}
