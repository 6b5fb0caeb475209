// RUN: %crace --verify --engine=explore %s
// The PDP paper's motivating example (Fig. 1): the race between the write
// of y in thread A and the read of y in thread B happens only when B sets c
// to 0 before A tests it, i.e. through the branch the first run does not
// take. Pruning must not skip that subspace, because the candidate pair is
// still executable from there.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t f1 = PTHREAD_MUTEX_INITIALIZER, f2 = PTHREAD_MUTEX_INITIALIZER;
int x, y, z, c = 1;
void *a(void *p) {
  pthread_mutex_lock(&f1);
  x++;
  if (c == 0)
    y = 1;                                  // expected-race
  pthread_mutex_unlock(&f1);
  pthread_mutex_lock(&f2);
  z++;
  pthread_mutex_unlock(&f2);
  return 0;
}
void *b(void *p) {
  pthread_mutex_lock(&f1);
  c = x;
  pthread_mutex_unlock(&f1);
  pthread_mutex_lock(&f2);
  z++;
  pthread_mutex_unlock(&f2);
  if (c == 0) {
    int t = y;                              // expected-race
    (void)t;
  }
  return 0;
}
int main(void) {
  pthread_t ta, tb;
  pthread_create(&ta, 0, a, 0);
  pthread_create(&tb, 0, b, 0);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  return 0;
}
