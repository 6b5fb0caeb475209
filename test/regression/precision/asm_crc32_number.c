// RUN: %crace --verify --engine=lockset %s
// A checksum computed by the crc32 instruction in inline assembly
// (memcached's crc32c_hw) is a number, not a pointer of unknown origin.
// Stored next to a pointer in a record that is later read at an offset
// crace cannot tell (memcached's items), it adds nothing to what that read
// yields: the worker's write through the pointer it reads stays in its
// table and cannot reach `spare`, which main hands to code crace cannot
// see and writes while the worker runs. The assembly and the unknown call
// keep the verdict unknown, but no pair is reported.
// expected-verdict: unknown
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

struct rec {
  uint64_t sum;
  unsigned char *data;
};
static uint64_t spare;
static unsigned char table[256];
void keep(uint64_t *);

static uint64_t crc32_byte(uint64_t crc, const unsigned char *p) {
  __asm__("crc32b\t(%1), %0" : "+r"(crc) : "r"(p), "m"(*p));
  return crc;
}

static void *worker(void *arg) {
  struct rec r;
  r.sum = crc32_byte(0, table);
  r.data = table;
  unsigned char *d;
  memcpy(&d, (char *)&r + (uintptr_t)arg, sizeof d);
  *d = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  keep(&spare);
  pthread_create(&t, 0, worker, (void *)offsetof(struct rec, data));
  spare = 2;
  pthread_join(t, 0);
  return 0;
}
