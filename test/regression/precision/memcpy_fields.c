// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DCOPY_BOTH | %FileCheck %s --check-prefix=BOTH
// memcpy copies each stored pointer to the same distance from its
// destination (model/PointsTo.cpp, CopyFields): 'd.p' gets '&ca' and
// 'd.q' gets '&cb', not both. And a memcpy wrapper (mDNS's
// mDNSPlatformMemCopy) is inlined at its calls (frontend/HeapCloning.h):
// shared, it copied every caller's source into every caller's
// destination, so 'e.p' would point at 'cb' (from 'x') too. The worker writes
// through 'd.p' and 'e.p' ('ca'), main writes 'cb': race-free. With
// COPY_BOTH the worker also writes through 'd.q': a real race on 'cb'.
// expected-verdict: race-free
// BOTH: warning: possible data race on 'cb'
#include <pthread.h>
#include <string.h>
struct pair {
  int *p;
  int *q;
};
struct named {
  char name[12];
  int *p;
};
int ca, cb;
struct pair s, d;
struct named x, y, e, w;
static void copy(void *dst, const void *src, unsigned long n) {
  memcpy(dst, src, n);
}
static void *worker(void *arg) {
  (void)arg;
  *d.p = 1;
  *e.p = 2;
#ifdef COPY_BOTH
  *d.q = 3;
#endif
  return 0;
}
int main(void) {
  s.p = &ca;
  s.q = &cb;
  memcpy(&d, &s, sizeof s);
  x.p = &cb;
  y.p = &ca;
  copy(&w, &x, sizeof x);
  copy(&e, &y, sizeof y);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  cb = 4;
  pthread_join(t, 0);
  return ca;
}
