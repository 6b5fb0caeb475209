// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Threads created in a loop and all joined in a second loop over the same
// handles: main's accesses after the join loop are ordered after them.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char **argv) {
  int n = argc + 3;
  pthread_t *t = malloc(n * sizeof(pthread_t));
  x = 0;
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < n; i++)
    pthread_join(t[i], 0);
  x = x * 2;
  free(t);
  return x;
}
