/* C library model: allocation, memory and string functions, modelled as the
   reads and writes of their buffers. printf-family functions are described
   in the declarative table src/model/SyncAPI.def instead (varargs). */
#include "crace_intrinsics.h"

CRACE_MODEL void *malloc(crace_size_t n) { return __crace_alloc(n); }
/* Objects the entry-point harness of driver and library mode passes to
   entry points (frontend/HarnessWriter.cpp; one per call site). */
CRACE_MODEL void *__crace_harness_object(crace_size_t n) { return __crace_alloc(n); }
CRACE_MODEL void *calloc(crace_size_t n, crace_size_t m) {
  if (m && n > (crace_size_t)-1 / m)
    return 0; /* n * m overflows: calloc fails */
  void *p = __crace_alloc(n * m);
  /* An allocation may fail (the explore engine: beyond 256 MiB); a length
     of 0 would mean "a string" to __crace_write. */
  if (p && n * m)
    __crace_write(p, n * m);
  return p;
}
CRACE_MODEL void *realloc(void *old, crace_size_t n) {
  void *p = __crace_alloc(n);
  if (!p)
    return 0; /* failed: the old object stays as it was */
  if (old) {
    /* The old contents, pointers included, move to the new object. */
    crace_size_t m = __crace_object_size(old);
    __builtin_memcpy(p, old, m < n ? m : n);
    __crace_free(old);
  }
  return p;
}
CRACE_MODEL void *alloca(crace_size_t n) { return __crace_alloc(n); }
/* Aligned allocation: a fresh block as malloc's (the alignment is not
   modelled; nothing the engines check depends on it). */
CRACE_MODEL int posix_memalign(void **out, crace_size_t align, crace_size_t n) {
  void *p = __crace_alloc(n);
  if (!p)
    return 12; /* ENOMEM; *out is left alone */
  *out = p;
  return 0;
}
CRACE_MODEL void *aligned_alloc(crace_size_t align, crace_size_t n) {
  return __crace_alloc(n);
}
CRACE_MODEL void *memalign(crace_size_t align, crace_size_t n) {
  return __crace_alloc(n);
}
CRACE_MODEL void *valloc(crace_size_t n) { return __crace_alloc(n); }
CRACE_MODEL void *pvalloc(crace_size_t n) { return __crace_alloc(n); }
CRACE_MODEL void free(void *p) { __crace_free(p); }

/* The builtins become LLVM's memory intrinsics, which every engine reads as
   the accesses (and, for copies, the pointer flow) they are. */
CRACE_MODEL void *memcpy(void *d, const void *s, crace_size_t n) {
  return __builtin_memcpy(d, s, n);
}
CRACE_MODEL void *memmove(void *d, const void *s, crace_size_t n) {
  return __builtin_memmove(d, s, n);
}
CRACE_MODEL void *memset(void *d, int c, crace_size_t n) {
  return __builtin_memset(d, c, n);
}
CRACE_MODEL_CALL int memcmp(const void *a, const void *b, crace_size_t n) {
  __crace_read(a, n);
  __crace_read(b, n);
  return __crace_unknown_int();
}
CRACE_MODEL_CALL crace_size_t strlen(const char *s) {
  __crace_read(s, 0);
  return (crace_size_t)__crace_unknown_longlong();
}
CRACE_MODEL_CALL int strcmp(const char *a, const char *b) {
  __crace_read(a, 0);
  __crace_read(b, 0);
  return __crace_unknown_int();
}
CRACE_MODEL_CALL int strncmp(const char *a, const char *b, crace_size_t n) {
  __crace_read(a, n);
  __crace_read(b, n);
  return __crace_unknown_int();
}
/* Functions that write a string are exact C: the explore engine executes the
   models, and a destination left as it was (what __crace_write does: it
   records the access only) would let it compute with the old contents and
   prove race freedom for a run the program cannot take. */
CRACE_MODEL char *strcpy(char *d, const char *s) {
  crace_size_t i = 0;
  while ((d[i] = s[i]) != 0)
    i++;
  return d;
}
CRACE_MODEL char *strncpy(char *d, const char *s, crace_size_t n) {
  crace_size_t i = 0;
  for (; i < n && s[i]; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}
CRACE_MODEL char *strcat(char *d, const char *s) {
  crace_size_t i = 0, j = 0;
  while (d[i])
    i++;
  while ((d[i + j] = s[j]) != 0)
    j++;
  return d;
}
CRACE_MODEL char *strncat(char *d, const char *s, crace_size_t n) {
  crace_size_t i = 0, j = 0;
  while (d[i])
    i++;
  for (; j < n && s[j]; j++)
    d[i + j] = s[j];
  d[i + j] = 0;
  return d;
}
CRACE_MODEL char *strdup(const char *s) {
  crace_size_t n = 0;
  while (s[n])
    n++;
  char *p = (char *)__crace_alloc(n + 1);
  if (!p)
    return 0;
  for (crace_size_t i = 0; i <= n; i++)
    p[i] = s[i];
  return p;
}
CRACE_MODEL_CALL char *strchr(const char *s, int c) {
  __crace_read(s, 0);
  return __crace_unknown_int() ? (char *)s + __crace_unknown_int() : (char *)0;
}
CRACE_MODEL_CALL char *strrchr(const char *s, int c) {
  __crace_read(s, 0);
  return __crace_unknown_int() ? (char *)s + __crace_unknown_int() : (char *)0;
}
CRACE_MODEL_CALL char *strstr(const char *s, const char *t) {
  __crace_read(s, 0);
  __crace_read(t, 0);
  return __crace_unknown_int() ? (char *)s + __crace_unknown_int() : (char *)0;
}
CRACE_MODEL_CALL int atoi(const char *s) {
  __crace_read(s, 0);
  return __crace_unknown_int();
}
CRACE_MODEL_CALL long atol(const char *s) {
  __crace_read(s, 0);
  return (long)__crace_unknown_longlong();
}
CRACE_MODEL int abs(int x) { return x < 0 ? -x : x; }
CRACE_MODEL long labs(long x) { return x < 0 ? -x : x; }
CRACE_MODEL int rand(void) { return __crace_nondet_int() & 0x7fffffff; }
CRACE_MODEL void srand(unsigned s) {}
CRACE_MODEL int usleep(unsigned us) { return 0; }
CRACE_MODEL unsigned sleep(unsigned s) { return 0; }
CRACE_MODEL int ffs(int i) {
  for (int b = 0; b < 32; b++)
    if (i & (1 << b))
      return b + 1;
  return 0;
}
static char crace_strerror_buf[64];
CRACE_MODEL char *strerror(int e) { return crace_strerror_buf; }
