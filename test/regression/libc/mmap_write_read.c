// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A mapped buffer written by one thread while another reads it.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <sys/mman.h>
char *buf;
void *writer(void *arg) {
  buf[1] = 'w';                                          // expected-race
  return 0;
}
int main(void) {
  buf = mmap(0, 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED)
    return 1;
  pthread_t h;
  pthread_create(&h, 0, writer, 0);
  char c = buf[1];                                       // expected-race
  pthread_join(h, 0);
  return c;
}
