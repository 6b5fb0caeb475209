/* C library model, part 2: helpers shared by string.c, stdio.c and posix.c
   (the model files are compiled as one unit, in the order of
   src/CMakeLists.txt), errno, ctype tables, string and stdlib functions,
   qsort/bsearch, getopt, locale.

   How results are modelled (the explore engine executes these bodies, so a
   result must be one the real function can give, and every result it can
   give must be possible):
   - input from the environment (files, sockets, the clock, the user):
     __crace_nondet_* values, written byte by byte (__crace_libc_input);
   - results the function computes from its arguments that the model does
     not compute: __crace_unknown_* (engines that execute the program stop
     there, the others over-approximate);
   - everything else exactly, in C. */
#include "crace_intrinsics.h"

/* ---- helpers ---------------------------------------------------------- */

/* n bytes of input at p, each byte any value. */
CRACE_MODEL void __crace_libc_input(void *p, crace_size_t n) {
  unsigned char *b = (unsigned char *)p;
  for (crace_size_t i = 0; i < n; i++)
    b[i] = (unsigned char)__crace_nondet_bits(8);
}
/* A count of input items in [0, n] (a __crace_nondet_count: explore's
   comparison-guided inputs lengthen the read that holds the bytes they
   add). */
CRACE_MODEL crace_size_t __crace_libc_count(crace_size_t n) {
  crace_size_t k = (crace_size_t)__crace_nondet_count();
  return k <= n ? k : n;
}
/* Input of at most cap - 1 bytes and a zero after them (cap > 0); when
   stop >= 0, the input ends after the first byte equal to stop (fgets'
   newline, getdelim's delimiter), as the real functions write nothing
   past it. Returns the number of bytes written before the zero. */
CRACE_MODEL crace_size_t __crace_libc_input_line(char *p, crace_size_t cap, int stop) {
  crace_size_t k = __crace_libc_count(cap - 1), i = 0;
  while (i < k) {
    char c = (char)__crace_nondet_bits(8);
    p[i++] = c;
    if (stop >= 0 && (unsigned char)c == (unsigned char)stop)
      break;
  }
  p[i] = 0;
  return i;
}
CRACE_MODEL crace_size_t __crace_libc_input_string(char *p, crace_size_t cap) {
  return __crace_libc_input_line(p, cap, -1);
}
/* n bytes at p that are a function of the arguments the model does not
   compute. */
CRACE_MODEL void __crace_libc_unknown(void *p, crace_size_t n) {
  unsigned char *b = (unsigned char *)p;
  for (crace_size_t i = 0; i < n; i++)
    b[i] = (unsigned char)__crace_unknown_int();
}
/* Reads the zero-terminated string s (the access, not its value). */
CRACE_MODEL void __crace_libc_read_string(const char *s) {
  if (s)
    __crace_read(s, 0);
}

/* errno is per thread. A failing call stores an arbitrary error code. */
static __thread int __crace_libc_errno;
CRACE_MODEL int *__errno_location(void) { return &__crace_libc_errno; }
CRACE_MODEL int *__error(void) { return &__crace_libc_errno; } /* macOS */
CRACE_MODEL int __crace_libc_fail(void) {
  __crace_libc_errno = 1 + (int)__crace_nondet_bits(7);
  return -1;
}
/* 0, or -1 with errno set: the result of most POSIX calls. */
CRACE_MODEL int __crace_libc_status(void) {
  return __crace_nondet_bits(1) ? __crace_libc_fail() : 0;
}
/* A file descriptor, or -1 with errno set. The kernel hands out the
   lowest free number, so a new descriptor is below 1024 (FD_SETSIZE: what
   select() and FD_SET can take) unless the process holds a thousand
   others; the models assume it does not. */
CRACE_MODEL int __crace_libc_fd(void) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  return (int)__crace_nondet_bits(10);
}
/* A byte count in [0, n], or -1 with errno set. */
CRACE_MODEL long __crace_libc_size(crace_size_t n) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  return (long)__crace_libc_count(n);
}
/* Locks libc takes inside non-reentrant functions that fill a static
   result (glibc's localtime and the netdb and passwd lookups do). */
static int __crace_libc_static_lock;

/* ---- ctype: the C locale's tables, constant (never written) ---------- */
/* glibc's __ctype_b bits (little endian): upper 0x100, lower 0x200, alpha
   0x400, digit 0x800, xdigit 0x1000, space 0x2000, print 0x4000, graph
   0x8000, blank 0x1, cntrl 0x2, punct 0x4, alnum 0x8. Index -128..255. */
#define CR_C 0x2
#define CR_S (0x2000 | 0x2)
#define CR_B (0x2000 | 0x1 | 0x4000)
#define CR_P (0x4 | 0x4000 | 0x8000)
#define CR_D (0x800 | 0x1000 | 0x8 | 0x4000 | 0x8000)
#define CR_UX (0x100 | 0x400 | 0x1000 | 0x8 | 0x4000 | 0x8000)
#define CR_U (0x100 | 0x400 | 0x8 | 0x4000 | 0x8000)
#define CR_LX (0x200 | 0x400 | 0x1000 | 0x8 | 0x4000 | 0x8000)
#define CR_L (0x200 | 0x400 | 0x8 | 0x4000 | 0x8000)
static const unsigned short __crace_libc_ctype_b[384] = {
    [128 + 0 ... 128 + 8] = CR_C,
    [128 + 9] = CR_S | 0x1, [128 + 10 ... 128 + 13] = CR_S,
    [128 + 14 ... 128 + 31] = CR_C,
    [128 + 32] = CR_B,
    [128 + 33 ... 128 + 47] = CR_P,
    [128 + 48 ... 128 + 57] = CR_D,
    [128 + 58 ... 128 + 64] = CR_P,
    [128 + 65 ... 128 + 70] = CR_UX, [128 + 71 ... 128 + 90] = CR_U,
    [128 + 91 ... 128 + 96] = CR_P,
    [128 + 97 ... 128 + 102] = CR_LX, [128 + 103 ... 128 + 122] = CR_L,
    [128 + 123 ... 128 + 126] = CR_P,
    [128 + 127] = CR_C,
};
static const unsigned short *const __crace_libc_ctype_b_ptr =
    __crace_libc_ctype_b + 128;
CRACE_MODEL const unsigned short **__ctype_b_loc(void) {
  return (const unsigned short **)&__crace_libc_ctype_b_ptr;
}
#define CR_ID(i) [128 + (i)] = (i)
static const int __crace_libc_ctype_lower[384] = {
#define CR_ROW(b) CR_ID(b), CR_ID(b + 1), CR_ID(b + 2), CR_ID(b + 3), \
  CR_ID(b + 4), CR_ID(b + 5), CR_ID(b + 6), CR_ID(b + 7)
    CR_ROW(-128), CR_ROW(-120), CR_ROW(-112), CR_ROW(-104), CR_ROW(-96),
    CR_ROW(-88), CR_ROW(-80), CR_ROW(-72), CR_ROW(-64), CR_ROW(-56),
    CR_ROW(-48), CR_ROW(-40), CR_ROW(-32), CR_ROW(-24), CR_ROW(-16), CR_ROW(-8),
    CR_ROW(0), CR_ROW(8), CR_ROW(16), CR_ROW(24), CR_ROW(32), CR_ROW(40),
    CR_ROW(48), CR_ROW(56), CR_ROW(64), CR_ROW(72), CR_ROW(80), CR_ROW(88),
    CR_ROW(96), CR_ROW(104), CR_ROW(112), CR_ROW(120), CR_ROW(128),
    CR_ROW(136), CR_ROW(144), CR_ROW(152), CR_ROW(160), CR_ROW(168),
    CR_ROW(176), CR_ROW(184), CR_ROW(192), CR_ROW(200), CR_ROW(208),
    CR_ROW(216), CR_ROW(224), CR_ROW(232), CR_ROW(240), CR_ROW(248),
#define CR_TO(i, v) [128 + (i)] = (v)
    CR_TO(65, 97), CR_TO(66, 98), CR_TO(67, 99), CR_TO(68, 100),
    CR_TO(69, 101), CR_TO(70, 102), CR_TO(71, 103), CR_TO(72, 104),
    CR_TO(73, 105), CR_TO(74, 106), CR_TO(75, 107), CR_TO(76, 108),
    CR_TO(77, 109), CR_TO(78, 110), CR_TO(79, 111), CR_TO(80, 112),
    CR_TO(81, 113), CR_TO(82, 114), CR_TO(83, 115), CR_TO(84, 116),
    CR_TO(85, 117), CR_TO(86, 118), CR_TO(87, 119), CR_TO(88, 120),
    CR_TO(89, 121), CR_TO(90, 122)};
static const int __crace_libc_ctype_upper[384] = {
    CR_ROW(-128), CR_ROW(-120), CR_ROW(-112), CR_ROW(-104), CR_ROW(-96),
    CR_ROW(-88), CR_ROW(-80), CR_ROW(-72), CR_ROW(-64), CR_ROW(-56),
    CR_ROW(-48), CR_ROW(-40), CR_ROW(-32), CR_ROW(-24), CR_ROW(-16), CR_ROW(-8),
    CR_ROW(0), CR_ROW(8), CR_ROW(16), CR_ROW(24), CR_ROW(32), CR_ROW(40),
    CR_ROW(48), CR_ROW(56), CR_ROW(64), CR_ROW(72), CR_ROW(80), CR_ROW(88),
    CR_ROW(96), CR_ROW(104), CR_ROW(112), CR_ROW(120), CR_ROW(128),
    CR_ROW(136), CR_ROW(144), CR_ROW(152), CR_ROW(160), CR_ROW(168),
    CR_ROW(176), CR_ROW(184), CR_ROW(192), CR_ROW(200), CR_ROW(208),
    CR_ROW(216), CR_ROW(224), CR_ROW(232), CR_ROW(240), CR_ROW(248),
    CR_TO(97, 65), CR_TO(98, 66), CR_TO(99, 67), CR_TO(100, 68),
    CR_TO(101, 69), CR_TO(102, 70), CR_TO(103, 71), CR_TO(104, 72),
    CR_TO(105, 73), CR_TO(106, 74), CR_TO(107, 75), CR_TO(108, 76),
    CR_TO(109, 77), CR_TO(110, 78), CR_TO(111, 79), CR_TO(112, 80),
    CR_TO(113, 81), CR_TO(114, 82), CR_TO(115, 83), CR_TO(116, 84),
    CR_TO(117, 85), CR_TO(118, 86), CR_TO(119, 87), CR_TO(120, 88),
    CR_TO(121, 89), CR_TO(122, 90)};
static const int *const __crace_libc_ctype_lower_ptr =
    __crace_libc_ctype_lower + 128;
static const int *const __crace_libc_ctype_upper_ptr =
    __crace_libc_ctype_upper + 128;
CRACE_MODEL const int **__ctype_tolower_loc(void) {
  return (const int **)&__crace_libc_ctype_lower_ptr;
}
CRACE_MODEL const int **__ctype_toupper_loc(void) {
  return (const int **)&__crace_libc_ctype_upper_ptr;
}
CRACE_MODEL int __tolower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
CRACE_MODEL int __toupper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }
/* macOS: classes of characters outside ASCII, none in the C locale. */
CRACE_MODEL int __maskrune(int c, unsigned long f) { return 0; }
CRACE_MODEL int isupper(int c) { return c >= 'A' && c <= 'Z'; }
CRACE_MODEL int islower(int c) { return c >= 'a' && c <= 'z'; }
CRACE_MODEL int isalnum(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
CRACE_MODEL int isxdigit(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
CRACE_MODEL int isprint(int c) { return c >= 32 && c < 127; }
CRACE_MODEL int isgraph(int c) { return c > 32 && c < 127; }
CRACE_MODEL int iscntrl(int c) { return (c >= 0 && c < 32) || c == 127; }
CRACE_MODEL int ispunct(int c) { return isgraph(c) && !isalnum(c); }
CRACE_MODEL int isascii(int c) { return (c & ~0x7f) == 0; }
CRACE_MODEL int isblank(int c) { return c == ' ' || c == '\t'; }

/* ---- strings, exact ---------------------------------------------------- */
CRACE_MODEL void *memchr(const void *s, int c, crace_size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  for (crace_size_t i = 0; i < n; i++)
    if (p[i] == (unsigned char)c)
      return (void *)(p + i);
  return 0;
}
CRACE_MODEL crace_size_t strnlen(const char *s, crace_size_t n) {
  crace_size_t i = 0;
  while (i < n && s[i])
    i++;
  return i;
}
CRACE_MODEL int strcasecmp(const char *a, const char *b) {
  for (crace_size_t i = 0;; i++) {
    int x = __tolower((unsigned char)a[i]), y = __tolower((unsigned char)b[i]);
    if (x != y || !x)
      return x - y;
  }
}
CRACE_MODEL int strncasecmp(const char *a, const char *b, crace_size_t n) {
  for (crace_size_t i = 0; i < n; i++) {
    int x = __tolower((unsigned char)a[i]), y = __tolower((unsigned char)b[i]);
    if (x != y || !x)
      return x - y;
  }
  return 0;
}
CRACE_MODEL char *strcasestr(const char *h, const char *n) {
  for (crace_size_t i = 0;; i++) {
    crace_size_t j = 0;
    while (n[j] && __tolower((unsigned char)h[i + j]) == __tolower((unsigned char)n[j]))
      j++;
    if (!n[j])
      return (char *)h + i;
    if (!h[i])
      return 0;
  }
}
CRACE_MODEL crace_size_t strspn(const char *s, const char *set) {
  crace_size_t i = 0;
  for (;; i++) {
    crace_size_t j = 0;
    while (set[j] && set[j] != s[i])
      j++;
    if (!s[i] || !set[j])
      return i;
  }
}
CRACE_MODEL crace_size_t strcspn(const char *s, const char *set) {
  crace_size_t i = 0;
  for (;; i++) {
    crace_size_t j = 0;
    while (set[j] && set[j] != s[i])
      j++;
    if (!s[i] || set[j])
      return i;
  }
}
CRACE_MODEL char *strpbrk(const char *s, const char *set) {
  crace_size_t i = strcspn(s, set);
  return s[i] ? (char *)s + i : 0;
}
CRACE_MODEL char *strsep(char **sp, const char *delim) {
  char *s = *sp;
  if (!s)
    return 0;
  crace_size_t i = strcspn(s, delim);
  if (s[i]) {
    s[i] = 0;
    *sp = s + i + 1;
  } else {
    *sp = 0;
  }
  return s;
}
CRACE_MODEL char *__strsep_g(char **sp, const char *delim) { return strsep(sp, delim); }
CRACE_MODEL char *strtok_r(char *s, const char *delim, char **save) {
  if (!s)
    s = *save;
  if (!s)
    return 0;
  s += strspn(s, delim);
  if (!*s) {
    *save = 0;
    return 0;
  }
  crace_size_t i = strcspn(s, delim);
  if (s[i]) {
    s[i] = 0;
    *save = s + i + 1;
  } else {
    *save = s + i;
  }
  return s;
}
CRACE_MODEL char *__strtok_r(char *s, const char *delim, char **save) {
  return strtok_r(s, delim, save);
}
/* strtok keeps its position in a static of libc's. Two threads calling it
   race inside libc, which is not an access of the program: the position is
   loaded and stored atomically, so it is never reported, while the pointer
   it holds still flows (a thread may go on in the string another thread
   passed, and its writes of the zeros there are the program's accesses). */
static char *__crace_libc_strtok_pos;
CRACE_MODEL char *strtok(char *s, const char *delim) {
  char *save = __atomic_load_n(&__crace_libc_strtok_pos, __ATOMIC_SEQ_CST);
  char *r = strtok_r(s, delim, &save);
  __atomic_store_n(&__crace_libc_strtok_pos, save, __ATOMIC_SEQ_CST);
  return r;
}
CRACE_MODEL char *__strdup(const char *s) { return strdup(s); }
CRACE_MODEL char *strndup(const char *s, crace_size_t n) {
  crace_size_t k = strnlen(s, n);
  char *p = (char *)__crace_alloc(k + 1);
  if (!p)
    return 0;
  for (crace_size_t i = 0; i < k; i++)
    p[i] = s[i];
  p[k] = 0;
  return p;
}
CRACE_MODEL char *__strndup(const char *s, crace_size_t n) { return strndup(s, n); }
CRACE_MODEL crace_size_t strlcpy(char *d, const char *s, crace_size_t n) {
  crace_size_t k = 0;
  while (s[k])
    k++;
  if (n) {
    crace_size_t c = k < n - 1 ? k : n - 1;
    for (crace_size_t i = 0; i < c; i++)
      d[i] = s[i];
    d[c] = 0;
  }
  return k;
}
CRACE_MODEL crace_size_t strlcat(char *d, const char *s, crace_size_t n) {
  crace_size_t l = strnlen(d, n);
  if (l == n)
    return n + strnlen(s, (crace_size_t)-1);
  return l + strlcpy(d + l, s, n - l);
}
/* strerror_r: the message is libc's text; its contents are not modelled. */
CRACE_MODEL int __xpg_strerror_r(int e, char *buf, crace_size_t n) {
  if (n)
    __crace_libc_unknown(buf, 1);
  return 0;
}
CRACE_MODEL char *strerror_r(int e, char *buf, crace_size_t n) {
  if (n)
    __crace_libc_unknown(buf, 1);
  return buf;
}
CRACE_MODEL void bzero(void *p, crace_size_t n) { __builtin_memset(p, 0, n); }
CRACE_MODEL void bcopy(const void *s, void *d, crace_size_t n) {
  __builtin_memmove(d, s, n);
}

/* ---- numbers from strings, exact --------------------------------------- */
CRACE_MODEL unsigned long long __crace_libc_strtoull(const char *s, char **end,
                                                     int base, int *neg,
                                                     int *overflow) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
    p++;
  *neg = 0;
  *overflow = 0;
  if (*p == '-' || *p == '+')
    *neg = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
      isxdigit((unsigned char)p[2])) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  unsigned long long v = 0;
  const char *digits = p;
  for (;; p++) {
    int d;
    if (*p >= '0' && *p <= '9')
      d = *p - '0';
    else if (*p >= 'a' && *p <= 'z')
      d = *p - 'a' + 10;
    else if (*p >= 'A' && *p <= 'Z')
      d = *p - 'A' + 10;
    else
      break;
    if (d >= base)
      break;
    if (v > (~0ULL - (unsigned)d) / (unsigned)base)
      *overflow = 1;
    v = v * (unsigned)base + (unsigned)d;
  }
  if (end)
    *end = (char *)(p == digits ? s : p);
  return v;
}
/* Floating point: where the number ends is exact for decimal numbers
   (sign, digits, a point, an exponent); the value is not computed, so an
   engine that executes the program does not go on past it, nor past
   "inf", "nan" or hexadecimal floats, whose end is not computed either. */
CRACE_MODEL double __crace_libc_strtod(const char *s, char **end) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
    p++;
  if (*p == '-' || *p == '+')
    p++;
  const char *digits = p;
  int n = 0;
  while (*p >= '0' && *p <= '9')
    p++, n++;
  if (*p == '.') {
    p++;
    while (*p >= '0' && *p <= '9')
      p++, n++;
  }
  if (n == 0) {
    char c = *digits;
    if (c == 'i' || c == 'I' || c == 'n' || c == 'N')
      __crace_unknown_int(); /* inf, nan: not computed */
    if (end)
      *end = (char *)s;
    return 0.0;
  }
  if (n && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    __crace_unknown_int(); /* hexadecimal: not computed */
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    if (*q == '-' || *q == '+')
      q++;
    if (*q >= '0' && *q <= '9') {
      while (*q >= '0' && *q <= '9')
        q++;
      p = q;
    }
  }
  if (end)
    *end = (char *)p;
  return (double)__crace_unknown_longlong();
}
CRACE_MODEL double strtod(const char *s, char **end) {
  return __crace_libc_strtod(s, end);
}
CRACE_MODEL float strtof(const char *s, char **end) {
  return (float)__crace_libc_strtod(s, end);
}
CRACE_MODEL long double strtold(const char *s, char **end) {
  return __crace_libc_strtod(s, end);
}
CRACE_MODEL double atof(const char *s) { return __crace_libc_strtod(s, 0); }

/* getsubopt, exact: the suboption at *opt up to a comma (replaced by a
   zero), matched against the tokens up to its '='. */
CRACE_MODEL int getsubopt(char **opt, char *const *tokens, char **value) {
  char *s = *opt;
  if (*s == 0)
    return -1;
  char *end = s;
  while (*end && *end != ',')
    end++;
  char *eq = s;
  while (eq < end && *eq != '=')
    eq++;
  char *next = end;
  if (*next)
    *next++ = 0;
  *opt = next;
  for (int i = 0; tokens[i]; i++) {
    const char *t = tokens[i];
    long k = 0;
    while (s + k < eq && t[k] == s[k])
      k++;
    if (s + k == eq && t[k] == 0) {
      *value = eq < end ? eq + 1 : 0;
      return i;
    }
  }
  *value = s;
  return -1;
}

CRACE_MODEL long long strtoll(const char *s, char **end, int base) {
  int neg, ov;
  unsigned long long v = __crace_libc_strtoull(s, end, base, &neg, &ov);
  unsigned long long lim = neg ? (1ULL << 63) : (1ULL << 63) - 1;
  if (ov || v > lim) {
    __crace_libc_errno = 34; /* ERANGE */
    v = lim;
  }
  return neg ? (long long)(0 - v) : (long long)v;
}
CRACE_MODEL unsigned long long strtoull(const char *s, char **end, int base) {
  int neg, ov;
  unsigned long long v = __crace_libc_strtoull(s, end, base, &neg, &ov);
  if (ov) {
    __crace_libc_errno = 34;
    return ~0ULL;
  }
  return neg ? 0 - v : v;
}
CRACE_MODEL long strtol(const char *s, char **end, int base) {
  int neg, ov;
  unsigned long long v = __crace_libc_strtoull(s, end, base, &neg, &ov);
  unsigned long long lim = neg ? (unsigned long long)(~0UL >> 1) + 1 : ~0UL >> 1;
  if (ov || v > lim) {
    __crace_libc_errno = 34;
    v = lim;
  }
  return neg ? (long)(0 - v) : (long)v;
}
CRACE_MODEL unsigned long strtoul(const char *s, char **end, int base) {
  int neg, ov;
  unsigned long long v = __crace_libc_strtoull(s, end, base, &neg, &ov);
  if (ov || v > ~0UL) {
    __crace_libc_errno = 34;
    return ~0UL;
  }
  return neg ? (unsigned long)(0 - v) : (unsigned long)v;
}
/* Old glibc headers call these from the inline strtol/atoi. */
CRACE_MODEL long __strtol_internal(const char *s, char **end, int base, int g) {
  return strtol(s, end, base);
}
CRACE_MODEL unsigned long __strtoul_internal(const char *s, char **end, int base,
                                             int g) {
  return strtoul(s, end, base);
}
CRACE_MODEL long long __strtoll_internal(const char *s, char **end, int base,
                                         int g) {
  return strtoll(s, end, base);
}
CRACE_MODEL unsigned long long __strtoull_internal(const char *s, char **end,
                                                   int base, int g) {
  return strtoull(s, end, base);
}
CRACE_MODEL long long atoll(const char *s) { return strtoll(s, 0, 10); }

/* ---- random numbers: input ---------------------------------------------- */
CRACE_MODEL long lrand48(void) { return (long)(__crace_nondet_int() & 0x7fffffff); }
CRACE_MODEL long mrand48(void) { return (long)__crace_nondet_int(); }
CRACE_MODEL void srand48(long s) {}
CRACE_MODEL double drand48(void) {
  return (double)(unsigned)__crace_nondet_int() / 4294967296.0;
}

/* ---- qsort, bsearch: the comparator runs on the array's elements -------- */
/* An insertion sort (stable, as glibc's merge sort is for a consistent
   comparator): the comparator sees the program's elements, so what it
   touches is analysed, and the array is permuted as qsort permutes it. */
CRACE_MODEL void qsort(void *base, crace_size_t n, crace_size_t sz,
                       int (*cmp)(const void *, const void *)) {
  if (n < 2 || sz == 0)
    return;
  char *a = (char *)base;
  void *tmp = __crace_alloc(sz);
  if (!tmp)
    return;
  for (crace_size_t i = 1; i < n; i++) {
    crace_size_t j = i;
    __builtin_memcpy(tmp, a + i * sz, sz);
    while (j > 0 && cmp(a + (j - 1) * sz, tmp) > 0) {
      __builtin_memcpy(a + j * sz, a + (j - 1) * sz, sz);
      j--;
    }
    if (j != i)
      __builtin_memcpy(a + j * sz, tmp, sz);
  }
  __crace_free(tmp);
}
CRACE_MODEL void *bsearch(const void *key, const void *base, crace_size_t n,
                          crace_size_t sz, int (*cmp)(const void *, const void *)) {
  const char *a = (const char *)base;
  crace_size_t lo = 0, hi = n;
  while (lo < hi) {
    crace_size_t mid = lo + (hi - lo) / 2;
    int c = cmp(key, a + mid * sz);
    if (c == 0)
      return (void *)(a + mid * sz);
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return 0;
}

/* ---- getopt: program-visible globals ------------------------------------ */
/* GNU getopt permutes argv and keeps hidden state; its result is a function
   of argv that the model does not compute (unknown), but its accesses are
   the real ones: it reads argv and the option string, may reorder argv's
   pointers, and writes optarg/optind/optopt, which the program reads. */
__attribute__((weak)) char *optarg;
__attribute__((weak)) int optind = 1;
__attribute__((weak)) int opterr = 1;
__attribute__((weak)) int optopt;
/* Where getopt is inside argv[optind] (0: at its start). */
static int __crace_libc_optpos;
/* glibc's getopt, exactly, where it does not permute argv: options with
   and without arguments ("o:"), optional ones ("o::"), grouped options,
   "--", a leading ':' in opts. glibc moves a non-option past the options
   that follow it; that case (and a leading '-' in opts) is not computed
   (__crace_unknown_int: explore stops that thread). No error message is
   printed (stderr output is not modelled). */
CRACE_MODEL int __crace_libc_getopt(int argc, char *const *argv, const char *opts) {
  __crace_libc_read_string(opts);
  optarg = 0;
  if (optind == 0) {
    optind = 1;
    __crace_libc_optpos = 0;
  }
  if (optind < 1 || optind >= argc || !argv[optind])
    return -1;
  const char *a = argv[optind];
  const char *o = opts;
  if (*o == '-')
    return __crace_unknown_int();
  if (*o == '+')
    o++;
  int colon = *o == ':';
  if (colon)
    o++;
  if (__crace_libc_optpos == 0) {
    if (a[0] != '-' || a[1] == 0) {
      for (int j = optind + 1; j < argc; j++)
        if (argv[j] && argv[j][0] == '-' && argv[j][1])
          return __crace_unknown_int(); /* glibc would permute */
      return -1;
    }
    if (a[1] == '-' && a[2] == 0) {
      optind++;
      return -1;
    }
    __crace_libc_optpos = 1;
  }
  char c = a[__crace_libc_optpos++];
  const char *k = 0;
  for (const char *q = o; *q; q++)
    if (*q == c && c != ':') {
      k = q;
      break;
    }
  if (!k) {
    optopt = (unsigned char)c;
    if (!a[__crace_libc_optpos]) {
      optind++;
      __crace_libc_optpos = 0;
    }
    return '?';
  }
  if (k[1] != ':') {
    if (!a[__crace_libc_optpos]) {
      optind++;
      __crace_libc_optpos = 0;
    }
    return (unsigned char)c;
  }
  if (a[__crace_libc_optpos]) {
    optarg = (char *)a + __crace_libc_optpos;
    optind++;
  } else if (k[2] == ':') {
    optind++; /* an optional argument must be attached */
  } else if (optind + 1 < argc) {
    optarg = argv[optind + 1];
    optind += 2;
  } else {
    optopt = (unsigned char)c;
    optind++;
    __crace_libc_optpos = 0;
    return colon ? ':' : '?';
  }
  __crace_libc_optpos = 0;
  return (unsigned char)c;
}
CRACE_MODEL int getopt(int argc, char *const *argv, const char *opts) {
  return __crace_libc_getopt(argc, argv, opts);
}
CRACE_MODEL int getopt_long(int argc, char *const *argv, const char *opts,
                            const void *longopts, int *index) {
  __crace_read(longopts, 0);
  if (index)
    *index = __crace_unknown_int();
  return __crace_libc_getopt(argc, argv, opts);
}
CRACE_MODEL int getopt_long_only(int argc, char *const *argv, const char *opts,
                                 const void *longopts, int *index) {
  return getopt_long(argc, argv, opts, longopts, index);
}
/* macOS's name for getopt. */
CRACE_MODEL int __crace_libc_getopt_unix2003(int argc, char *const *argv,
                                             const char *opts) __asm__("_getopt$UNIX2003");
CRACE_MODEL int __crace_libc_getopt_unix2003(int argc, char *const *argv,
                                             const char *opts) {
  return __crace_libc_getopt(argc, argv, opts);
}

/* ---- locale and messages ------------------------------------------------- */
/* The locale comes from the environment: setlocale may fail; character
   classes stay those of the C locale (ctype above). The name it returns is
   constant text here. */
static const char __crace_libc_c_locale[] = "C";
CRACE_MODEL char *setlocale(int cat, const char *name) {
  __crace_libc_read_string(name);
  return __crace_nondet_bits(1) ? 0 : (char *)__crace_libc_c_locale;
}
CRACE_MODEL char *bindtextdomain(const char *d, const char *dir) {
  __crace_libc_read_string(d);
  __crace_libc_read_string(dir);
  return (char *)dir;
}
CRACE_MODEL char *bind_textdomain_codeset(const char *d, const char *cs) {
  __crace_libc_read_string(d);
  __crace_libc_read_string(cs);
  return (char *)cs;
}
CRACE_MODEL char *textdomain(const char *d) {
  __crace_libc_read_string(d);
  return (char *)d;
}
/* Translations: the message catalog's text, read-only; as in the C locale,
   the message itself. */
CRACE_MODEL char *gettext(const char *m) {
  __crace_libc_read_string(m);
  return (char *)m;
}
CRACE_MODEL char *dgettext(const char *d, const char *m) { return gettext(m); }
CRACE_MODEL char *dcgettext(const char *d, const char *m, int c) { return gettext(m); }
