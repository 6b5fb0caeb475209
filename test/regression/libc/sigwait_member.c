// RUN: %crace --verify --engine=explore %s
// sigwait returns one of the set's members, and explore tries each of
// them: the race needs SIGHUP, then SIGUSR2 (before: a 6-bit signal number was sampled
// and assumed to be in the set, so SIGHUP was rarely drawn).
// expected-verdict: race
#include <pthread.h>
#include <signal.h>
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGHUP);
  sigaddset(&s, SIGUSR2);
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int sig = 0, sig2 = 0;
  if (sigwait(&s, &sig) == 0 && sig == SIGHUP && sigwait(&s, &sig2) == 0 &&
      sig2 == SIGUSR2)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
