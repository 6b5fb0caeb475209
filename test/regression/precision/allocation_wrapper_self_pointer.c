// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// big_new() stores a pointer to its block's payload into the block itself
// (as zebedee's bignums do). That keeps the block to itself, so it is still
// an allocation wrapper (frontend/HeapCloning.h): each call is its own heap
// object, and the two threads' numbers do not race. The log buffer does.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
// CHECK: possible data race on 'heap object allocated at {{.*}}allocation_wrapper_self_pointer.c:45:13'
// CHECK-NOT: possible data race
#include <pthread.h>
#include <stdlib.h>
struct big {
  long *d;
  long n;
};
struct big *big_new(int n) {
  struct big *h = malloc(sizeof *h + (size_t)n * sizeof(long));
  if (!h)
    abort();
  h->d = (long *)(h + 1);
  h->n = n;
  for (int i = 0; i < n; i++)
    h->d[i] = 0;
  return h;
}
struct big *a, *b;
char *log_buf;
static void *count_a(void *x) {
  a->d[0]++;
  a->n++;
  log_buf[0] = 'a'; // expected-race
  return 0;
}
static void *count_b(void *x) {
  b->d[0]++;
  b->n++;
  log_buf[0] = 'b'; // expected-race
  return 0;
}
int main(void) {
  a = big_new(4);
  b = big_new(4);
  log_buf = malloc(16);
  if (!log_buf)
    return 1;
  pthread_t t1, t2;
  pthread_create(&t1, 0, count_a, 0);
  pthread_create(&t2, 0, count_b, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return (int)(a->n + b->n);
}
