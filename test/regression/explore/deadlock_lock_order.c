// RUN: %crace --verify --engine=explore --no-pdp --all-races %s
// (--no-pdp: pruning keeps every race, not every deadlock.)
// Two locks taken in opposite orders: in one interleaving each thread holds
// one lock and waits for the other. The data itself is protected.
// expected-verdict: race-free
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *p) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);                  // expected-deadlock
  x++;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);                  // expected-deadlock
  x++;
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  pthread_join(t, 0);
  return 0;
}
