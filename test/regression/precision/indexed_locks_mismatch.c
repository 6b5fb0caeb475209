// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Near misses of locks chosen by an index (indexed_locks.c), each a race:
// - 'off_by_one' locks element i and writes elements i and i + 1;
// - 'moved' changes the index between the lock and an access;
// - 'released' unlocks another element, which may be the one it holds;
// - 'stale' keeps a pointer from an earlier loop iteration.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
pthread_mutex_t m[4];
int a[5], b[4], c[4], d[4];
void *off_by_one(void *arg) {
  int i = (int)(long)arg;
  pthread_mutex_lock(&m[i]);
  a[i] = 1; // expected-race
  a[i + 1] = 1; // expected-race
  pthread_mutex_unlock(&m[i]);
  return 0;
}
void *moved(void *arg) {
  int i = (int)(long)arg;
  pthread_mutex_lock(&m[i]);
  b[i] = 2; // expected-race
  i = (i + 1) & 3;
  b[i] = 2; // expected-race
  pthread_mutex_unlock(&m[(i + 3) & 3]);
  return 0;
}
void *released(void *arg) {
  int i = (int)(long)arg, j = 0;
  pthread_mutex_lock(&m[i]);
  pthread_mutex_unlock(&m[j]);
  c[i] = 3; // expected-race
  if (i != j)
    pthread_mutex_unlock(&m[i]);
  return 0;
}
void *stale(void *arg) {
  int *p = 0;
  for (int i = 0; i < 2; i++) {
    if (p)
      *p = 4; // expected-race
    pthread_mutex_lock(&m[i]);
    p = &d[i];
    pthread_mutex_unlock(&m[i]);
  }
  return 0;
}
int main(void) {
  pthread_t t[8];
  pthread_create(&t[0], 0, off_by_one, (void *)0);
  pthread_create(&t[1], 0, off_by_one, (void *)1);
  pthread_create(&t[2], 0, moved, (void *)0);
  pthread_create(&t[3], 0, moved, (void *)1);
  pthread_create(&t[4], 0, released, (void *)0);
  pthread_create(&t[5], 0, released, (void *)0);
  pthread_create(&t[6], 0, stale, 0);
  pthread_create(&t[7], 0, stale, 0);
  for (int i = 0; i < 8; i++)
    pthread_join(t[i], 0);
  return 0;
}
