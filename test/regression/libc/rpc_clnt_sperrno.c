// RUN: %crace --verify --engine=explore %s
// clnt_sperrno returns glibc's constant messages: the race needs the
// message of RPC_TIMEDOUT to be the real one, and another code's to differ
// (before: no model, explore stopped at the call).
// expected-verdict: race
#include <pthread.h>
#include <string.h>
extern char *clnt_sperrno(int);
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (strcmp(clnt_sperrno(5), "RPC: Timed out") == 0 &&
      strcmp(clnt_sperrno(0), "RPC: Success") == 0 &&
      strcmp(clnt_sperrno(99), "RPC: (unknown error code)") == 0)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
