// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// Points-to follows a variadic function's arguments through its va_list
// up to 16 objects (varargs_tracked.c); a logging function handed more
// (here 17 strings) is not followed, which would cost minutes on large
// programs, and the verdict says so instead of claiming race freedom.
// CHECK: crace: verdict: unknown
// CHECK: variadic function 'log_all' is handed pointers to more than 16 objects
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
static void log_all(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}
char s0[2], s1[2], s2[2], s3[2], s4[2], s5[2], s6[2], s7[2], s8[2], s9[2],
    s10[2], s11[2], s12[2], s13[2], s14[2], s15[2], s16[2];
void *t(void *a) {
  log_all("%s%s%s%s%s%s%s%s%s", s0, s1, s2, s3, s4, s5, s6, s7, s8);
  log_all("%s%s%s%s%s%s%s%s", s9, s10, s11, s12, s13, s14, s15, s16);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
