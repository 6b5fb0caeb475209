// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Readers under a read lock do not race with each other; the writer holds the write lock.
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
void *reader(void *p) {
  pthread_rwlock_rdlock(&l);
  int v = x;
  pthread_rwlock_unlock(&l);
  return (void *)(long)v;
}
void *writer(void *p) {
  pthread_rwlock_wrlock(&l);
  x++;
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t h[3];
  pthread_create(&h[0], 0, reader, 0);
  pthread_create(&h[1], 0, reader, 0);
  pthread_create(&h[2], 0, writer, 0);
  return 0;
}
