// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// SIG_IGN and SIG_DFL install no handler (their constants point nowhere).
// expected-verdict: race-free
#include <pthread.h>
#include <signal.h>
int x;
static void *t(void *a) { return 0; }
int main(void) {
  struct sigaction sa;
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, 0);
  signal(SIGHUP, SIG_IGN);
  signal(SIGINT, SIG_DFL);
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  x = 2;
  return 0;
}
