// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A successful exec ends every thread of the process; when it fails the
// program goes on, and then the write races with the thread.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <unistd.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  execv("/bin/true", argv);
  x = 2;                                                         // expected-race
  return 0;
}
