// RUN: %crace --verify --engine=explore --data-model=ILP32 %s
// On ILP32 a long is 4 bytes: vsnprintf's "%ld" takes 4 bytes of the
// va_list, "%lld" 8 (knot's output("...%ldM\n", n) through a va_list).
// Before, "%ld" took 8 and the walk read past the operands: unknown.
// expected-verdict: race
typedef __builtin_va_list va_list;
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
int vsnprintf(char *, unsigned, const char *, va_list);
int counter;
static int out(const char *fmt, ...) {
  char s[64];
  va_list ap;
  __builtin_va_start(ap, fmt);
  int r = vsnprintf(s, sizeof s, fmt, ap);
  __builtin_va_end(ap);
  return r;
}
void *t(void *a) {
  counter++;                                        // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (out("%ldM %lld %s", 5L, 7LL, "x") == 6)
    counter++;                                      // expected-race
  pthread_join(h, 0);
  return 0;
}
