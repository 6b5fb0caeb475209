// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// A call through a function pointer crace cannot resolve (here one read
// from library memory) calls a function of the program, whose body crace
// sees, or of a library, which cannot name the program's globals: it does
// not make 'counter' (external linkage, only touched under 'm') reachable
// by pointers of unknown origin. The unlocked writes through the library's
// pointer still race with each other.
// (unknown_pointer_escape.c: a function of the program itself without a
// body may name every global with external linkage.)
// CHECK-NOT: on 'counter'
// CHECK: possible data race on 'memory of unknown origin'
// CHECK-NOT: on 'counter'
// CHECK: crace: verdict: possible-race
#include <fstab.h>
#include <pthread.h>
int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
typedef void hook_fn(struct fstab *);
void *t(void *arg) {
  struct fstab *f = getfsent();
  if (f) {
    f->fs_freq = 1;
    hook_fn **hook = (hook_fn **)f->fs_spec;
    if (*hook)
      (*hook)(f);
  }
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
