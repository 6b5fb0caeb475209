// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Blocking calls return (with input results): a server thread accepts a
// connection, waits in select and receives a request, then updates a
// counter main reads without the lock; the request buffer is its own.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>
int served;
void *server(void *arg) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0 || listen(s, 4) != 0)
    return 0;
  int c = accept(s, 0, 0);
  if (c < 0)
    return 0;
  fd_set r;
  FD_ZERO(&r);
  FD_SET(c, &r);
  char req[8];
  if (select(c + 1, &r, 0, 0, 0) >= 0)
    recv(c, req, sizeof req, 0);
  sleep(1);
  served++;                                              // expected-race
  close(c);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, server, 0);
  int n = served;                                        // expected-race
  pthread_join(h, 0);
  return n;
}
