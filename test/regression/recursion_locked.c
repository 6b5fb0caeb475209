// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A recursive function called with the lock held.
// expected-verdict: race-free
#include <pthread.h>
int depth;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void rec(int n) {
  if (n == 0)
    return;
  depth++;
  rec(n - 1);
}
void *w(void *p) {
  pthread_mutex_lock(&m);
  rec(5);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
