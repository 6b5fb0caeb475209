/* FUSE 2.x (libfuse 2.6-2.9) low-level API with the 2.5 compatibility entry
   points (fuse_lowlevel.h, fuse_lowlevel_compat.h, fuse_opt.h,
   fuse_common_compat.h), as zfs-fuse uses it.

   fuse_lowlevel_new_compat25(args, op, op_size, userdata) copies the
   program's struct fuse_lowlevel_ops_compat25 (31 callbacks: init, destroy,
   lookup, ..., access, create; the first op_size bytes, as libfuse's memcpy;
   entries past the compat25 table, which the 2.5 API does not have, are read
   but never called) and keeps userdata. A NULL entry becomes a model function
   that does what libfuse does for it (nothing for init and destroy, no reply
   for forget, ENOSYS for the others), so that every callback call has a
   target the analysis knows.

   fuse_session_process(se, buf, len, ch) dispatches one request the kernel
   wrote into buf: it reads buf; which request it is (the opcode in buf's
   header) is input, a chain of 1-bit inputs that explore enumerates, INIT
   first; so are the numbers the request carries (inode numbers, sizes,
   offsets, modes, flags, the caller's uid/gid/pid). The callback runs in the
   calling thread, as libfuse runs it: INIT calls init(userdata) and, until
   one arrived, every other request gets EIO without a callback; DESTROY calls
   destroy(userdata); the others call their callback (getattr with a NULL
   fuse_file_info, as protocol 7.8 has no getattr_in); requests the compat25
   table has no entry for (getlk, setlk, bmap, interrupt) get ENOSYS. Names
   and write data point into buf, as libfuse passes them, at their offsets in
   kernel protocol 7.8 (after the 40-byte header and the request's fixed part;
   a write's or setxattr's data is the rest of the request, whose length the
   kernel puts in the size field); a request whose name has no terminating
   zero inside len is one the kernel never sends, and gets EIO. struct
   fuse_file_info and setattr's struct stat are libfuse's locals: fresh,
   filled with input (setattr's stat is not converted field by field from the
   request), freed when the callback returns.

   The request handle is fresh memory; a reply (fuse_reply_*) reads what it
   sends and frees the handle, and returns 0 or -errno (the write to the
   device failed); fuse_req_userdata, fuse_req_ctx, fuse_dirent_size and
   fuse_add_dirent are exact (glibc's struct stat layout). fuse_chan_receive
   reads a request: input bytes, at least the 40-byte header, or 0 (the
   session exited, the device is gone) or -errno. A kernel channel's buffer
   size is libfuse's 0x21000. fuse_session_destroy calls destroy(userdata)
   when INIT came and DESTROY did not, and frees the session and its channel.

   fuse_opt_add_arg and fuse_opt_free_args are exact (libfuse's fuse_opt.c).
   fuse_lowlevel_new_compat25 and fuse_mount_compat25 parse args as
   fuse_opt_parse does: they read every argument and, on success, replace args
   with a fresh vector; which arguments libfuse consumes (and how it rejoins
   the -o options) is not computed: the first is kept and each other one is
   kept or dropped, by input. Session and channel state is guarded by a model
   lock (fuse_session_exit may be called from any thread). */
#include "crace_intrinsics.h"

struct __crace_fuse_args {
  int argc;
  char **argv;
  int allocated;
};
struct __crace_fuse_file_info {
  int flags;
  unsigned long fh_old;
  int writepage;
  unsigned direct_io : 1;
  unsigned keep_cache : 1;
  unsigned flush : 1;
  unsigned padding : 29;
  unsigned long long fh;
  unsigned long long lock_owner;
};
typedef void *__crace_fuse_req;
typedef unsigned long __crace_fuse_ino;
typedef struct __crace_fuse_file_info __crace_fuse_fi;
struct __crace_fuse_ops {
  void (*init)(void *);
  void (*destroy)(void *);
  void (*lookup)(__crace_fuse_req, __crace_fuse_ino, const char *);
  void (*forget)(__crace_fuse_req, __crace_fuse_ino, unsigned long);
  void (*getattr)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*setattr)(__crace_fuse_req, __crace_fuse_ino, void *, int,
                  __crace_fuse_fi *);
  void (*readlink)(__crace_fuse_req, __crace_fuse_ino);
  void (*mknod)(__crace_fuse_req, __crace_fuse_ino, const char *, unsigned,
                unsigned long long);
  void (*mkdir)(__crace_fuse_req, __crace_fuse_ino, const char *, unsigned);
  void (*unlink)(__crace_fuse_req, __crace_fuse_ino, const char *);
  void (*rmdir)(__crace_fuse_req, __crace_fuse_ino, const char *);
  void (*symlink)(__crace_fuse_req, const char *, __crace_fuse_ino,
                  const char *);
  void (*rename)(__crace_fuse_req, __crace_fuse_ino, const char *,
                 __crace_fuse_ino, const char *);
  void (*link)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_ino,
               const char *);
  void (*open)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*read)(__crace_fuse_req, __crace_fuse_ino, crace_size_t, long long,
               __crace_fuse_fi *);
  void (*write)(__crace_fuse_req, __crace_fuse_ino, const char *, crace_size_t,
                long long, __crace_fuse_fi *);
  void (*flush)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*release)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*fsync)(__crace_fuse_req, __crace_fuse_ino, int, __crace_fuse_fi *);
  void (*opendir)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*readdir)(__crace_fuse_req, __crace_fuse_ino, crace_size_t, long long,
                  __crace_fuse_fi *);
  void (*releasedir)(__crace_fuse_req, __crace_fuse_ino, __crace_fuse_fi *);
  void (*fsyncdir)(__crace_fuse_req, __crace_fuse_ino, int, __crace_fuse_fi *);
  void (*statfs)(__crace_fuse_req);
  void (*setxattr)(__crace_fuse_req, __crace_fuse_ino, const char *,
                   const char *, crace_size_t, int);
  void (*getxattr)(__crace_fuse_req, __crace_fuse_ino, const char *,
                   crace_size_t);
  void (*listxattr)(__crace_fuse_req, __crace_fuse_ino, crace_size_t);
  void (*removexattr)(__crace_fuse_req, __crace_fuse_ino, const char *);
  void (*access)(__crace_fuse_req, __crace_fuse_ino, int);
  void (*create)(__crace_fuse_req, __crace_fuse_ino, const char *, unsigned,
                 __crace_fuse_fi *);
};
struct __crace_fuse_chan;
struct __crace_fuse_session {
  struct __crace_fuse_ops op;
  void *userdata;
  int exited;
  int got_init;
  int got_destroy;
  struct __crace_fuse_chan *ch;
};
struct __crace_fuse_chan {
  int fd;
  crace_size_t bufsize;
  struct __crace_fuse_session *se;
};
struct __crace_fuse_ctx {
  unsigned uid;
  unsigned gid;
  int pid;
};
struct __crace_fuse_request {
  struct __crace_fuse_session *se;
  struct __crace_fuse_ctx ctx;
};
static char __crace_fuse_lock;

#define CRACE_FUSE_HEADER 40 /* struct fuse_in_header */
#define CRACE_FUSE_BUFSIZE 0x21000

/* glibc's struct stat as libfuse is built (64-bit file offsets): i386's
   (96 bytes) or x86-64's (144). */
#define CRACE_FUSE_STAT_SIZE (sizeof(long) == 4 ? 96 : 144)

/* ---- fuse_opt.c ---------------------------------------------------------- */
CRACE_MODEL int fuse_opt_add_arg(struct __crace_fuse_args *args,
                                 const char *arg) {
  char *newarg = strdup(arg);
  if (!newarg)
    return -1;
  char **newargv =
      realloc(args->argv, (crace_size_t)(args->argc + 2) * sizeof(char *));
  if (!newargv) {
    free(newarg);
    return -1;
  }
  args->argv = newargv;
  args->allocated = 1;
  args->argv[args->argc++] = newarg;
  args->argv[args->argc] = 0;
  return 0;
}
CRACE_MODEL void fuse_opt_free_args(struct __crace_fuse_args *args) {
  if (args) {
    if (args->argv && args->allocated) {
      for (int i = 0; i < args->argc; i++)
        free(args->argv[i]);
      free(args->argv);
    }
    args->argc = 0;
    args->argv = 0;
    args->allocated = 0;
  }
}
/* fuse_opt_parse with libfuse's own option tables (see the header). */
CRACE_MODEL int __crace_fuse_opt_parse(struct __crace_fuse_args *args) {
  if (!args || !args->argv || !args->argc)
    return 0;
  for (int i = 0; i < args->argc; i++)
    __crace_libc_read_string(args->argv[i]);
  if (__crace_nondet_bits(1))
    return -1; /* an option libfuse rejects, or no memory */
  struct __crace_fuse_args out = {0, 0, 0};
  for (int i = 0; i < args->argc; i++)
    if ((i == 0 || __crace_nondet_bits(1)) &&
        fuse_opt_add_arg(&out, args->argv[i]) == -1) {
      fuse_opt_free_args(&out);
      return -1;
    }
  fuse_opt_free_args(args);
  *args = out;
  return 0;
}

/* ---- mounting, sessions, channels ---------------------------------------- */
CRACE_MODEL int fuse_mount_compat25(const char *mountpoint,
                                    struct __crace_fuse_args *args) {
  __crace_libc_read_string(mountpoint);
  if (__crace_fuse_opt_parse(args) == -1)
    return -1;
  return __crace_libc_fd();
}
CRACE_MODEL void fuse_unmount_compat22(const char *mountpoint) {
  __crace_libc_read_string(mountpoint);
}
/* What libfuse does for a NULL entry of the table: nothing for init and
   destroy, no reply for forget, ENOSYS for the others. The session's copy
   holds these in place of NULL, so that every callback call below has a
   target the analysis knows. */
typedef __crace_fuse_req Rq;
typedef __crace_fuse_ino In;
typedef __crace_fuse_fi Fi;
typedef const char *Nm;
int fuse_reply_err(void *req, int err);
void fuse_reply_none(void *req);
#define CRACE_FUSE_ENOSYS(name, ...)                                           \
  CRACE_MODEL void __crace_fuse_no_##name(Rq r, __VA_ARGS__) {                 \
    fuse_reply_err(r, 38);                                                     \
  }
CRACE_MODEL void __crace_fuse_no_init(void *u) {}
CRACE_MODEL void __crace_fuse_no_destroy(void *u) {}
CRACE_MODEL void __crace_fuse_no_forget(Rq r, In i, unsigned long n) {
  fuse_reply_none(r);
}
CRACE_FUSE_ENOSYS(lookup, In i, Nm n)
CRACE_FUSE_ENOSYS(getattr, In i, Fi *f)
CRACE_FUSE_ENOSYS(setattr, In i, void *a, int s, Fi *f)
CRACE_FUSE_ENOSYS(readlink, In i)
CRACE_FUSE_ENOSYS(mknod, In i, Nm n, unsigned m, unsigned long long d)
CRACE_FUSE_ENOSYS(mkdir, In i, Nm n, unsigned m)
CRACE_FUSE_ENOSYS(unlink, In i, Nm n)
CRACE_FUSE_ENOSYS(rmdir, In i, Nm n)
CRACE_FUSE_ENOSYS(symlink, Nm l, In i, Nm n)
CRACE_FUSE_ENOSYS(rename, In i, Nm n, In j, Nm m)
CRACE_FUSE_ENOSYS(link, In i, In j, Nm n)
CRACE_FUSE_ENOSYS(open, In i, Fi *f)
CRACE_FUSE_ENOSYS(read, In i, crace_size_t s, long long o, Fi *f)
CRACE_FUSE_ENOSYS(write, In i, Nm b, crace_size_t s, long long o, Fi *f)
CRACE_FUSE_ENOSYS(flush, In i, Fi *f)
CRACE_FUSE_ENOSYS(release, In i, Fi *f)
CRACE_FUSE_ENOSYS(fsync, In i, int d, Fi *f)
CRACE_FUSE_ENOSYS(opendir, In i, Fi *f)
CRACE_FUSE_ENOSYS(readdir, In i, crace_size_t s, long long o, Fi *f)
CRACE_FUSE_ENOSYS(releasedir, In i, Fi *f)
CRACE_FUSE_ENOSYS(fsyncdir, In i, int d, Fi *f)
CRACE_MODEL void __crace_fuse_no_statfs(Rq r) { fuse_reply_err(r, 38); }
CRACE_FUSE_ENOSYS(setxattr, In i, Nm n, Nm v, crace_size_t s, int f)
CRACE_FUSE_ENOSYS(getxattr, In i, Nm n, crace_size_t s)
CRACE_FUSE_ENOSYS(listxattr, In i, crace_size_t s)
CRACE_FUSE_ENOSYS(removexattr, In i, Nm n)
CRACE_FUSE_ENOSYS(access, In i, int m)
CRACE_FUSE_ENOSYS(create, In i, Nm n, unsigned m, Fi *f)
#define CRACE_FUSE_OR(x) o->x = o->x ? o->x : __crace_fuse_no_##x
CRACE_MODEL void __crace_fuse_fill_ops(struct __crace_fuse_ops *o) {
  CRACE_FUSE_OR(init);
  CRACE_FUSE_OR(destroy);
  CRACE_FUSE_OR(lookup);
  CRACE_FUSE_OR(forget);
  CRACE_FUSE_OR(getattr);
  CRACE_FUSE_OR(setattr);
  CRACE_FUSE_OR(readlink);
  CRACE_FUSE_OR(mknod);
  CRACE_FUSE_OR(mkdir);
  CRACE_FUSE_OR(unlink);
  CRACE_FUSE_OR(rmdir);
  CRACE_FUSE_OR(symlink);
  CRACE_FUSE_OR(rename);
  CRACE_FUSE_OR(link);
  CRACE_FUSE_OR(open);
  CRACE_FUSE_OR(read);
  CRACE_FUSE_OR(write);
  CRACE_FUSE_OR(flush);
  CRACE_FUSE_OR(release);
  CRACE_FUSE_OR(fsync);
  CRACE_FUSE_OR(opendir);
  CRACE_FUSE_OR(readdir);
  CRACE_FUSE_OR(releasedir);
  CRACE_FUSE_OR(fsyncdir);
  CRACE_FUSE_OR(statfs);
  CRACE_FUSE_OR(setxattr);
  CRACE_FUSE_OR(getxattr);
  CRACE_FUSE_OR(listxattr);
  CRACE_FUSE_OR(removexattr);
  CRACE_FUSE_OR(access);
  CRACE_FUSE_OR(create);
}
CRACE_MODEL void *fuse_lowlevel_new_compat25(struct __crace_fuse_args *args,
                                             const void *op,
                                             crace_size_t op_size,
                                             void *userdata) {
  if (__crace_fuse_opt_parse(args) == -1)
    return 0;
  struct __crace_fuse_session *se = __crace_alloc(sizeof *se);
  unsigned char *dst = (unsigned char *)&se->op;
  crace_size_t n = op_size < sizeof se->op ? op_size : sizeof se->op;
  for (crace_size_t i = n; i < sizeof se->op; i++)
    dst[i] = 0;
  __builtin_memcpy(dst, op, n);
  if (op_size > n)
    __crace_read(op, op_size);
  __crace_fuse_fill_ops(&se->op);
  se->userdata = userdata;
  se->exited = 0;
  se->got_init = 0;
  se->got_destroy = 0;
  se->ch = 0;
  return se;
}
CRACE_MODEL void *fuse_kern_chan_new(int fd) {
  struct __crace_fuse_chan *ch = __crace_alloc(sizeof *ch);
  ch->fd = fd;
  ch->bufsize = CRACE_FUSE_BUFSIZE;
  ch->se = 0;
  return ch;
}
CRACE_MODEL void fuse_session_add_chan(void *s, void *c) {
  struct __crace_fuse_session *se = s;
  struct __crace_fuse_chan *ch = c;
  __crace_lock(&__crace_fuse_lock);
  se->ch = ch;
  ch->se = se;
  __crace_unlock(&__crace_fuse_lock);
}
CRACE_MODEL int fuse_chan_fd(void *c) {
  return ((struct __crace_fuse_chan *)c)->fd;
}
CRACE_MODEL crace_size_t fuse_chan_bufsize(void *c) {
  return ((struct __crace_fuse_chan *)c)->bufsize;
}
CRACE_MODEL void *fuse_chan_session(void *c) {
  __crace_lock(&__crace_fuse_lock);
  void *se = ((struct __crace_fuse_chan *)c)->se;
  __crace_unlock(&__crace_fuse_lock);
  return se;
}
CRACE_MODEL void fuse_session_exit(void *s) {
  __crace_lock(&__crace_fuse_lock);
  ((struct __crace_fuse_session *)s)->exited = 1;
  __crace_unlock(&__crace_fuse_lock);
}
CRACE_MODEL void fuse_session_reset(void *s) {
  __crace_lock(&__crace_fuse_lock);
  ((struct __crace_fuse_session *)s)->exited = 0;
  __crace_unlock(&__crace_fuse_lock);
}
CRACE_MODEL int fuse_session_exited(void *s) {
  __crace_lock(&__crace_fuse_lock);
  int r = ((struct __crace_fuse_session *)s)->exited;
  __crace_unlock(&__crace_fuse_lock);
  return r;
}
/* libfuse's fuse_kern_chan_receive: a read of the device. */
CRACE_MODEL int fuse_chan_receive(void *c, char *buf, crace_size_t size) {
  struct __crace_fuse_chan *ch = c;
  __crace_lock(&__crace_fuse_lock);
  struct __crace_fuse_session *se = ch->se;
  int exited = se ? se->exited : 0;
  __crace_unlock(&__crace_fuse_lock);
  unsigned what = __crace_nondet_bits(2);
  if (exited || what == 0)
    return 0; /* exited, or the file system was unmounted (ENODEV) */
  if (what == 1 || size < CRACE_FUSE_HEADER)
    return -(int)(1 + __crace_nondet_bits(7)); /* -errno, -EIO if short */
  crace_size_t n =
      CRACE_FUSE_HEADER + __crace_libc_count(size - CRACE_FUSE_HEADER);
  __crace_libc_input(buf, n);
  return (int)n;
}
CRACE_MODEL void fuse_session_destroy(void *s) {
  struct __crace_fuse_session *se = s;
  __crace_lock(&__crace_fuse_lock);
  int call = se->got_init && !se->got_destroy;
  struct __crace_fuse_chan *ch = se->ch;
  __crace_unlock(&__crace_fuse_lock);
  if (call)
    se->op.destroy(se->userdata);
  if (ch)
    __crace_free(ch); /* fuse_chan_destroy closes the device too */
  __crace_free(se);
}

/* ---- requests --------------------------------------------------------------
 */
/* The zero-terminated name at buf + at, or NULL when len ends first. */
CRACE_MODEL const char *__crace_fuse_name(const char *buf, crace_size_t len,
                                          crace_size_t at) {
  for (crace_size_t i = at; i < len; i++)
    if (buf[i] == 0)
      return buf + at;
  return 0;
}
CRACE_MODEL crace_size_t __crace_fuse_after(const char *buf, const char *name) {
  crace_size_t i = (crace_size_t)(name - buf);
  while (buf[i])
    i++;
  return i + 1;
}
CRACE_MODEL __crace_fuse_fi *__crace_fuse_new_fi(void) {
  __crace_fuse_fi *fi = __crace_alloc(sizeof *fi);
  __crace_libc_input(fi, sizeof *fi);
  return fi;
}
CRACE_MODEL int __crace_fuse_send(void *req) {
  __crace_free(req);
  return __crace_nondet_bits(1) ? -(int)(1 + __crace_nondet_bits(7)) : 0;
}
CRACE_MODEL int fuse_reply_err(void *req, int err) {
  return __crace_fuse_send(req);
}
CRACE_MODEL void fuse_reply_none(void *req) { __crace_free(req); }

/* Which request: the order of struct fuse_lowlevel_ops_compat25, INIT and
   DESTROY first (0 and 1), then one the table has no entry for. */
#define CRACE_FUSE_REQUESTS 32
CRACE_MODEL void fuse_session_process(void *s, const char *buf,
                                      crace_size_t len, void *ch) {
  struct __crace_fuse_session *se = s;
  struct __crace_fuse_ops *op = &se->op;
  if (len)
    __crace_read(buf, len);
  struct __crace_fuse_request *req = __crace_alloc(sizeof *req);
  req->se = se;
  req->ctx.uid = (unsigned)__crace_nondet_int();
  req->ctx.gid = (unsigned)__crace_nondet_int();
  req->ctx.pid = __crace_nondet_int();
  /* A chain of 1-bit inputs, which explore enumerates (a 5-bit input
     would be sampled). */
  unsigned which = 0;
  while (which < CRACE_FUSE_REQUESTS - 1 && __crace_nondet_bits(1))
    which++;
  __crace_fuse_ino ino = (__crace_fuse_ino)__crace_nondet_longlong();
  __crace_lock(&__crace_fuse_lock);
  int got_init = se->got_init;
  if (which == 0)
    se->got_init = 1;
  if (which == 1 && got_init)
    se->got_destroy = 1;
  __crace_unlock(&__crace_fuse_lock);
  if (which == 0) {
    op->init(se->userdata);
    fuse_reply_err(req, 0); /* the INIT reply */
    return;
  }
  if (!got_init || which >= CRACE_FUSE_REQUESTS - 1) {
    fuse_reply_err(req, got_init ? 38 : 5); /* ENOSYS, EIO */
    return;
  }
  if (which == 1) {
    op->destroy(se->userdata);
    fuse_reply_err(req, 0);
    return;
  }
  const crace_size_t at = CRACE_FUSE_HEADER;
  crace_size_t size = (crace_size_t)(unsigned)__crace_nondet_int();
  long long off = __crace_nondet_longlong();
  unsigned mode = (unsigned)__crace_nondet_int();
  int flags = __crace_nondet_int();
  /* Names: after the request's fixed part (8 bytes for mknod, mkdir,
     rename, link, setxattr, getxattr and create in protocol 7.8). */
  crace_size_t fixed =
      (which == 7 || which == 8 || which == 12 || which == 13 || which == 25 ||
       which == 26 || which == 30)
          ? 8
          : 0;
  const char *name = 0, *name2 = 0;
  int named = which == 2 || (which >= 7 && which <= 13) || which == 25 ||
              which == 26 || which == 28 || which == 30;
  if (named) {
    name = __crace_fuse_name(buf, len, at + fixed);
    if (name && (which == 11 || which == 12))
      name2 = __crace_fuse_name(buf, len, __crace_fuse_after(buf, name));
    if (!name || ((which == 11 || which == 12) && !name2)) {
      fuse_reply_err(req, 5); /* the kernel never sends it */
      return;
    }
  }
  __crace_fuse_fi *fi = 0;
  if ((which >= 14 && which <= 23) || which == 30 ||
      (which == 5 && __crace_nondet_bits(1)))
    fi = __crace_fuse_new_fi();
  switch (which) {
  case 2:
    op->lookup(req, ino, name);
    break;
  case 3:
    op->forget(req, ino, (unsigned long)__crace_nondet_longlong());
    break;
  case 4:
    op->getattr(req, ino, 0);
    break;
  case 5: {
    unsigned char *st = __crace_alloc(CRACE_FUSE_STAT_SIZE);
    __crace_libc_input(st, CRACE_FUSE_STAT_SIZE);
    op->setattr(req, ino, st, flags, fi);
    __crace_free(st);
    break;
  }
  case 6:
    op->readlink(req, ino);
    break;
  case 7:
    op->mknod(req, ino, name, mode, (unsigned long long)(unsigned)flags);
    break;
  case 8:
    op->mkdir(req, ino, name, mode);
    break;
  case 9:
    op->unlink(req, ino, name);
    break;
  case 10:
    op->rmdir(req, ino, name);
    break;
  case 11: /* the target follows the link's name */
    op->symlink(req, name2, ino, name);
    break;
  case 12:
    op->rename(req, ino, name, (__crace_fuse_ino)__crace_nondet_longlong(),
               name2);
    break;
  case 13:
    op->link(req, (__crace_fuse_ino)__crace_nondet_longlong(), ino, name);
    break;
  case 14:
    op->open(req, ino, fi);
    break;
  case 15:
    op->read(req, ino, size, off, fi);
    break;
  case 16: { /* the data, all the rest, follows struct fuse_write_in */
    crace_size_t data = at + 24;
    if (len < data) {
      fuse_reply_err(req, 5);
      break;
    }
    op->write(req, ino, buf + data, len - data, off, fi);
    break;
  }
  case 17:
    op->flush(req, ino, fi);
    break;
  case 18:
    op->release(req, ino, fi);
    break;
  case 19:
    op->fsync(req, ino, flags, fi);
    break;
  case 20:
    op->opendir(req, ino, fi);
    break;
  case 21:
    op->readdir(req, ino, size, off, fi);
    break;
  case 22:
    op->releasedir(req, ino, fi);
    break;
  case 23:
    op->fsyncdir(req, ino, flags, fi);
    break;
  case 24:
    op->statfs(req);
    break;
  case 25: { /* the value, all the rest, follows the name */
    crace_size_t v = __crace_fuse_after(buf, name);
    op->setxattr(req, ino, name, buf + v, len - v, flags);
    break;
  }
  case 26:
    op->getxattr(req, ino, name, size);
    break;
  case 27:
    op->listxattr(req, ino, size);
    break;
  case 28:
    op->removexattr(req, ino, name);
    break;
  case 29:
    op->access(req, ino, flags);
    break;
  case 30:
    op->create(req, ino, name, mode, fi);
    break;
  }
  if (fi)
    __crace_free(fi);
}

/* ---- replies and request data ------------------------------------------- */
CRACE_MODEL void *fuse_req_userdata(void *req) {
  return ((struct __crace_fuse_request *)req)->se->userdata;
}
CRACE_MODEL const void *fuse_req_ctx(void *req) {
  return &((struct __crace_fuse_request *)req)->ctx;
}
/* Reads n bytes at p, or up to the end of p's object when it is smaller
   (the program's struct may be declared shorter than libfuse's). */
CRACE_MODEL void __crace_fuse_read(const void *p, crace_size_t n) {
  crace_size_t have = __crace_object_size(p);
  __crace_read(p, n < have ? n : have);
}
#define CRACE_FUSE_ENTRY_SIZE                                                  \
  (2 * sizeof(long) + CRACE_FUSE_STAT_SIZE + 2 * sizeof(double))
CRACE_MODEL int fuse_reply_entry(void *req, const void *e) {
  __crace_fuse_read(e, CRACE_FUSE_ENTRY_SIZE);
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_create(void *req, const void *e,
                                  const __crace_fuse_fi *fi) {
  __crace_fuse_read(e, CRACE_FUSE_ENTRY_SIZE);
  __crace_read(fi, sizeof *fi);
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_attr(void *req, const void *attr, double timeout) {
  __crace_fuse_read(attr, CRACE_FUSE_STAT_SIZE);
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_readlink(void *req, const char *link) {
  __crace_libc_read_string(link);
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_open(void *req, const __crace_fuse_fi *fi) {
  __crace_read(fi, sizeof *fi);
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_write(void *req, crace_size_t count) {
  return __crace_fuse_send(req);
}
CRACE_MODEL int fuse_reply_buf(void *req, const char *buf, crace_size_t size) {
  if (size)
    __crace_read(buf, size);
  return __crace_fuse_send(req);
}
/* glibc's struct statvfs: 96 bytes on i386 (64-bit counts), 112 on x86-64. */
CRACE_MODEL int fuse_reply_statfs(void *req, const void *stbuf) {
  __crace_fuse_read(stbuf, sizeof(long) == 4 ? 96 : 112);
  return __crace_fuse_send(req);
}
/* struct fuse_dirent: ino, off (64 bits), namelen, type (32), the name;
   padded to 8 bytes. */
CRACE_MODEL crace_size_t fuse_dirent_size(crace_size_t namelen) {
  return (24 + namelen + 7) & ~(crace_size_t)7;
}
CRACE_MODEL char *fuse_add_dirent(char *buf, const char *name,
                                  const void *stbuf, long long off) {
  crace_size_t namelen = 0;
  while (name[namelen])
    namelen++;
  crace_size_t entlen = 24 + namelen;
  crace_size_t entsize = fuse_dirent_size(namelen);
  /* glibc's st_ino and st_mode: i386 (stat64) 88 and 16, x86-64 8 and 24. */
  const unsigned char *st = stbuf;
  unsigned long long ino;
  unsigned mode;
  if (sizeof(long) == 4) {
    __builtin_memcpy(&ino, st + 88, 8);
    __builtin_memcpy(&mode, st + 16, 4);
  } else {
    __builtin_memcpy(&ino, st + 8, 8);
    __builtin_memcpy(&mode, st + 24, 4);
  }
  unsigned type = (mode & 0170000) >> 12;
  __builtin_memcpy(buf, &ino, 8);
  __builtin_memcpy(buf + 8, &off, 8);
  unsigned nl = (unsigned)namelen;
  __builtin_memcpy(buf + 16, &nl, 4);
  __builtin_memcpy(buf + 20, &type, 4);
  for (crace_size_t i = 0; i < namelen; i++)
    buf[24 + i] = name[i];
  for (crace_size_t i = entlen; i < entsize; i++)
    buf[i] = 0;
  return buf + entsize;
}
