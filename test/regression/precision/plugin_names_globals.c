// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// Code loaded at run time (dlsym) may be a plugin of the program, which can
// name every global with external linkage: the pointer the plugin returns
// may be '&counter', so its unlocked write may race with the locked ones.
// (unresolved_call_library.c: without dlsym a call crace cannot resolve
// does not make the globals reachable.)
// CHECK: possible data race on 'counter'
// CHECK: crace: verdict: possible-race
#include <dlfcn.h>
#include <pthread.h>
int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
typedef int *lookup_fn(const char *);
void *t(void *arg) {
  lookup_fn *lookup = (lookup_fn *)dlsym(RTLD_DEFAULT, "plugin_lookup");
  if (lookup) {
    int *p = lookup("counter");
    if (p)
      *p = 1;
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
