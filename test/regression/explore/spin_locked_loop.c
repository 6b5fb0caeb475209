// RUN: %crace --verify --engine=explore %s
// A reader polls a value under its lock forever; a parked (spinning)
// thread must still respect the lock: the writer's updates are protected,
// so there is no race (a parked thread once ignored the lock here).
// expected-verdict: race-free
#include <pthread.h>
pthread_mutex_t mb = PTHREAD_MUTEX_INITIALIZER;
int B = 5;
void *reader(void *arg) {
  while (1) {
    pthread_mutex_lock(&mb);
    int p = B;
    pthread_mutex_unlock(&mb);
    if (p != 5 && p != 6)
      break;
  }
  return 0;
}
void *writer(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&mb);
    B = 6;
    B = 5;
    pthread_mutex_unlock(&mb);
  }
  return 0;
}
int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(w, 0);
  return 0;
}
