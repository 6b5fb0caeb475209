// RUN: %crace --verify --engine=explore --all-races %s
// gethostbyname answers AF_INET only: h_length is 4, so copying the first
// address into a sockaddr_in's sin_addr stays inside it (zebedee does this),
// and `odd` is never touched; gethostbyname2 answers the family it is
// asked for. (Before: half of the lookups answered AF_INET6 with 16 bytes,
// the copy overflowed, and explore reported a race on `odd`.) The lookups
// are input, so explore samples and the verdict stays unknown.
// expected-verdict: unknown
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
int odd;
struct sockaddr_in sa;
void *w(void *a) {
  odd++;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  struct hostent *h = gethostbyname("example.org");
  if (h && h->h_addrtype != AF_INET)
    odd++;
  else if (h)
    memcpy(&sa.sin_addr, h->h_addr_list[0], h->h_length);
  // (The same static result: this lookup replaces the one above.)
  struct hostent *h6 = gethostbyname2("example.org", AF_INET6);
  if (h6 && h6->h_length != 16)
    odd++;
  pthread_join(t, 0);
  return 0;
}
