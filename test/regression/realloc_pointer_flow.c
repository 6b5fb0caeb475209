// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Pointers stored in a buffer survive realloc: the threads write x through
// the reallocated array.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
int x;
void *w(void *p) {
  int **arr = p;
  *arr[1] = 3;                        // expected-race
  return 0;
}
int main(void) {
  int **a = malloc(2 * sizeof(int *));
  a[0] = 0;
  a[1] = &x;
  int **b = realloc(a, 4 * sizeof(int *));
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, b);
  return 0;
}
