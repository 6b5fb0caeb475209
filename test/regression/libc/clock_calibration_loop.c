// RUN: %crace --verify --engine=explore %s
// A cycle-counter calibration in a constructor (knot's init_cycle_clock):
// it waits for the microsecond to change, then for exactly 1000 us more,
// and starts again until a reading lands on start + 1000 us. Each clock
// reading advances by any amount, but explore's sampling now gives whole
// milliseconds often, so the loop ends in a few readings and main's race
// is reached. (Before: every run spun here until the depth bound, unknown.)
// expected-verdict: race
#include <pthread.h>
#include <sys/time.h>
long long calibrated;
int counter;
static long long usecs(struct timeval *t) {
  return t->tv_sec * 1000000LL + t->tv_usec;
}
__attribute__((constructor)) static void calibrate(void) {
  struct timeval s, e;
  for (int i = 0; i < 4; ++i) {
    for (;;) {
      gettimeofday(&s, 0);
      long u = s.tv_usec;
      do
        gettimeofday(&s, 0);
      while (s.tv_usec == u);
      do
        gettimeofday(&e, 0);
      while (usecs(&e) < usecs(&s) + 1000);
      if (usecs(&e) == usecs(&s) + 1000)
        break;
    }
    calibrated += usecs(&e) - usecs(&s);
  }
}
void *t(void *a) {
  counter++;                                        // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  counter++;                                        // expected-race
  pthread_join(h, 0);
  return (int)calibrated;
}
