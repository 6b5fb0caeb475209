// RUN: %crace --verify --engine=kiss %s
// A write under a read lock taken by tryrdlock, which succeeds while
// another reader holds the lock (rwlock_write_under_read_lock.c's race).
// expected-verdict: race
#include <pthread.h>
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;
void *w(void *a) {
  if (pthread_rwlock_tryrdlock(&l) == 0) {
    x++;                                            // expected-race(kiss)
    pthread_rwlock_unlock(&l);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return x;
}
