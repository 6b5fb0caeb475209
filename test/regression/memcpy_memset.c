// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// memcpy and memset read and write their buffers.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <string.h>
char buf[16], copy[16];
void *w(void *p) {
  memset(buf, 0, sizeof buf);              // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  memcpy(copy, buf, sizeof buf);           // expected-race
  return 0;
}
