// RUN: %crace --verify --engine=explore %s
// An empty asm statement is a compiler barrier (libvsync uses them around
// atomics): executed as a no-op, so the race behind it is still found.
// expected-verdict: race
#include <pthread.h>
int x;
void *t(void *p) {
  __asm__ __volatile__("" ::: "memory");
  x = 1;                                     // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  __asm__ __volatile__("" ::: "memory");
  int v = x;                                 // expected-race
  pthread_join(h, 0);
  return v;
}
