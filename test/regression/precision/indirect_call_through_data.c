// RUN: %crace --verify --engine=lockset %s
// A table mixes handlers with data pointers; points-to merges its cells
// (the index is a variable), so the pointer called may also point at the
// data. Calling data is undefined behaviour (the printed assumption), so
// the call goes to the handlers alone: it is resolved, and the verdict can
// be race-free. Before, the data in the set made the call "unresolved",
// and its result a pointer of unknown origin.
// expected-verdict: race-free
#include <pthread.h>
int hits, limit = 10;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int *bump(void) {
  pthread_mutex_lock(&lock);
  hits++;
  pthread_mutex_unlock(&lock);
  return &limit;
}
static int *peek(void) { return &limit; }
void *slots[3] = {(void *)bump, (void *)peek, &limit};
void *t(void *a) {
  long i = (long)a;
  int *(*f)(void) = (int *(*)(void))slots[i % 2];
  int *p = f();
  return (void *)(long)*p;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, (void *)0);
  pthread_create(&b, 0, t, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
