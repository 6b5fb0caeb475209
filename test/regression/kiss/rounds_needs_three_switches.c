// RUN: %not %crace --engine=kiss --kiss-max=1 %s | %FileCheck %s --check-prefix=KISS
// RUN: %crace --verify --engine=kiss --rounds=2 %s
// RUN: %crace --verify --engine=kiss --rounds=3 %s
// The race needs t to run twice: t announces itself (a), main sees it and
// answers (b), t sees the answer and reaches its write of x while main is
// at its read: t -> main -> t -> main. KISS runs a thread in one piece
// (balanced executions), so it cannot find the race and answers unknown,
// never race-free; two rounds of round-robin (--rounds=2) find it.
// KISS: verdict: unknown
// KISS: no race in the executions KISS explores (balanced executions
// expected-verdict: race
#include <pthread.h>
#include <stdatomic.h>
atomic_int a, b;
int x;
void *t(void *p) {
  atomic_store(&a, 1);
  if (atomic_load(&b))
    x = 1;                                          // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = 0;
  if (atomic_load(&a)) {
    atomic_store(&b, 1);
    v = x;                                          // expected-race(kiss)
  }
  pthread_join(h, 0);
  return v;
}
