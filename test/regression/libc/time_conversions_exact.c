// RUN: %crace --verify --engine=explore %s
// gmtime_r and strftime are exact (civil calendar, C locale): the race
// needs the text to be exactly what glibc prints for this instant (before:
// the fields were unknown and explore stopped).
// expected-verdict: race
#include <pthread.h>
#include <string.h>
#include <time.h>
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  time_t t0 = 1700000000;
  char buf[128];
  struct tm tmv;
  gmtime_r(&t0, &tmv);
  strftime(buf, sizeof buf, "%D-%T|%c|%F %r|%j %a %A %B %e", &tmv);
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (strcmp(buf, "11/14/23-22:13:20|Tue Nov 14 22:13:20 2023|2023-11-14 "
                  "10:13:20 PM|318 Tue Tuesday November 14") == 0)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
