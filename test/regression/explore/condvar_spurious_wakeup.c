// RUN: %crace --verify --engine=explore %s
// The consumer waits with 'if', not 'while': a spurious wake-up (which
// POSIX allows) lets it read the data while the producer writes it.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;
void *producer(void *p) {
  data = 1;                                 // expected-race
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  if (!ready)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  int v = data;                             // expected-race
  pthread_join(t, 0);
  return v;
}
