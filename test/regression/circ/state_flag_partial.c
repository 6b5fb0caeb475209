// RUN: %crace --verify --engine=circ %s
// state_flag.c plus a counter every thread bumps without the flag: circ
// proves x (its locations are proved one at a time) and keeps y.
// expected-verdict(circ): possible-race
#include <pthread.h>
int x, y, state;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  for (;;) {
    pthread_mutex_lock(&m);
    int old = state;
    if (state == 0)
      state = 1;
    pthread_mutex_unlock(&m);
    y = y + 1;                            // expected-race(circ)
    if (old == 0) {
      x = x + 1;
      pthread_mutex_lock(&m);
      state = 0;
      pthread_mutex_unlock(&m);
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
