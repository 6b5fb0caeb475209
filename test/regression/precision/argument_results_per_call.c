// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DSAME | %FileCheck %s --check-prefix=SAME
// 'skip_blanks' returns its argument moved forward, and 'strchr' (a
// model that is not inlined: the explore engine computes it) returns a
// pointer into its argument. The points-to analysis is context-
// insensitive, but a call of a function whose result is always one of its
// own arguments moved by some offset points where that call's argument
// does (model/PointsTo.h): 'pa' and 'pb' stay apart, and so do 'ca' and
// 'cb'. Before, every call returned what any call passed, and each
// thread's write looked like it could hit the other's buffer. With SAME,
// 'pb' points into 'a' too, and the writes race.
// expected-verdict: race-free
// SAME: possible data race on 'a[*]'
#include <pthread.h>
#include <string.h>
char a[16] = "  alpha=1", b[16] = "  beta=2";
char *pa, *pb, *ca, *cb;
__attribute__((noinline)) char *skip_blanks(char *s) {
  while (*s == ' ')
    s++;
  return s;
}
void *left(void *arg) {
  *pa = 'A';
  if (ca)
    *ca = ':';
  return 0;
}
void *right(void *arg) {
  *pb = 'B';
  if (cb)
    *cb = ':';
  return 0;
}
int main(void) {
  pa = skip_blanks(a);
#ifdef SAME
  pb = skip_blanks(a);
#else
  pb = skip_blanks(b);
#endif
  ca = strchr(a, '=');
  cb = strchr(b, '=');
  pthread_t t1, t2;
  pthread_create(&t1, 0, left, 0);
  pthread_create(&t2, 0, right, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
