// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=lockset %s -- -DWHOLE | %FileCheck %s --check-prefix=RACY
// A string function given a struct's array member (`job.name`) reads no
// byte past it: its pointer arithmetic would leave the array, undefined
// behaviour (ProgramModel::accessesOf bounds such accesses of unknown
// length by the member). So the reader's strlen and printf of the name do
// not meet the worker's updates of `job.count` after it. WRITES_NAME: the
// worker writes the name, a real race. WHOLE: the string starts at the
// struct's address, not at the member: no bound.
// expected-verdict: race-free
// RACY: possible data race on 'job.name
// CONFIRMED: error: data race on 'job.name
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct job {
  char name[16];
  int count;
};
static struct job job = {.name = "job"};

static void *reader(void *arg) {
  struct job *j = arg;
#ifdef WHOLE
  unsigned long n = strlen((char *)j);
#else
  unsigned long n = strlen(j->name);
#endif
  printf("%s %lu\n", j->name, n);
  return 0;
}

static void *worker(void *arg) {
  struct job *j = arg;
  j->count++;
#ifdef WRITES_NAME
  j->name[2] = 'x';
#endif
  return 0;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, &job);
  pthread_create(&w, 0, worker, &job);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
