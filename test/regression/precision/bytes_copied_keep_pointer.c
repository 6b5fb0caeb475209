// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The near miss of bytes_are_numbers.c: a pointer copied byte by byte (a
// loop of char loads and stores, and a helper that stores the byte it is
// handed) is still the pointer. Each copy of '&counter' is written through
// without the lock, so both race with the locked increment in main.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stddef.h>

static int counter;
static int other;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int *src_ptr = &counter;
static int *dst_a, *dst_b;

static void copy_bytes(void *d, const void *s, size_t n) {
  char *dd = d;
  const char *ss = s;
  while (n--)
    *dd++ = *ss++;
}

static void put(char *d, char c) { *d = c; }

static void *by_loop(void *arg) {
  copy_bytes(&dst_a, &src_ptr, sizeof dst_a);
  *dst_a = 1; // expected-race
  return 0;
}

static void *by_helper(void *arg) {
  const char *s = (const char *)&src_ptr;
  char *d = (char *)&dst_b;
  for (size_t i = 0; i < sizeof dst_b; i++)
    put(d + i, s[i]);
  *dst_b = 2; // expected-race
  other = 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, by_loop, 0);
  pthread_create(&b, 0, by_helper, 0);
  pthread_mutex_lock(&m);
  counter++; // expected-race
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
