// RUN: %crace --verify --engine=lockset %s
// GCC >= 11's glibc headers (kept in GCC-preprocessed, CIL-combined files)
// declare allocators with __attribute__((__malloc__(deallocator, index))),
// which clang rejects ("'__malloc__' attribute takes no arguments"): the
// front end drops the arguments. Before: exit 4, the input does not compile.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
extern void *my_alloc(unsigned long n) __attribute__((__malloc__(free, 1), __malloc__));
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;
void *w(void *a) {
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
