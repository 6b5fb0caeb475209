/* C library model, part 3: stdio streams (after string.c, whose helpers it
   uses).

   A FILE is an object of libc's: stdio locks it inside every call, so two
   threads writing one stream do not race, and the models never access it
   (flockfile/funlockfile make it a lock the program can hold). What the
   program passes — buffers, strings — is read or written. Input functions
   write nondeterministic bytes (__crace_libc_input): the engines that run
   the program must not compute with what the buffer held before.
   printf/scanf families (varargs) are rows of src/model/SyncAPI.def. */
#include "crace_intrinsics.h"


#define CRACE_FILE_SIZE 256
/* A fresh stream object, or null with errno set. */
CRACE_MODEL void *__crace_libc_new_file(void) {
  if (__crace_nondet_bits(1)) {
    __crace_libc_fail();
    return 0;
  }
  return __crace_alloc(CRACE_FILE_SIZE);
}

static char __crace_libc_stdin_file[CRACE_FILE_SIZE];
static char __crace_libc_stdout_file[CRACE_FILE_SIZE];
static char __crace_libc_stderr_file[CRACE_FILE_SIZE];
__attribute__((weak)) void *stdin = __crace_libc_stdin_file;
__attribute__((weak)) void *stdout = __crace_libc_stdout_file;
__attribute__((weak)) void *stderr = __crace_libc_stderr_file;

CRACE_MODEL void *fopen(const char *path, const char *mode) {
  __crace_libc_read_string(path);
  __crace_libc_read_string(mode);
  return __crace_libc_new_file();
}
CRACE_MODEL void *fopen64(const char *path, const char *mode) { return fopen(path, mode); }
CRACE_MODEL void *fdopen(int fd, const char *mode) {
  __crace_libc_read_string(mode);
  return __crace_libc_new_file();
}
CRACE_MODEL void *freopen(const char *path, const char *mode, void *f) {
  __crace_libc_read_string(path);
  __crace_libc_read_string(mode);
  return __crace_nondet_bits(1) ? 0 : f;
}
CRACE_MODEL void *tmpfile(void) { return __crace_libc_new_file(); }
/* popen runs a shell command: its output is input to the program. */
CRACE_MODEL void *popen(const char *cmd, const char *mode) { return fopen(cmd, mode); }
CRACE_MODEL int pclose(void *f) {
  return __crace_nondet_bits(1) ? __crace_libc_fail() : (int)__crace_nondet_bits(16);
}

/* Stream locks (the locks stdio takes inside each call, held across calls). */
CRACE_MODEL void flockfile(void *f) { __crace_lock(f); }
CRACE_MODEL void funlockfile(void *f) { __crace_unlock(f); }
CRACE_MODEL int ftrylockfile(void *f) { return __crace_trylock(f); }

/* Input. */
CRACE_MODEL char *fgets(char *s, int n, void *f) {
  if (n <= 0 || __crace_nondet_bits(1))
    return 0; /* end of file or error: s is unchanged */
  __crace_libc_input_line(s, (crace_size_t)n, '\n');
  return s;
}
CRACE_MODEL char *fgets_unlocked(char *s, int n, void *f) { return fgets(s, n, f); }
CRACE_MODEL crace_size_t fread(void *p, crace_size_t sz, crace_size_t n, void *f) {
  crace_size_t k = __crace_libc_count(n);
  __crace_libc_input(p, k * sz);
  if (k < n) /* a partial element: its bytes are unspecified */
    __crace_libc_input((char *)p + k * sz, __crace_libc_count(sz));
  return k;
}
CRACE_MODEL crace_size_t fread_unlocked(void *p, crace_size_t sz, crace_size_t n,
                                        void *f) {
  return fread(p, sz, n, f);
}
/* A character or EOF (-1). */
CRACE_MODEL int __crace_libc_getc(void) {
  int c = (int)__crace_nondet_bits(9);
  return c > 255 ? -1 : c;
}
CRACE_MODEL int fgetc(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int getc(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int _IO_getc(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int getc_unlocked(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int fgetc_unlocked(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int getchar(void) { return __crace_libc_getc(); }
CRACE_MODEL int getchar_unlocked(void) { return __crace_libc_getc(); }
CRACE_MODEL int __uflow(void *f) { return __crace_libc_getc(); }
CRACE_MODEL int ungetc(int c, void *f) { return __crace_nondet_bits(1) ? -1 : (c & 0xff); }
/* getline/getdelim: a line into *lp, grown (a fresh object) when too small. */
CRACE_MODEL long getdelim(char **lp, crace_size_t *np, int delim, void *f) {
  if (__crace_nondet_bits(1)) {
    __crace_libc_fail();
    return -1; /* end of file or error */
  }
  /* The line's length is input; the buffer is grown to hold it. */
  crace_size_t k = 1 + __crace_libc_count(4094);
  char *p = *lp;
  if (!p || *np < k + 1) {
    char *q = (char *)__crace_alloc(k + 1);
    if (!q)
      return __crace_libc_fail();
    __crace_free(p);
    *lp = p = q;
    *np = k + 1;
  }
  return (long)__crace_libc_input_line(p, k + 1, delim);
}
CRACE_MODEL long __getdelim(char **lp, crace_size_t *np, int delim, void *f) {
  return getdelim(lp, np, delim, f);
}
CRACE_MODEL long getline(char **lp, crace_size_t *np, void *f) {
  return getdelim(lp, np, '\n', f);
}

/* State and positioning: the stream's state is libc's, results are input. */
CRACE_MODEL int feof(void *f) { return (int)__crace_nondet_bits(1); }
CRACE_MODEL int ferror(void *f) { return (int)__crace_nondet_bits(1); }
CRACE_MODEL int feof_unlocked(void *f) { return (int)__crace_nondet_bits(1); }
CRACE_MODEL int ferror_unlocked(void *f) { return (int)__crace_nondet_bits(1); }
CRACE_MODEL void clearerr(void *f) {}
CRACE_MODEL void rewind(void *f) {}
CRACE_MODEL int fseek(void *f, long off, int whence) { return __crace_libc_status(); }
CRACE_MODEL int fseeko(void *f, long off, int whence) { return __crace_libc_status(); }
CRACE_MODEL long ftell(void *f) { return (long)__crace_libc_size((crace_size_t)-1 >> 1); }
CRACE_MODEL long ftello(void *f) { return (long)__crace_libc_size((crace_size_t)-1 >> 1); }
CRACE_MODEL int fileno(void *f) { return __crace_libc_fd(); }
CRACE_MODEL int fileno_unlocked(void *f) { return __crace_libc_fd(); }
CRACE_MODEL int setvbuf(void *f, char *buf, int mode, crace_size_t n) {
  return __crace_nondet_bits(1) ? -1 : 0;
}
CRACE_MODEL void setbuf(void *f, char *buf) {}
CRACE_MODEL void setlinebuf(void *f) {}
CRACE_MODEL int remove(const char *path) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int rename(const char *a, const char *b) {
  __crace_libc_read_string(a);
  __crace_libc_read_string(b);
  return __crace_libc_status();
}

/* System log: the messages are read (syslog/vsyslog are table rows). */
CRACE_MODEL void openlog(const char *ident, int opt, int fac) {
  __crace_libc_read_string(ident);
}
CRACE_MODEL void closelog(void) {}
CRACE_MODEL int setlogmask(int mask) { return (int)__crace_nondet_bits(8); }

/* asprintf/vasprintf: the formatted string in a fresh block stored to *sp
   (its length returned), or -1 when the allocation fails (*sp is then
   unspecified: left alone). The string is formatted by vsnprintf, a row of
   SyncAPI.def, so the arguments are read as printf reads them (explore
   formats them exactly); asprintf is variadic, so it stays a function of
   its own (va_start is not inlined). */
int vsnprintf(char *s, crace_size_t n, const char *fmt, __builtin_va_list ap);
CRACE_MODEL int vasprintf(char **sp, const char *fmt, __builtin_va_list ap) {
  __builtin_va_list again;
  __builtin_va_copy(again, ap);
  int n = vsnprintf(0, 0, fmt, ap);
  if (n < 0 || __crace_nondet_bits(1)) {
    __builtin_va_end(again);
    __crace_libc_fail();
    return -1;
  }
  char *s = __crace_alloc((crace_size_t)n + 1);
  vsnprintf(s, (crace_size_t)n + 1, fmt, again);
  __builtin_va_end(again);
  *sp = s;
  return n;
}
CRACE_MODEL int asprintf(char **sp, const char *fmt, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int n = vasprintf(sp, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
