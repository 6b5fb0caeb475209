// RUN: %crace --verify --engine=explore --no-pdp --all-races %s
// An assertion that fails in one interleaving is reported as its own
// finding, with the run that reaches it; the program is race-free (every
// access is under the lock), so the verdict is unaffected.
// expected-verdict: race-free
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t(void *p) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  int v = x;
  pthread_mutex_unlock(&m);
  assert(v == 0);                                   // expected-assertion(explore)
  pthread_join(h, 0);
  return 0;
}
