// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A flag and data handed over under a mutex with a condition variable.
// expected-verdict: race-free
#include <pthread.h>
int ready, data;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *producer(void *p) {
  pthread_mutex_lock(&m);
  data = 42;
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
  int v = data;
  pthread_mutex_unlock(&m);
  return v;
}
