// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// C11 atomics and GCC builtins are atomic: no race among them.
// expected-verdict: race-free
#include <pthread.h>
#include <stdatomic.h>
atomic_int a;
int g;
long s;
void *w(void *p) {
  atomic_fetch_add(&a, 1);
  atomic_store_explicit(&a, 3, memory_order_relaxed);
  __sync_fetch_and_add(&g, 1);
  __atomic_store_n(&s, 5, __ATOMIC_SEQ_CST);
  return (void *)(long)(atomic_load(&a) + __atomic_load_n(&s, __ATOMIC_ACQUIRE));
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
