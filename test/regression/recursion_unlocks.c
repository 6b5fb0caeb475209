// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A recursive function that releases the lock: the access after the call is unprotected.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void rec(int n) {
  if (n == 0) {
    pthread_mutex_unlock(&m);
    return;
  }
  rec(n - 1);
}
void *w(void *p) {
  pthread_mutex_lock(&m);
  rec(3);
  x++;                                     // expected-race
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
