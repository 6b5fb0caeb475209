// RUN: %crace --verify --engine=explore --all-races %s
// sscanf is glibc's, exactly (explore): a scanset, a literal, %hu, %n and
// the count it returns decide which counter the threads touch. Only the
// real results lead to the race on `hits`; `misses` is touched only when a
// result is wrong, so exploring every schedule reports nothing on it.
// (Before: sscanf's stores were not executed and explore stopped the main
// thread there, verdict unknown.)
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
#include <string.h>
int hits, misses;
char host[32];
unsigned short bits;
int used, left;
void *worker(void *a) {
  if (bits == 24 && strcmp(host, "10.0.0.1") == 0 && used == 11)
    hits++;                                              // expected-race
  else
    misses++;
  return 0;
}
int main(void) {
  pthread_t t;
  int n = sscanf("10.0.0.1/24 rest", "%[^/]/%hu%n", host, &bits, &used);
  // A matching failure: the count so far (0), not EOF.
  left = sscanf("x=1", "y=%d", &left);
  pthread_create(&t, 0, worker, 0);
  if (n == 2 && left == 0)
    hits++;                                              // expected-race
  else
    misses++;
  pthread_join(t, 0);
  return 0;
}
