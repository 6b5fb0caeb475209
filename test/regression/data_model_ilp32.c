// RUN: %crace --verify --engine=lockset %s 2> %t.err
// RUN: %FileCheck --check-prefix=SWITCH %s < %t.err
// RUN: %crace --verify --engine=explore %s
// RUN: %crace --engine=lockset --data-model=LP64 %s 2>&1 | %FileCheck --check-prefix=KEPT %s
// SWITCH: crace: warning: 'malloc' is called with a 32-bit size at {{.*}}data_model_ilp32.c:27: the program was written for a 32-bit target; analysing it as ILP32
// KEPT-DAG: warning: 'malloc' is called with a 32-bit size {{.*}} but is analysed as LP64 (--data-model): its sizes and layouts may not be the ones it was written for
// KEPT-DAG: crace: verdict: race-free
// expected-verdict: race-free
// A CIL-combined program (made for 32-bit x86: size_t is unsigned int)
// analysed under the default LP64 passed 32-bit sizes to the 64-bit malloc
// model, whose calls were then not inlined: both allocations became one heap
// object and the thread's private cell "raced" with main's. crace now sees
// the 32-bit sizes, warns and compiles the program again as ILP32. Kept as
// LP64 on request, the calls of the malloc model are still told apart: it
// returns a fresh block it never touches, so points-to makes each call its
// own heap object (model/PointsTo.h).
typedef unsigned int size_t;
typedef unsigned long pthread_t;
union pthread_attr_t { char __size[36]; long __align; };
typedef union pthread_attr_t pthread_attr_t;
extern void *malloc(size_t __size);
extern int pthread_create(pthread_t *thread, pthread_attr_t const *attr,
                          void *(*start)(void *), void *arg);
extern int pthread_join(pthread_t th, void **ret);
struct cell { int v; };
void *worker(void *arg) {
  struct cell *mine = (struct cell *)malloc(sizeof(struct cell));
  mine->v = 1;
  return (void *)0;
}
int main(void) {
  pthread_t h;
  struct cell *other = (struct cell *)malloc(sizeof(struct cell));
  pthread_create(&h, (pthread_attr_t const *)0, &worker, (void *)other);
  other->v = 2;
  pthread_join(h, (void **)0);
  return 0;
}
