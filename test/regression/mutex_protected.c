// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&h[i], 0, t, 0);
  pthread_mutex_lock(&m);
  x = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
