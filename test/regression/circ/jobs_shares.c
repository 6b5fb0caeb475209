// RUN: %crace --verify --engine=circ %s
// Three counters behind one state flag (state_flag.c's protocol), and one
// every thread bumps without it: circ tries the four locations, each a
// task of its own with an equal share of the budget; it proves the three
// and keeps the fourth. jobs_shares.test runs
// it with and without a budget cut and checks that --jobs does not change
// the outcome.
// expected-verdict(circ): possible-race
#include <pthread.h>
int x1, x2, x3, y, state;
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
      x1 = x1 + 1;
      x2 = x2 + 2;
      x3 = x3 + 3;
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
