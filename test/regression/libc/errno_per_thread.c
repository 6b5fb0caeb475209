// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// errno is per thread: two threads whose calls fail and who read errno
// touch their own copies. The descriptor the threads close is input.
// expected-verdict: race-free
// expected-verdict(explore): unknown
// (explore: errno's value after a failure is an input, which is sampled)
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
void *t(void *a) {
  if (close(7) != 0 && errno == EINTR)
    errno = 0;
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  errno = 0;
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return errno;
}
