// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The hand-off is signalled, but the data is read after unlocking: the lockset engine cannot see the order.
// expected-verdict: possible-race
// expected-verdict(explore): race-free
#include <pthread.h>
int ready, data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *producer(void *p) {
  data = 42;                               // expected-race(lockset)
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return data;                             // expected-race(lockset)
}
