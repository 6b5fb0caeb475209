// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// strcpy into a local buffer, then a branch on what was copied: the explore
// engine runs the model, which must write the bytes (a model that only
// records the write left 'y' out of the buffer, and explore proved this
// racy program race-free).
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <string.h>
int x;
void *t(void *a) {
  x = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  char buf[8] = {0};
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  strcpy(buf, "y");
  strncat(buf, "es", 4);
  if (buf[0] == 'y' && buf[2] == 's')
    x = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
