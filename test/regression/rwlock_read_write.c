// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Writing under a read lock races with a reader.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
void *reader(void *p) {
  pthread_rwlock_rdlock(&l);
  int v = x;                               // expected-race
  pthread_rwlock_unlock(&l);
  return (void *)(long)v;
}
void *bad_writer(void *p) {
  pthread_rwlock_rdlock(&l);
  x = 1;                                   // expected-race
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t h[2];
  pthread_create(&h[0], 0, reader, 0);
  pthread_create(&h[1], 0, bad_writer, 0);
  return 0;
}
