// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// setjmp is modelled by its first return; longjmp, which returns from it
// again, is not, and says so.
// CHECK: verdict: unknown
// CHECK: call to 'longjmp' at {{.*}}longjmp_reason.c:13:{{[0-9]+}}: the models give setjmp its first return only
#include <pthread.h>
#include <setjmp.h>
jmp_buf env;
int x;
void *t(void *a) {
  if (setjmp(env) == 0) {
    x = 1;
    longjmp(env, 1);
  }
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return x;
}
