/* GNU dbm 1.8 (gdbm.h): a database file of key/content pairs. A datum is
   { char *dptr; int dsize; }, passed and returned by value.

   gdbm_open(name, block_size, flags, mode, fatal_func) reads the name and
   returns a fresh handle, or NULL (errors: the file, permissions, another
   process's lock). The handle is the library's state: every call reads
   and writes it (gdbm 1.8 keeps its bucket cache and current position
   there, with no lock), so two threads that use one handle without a lock
   of their own race on it, as they do in the library. The file's contents
   are input: gdbm_fetch returns either { NULL, 0 } (no such key) or fresh
   malloc'd memory of dsize input bytes, gdbm_exists any of 0 and 1,
   gdbm_firstkey and gdbm_nextkey a fresh key of input bytes or { NULL, 0 }
   at the end. The model does not remember what the program stored (a
   fetch after a store of the same key returns input, as a read of a file
   the program wrote does in models/posix.c; mt-daapd opens its database
   with GDBM_NOLOCK, so another process may change it). gdbm_store and
   gdbm_delete read the key (and content) bytes; a reader (flags & 3 == 0)
   cannot change the file (-1), gdbm_store of a null dptr is -1, and
   otherwise the result is input (store: 0, 1 for an existing key with
   GDBM_INSERT, -1 on error; delete: 0 or -1 when the key is missing).
   gdbm_errno, the library's global error code, is not modelled.

   gdbm_sync and gdbm_close only fsync (whose failure is not fatal).
   A call that reads or writes buckets may hit a fatal error (a failed
   read, write or seek): gdbm 1.8 then calls fatal_func(message) when the
   program gave one (else it prints to stderr) and exits with status 1. */
#include "crace_intrinsics.h"

typedef struct {
  char *dptr;
  int dsize;
} __crace_gdbm_datum;

struct __crace_gdbm_file {
  void (*fatal)(const char *);
  int writer;
  int state[8]; /* the bucket cache and position (gdbm_file_info) */
};

/* gdbm's own fatal handler when the program gives none: a message to
   stderr (stored in place of NULL, so that the call below always has a
   target the analysis knows). */
CRACE_MODEL void __crace_gdbm_default_fatal(const char *msg) {}
/* The state every call reads and writes. */
CRACE_MODEL void __crace_gdbm_touch(struct __crace_gdbm_file *f) {
  __crace_read(f, sizeof *f);
  __crace_write(f->state, sizeof f->state);
}
/* ... and a fatal error of the call's I/O. */
CRACE_MODEL void __crace_gdbm_io(struct __crace_gdbm_file *f) {
  __crace_gdbm_touch(f);
  if (__crace_nondet_bits(1)) {
    f->fatal("read error");
    exit(1);
  }
}
CRACE_MODEL void __crace_gdbm_read_datum(__crace_gdbm_datum d) {
  if (d.dptr && d.dsize > 0)
    __crace_read(d.dptr, (crace_size_t)d.dsize);
}
/* { NULL, 0 }, or fresh memory of dsize input bytes (dsize >= 0). */
CRACE_MODEL __crace_gdbm_datum __crace_gdbm_input_datum(void) {
  __crace_gdbm_datum r;
  r.dptr = 0;
  r.dsize = 0;
  if (__crace_nondet_bits(1))
    return r;
  int n = (int)__crace_libc_count(0x7fffffff);
  char *p = __crace_alloc(n ? (crace_size_t)n : 1); /* malloc(1) for 0 */
  __crace_libc_input(p, (crace_size_t)n);
  r.dptr = p;
  r.dsize = n;
  return r;
}

CRACE_MODEL void *gdbm_open(char *name, int block_size, int flags, int mode,
                            void (*fatal_func)()) {
  __crace_libc_read_string(name);
  if (__crace_nondet_bits(1))
    return 0;
  struct __crace_gdbm_file *f = __crace_alloc(sizeof *f);
  if (!f)
    return 0;
  f->fatal = fatal_func ? (void (*)(const char *))fatal_func
                        : __crace_gdbm_default_fatal;
  f->writer = (flags & 3) != 0;
  for (int i = 0; i < 8; i++)
    f->state[i] = 0;
  return f;
}
CRACE_MODEL void gdbm_close(void *dbf) {
  /* A writer fsyncs the file first (its failure is not fatal). */
  __crace_gdbm_touch(dbf);
  __crace_free(dbf);
}
CRACE_MODEL int gdbm_store(void *dbf, __crace_gdbm_datum key,
                           __crace_gdbm_datum content, int flag) {
  struct __crace_gdbm_file *f = dbf;
  __crace_read(f, sizeof *f);
  if (!f->writer || !key.dptr || !content.dptr)
    return -1;
  __crace_gdbm_read_datum(key);
  __crace_gdbm_read_datum(content);
  __crace_gdbm_io(f);
  int r = (int)__crace_nondet_bits(2);
  if (r == 1 && flag == 0) /* GDBM_INSERT: the key was there */
    return 1;
  return r == 2 ? -1 : 0;
}
CRACE_MODEL __crace_gdbm_datum gdbm_fetch(void *dbf, __crace_gdbm_datum key) {
  __crace_gdbm_read_datum(key);
  __crace_gdbm_io(dbf);
  return __crace_gdbm_input_datum();
}
CRACE_MODEL int gdbm_exists(void *dbf, __crace_gdbm_datum key) {
  __crace_gdbm_read_datum(key);
  __crace_gdbm_io(dbf);
  return (int)__crace_nondet_bits(1);
}
CRACE_MODEL int gdbm_delete(void *dbf, __crace_gdbm_datum key) {
  struct __crace_gdbm_file *f = dbf;
  __crace_read(f, sizeof *f);
  if (!f->writer)
    return -1;
  __crace_gdbm_read_datum(key);
  __crace_gdbm_io(f);
  return __crace_nondet_bits(1) ? -1 : 0;
}
CRACE_MODEL __crace_gdbm_datum gdbm_firstkey(void *dbf) {
  __crace_gdbm_io(dbf);
  return __crace_gdbm_input_datum();
}
CRACE_MODEL __crace_gdbm_datum gdbm_nextkey(void *dbf, __crace_gdbm_datum key) {
  __crace_gdbm_read_datum(key);
  __crace_gdbm_io(dbf);
  return __crace_gdbm_input_datum();
}
CRACE_MODEL int gdbm_reorganize(void *dbf) {
  struct __crace_gdbm_file *f = dbf;
  __crace_read(f, sizeof *f);
  if (!f->writer)
    return -1;
  __crace_gdbm_io(f);
  return __crace_nondet_bits(1) ? -1 : 0;
}
CRACE_MODEL void gdbm_sync(void *dbf) { __crace_gdbm_touch(dbf); }
