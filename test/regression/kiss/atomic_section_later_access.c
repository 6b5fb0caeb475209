// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// RUN: %crace --verify --engine=explore %s
// kiss and explore agree on accesses inside an atomic section against
// another thread's plain access. The section's write to y comes after its
// read of x, so main's plain read of y meets it in no state: the section's
// first access is always between them. In C the section is no
// synchronisation, and SV-COMP labels this shape both ways
// (pthread-complex/elimination_backoff_stack race-free, pthread/fib_*-racy
// racy), so explore reports a possible race only
// (explore/atomic_section_later_access.c). kiss confirmed it as a race
// (with --kiss-max=1) before; now it confirms nothing here (unknown), and
// still confirms the same shape when the write is the section's first
// access: atomic_section_first_access.c.
// expected-verdict: possible-race
// expected-verdict(kiss): unknown
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x, y;
void *w(void *p) {
  __VERIFIER_atomic_begin();
  int v = x;
  y = v + 1; // expected-race(explore)
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  int r = y; // expected-race(explore)
  pthread_join(h, 0);
  return r;
}
