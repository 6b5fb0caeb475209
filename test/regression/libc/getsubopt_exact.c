// RUN: %crace --verify --engine=explore %s
// getsubopt is glibc's, exactly: each suboption up to a comma (replaced by
// a zero), its token matched up to '=', the value after it, an unknown
// one returned whole. The race needs every result to be the real one
// (before: getsubopt had no model and explore stopped there).
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  char opts[] = "ro,size=12,bogus=1,rw";
  char *const tokens[] = {"rw", "ro", "size", 0};
  char *s = opts, *value;
  int seen = 0, size = 0;
  while (*s) {
    switch (getsubopt(&s, tokens, &value)) {
    case 0:
      seen |= value ? 0 : 1;
      break;
    case 1:
      seen |= value ? 0 : 2;
      break;
    case 2:
      size = value ? atoi(value) : -1;
      break;
    default:
      seen |= strcmp(value, "bogus=1") == 0 ? 4 : 0;
    }
  }
  if (seen == 7 && size == 12) {
    pthread_t a, b;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
  }
  return 0;
}
