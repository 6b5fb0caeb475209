// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Objects a thread allocates and never publishes are private to it.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
void *w(void *p) {
  int *buf = malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++)
    buf[i] = i;
  free(buf);
  return 0;
}
int main(void) {
  pthread_t h[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
