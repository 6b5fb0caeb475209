// RUN: %crace --verify --engine=circ %s
// A flag that is thread-local cannot protect anything: every thread sees
// its own `mine` as 0 and writes x. (As a shared variable, the other
// threads' `mine == 1` would make a thread skip the write.)
// expected-verdict(circ): possible-race
#include <pthread.h>
int x;
__thread int mine;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int first = mine == 0;
  mine = 1;
  pthread_mutex_unlock(&m);
  if (first)
    x = 1;                                // expected-race(circ)
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < 3; i++)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
