// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// RUN: %crace --verify --engine=explore %s
// The section's first access, the write to y, is enabled together with
// main's plain read of y in the state where the section begins: a race,
// which kiss and explore both confirm (the section's later read of x does
// not change that). atomic_section_later_access.c swaps the two.
// expected-verdict: race
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x, y;
void *w(void *p) {
  __VERIFIER_atomic_begin();
  y = 2; // expected-race
  int v = x;
  __VERIFIER_atomic_end();
  return (void *)(long)v;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  int r = y; // expected-race
  pthread_join(h, 0);
  return r;
}
