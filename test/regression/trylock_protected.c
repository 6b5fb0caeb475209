// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The branch where trylock succeeded holds the lock.
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) {
  if (pthread_mutex_trylock(&m) == 0) {
    x++;
    pthread_mutex_unlock(&m);
  }
  while (pthread_mutex_trylock(&m))
    ;
  x--;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
