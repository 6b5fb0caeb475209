// RUN: %crace --verify --engine=lockset %s -- -fno-strict-aliasing
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing -DOUTSIDE | %FileCheck %s --check-prefix=OUTSIDE
// The workers write an element of 'tab.slots' picked by a variable index
// and walk 'tab.name' with p++, under the lock; main writes 'tab.hits'
// without it. An index outside its array is undefined behaviour (C11
// 6.5.6), so the element stays inside 'slots' and the walk inside 'name'
// (model/PointsTo.h: strided locations), away from 'hits' even without
// C's type rules (-fno-strict-aliasing). With OUTSIDE, main also writes
// an element of 'slots' without the lock: a real race, named by the
// array.
// expected-verdict: race-free
// OUTSIDE: warning: possible data race on 'tab.slots[*]'
// OUTSIDE-NOT: tab.hits
#include <pthread.h>
struct table {
  int *slots[8];
  char name[24];
  int hits;
};
struct table tab;
int cell;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
  int i = *(int *)arg;
  pthread_mutex_lock(&m);
  tab.slots[i & 7] = &cell;
  char *p = tab.name;
  while (*p && p < tab.name + 23)
    p++;
  *p = 'x';
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int a = 1, b = 2;
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  tab.hits = 1;
#ifdef OUTSIDE
  tab.slots[b & 7] = 0;
#endif
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return tab.hits;
}
