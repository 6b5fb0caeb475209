// RUN: %crace --verify --engine=explore %s
// explore runs the program's own variadic functions (va_start, va_arg as
// clang lowers it), vsprintf, sprintf (with %n) and strcmp exactly: the
// race below needs the formatted text to be exactly the expected one.
// Before, explore stopped at the variadic call (unknown).
// expected-verdict: race
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
char buf[96];
int g;
static void format(char *dst, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vsprintf(dst, f, ap);
  va_end(ap);
}
static int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}
void *t(void *a) {
  if (strcmp(buf, "x=42 ll=123456789012 s=ab d=1.50 p=(nil) [   zz] -7|ff") == 0)
    g = 1;                                               // expected-race
  return 0;
}
int main(void) {
  char tail[16];
  int n = 0;
  sprintf(tail, "[%5s]%n", "zz", &n);
  format(buf, "x=%d ll=%lld s=%s d=%.2f p=%p %s %d|%x", 42, 123456789012LL,
         "ab", 1.5, (void *)0, tail, -7, 255);
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (n == 7 && sum(3, 1, 2, 3) == 6)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
