// RUN: %crace --verify --engine=lockset --data-model=ILP32 %s
// RUN: %crace --verify --engine=explore --data-model=ILP32 %s
// RUN: %not %crace --engine=lockset --data-model=ILP32 %s -- -DRACY | %FileCheck %s --check-prefix=RACY
// A variadic function's arguments, as points-to follows them, are split
// by type: what calls pass as pointers, and what they pass as numbers.
// va_arg of an int reads a number argument only (a pointer argument read
// as an int is not va_arg of its type), even where an int is as wide as a
// pointer (ILP32). 'put' stores its int argument, as a character, into a
// record at a variable index, and only compares its pointer argument.
// Before, the int carried every pointer any call passed ('&shared') into
// the record, where it was read back with the record's 'owner' field, and
// main's write through 'owner' was paired with the worker's write to
// 'shared'. With RACY, 'put' writes through its pointer argument: a real
// race.
// expected-verdict: race-free
// RACY: possible data race on 'shared'
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void const *, void *(*)(void *),
                          void *);
extern int pthread_join(pthread_t, void **);
#include <stdarg.h>
int shared, mine;
int at = 2; /* an index crace does not follow */
struct rec {
  char name[16];
  int *owner;
} r = {"", &mine};
static void put(int k, ...) {
  va_list ap;
  va_start(ap, k);
  int v = va_arg(ap, int);
  int *tag = va_arg(ap, int *);
  r.name[k] = (char)v;
  r.name[k + 1] = tag != 0;
#ifdef RACY
  *tag = v;
#endif
  va_end(ap);
}
static void *worker(void *arg) {
  (void)arg;
  shared = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  put(at, 5, &shared);
  *r.owner = 2;
  pthread_join(t, 0);
  return 0;
}
