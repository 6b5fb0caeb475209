// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The join loop waits for only three of the four threads: the last one
// may still be running when main writes x.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
void *w(void *a) {
  x++;                              // expected-race
  return 0;
}
int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  x = 1;                            // expected-race
  return 0;
}
