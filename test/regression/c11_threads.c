// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// C11 <threads.h>: thrd_create and mtx_lock.
// expected-verdict: race-free
#include <threads.h>
int x;
mtx_t m;
int w(void *p) {
  mtx_lock(&m);
  x++;
  mtx_unlock(&m);
  return 0;
}
int main(void) {
  thrd_t t[2];
  mtx_init(&m, mtx_plain);
  for (int i = 0; i < 2; i++)
    thrd_create(&t[i], w, 0);
  for (int i = 0; i < 2; i++)
    thrd_join(t[i], 0);
  return x;
}
