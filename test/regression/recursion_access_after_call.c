// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A recursive function called with the lock held accesses shared data
// after its recursive call. Nothing reachable from it unlocks m, so m is
// still held after the recursive call (crace once assumed a recursive call
// releases every lock; recursion_unlocks.c is the case where it does).
// expected-verdict: race-free
#include <pthread.h>
int depth;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void rec(int n) {
  if (n == 0)
    return;
  rec(n - 1);
  depth++;
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
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  return 0;
}
