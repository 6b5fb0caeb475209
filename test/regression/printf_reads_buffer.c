// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// printf reads the string it prints while another thread writes it.
// expected-verdict(lockset): possible-race
// expected-verdict: race
// (explore runs strcpy's model, which writes the bytes, and printf's read)
#include <pthread.h>
#include <stdio.h>
#include <string.h>
char msg[32] = "hello";
void *w(void *p) {
  strcpy(msg, "bye");                      // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  printf("%s\n", msg);                      // expected-race
  return 0;
}
