// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The join loop may stop early, leaving threads running when main writes.
// expected-verdict: possible-race
// expected-verdict(explore): race-free
#include <pthread.h>
int x, stop;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  pthread_mutex_lock(&m);
  x++;                              // expected-race(lockset)
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 4; i++) {
    if (stop)
      break;
    pthread_join(t[i], 0);
  }
  x = 1;                            // expected-race(lockset)
  return 0;
}
