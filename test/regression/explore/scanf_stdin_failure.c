// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=explore %s 2>&1 | %FileCheck %s
// The write races only when scanf fails (no word on standard input).
// explore runs scanf on one text it reads in full, where it never fails
// (and %s draws no number that would count as sampled), so its runs are
// not every run: it must not say race-free, and says why.
// expected-verdict: unknown
// CHECK: was given one text of standard input
#include <pthread.h>
#include <stdio.h>
char word[8];
int shared;
void *worker(void *arg) {
  shared = 1;
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, worker, 0);
  if (scanf("%7s", word) != 1)
    shared = 2;
  pthread_join(id, 0);
  return 0;
}
