// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DRACY | %FileCheck %s --check-prefix=RACY
// 'pick' is context-insensitive in the points-to analysis, so 'p' in
// 'worker' may point to the function pointer 'log_fn' as well as to 'e'.
// The unlocked write 'p->maps' is a member of 'struct entry', and an
// object of scalar type (a global pointer variable) is not a struct: it
// cannot race with the reads of 'log_fn' in 'logger' (C's effective-type
// rules, analysis/PairFilters.h). Type-based alias tags alone do not say
// so, as a plain pointer lvalue may point into a struct. With RACY,
// 'worker' also writes 'log_fn' itself, a plain pointer access: a race.
// expected-verdict: race-free
// RACY: possible data race on 'log_fn'
#include <pthread.h>
#include <stdio.h>
struct entry {
  void *maps;
  int n;
};
void (*log_fn)(const char *);
struct entry e;
int x;
static void quiet(const char *s) {}
__attribute__((noinline)) void *pick(int k) {
  if (k)
    return (void *)&log_fn;
  return &e;
}
void *worker(void *arg) {
  struct entry *p = pick(0);
  p->maps = &x;
#ifdef RACY
  log_fn = quiet;
#endif
  return 0;
}
void *logger(void *arg) {
  if (log_fn)
    log_fn("hello");
  return 0;
}
int main(void) {
  *(void (**)(const char *))pick(1) = quiet;
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, logger, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
