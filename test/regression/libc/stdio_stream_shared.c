// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Two threads print to one stream: stdio locks the stream, so that is no
// race, and flockfile/funlockfile hold its lock across the count update.
// The message buffer one thread writes while the other prints it is.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
char msg[16] = "hello";
int lines;
void *t(void *a) {
  fprintf(stdout, "%d\n", 1);
  flockfile(stdout);
  lines++;
  funlockfile(stdout);
  msg[0] = 'j';                                          // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  fprintf(stdout, "%s\n", msg);                          // expected-race
  flockfile(stdout);
  lines++;
  funlockfile(stdout);
  pthread_join(h, 0);
  return lines;
}
