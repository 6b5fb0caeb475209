// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A thread-specific data destructor runs at each thread's exit (for a
// non-null value): both threads' destructors update the counter unlocked.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
int count;
pthread_key_t key;
static void dtor(void *p) {
  count++;                                                       // expected-race
  free(p);
}
static void *t(void *a) {
  pthread_setspecific(key, malloc(4));
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_key_create(&key, dtor);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
