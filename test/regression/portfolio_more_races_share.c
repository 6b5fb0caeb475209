// RUN: %not %crace --max-transitions=40000 --stats %s 2>&1 | FileCheck %s
// In the portfolio explore keeps looking for races after its first one,
// but with a quarter of its budget from there on (then the portfolio
// reports the static stage's remaining possible races, as always): the
// race on `x` comes within a few hundred scheduling points, the search
// then stops near 250 + 10000 of the 40000 (before: it used all 40000,
// time a default run on a real program could not spare).
// CHECK-DAG: error: data race on 'x'
// CHECK-DAG: verdict: race
// CHECK-DAG: transitions {{ *}}1{{[0-9][0-9][0-9][0-9]}}.00
#include <pthread.h>
int x, y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  x++;
  for (int i = 0; i < 50; i++) {
    pthread_mutex_lock(&m);
    y++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
