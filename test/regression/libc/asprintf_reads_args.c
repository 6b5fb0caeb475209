// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// asprintf (models/stdio.c) formats its arguments into a fresh string: it
// reads the %s argument, which main writes under a lock the worker does
// not hold (a race), and the string it returns is the worker's own (its
// write to s[0] races with nothing). Before the model, asprintf was an
// unknown external function: no verdict.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
char name[16] = "worker";
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *w(void *a) {
  char *s;
  if (asprintf(&s, "%s-%d", name, 5) < 0) // expected-race(lockset)
    return 0;
  s[0] = 'W';
  free(s);
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
