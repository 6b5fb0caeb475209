// RUN: %crace --verify --engine=explore %s
// snprintf truncates as C says and strncmp/strlen/strchr/atoi compute their
// exact results in explore, so it explores the one schedule family the
// program has and proves it race-free (before: unknown, "a library model
// approximates this call's result").
// expected-verdict: race-free
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char buf[8];
int g;
void *t(void *a) {
  if (strncmp(buf, "1234567", 8) != 0 || strlen(buf) != 7 ||
      strchr(buf, '5') != buf + 4 || atoi(buf) != 1234567)
    g = 1;
  return 0;
}
int main(void) {
  int r = snprintf(buf, sizeof buf, "%d%s", 12345, "6789");
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (r != 9)
    g = 2;
  pthread_join(h, 0);
  return 0;
}
