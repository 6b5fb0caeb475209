// RUN: %not %crace --engine=kiss --rounds=2 %s | %FileCheck %s
// The threads share a heap object, which the K-round form does not copy
// per round: --rounds answers unknown and says why (never a race it could
// not validate, never race-free).
// CHECK: verdict: unknown
// CHECK: kiss: --rounds supports shared global variables only: the accesses at {{.*}}rounds_shared_heap.c:{{[0-9]+}}
#include <pthread.h>
#include <stdlib.h>
int *p;
void *t(void *arg) {
  *p = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  p = malloc(sizeof(int));
  pthread_create(&h, 0, t, 0);
  *p = 2;
  pthread_join(h, 0);
  return 0;
}
