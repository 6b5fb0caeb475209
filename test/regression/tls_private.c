// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// __thread variables are per thread: no race.
// expected-verdict: race-free
#include <pthread.h>
__thread int mine;
void *w(void *p) {
  mine++;
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  mine = 3;
  return 0;
}
