// RUN: %crace --verify %s
// printf reads the string it prints while another thread writes it.
// expected-verdict: possible-race
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
