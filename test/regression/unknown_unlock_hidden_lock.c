// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// An unlock through a pointer of unknown origin (an unmodelled function's
// result) may release any lock whose address a pointer can hold. 'hidden'
// is a static mutex whose address is only passed to lock/unlock: no such
// pointer can reach it, so 'a' stays protected. 'exposed' has its address
// stored in a global, so the unknown unlock may release it and 'b' is a
// possible race. (The unmodelled call keeps the verdict from race-free.)
// CHECK-NOT: possible data race on 'a'
// CHECK: possible data race on 'b'
// CHECK-NOT: possible data race on 'a'
// CHECK: crace: verdict: possible-race
#include <pthread.h>
pthread_mutex_t *get_some_lock(void);
static pthread_mutex_t hidden = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t exposed = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t *published;
int a, b;
void *t(void *arg) {
  pthread_mutex_lock(&hidden);
  pthread_mutex_unlock(get_some_lock());
  a++;
  pthread_mutex_unlock(&hidden);
  pthread_mutex_lock(&exposed);
  pthread_mutex_unlock(get_some_lock());
  b++;
  pthread_mutex_unlock(&exposed);
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  published = &exposed;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
