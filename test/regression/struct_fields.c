// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Threads writing distinct fields of one struct do not race.
// expected-verdict: race-free
#include <pthread.h>
struct pair { int a; int b; } s;
void *ta(void *p) { s.a = 1; return 0; }
void *tb(void *p) { s.b = 2; return 0; }
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, ta, 0);
  pthread_create(&h2, 0, tb, 0);
  return 0;
}
