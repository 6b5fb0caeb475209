// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify --engine=lockset %s
// asctime_r is exact (the C locale's "%a %b %e %H:%M:%S %Y\n"): the race
// needs the text to be what glibc prints for this instant. ctime_r writes
// the caller's buffer: the worker formats into its own, so only 'g' races
// (before, ctime_r was an unknown external function: no proof, and explore
// stopped there).
// expected-verdict(explore): race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <string.h>
#include <time.h>
int g;
void *t(void *a) {
  char own[26];
  time_t now = 86400 * 365;
  ctime_r(&now, own);
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  time_t t0 = 1700000000;
  char buf[26];
  struct tm tmv;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (strcmp(asctime_r(gmtime_r(&t0, &tmv), buf),
             "Tue Nov 14 22:13:20 2023\n") == 0)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
