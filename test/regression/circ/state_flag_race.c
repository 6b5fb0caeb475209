// RUN: %crace --verify --engine=circ %s
// state_flag.c with the reset before the write: a second thread can take
// the flag while the first still writes x. circ must not prove it.
// expected-verdict(circ): possible-race
#include <pthread.h>
int x, state;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  for (;;) {
    pthread_mutex_lock(&m);
    int old = state;
    if (state == 0)
      state = 1;
    pthread_mutex_unlock(&m);
    if (old == 0) {
      pthread_mutex_lock(&m);
      state = 0;
      pthread_mutex_unlock(&m);
      x = x + 1;                          // expected-race(circ)
    }
  }
  return 0;
}
int main(void) {
  pthread_t t;
  for (;;)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
