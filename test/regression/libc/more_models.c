// RUN: %crace --verify --engine=lockset %s
// Library calls memcached and other servers make, each with a model: fresh
// aligned blocks (posix_memalign, aligned_alloc), name lookup results
// (getaddrinfo: fresh memory per call), numbers from strings (strtod,
// atof), eventfd, preadv, thread names, setgroups, mlockall. Each thread
// writes only what its own calls returned, so the program is race-free;
// without the models each call was an unknown function (its pointers of
// unknown origin alias each other) and the verdict could not be race-free.
// expected-verdict: race-free
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <grp.h>
void *t(void *a) {
  void *p = 0;
  if (posix_memalign(&p, 64, 256) == 0)
    memset(p, 0, 256);
  char *q = aligned_alloc(64, 128);
  if (q)
    q[0] = 1;
  struct addrinfo hints, *res = 0;
  memset(&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo("localhost", "11211", &hints, &res) == 0) {
    for (struct addrinfo *r = res; r; r = r->ai_next)
      r->ai_flags = 0;
    freeaddrinfo(res);
  }
  char *end;
  double d = strtod("1.5e3x", &end) + atof("2.5");
  char buf[8];
  struct iovec iov = {buf, sizeof buf};
  int fd = eventfd(0, 0);
  if (fd >= 0 && preadv(fd, &iov, 1, 0) > 0)
    buf[0] = (char)d;
  pthread_setname_np(pthread_self(), "worker");
  free(p);
  free(q);
  return 0;
}
int main(void) {
  gid_t groups[1] = {0};
  setgroups(1, groups);
  mlockall(MCL_CURRENT);
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
