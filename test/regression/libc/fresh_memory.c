// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Functions that return fresh memory: each thread's getline buffer, strdup
// copy and stream are its own, so their writes do not race; the strdup'd
// string main hands to a thread and writes afterwards does.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void *own(void *arg) {
  char *line = 0;
  size_t n = 0;
  FILE *f = fopen("/etc/hosts", "r");
  if (f && getline(&line, &n, f) > 0)
    line[0] = '#';
  char *copy = strdup("abc");
  if (copy)
    copy[0] = 'x';
  free(line);
  free(copy);
  return 0;
}
void *reader(void *arg) {
  return (void *)(long)((char *)arg)[0];                 // expected-race
}
int main(void) {
  pthread_t h1, h2, h3;
  pthread_create(&h1, 0, own, 0);
  pthread_create(&h2, 0, own, 0);
  char *s = strdup("shared");
  if (!s)
    return 1;
  pthread_create(&h3, 0, reader, s);
  s[0] = 'S';                                            // expected-race
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  pthread_join(h3, 0);
  return 0;
}
