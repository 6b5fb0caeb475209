// RUN: %crace --verify --engine=explore %s
// calloc of zero bytes writes nothing (its model used to ask for a string
// write, which stopped the search), and a calloc the executor refuses
// (more than 256 MiB) returns NULL without writing (it used to write
// through NULL: a memory error that ended the run). Both are only the way
// to the race.
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
int x;
void *t(void *p) {
  x = 1;                                            // expected-race
  return 0;
}
int main(void) {
  char *none = calloc(0, 1);
  int *huge = calloc((size_t)1 << 28, sizeof(int));
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (!huge)
    x = 2;                                          // expected-race
  pthread_join(h, 0);
  free(none);
  free(huge);
  return 0;
}
