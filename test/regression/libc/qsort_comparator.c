// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// qsort calls the program's comparator on the array's elements: the
// comparator's count of calls races with another thread's read of it.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
int compares;
int cmp(const void *a, const void *b) {
  compares++;                                            // expected-race
  return *(const int *)a - *(const int *)b;
}
void *watch(void *arg) {
  return (void *)(long)compares;                         // expected-race
}
int main(void) {
  int v[3] = {3, 1, 2};
  pthread_t h;
  pthread_create(&h, 0, watch, 0);
  qsort(v, 3, sizeof v[0], cmp);
  pthread_join(h, 0);
  return v[0];
}
