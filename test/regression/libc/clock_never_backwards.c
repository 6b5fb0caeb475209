// RUN: %crace --verify --engine=explore %s
// RUN: %crace --engine=lockset %s | FileCheck %s
// time, gettimeofday and clock_gettime read one clock that only advances
// (the printed assumption): the write below needs the clock to go back, so
// no run of explore's reaches it, and a wait for time to pass ends. Before,
// each reading was an arbitrary value and explore's samples raced here.
// expected-verdict: unknown
// CHECK: verdict: race-free
// CHECK: the system clock is not set backwards while the program runs
#include <pthread.h>
#include <sys/time.h>
#include <time.h>
int g;
void *t(void *a) {
  struct timeval s, e;
  gettimeofday(&s, 0);
  do
    gettimeofday(&e, 0);
  while ((e.tv_sec - s.tv_sec) * 1000000 + (e.tv_usec - s.tv_usec) < 1000);
  time_t a0 = time(0);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  time_t b0 = time(0);
  if (b0 < a0 || ts.tv_sec < a0 || ts.tv_sec > b0)
    g = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return g;
}
