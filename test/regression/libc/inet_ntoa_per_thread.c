// RUN: %crace --verify --engine=explore --all-races %s
// glibc's inet_ntoa writes a buffer of the calling thread's own
// (`static __thread char buffer[18]`): two threads formatting addresses and
// reading their strings do not race. (Before: one buffer shared by every
// thread, filled under a lock, so explore confirmed a race between one
// thread's read of its string and the other thread's call — a race glibc
// cannot have.)
// expected-verdict: race-free
#include <arpa/inet.h>
#include <pthread.h>
#include <string.h>
int lens[2];
void *fmt(void *arg) {
  struct in_addr a;
  int i = arg != 0;
  a.s_addr = htonl(i ? 0x0a000001 : 0xc0a80001);
  char *s = inet_ntoa(a);
  lens[i] = (int)strlen(s);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, fmt, (void *)1);
  fmt(0);
  pthread_join(t, 0);
  return lens[0] + lens[1] == 19 ? 0 : 1;
}
