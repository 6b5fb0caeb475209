// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// One thread created once does not race with itself.
// expected-verdict: race-free
#include <pthread.h>
int counter;
void *w(void *p) {
  for (int i = 0; i < 10; i++)
    counter++;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  pthread_join(h, 0);
  return counter;
}
