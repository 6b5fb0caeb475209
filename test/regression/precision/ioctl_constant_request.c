// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DWRITES | %FileCheck %s --check-prefix=WRITES
// ioctl's model (models/posix.c) decides from the request's direction
// bits what the call does with its argument. Here the request is _IO (no
// data: bits 30-31 are 0) and the argument an integer, which happens to
// hold the address of 'head': the call touches no memory. The branch the
// model would take for a request that writes through its argument is
// dead for this constant request, and crace folds it once the model is
// inlined (frontend/IRPreparation.cpp); before, the lockset analysis
// walked it and saw 'main' write 'head' through the integer. With WRITES
// the request is _IOR (the kernel writes 4 bytes), the write is real, and
// it races with the thread's.
// expected-verdict: race-free
// expected-verdict(explore): unknown
// WRITES: possible data race on 'head.v'
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void const *, void *(*)(void *),
                          void *);
extern int pthread_join(pthread_t, void **);
extern int ioctl(int fd, unsigned long request, ...);
struct node {
  struct node *next;
  int v;
};
struct node head = {&head, 0};
static void *t(void *a) {
  head.v = 1;
  return 0;
}
int main(void) {
  pthread_t th;
  union {
    struct node *p;
    unsigned long n;
  } u;
  u.p = &head;
  pthread_create(&th, 0, t, 0);
#ifdef WRITES
  ioctl(3, 0x80049360UL, u.n);
#else
  ioctl(3, 0x9360UL, u.n);
#endif
  pthread_join(th, 0);
  return 0;
}
