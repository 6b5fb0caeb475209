// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=CONFIRMED
// A string read from an array that is the only member of a struct
// (mDNS's `domainname { u8 c[256]; }`) that is itself a member of a
// record, not its last: `strlen(r->name.c)` cannot leave `c` without
// undefined behaviour, though `c` is its own struct's last member, since
// `name` is followed by `count` (memberArrayBytes follows the member
// GEPs up from `.c`). So the reader's strlen and printf do not meet the
// worker's update of `count`. WRITES_NAME: the worker writes the name, a
// real race.
// expected-verdict: race-free
// RACY: possible data race on 'rec.name.c
// CONFIRMED: error: data race on 'rec.name.c
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct name {
  char c[16];
};
struct rec {
  int kind;
  struct name name;
  int count;
};
static struct rec rec = {.name = {"rec"}};

static void *reader(void *arg) {
  struct rec *r = arg;
  unsigned long n = strlen(r->name.c);
  printf("%s %lu\n", r->name.c, n);
  return 0;
}

static void *worker(void *arg) {
  struct rec *r = arg;
  r->count++;
#ifdef WRITES_NAME
  r->name.c[2] = 'x';
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, &rec);
  pthread_create(&b, 0, worker, &rec);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
