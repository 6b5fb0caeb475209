// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The lock is held on only one path into the access.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x, flag;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) {
  if (flag)
    pthread_mutex_lock(&m);
  x++;                                     // expected-race
  if (flag)
    pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
