// RUN: %crace --verify --engine=lockset --data-model=ILP32 %s
// RUN: %crace --verify --engine=explore --data-model=ILP32 %s
// RUN: %not %crace --engine=lockset --data-model=ILP32 %s -- -DSHARED | %FileCheck %s --check-prefix=SHARED
// K&R code (CIL keeps it: `extern int (malloc)();`) calls malloc without
// a prototype: clang types the call as returning int, and the program
// casts the int back to a pointer, which works where int and pointers have
// one size (ILP32). crace gives such a call the type of the function it
// links to, the model of malloc, and folds the pointer's round trip
// through an integer (frontend/IRPreparation.cpp): before, the
// cast made every record a pointer of unknown origin, and the two
// workers' writes to their own records looked like they could meet. With
// SHARED both workers write one record main allocated: a real race.
// expected-verdict: race-free
// SHARED: possible data race on 'struct rec.hits in the heap object
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void const *, void *(*)(void *),
                          void *);
extern int pthread_join(pthread_t, void **);
extern int(malloc)();
struct rec {
  int id;
  int hits;
};
struct rec *last;
static void *worker(void *arg) {
#ifdef SHARED
  struct rec *r = (struct rec *)arg;
#else
  struct rec *r;
  int tmp;
  tmp = malloc(sizeof(struct rec)); /* CIL keeps the int in a variable */
  r = (struct rec *)tmp;
  if ((unsigned int)r == 0U)
    return 0;
  r->id = 1;
#endif
  r->hits = 0;
  return (void *)r;
}
int main(void) {
  pthread_t a, b;
  struct rec *s = (struct rec *)malloc(sizeof(struct rec));
  pthread_create(&a, 0, worker, s);
  pthread_create(&b, 0, worker, s);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
