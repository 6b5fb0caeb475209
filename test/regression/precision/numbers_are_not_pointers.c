// RUN: %crace --verify --engine=lockset --data-model=ILP32 %s
// RUN: %crace --verify --engine=explore --data-model=ILP32 %s
// RUN: %not %crace --engine=lockset --data-model=ILP32 %s -- -DRACY | %FileCheck %s --check-prefix=RACY
// Integers computed from pointers keep their targets (pointer arithmetic
// through integers), except two kinds of numbers that no object's address
// can be, from which a pointer is not rebuilt: the distance between two
// pointers (C's p - q), and a value always below 4096, the first page
// (a remainder, masked low bits, a digit). 'emit' stores the length of the
// text and a digit of a cell's address, as characters, into a record at a
// variable index. Before, both carried 'text' and 'cell' into the record,
// where they were read back with the record's 'owner' field, and main's
// write through 'owner' was paired with the worker's writes. With RACY the
// distance is added back to the text's start, which keeps the text: a
// real race.
// expected-verdict: race-free
// RACY: possible data race on 'text
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void const *, void *(*)(void *),
                          void *);
extern int pthread_join(pthread_t, void **);
char text[12];
int cell, mine;
int at = 2; /* an index crace does not follow */
struct rec {
  char name[16];
  int *owner;
} r = {"", &mine};
static void emit(const char *end, int k) {
  long len = end - text;
  unsigned long digit = (unsigned long)&cell % 10;
  r.name[k] = (char)len;
  r.name[k + 1] = (char)('0' + digit);
#ifdef RACY
  *(char *)(text + len) = 'x';
#endif
}
static void *worker(void *arg) {
  (void)arg;
  text[0] = 'x';
  cell = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  emit(text + 3, at);
  *r.owner = 2;
  pthread_join(t, 0);
  return 0;
}
