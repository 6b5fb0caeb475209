// RUN: %crace --verify --engine=lockset %s 2> %t.err
// RUN: %FileCheck %s < %t.err
// RUN: not %crace --engine=lockset --data-model=LP64 %s 2>&1 | %FileCheck --check-prefix=LP64 %s
// CHECK: crace: warning: 'malloc' is called with a 32-bit size at {{.*}}data_model_early_stop.c:[[@LINE+22]]: the program was written for a 32-bit target; analysing it as ILP32
// CHECK-NOT: error
// LP64: error: static assertion failed {{.*}}written for a 32-bit target
// LP64: crace: error: the input does not compile
// expected-verdict: race-free
// Without --data-model, clang's compile for the default 64-bit target stops
// at the first call that passes a 32-bit size to an allocation function
// (frontend/DataModel.h) instead of going on to build a module that is
// thrown away when the program is compiled again as ILP32 (on CIL-combined
// programs that first compile was a third of the run). What follows the call
// is never compiled for 64 bits: a 32-bit-only construct after it (here a
// static assertion; in goblint-bench, code that only fits 32 bits) is no
// error, as it is when --data-model=LP64 is asked for.
typedef unsigned int size_t;
typedef unsigned long pthread_t;
union pthread_attr_t { char __size[36]; long __align; };
typedef union pthread_attr_t pthread_attr_t;
extern void *malloc(size_t __size);
extern int pthread_create(pthread_t *thread, pthread_attr_t const *attr,
                          void *(*start)(void *), void *arg);
extern int pthread_join(pthread_t th, void **ret);
struct cell { int v; };
static struct cell *fresh(void) { return (struct cell *)malloc(sizeof(struct cell)); }
_Static_assert(sizeof(void *) == 4, "written for a 32-bit target");
void *worker(void *arg) {
  struct cell *mine = fresh();
  mine->v = 1;
  return (void *)0;
}
int main(void) {
  pthread_t h;
  struct cell *other = fresh();
  pthread_create(&h, (pthread_attr_t const *)0, &worker, (void *)other);
  other->v = 2;
  pthread_join(h, (void **)0);
  return 0;
}
