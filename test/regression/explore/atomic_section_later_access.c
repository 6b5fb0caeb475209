// RUN: %crace --verify --engine=explore %s
// An atomic section runs without interruption: only its first access is
// ever enabled together with another thread's plain access (in the state
// where the section begins). Here the section's write to y comes after its
// read of x, so the plain read of y never meets it in one state. But the
// section as a whole was enabled with the read, and in C the section is no
// synchronisation: a possible race, not confirmed (SV-COMP's
// pthread-complex/elimination_backoff_stack, with this shape, is labelled
// race-free) and not proved absent (explore answered race-free here
// before, and so on later_section_write_race.c, whose shape SV-COMP's
// fib_*-racy tasks label racy). The section's first access (the read of x)
// against a plain write of x is a confirmed race:
// verifier_atomic_sections.c.
// expected-verdict: possible-race
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x, y;
void *w(void *p) {
  __VERIFIER_atomic_begin();
  int v = x;
  y = v + 1; // expected-race
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  int r = y; // expected-race
  pthread_join(h, 0);
  return r;
}
