// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DRACY | %FileCheck %s
// A variadic function reads its arguments through a va_list; points-to
// follows them from every call's variadic arguments to what va_arg
// yields. Each thread hands record() its own counter, and record()
// updates it (and the shared 'calls' under the lock): race-free. Before,
// what va_arg yields was a pointer of unknown origin and the verdict said
// "variadic function 'record' reads its arguments, which is not tracked".
// With RACY both threads hand over the same counter, which then races.
// CHECK: possible data race on 'shared_count'
// CHECK-NOT: unknown origin
// expected-verdict: race-free
#include <pthread.h>
#include <stdarg.h>
int calls, shared_count;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void record(int n, ...) {
  va_list ap, copy;
  va_start(ap, n);
  va_copy(copy, ap);
  for (int i = 0; i < n; i++) {
    int *counter = va_arg(copy, int *);
    (*counter)++;
  }
  va_end(copy);
  va_end(ap);
  pthread_mutex_lock(&lock);
  calls++;
  pthread_mutex_unlock(&lock);
}
void *t(void *a) {
  int own = 0, mine = 0;
#ifdef RACY
  record(2, &own, &shared_count);
#else
  record(2, &own, &mine);
#endif
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
