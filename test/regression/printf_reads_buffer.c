// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// printf reads the string it prints while another thread writes it.
// expected-verdict: possible-race
// expected-verdict(explore): unknown
#include <pthread.h>
#include <stdio.h>
#include <string.h>
char msg[32] = "hello";
void *w(void *p) {
  strcpy(msg, "bye");                      // expected-race(lockset)
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  printf("%s\n", msg);                      // expected-race(lockset)
  return 0;
}
