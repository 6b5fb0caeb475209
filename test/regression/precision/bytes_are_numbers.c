// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// A byte read from memory is a number unless it is stored again (a
// byte-wise copy). 'parse' reads the bytes of 'g.text' at a variable index,
// which reads every field of 'g' -- also 'g.owner', a pointer to 'counter'.
// Those bytes are only computed with, so the slot address built from
// 'digits' and a digit value points into 'digits' alone, not into 'counter'
// (PointsTo: bytesMayBeStored). Before, the digit carried 'counter' into
// the slot address, and the unlocked write through it was paired with the
// locked increments of 'counter'.
// expected-verdict: race-free
#include <pthread.h>
#include <stdint.h>

struct msg {
  char text[16];
  int *owner;
};
static int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct msg g = {"1230", &counter};
static char digits[4];

static void *parse(void *arg) {
  uintptr_t base = (uintptr_t)digits;
  for (int i = 0; g.text[i]; i++) {
    char *slot = (char *)(base + (uintptr_t)((g.text[i] - '0') & 3));
    *slot = 1;
  }
  return 0;
}

static void *count(void *arg) {
  pthread_mutex_lock(&m);
  (*g.owner)++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, parse, 0);
  pthread_create(&b, 0, count, 0);
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
