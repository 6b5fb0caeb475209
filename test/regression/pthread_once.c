// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// pthread_once runs the initialiser once; its writes are protected.
// expected-verdict: race-free
#include <pthread.h>
int config;
pthread_once_t once = PTHREAD_ONCE_INIT;
void init(void) { config = 42; }
void *w(void *p) {
  pthread_once(&once, init);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
