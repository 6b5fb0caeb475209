// RUN: %crace --verify --engine=circ %s
// value_barrier.c with the write after the flag is set: the readers may
// already read. circ must keep the pair.
// expected-verdict(circ): possible-race
#include <pthread.h>
_Bool ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int data;
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  int x = data;                           // expected-race(circ)
  (void)x;
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 4; i++)
    pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  data = 42;                              // expected-race(circ)
  return 0;
}
