// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A call to a function with no body and no model makes race freedom unprovable.
// expected-verdict: unknown
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void mystery(int *);
void *w(void *p) {
  pthread_mutex_lock(&m);
  mystery(&x);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
