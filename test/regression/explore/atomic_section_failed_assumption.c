// RUN: %crace --verify --engine=explore %s
// An atomic section that fails an assumption never happened (SV-COMP's
// semantics: the whole path is infeasible, and the section hid its accesses
// from every other thread). Its first access, the read of x, met main's
// plain write of x when the section began; explore now reports such a race
// only when the section completes, so here there is none. Before, it was
// reported at once: a race on an infeasible path.
// expected-verdict: race-free
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
void __VERIFIER_assume(int);
int x;
void *w(void *p) {
  __VERIFIER_atomic_begin();
  int v = x;
  __VERIFIER_assume(v == 5);
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  x = 1;
  return 0;
}
