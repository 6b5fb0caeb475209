// RUN: %crace --verify --engine=explore --all-races %s
// inet_addr, inet_aton, inet_pton (AF_INET) and inet_ntoa are glibc 2.36's,
// exactly: the parts of a.b / a.b.c.d in decimal, octal or hex, text after
// white space ignored (by inet_addr too), no leading zeros for inet_pton.
// The race needs every result to be the real one (checked against the
// host's glibc); with one result wrong no access is left and explore would
// prove the program race-free. (Before: the results were not computed and
// explore stopped the main thread at inet_addr, verdict unknown.)
// expected-verdict: race
#include <arpa/inet.h>
#include <pthread.h>
#include <string.h>
int hits, misses;
int ok;
void *worker(void *a) {
  if (ok)
    hits++;                                              // expected-race
  return 0;
}
int main(void) {
  struct in_addr a, b, x;
  x.s_addr = htonl(0xc0a80001);
  ok = inet_addr("10.1.2.3") == htonl(0x0a010203) &&
       inet_addr("10.1.2.3 x") == htonl(0x0a010203) &&
       inet_addr("1.2.3.256") == INADDR_NONE &&
       inet_addr("0x7f.1") == htonl(0x7f000001) &&
       inet_addr("010.0.0.1") == htonl(0x08000001) &&
       inet_aton("127.0.0.1 trailing", &a) == 1 && a.s_addr == htonl(0x7f000001) &&
       inet_aton("1.2.3.4.5", &a) == 0 &&
       inet_pton(AF_INET, "192.168.0.1", &b) == 1 && b.s_addr == htonl(0xc0a80001) &&
       inet_pton(AF_INET, "01.2.3.4", &b) == 0 &&
       inet_pton(AF_INET, "1.2.3", &b) == 0 &&
       strcmp(inet_ntoa(x), "192.168.0.1") == 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (ok)
    hits++;                                              // expected-race
  pthread_join(t, 0);
  return 0;
}
