// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// strtok keeps its position in libc: a thread's strtok(NULL, ...) may go on
// in the string the other thread passed, and write its separator there
// while that thread reads it. The position itself is libc's and is not
// reported; the accesses of the program's strings are.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <string.h>
char a[16] = "x y z", b[16] = "p q r";
void *t(void *arg) {
  char *s = strtok(b, " ");                             // expected-race(lockset)
  while (s)
    s = strtok(0, " ");                                 // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  char *s = strtok(a, " ");                             // expected-race(lockset)
  while (s)
    s = strtok(0, " ");                                 // expected-race
  pthread_join(h, 0);
  return 0;
}
