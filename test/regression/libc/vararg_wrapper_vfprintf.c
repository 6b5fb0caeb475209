// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify %s
// A logging wrapper (variadic, formats through vfprintf) reads the string
// it is handed while main writes it under a lock the worker does not take:
// a race. Before, the static engines saw vfprintf read only its va_list
// (a local) and answered race-free. Now a variadic function that hands its
// va_list to a printf-family function reads, at each of its calls, what
// its variadic pointer arguments point to, as printf does.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
char name[16] = "worker";
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void vlog(const char *fmt, va_list ap) {
  vfprintf(stderr, fmt, ap); // expected-race(explore)
}

void logmsg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
}

void *w(void *a) {
  logmsg("%s: %d\n", name, 5); // expected-race(lockset)
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  name[0] = 'X'; // expected-race
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
