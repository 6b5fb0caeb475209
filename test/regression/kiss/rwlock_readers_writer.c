// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// The race-free twins of rwlock_write_under_read_lock.c: readers that only
// read x under the read lock (two may hold it at once: rdlock and
// tryrdlock), writers that write it under the write lock (wrlock, and
// trywrlock, which fails while a reader holds it). Readers exclude
// writers, so no race may be reported; unknown, as KISS never proves race
// freedom.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores
#include <pthread.h>
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x, seen;
void *reader(void *a) {
  int v = 0;
  if (a) {
    pthread_rwlock_rdlock(&l);
    v = x;
    pthread_rwlock_unlock(&l);
  } else if (pthread_rwlock_tryrdlock(&l) == 0) {
    v = x;
    pthread_rwlock_unlock(&l);
  }
  return (void *)(long)v;
}
void *writer(void *a) {
  pthread_rwlock_wrlock(&l);
  x++;
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, reader, &x);
  pthread_create(&b, 0, reader, 0);
  pthread_create(&c, 0, writer, 0);
  if (pthread_rwlock_trywrlock(&l) == 0) {
    x = 5;
    pthread_rwlock_unlock(&l);
  }
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
