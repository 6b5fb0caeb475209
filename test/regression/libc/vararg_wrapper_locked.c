// RUN: %crace --verify --engine=lockset %s
// The same logging wrapper, called with the lock main writes the string
// under: race-free (the wrapper's read of its arguments is at the call,
// which holds the lock).
// expected-verdict: race-free
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
char name[16] = "worker";
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void logmsg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

void *w(void *a) {
  pthread_mutex_lock(&m);
  logmsg("%s: %d\n", name, 5);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  name[0] = 'X';
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
