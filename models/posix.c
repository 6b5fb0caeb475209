/* C library model, part 4: POSIX — file descriptors, sockets, name lookup,
   processes and users, time, directories, memory mappings, signal sets,
   blocking waits (after string.c, whose helpers it uses).

   What the kernel or the network gives is input (nondeterministic); what a
   call reads is read; blocking calls return (the wait may end at any time,
   since another process can always write, connect or signal). Structs are
   declared with the C types of their fields, so their layout is the
   target's (ILP32 or LP64) without system headers. */
#include "crace_intrinsics.h"


/* ---- file descriptors --------------------------------------------------- */
/* open/fcntl/ioctl take more arguments (varargs): open's is a mode number;
   fcntl's and ioctl's may be pointers they write, so those two are rows of
   src/model/SyncAPI.def. */
CRACE_MODEL int open(const char *path, int flags, ...) {
  __crace_libc_read_string(path);
  return __crace_libc_fd();
}
CRACE_MODEL int open64(const char *path, int flags, ...) {
  __crace_libc_read_string(path);
  return __crace_libc_fd();
}
CRACE_MODEL int creat(const char *path, unsigned mode) {
  __crace_libc_read_string(path);
  return __crace_libc_fd();
}
CRACE_MODEL int creat64(const char *path, unsigned mode) { return creat(path, mode); }
CRACE_MODEL int close(int fd) { return __crace_libc_status(); }
/* ioctl(fd, request, arg): the front end turns each call of the variadic
   ioctl into this one (src/frontend/LibcLowering.h); how is 1 when arg was a
   pointer, 2 an integer, 0 absent. A request encoded with Linux's _IOC
   (direction bits 30-31: 1 the kernel reads, 2 it writes; size bits 16-29)
   moves that many bytes, written ones being input. A request that does not
   say (the legacy tty ones such as TIOCGWINSZ write through a pointer), a
   null pointer for one that moves bytes, or an integer where a pointer is
   due, is not computed: explore stops there; the other engines see the object arg
   points to read and written whole. Success returns 0 or, for some
   drivers, a positive count. */
CRACE_MODEL int __crace_libc_ioctl(int fd, unsigned long req, void *arg, int how) {
  unsigned dir = (unsigned)(req >> 30) & 3u;
  unsigned size = (unsigned)(req >> 16) & 0x3fffu;
  if ((how == 1 && (dir == 0 || size == 0 || !arg)) || (how == 2 && dir != 0)) {
    int r = __crace_unknown_int();
    if (arg) {
      crace_size_t n = __crace_object_size(arg);
      __crace_read(arg, n);
      __crace_libc_unknown(arg, n);
    }
    return r;
  }
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  if (how == 1 && arg) {
    if (dir & 1u)
      __crace_read(arg, size);
    if (dir & 2u)
      __crace_libc_input(arg, size);
  }
  return __crace_nondet_bits(1) ? 0 : (int)((unsigned)__crace_nondet_int() >> 1);
}
CRACE_MODEL long read(int fd, void *buf, crace_size_t n) {
  long k = __crace_libc_size(n);
  if (k > 0)
    __crace_libc_input(buf, (crace_size_t)k);
  return k;
}
CRACE_MODEL long pread(int fd, void *buf, crace_size_t n, long off) {
  return read(fd, buf, n);
}
CRACE_MODEL long pread64(int fd, void *buf, crace_size_t n, long long off) {
  return read(fd, buf, n);
}
CRACE_MODEL long write(int fd, const void *buf, crace_size_t n) {
  if (n)
    __crace_read(buf, n);
  return __crace_libc_size(n);
}
CRACE_MODEL long pwrite(int fd, const void *buf, crace_size_t n, long off) {
  return write(fd, buf, n);
}
CRACE_MODEL long pwrite64(int fd, const void *buf, crace_size_t n, long long off) {
  return write(fd, buf, n);
}
struct __crace_libc_iovec {
  void *base;
  crace_size_t len;
};
CRACE_MODEL long readv(int fd, const struct __crace_libc_iovec *iov, int cnt) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  long total = 0;
  for (int i = 0; i < cnt; i++) {
    crace_size_t k = __crace_libc_count(iov[i].len);
    __crace_libc_input(iov[i].base, k);
    total += (long)k;
    if (k < iov[i].len)
      break;
  }
  return total;
}
CRACE_MODEL long writev(int fd, const struct __crace_libc_iovec *iov, int cnt) {
  crace_size_t total = 0;
  for (int i = 0; i < cnt; i++) {
    if (iov[i].len)
      __crace_read(iov[i].base, iov[i].len);
    total += iov[i].len;
  }
  return __crace_libc_size(total);
}
CRACE_MODEL long preadv(int fd, const struct __crace_libc_iovec *iov, int cnt,
                        long off) {
  return readv(fd, iov, cnt);
}
CRACE_MODEL long pwritev(int fd, const struct __crace_libc_iovec *iov, int cnt,
                         long off) {
  return writev(fd, iov, cnt);
}
CRACE_MODEL int eventfd(unsigned init, int flags) { return __crace_libc_fd(); }
CRACE_MODEL long lseek(int fd, long off, int whence) {
  return __crace_libc_size((crace_size_t)-1 >> 1);
}
CRACE_MODEL long long lseek64(int fd, long long off, int whence) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  long long r = __crace_nondet_longlong();
  return r < 0 ? -r - 1 : r;
}
CRACE_MODEL int dup(int fd) { return __crace_libc_fd(); }
CRACE_MODEL int dup2(int fd, int fd2) { return __crace_nondet_bits(1) ? __crace_libc_fail() : fd2; }
CRACE_MODEL int pipe(int fds[2]) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  fds[0] = __crace_nondet_int() & 0x7fffffff;
  fds[1] = __crace_nondet_int() & 0x7fffffff;
  return 0;
}
CRACE_MODEL int isatty(int fd) { return (int)__crace_nondet_bits(1); }
CRACE_MODEL int fsync(int fd) { return __crace_libc_status(); }
CRACE_MODEL int fdatasync(int fd) { return __crace_libc_status(); }
CRACE_MODEL int ftruncate(int fd, long len) { return __crace_libc_status(); }
CRACE_MODEL int lockf(int fd, int cmd, long len) { return __crace_libc_status(); }
CRACE_MODEL int lockf64(int fd, int cmd, long long len) { return __crace_libc_status(); }
CRACE_MODEL int flock(int fd, int op) { return __crace_libc_status(); }
CRACE_MODEL int getdtablesize(void) { return 1 + (int)__crace_nondet_bits(16); }

/* Paths. */
#define CRACE_PATH_CALL(NAME)                                                  \
  CRACE_MODEL int NAME(const char *path) {                                     \
    __crace_libc_read_string(path);                                            \
    return __crace_libc_status();                                              \
  }
CRACE_PATH_CALL(unlink)
CRACE_PATH_CALL(rmdir)
CRACE_PATH_CALL(chdir)
CRACE_PATH_CALL(chroot)
CRACE_PATH_CALL(umount)
CRACE_MODEL int mkdir(const char *path, unsigned mode) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int access(const char *path, int mode) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int chmod(const char *path, unsigned mode) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int chown(const char *path, unsigned u, unsigned g) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int umount2(const char *path, int flags) {
  __crace_libc_read_string(path);
  return __crace_libc_status();
}
CRACE_MODEL int mount(const char *src, const char *dst, const char *type,
                      unsigned long flags, const void *data) {
  __crace_libc_read_string(src);
  __crace_libc_read_string(dst);
  __crace_libc_read_string(type);
  if (data)
    __crace_read(data, 0);
  return __crace_libc_status();
}
CRACE_MODEL unsigned umask(unsigned m) { return __crace_nondet_bits(9); }
CRACE_MODEL int fchdir(int fd) { return __crace_libc_status(); }
/* The current directory's name: input. */
CRACE_MODEL char *getcwd(char *buf, crace_size_t n) {
  if (!buf || !n || __crace_nondet_bits(1)) {
    __crace_libc_fail();
    return 0;
  }
  __crace_libc_input_string(buf, n);
  return buf;
}
CRACE_MODEL char *realpath(const char *path, char *out) {
  __crace_libc_read_string(path);
  if (__crace_nondet_bits(1)) {
    __crace_libc_fail();
    return 0;
  }
  if (!out && !(out = (char *)__crace_alloc(4096)))
    return 0;
  __crace_libc_input_string(out, 4096);
  return out;
}
/* mkdtemp/mkstemp replace the template's trailing XXXXXX. */
CRACE_MODEL void __crace_libc_fill_template(char *t) {
  crace_size_t n = 0;
  while (t[n])
    n++;
  for (crace_size_t i = n >= 6 ? n - 6 : 0; i < n; i++)
    t[i] = (char)('a' + __crace_nondet_bits(4));
}
CRACE_MODEL char *mkdtemp(char *t) {
  __crace_libc_fill_template(t);
  if (__crace_nondet_bits(1)) {
    __crace_libc_fail();
    return 0;
  }
  return t;
}
CRACE_MODEL int mkstemp(char *t) {
  __crace_libc_fill_template(t);
  return __crace_libc_fd();
}

/* stat: struct stat's size differs with the target (glibc: 88 bytes on
   i386, 144 on x86_64; stat64: 96 / 144); no more than the object holds is
   written. */
CRACE_MODEL void __crace_libc_fill_stat(void *buf, crace_size_t ilp32,
                                        crace_size_t lp64) {
  crace_size_t n = sizeof(void *) == 4 ? ilp32 : lp64;
  crace_size_t room = __crace_object_size(buf);
  __crace_libc_input(buf, n < room ? n : room);
}
CRACE_MODEL int __crace_libc_stat(void *buf, int big) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_fill_stat(buf, big ? 96 : 88, 144);
  return 0;
}
CRACE_MODEL int stat(const char *p, void *buf) {
  __crace_libc_read_string(p);
  return __crace_libc_stat(buf, 0);
}
CRACE_MODEL int lstat(const char *p, void *buf) {
  __crace_libc_read_string(p);
  return __crace_libc_stat(buf, 0);
}
CRACE_MODEL int fstat(int fd, void *buf) { return __crace_libc_stat(buf, 0); }
CRACE_MODEL int stat64(const char *p, void *buf) {
  __crace_libc_read_string(p);
  return __crace_libc_stat(buf, 1);
}
CRACE_MODEL int lstat64(const char *p, void *buf) {
  __crace_libc_read_string(p);
  return __crace_libc_stat(buf, 1);
}
CRACE_MODEL int fstat64(int fd, void *buf) { return __crace_libc_stat(buf, 1); }
CRACE_MODEL int __xstat(int v, const char *p, void *buf) { return stat(p, buf); }
CRACE_MODEL int __lxstat(int v, const char *p, void *buf) { return lstat(p, buf); }
CRACE_MODEL int __fxstat(int v, int fd, void *buf) { return fstat(fd, buf); }
CRACE_MODEL int __xstat64(int v, const char *p, void *buf) { return stat64(p, buf); }
CRACE_MODEL int __lxstat64(int v, const char *p, void *buf) { return lstat64(p, buf); }
CRACE_MODEL int __fxstat64(int v, int fd, void *buf) { return fstat64(fd, buf); }
/* struct statfs: 64 bytes on i386, 120 on x86_64. */
CRACE_MODEL int statfs(const char *p, void *buf) {
  __crace_libc_read_string(p);
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_fill_stat(buf, 64, 120);
  return 0;
}
CRACE_MODEL int fstatfs(int fd, void *buf) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_fill_stat(buf, 64, 120);
  return 0;
}

/* ---- blocking waits: they return, with input results ------------------- */
/* fd_set: 1024 bits. */
CRACE_MODEL int select(int n, void *r, void *w, void *e, void *timeout) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  if (r)
    __crace_libc_input(r, 128);
  if (w)
    __crace_libc_input(w, 128);
  if (e)
    __crace_libc_input(e, 128);
  if (timeout)
    __crace_libc_input(timeout, 2 * sizeof(long));
  return (int)__crace_libc_count(n > 0 ? 3 * (crace_size_t)n : 0);
}
struct __crace_libc_pollfd {
  int fd;
  short events;
  short revents;
};
CRACE_MODEL int poll(struct __crace_libc_pollfd *fds, unsigned long n, int timeout) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  for (unsigned long i = 0; i < n; i++)
    fds[i].revents = (short)__crace_nondet_bits(16);
  return (int)__crace_libc_count(n);
}
CRACE_MODEL int epoll_create(int n) { return __crace_libc_fd(); }
CRACE_MODEL int epoll_create1(int flags) { return __crace_libc_fd(); }
CRACE_MODEL int epoll_ctl(int ep, int op, int fd, void *ev) {
  if (ev)
    __crace_read(ev, 12);
  return __crace_libc_status();
}
/* struct epoll_event is 12 bytes (packed) on both targets. */
CRACE_MODEL int epoll_wait(int ep, void *ev, int max, int timeout) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  int k = (int)__crace_libc_count(max > 0 ? (crace_size_t)max : 0);
  __crace_libc_input(ev, (crace_size_t)k * 12);
  return k;
}
CRACE_MODEL int pause(void) {
  __crace_libc_errno = 4; /* EINTR: a signal arrived */
  return -1;
}

/* ---- sockets ------------------------------------------------------------- */
CRACE_MODEL int socket(int dom, int type, int proto) { return __crace_libc_fd(); }
CRACE_MODEL int socketpair(int dom, int type, int proto, int fds[2]) {
  return pipe(fds);
}
CRACE_MODEL int bind(int fd, const void *addr, unsigned len) {
  if (len)
    __crace_read(addr, len);
  return __crace_libc_status();
}
CRACE_MODEL int connect(int fd, const void *addr, unsigned len) {
  return bind(fd, addr, len);
}
CRACE_MODEL int listen(int fd, int n) { return __crace_libc_status(); }
CRACE_MODEL int shutdown(int fd, int how) { return __crace_libc_status(); }
/* An address from the peer: *len bytes at addr (at most what was given). */
CRACE_MODEL void __crace_libc_input_addr(void *addr, unsigned *len) {
  if (addr && len) {
    unsigned n = *len;
    __crace_libc_input(addr, n);
    *len = (unsigned)__crace_libc_count(n);
  }
}
CRACE_MODEL int accept(int fd, void *addr, unsigned *len) {
  int r = __crace_libc_fd();
  if (r >= 0)
    __crace_libc_input_addr(addr, len);
  return r;
}
CRACE_MODEL int accept4(int fd, void *addr, unsigned *len, int flags) {
  return accept(fd, addr, len);
}
CRACE_MODEL int getpeername(int fd, void *addr, unsigned *len) {
  int r = __crace_libc_status();
  if (r == 0)
    __crace_libc_input_addr(addr, len);
  return r;
}
CRACE_MODEL int getsockname(int fd, void *addr, unsigned *len) {
  return getpeername(fd, addr, len);
}
CRACE_MODEL int setsockopt(int fd, int lvl, int opt, const void *v, unsigned len) {
  if (len)
    __crace_read(v, len);
  return __crace_libc_status();
}
CRACE_MODEL int getsockopt(int fd, int lvl, int opt, void *v, unsigned *len) {
  return getpeername(fd, v, len);
}
CRACE_MODEL long send(int fd, const void *buf, crace_size_t n, int flags) {
  return write(fd, buf, n);
}
CRACE_MODEL long sendto(int fd, const void *buf, crace_size_t n, int flags,
                        const void *addr, unsigned len) {
  if (len)
    __crace_read(addr, len);
  return write(fd, buf, n);
}
CRACE_MODEL long recv(int fd, void *buf, crace_size_t n, int flags) {
  return read(fd, buf, n);
}
CRACE_MODEL long recvfrom(int fd, void *buf, crace_size_t n, int flags, void *addr,
                          unsigned *len) {
  long k = read(fd, buf, n);
  if (k >= 0)
    __crace_libc_input_addr(addr, len);
  return k;
}
struct __crace_libc_msghdr {
  void *name;
  unsigned namelen;
  struct __crace_libc_iovec *iov;
  crace_size_t iovlen;
  void *control;
  crace_size_t controllen;
  int flags;
};
CRACE_MODEL long recvmsg(int fd, struct __crace_libc_msghdr *m, int flags) {
  long k = readv(fd, m->iov, (int)m->iovlen);
  if (k >= 0) {
    __crace_libc_input_addr(m->name, &m->namelen);
    if (m->control && m->controllen) {
      crace_size_t c = __crace_libc_count(m->controllen);
      __crace_libc_input(m->control, c);
      m->controllen = c;
    }
    m->flags = (int)__crace_nondet_bits(16);
  }
  return k;
}
CRACE_MODEL long sendmsg(int fd, const struct __crace_libc_msghdr *m, int flags) {
  if (m->name && m->namelen)
    __crace_read(m->name, m->namelen);
  if (m->control && m->controllen)
    __crace_read(m->control, m->controllen);
  return writev(fd, m->iov, (int)m->iovlen);
}
/* Byte order, exact (x86 is little endian). */
CRACE_MODEL unsigned short htons(unsigned short x) {
  return (unsigned short)((x >> 8) | (x << 8));
}
CRACE_MODEL unsigned short ntohs(unsigned short x) { return htons(x); }
CRACE_MODEL unsigned htonl(unsigned x) {
  return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}
CRACE_MODEL unsigned ntohl(unsigned x) { return htonl(x); }
/* Address text conversions, exact (glibc 2.36, resolv/inet_addr.c): a.b.c.d,
   a.b.c (c 16 bits), a.b (b 24 bits) or a (32 bits), each part decimal,
   octal (0...) or hex (0x...), as strtoul reads it, then the string's end
   or white space (what follows it is ignored, by inet_addr too; INADDR_NONE
   when invalid). Returns 1 and the address in network byte order in *out,
   or 0; *endp is where parsing stopped. */
CRACE_MODEL int __crace_libc_inet_aton_end(const char *cp, unsigned *out,
                                            const char **endp) {
  static const unsigned max[4] = {0xffffffffu, 0xffffffu, 0xffffu, 0xffu};
  unsigned char bytes[4] = {0, 0, 0, 0};
  unsigned n = 0;
  unsigned long long val = 0;
  int digit = 0;
  char c = *cp;
  for (;;) {
    if (!(c >= '0' && c <= '9'))
      return 0;
    char *end;
    int neg, ov;
    val = __crace_libc_strtoull(cp, &end, 0, &neg, &ov);
    if (ov || val > 0xffffffffull)
      return 0;
    digit = cp != end;
    cp = end;
    c = *cp;
    if (c != '.')
      break;
    if (n > 2 || val > 0xff)
      return 0;
    bytes[n++] = (unsigned char)val;
    c = *++cp;
  }
  if (c != 0 && !(c == ' ' || (c >= '\t' && c <= '\r')))
    return 0;
  if (!digit || val > max[n])
    return 0;
  /* res.word | htonl(val): the last part fills the bytes from the end. */
  for (unsigned k = 0; k < 4; k++)
    bytes[k] |= (unsigned char)(val >> (8 * (3 - k)));
  *out = (unsigned)bytes[0] | (unsigned)bytes[1] << 8 |
         (unsigned)bytes[2] << 16 | (unsigned)bytes[3] << 24;
  *endp = cp;
  return 1;
}
CRACE_MODEL unsigned inet_addr(const char *s) {
  unsigned a;
  const char *end;
  if (__crace_libc_inet_aton_end(s, &a, &end))
    return a;
  return 0xffffffffu; /* INADDR_NONE */
}
CRACE_MODEL int inet_aton(const char *s, void *out) {
  unsigned a;
  const char *end;
  if (!__crace_libc_inet_aton_end(s, &a, &end))
    return 0;
  if (out)
    *(unsigned *)out = a;
  return 1;
}
/* inet_pton: AF_INET exactly (four decimal octets, no leading zeros, the
   whole string); AF_INET6 is not computed. */
CRACE_MODEL int inet_pton(int af, const char *s, void *a) {
  if (af == 2) {
    unsigned char bytes[4];
    unsigned octets = 0, cur = 0;
    int saw = 0;
    for (const char *p = s; *p; p++) {
      char c = *p;
      if (c >= '0' && c <= '9') {
        if (saw && cur == 0)
          return 0; /* a leading zero */
        cur = cur * 10 + (unsigned)(c - '0');
        if (cur > 255)
          return 0;
        if (!saw) {
          if (++octets > 4)
            return 0;
          saw = 1;
        }
      } else if (c == '.' && saw) {
        if (octets == 4)
          return 0;
        bytes[octets - 1] = (unsigned char)cur;
        cur = 0;
        saw = 0;
      } else {
        return 0;
      }
    }
    if (octets < 4 || !saw)
      return 0;
    bytes[3] = (unsigned char)cur;
    __builtin_memcpy(a, bytes, 4);
    return 1;
  }
  __crace_libc_read_string(s);
  if (af != 10) {
    __crace_libc_errno = 97; /* EAFNOSUPPORT */
    return -1;
  }
  __crace_libc_unknown(a, 16);
  return __crace_unknown_int();
}
struct __crace_libc_in_addr {
  unsigned s_addr;
};
/* inet_ntoa returns glibc's buffer, one per thread (inet/inet_ntoa.c:
   `static __thread char buffer[18]`): two threads' calls never share it. */
static __thread char __crace_libc_ntoa_buf[18];
CRACE_MODEL char *inet_ntoa(struct __crace_libc_in_addr a) {
  /* "%u.%u.%u.%u" of the address's bytes in memory order, as glibc. */
  unsigned char b[4];
  __builtin_memcpy(b, &a.s_addr, 4);
  char *p = __crace_libc_ntoa_buf;
  for (unsigned k = 0; k < 4; k++) {
    unsigned v = b[k];
    if (v >= 100)
      *p++ = (char)('0' + v / 100);
    if (v >= 10)
      *p++ = (char)('0' + v / 10 % 10);
    *p++ = (char)('0' + v % 10);
    *p++ = k < 3 ? '.' : 0;
  }
  return __crace_libc_ntoa_buf;
}
CRACE_MODEL const char *inet_ntop(int af, const void *a, char *dst, unsigned n) {
  __crace_read(a, af == 10 ? 16 : 4);
  if (n)
    __crace_libc_unknown(dst, n);
  return __crace_unknown_int() ? dst : 0;
}
CRACE_MODEL unsigned if_nametoindex(const char *name) {
  __crace_libc_read_string(name);
  return (unsigned)__crace_nondet_int();
}

/* ---- name lookup: answers from the network are input ------------------- */
static __thread int __crace_libc_h_errno;
CRACE_MODEL int *__h_errno_location(void) { return &__crace_libc_h_errno; }
static const char __crace_libc_unknown_msg[] = "Unknown error";
CRACE_MODEL const char *hstrerror(int e) { return __crace_libc_unknown_msg; }
struct __crace_libc_hostent {
  char *h_name;
  char **h_aliases;
  int h_addrtype;
  int h_length;
  char **h_addr_list;
};
static struct __crace_libc_hostent __crace_libc_host;
static char __crace_libc_host_name[64];
static char __crace_libc_host_addr[16];
static char *__crace_libc_host_aliases[1];
static char *__crace_libc_host_addrs[2];
/* Fills h with one address of family af (2 AF_INET: 4 bytes, 10 AF_INET6:
   16), names in name[64], the address in addr[16]. gethostbyname and its
   reentrant form answer AF_INET only (glibc no longer honours
   RES_USE_INET6; macOS never did). */
CRACE_MODEL void __crace_libc_fill_host(struct __crace_libc_hostent *h, char *name,
                                        char *addr, char **aliases, char **addrs,
                                        int af) {
  __crace_libc_input_string(name, 64);
  __crace_libc_input(addr, 16);
  aliases[0] = 0;
  addrs[0] = addr;
  addrs[1] = 0;
  h->h_name = name;
  h->h_aliases = aliases;
  h->h_addrtype = af;
  h->h_length = af == 2 ? 4 : 16;
  h->h_addr_list = addrs;
}
CRACE_MODEL struct __crace_libc_hostent *__crace_libc_lookup_host(int af) {
  if (af != 2 && af != 10) {
    __crace_libc_errno = 97; /* EAFNOSUPPORT */
    __crace_libc_h_errno = -1; /* NETDB_INTERNAL */
    return 0;
  }
  if (__crace_nondet_bits(1)) {
    __crace_libc_h_errno = 1 + (int)__crace_nondet_bits(2);
    return 0;
  }
  __crace_lock(&__crace_libc_static_lock);
  __crace_libc_fill_host(&__crace_libc_host, __crace_libc_host_name,
                         __crace_libc_host_addr, __crace_libc_host_aliases,
                         __crace_libc_host_addrs, af);
  __crace_unlock(&__crace_libc_static_lock);
  return &__crace_libc_host;
}
/* getaddrinfo: one or two answers of the family asked for (any: IPv4 or
   IPv6), their addresses input, or an EAI_ error (negative). */
struct __crace_libc_addrinfo {
  int ai_flags;
  int ai_family;
  int ai_socktype;
  int ai_protocol;
  unsigned ai_addrlen;
  void *ai_addr;
  char *ai_canonname;
  struct __crace_libc_addrinfo *ai_next;
};
CRACE_MODEL int getaddrinfo(const char *node, const char *service,
                            const struct __crace_libc_addrinfo *hints,
                            struct __crace_libc_addrinfo **res) {
  __crace_libc_read_string(node);
  __crace_libc_read_string(service);
  int flags = 0, family = 0, socktype = 0, protocol = 0;
  if (hints) {
    flags = hints->ai_flags;
    family = hints->ai_family;
    socktype = hints->ai_socktype;
    protocol = hints->ai_protocol;
  }
  if (__crace_nondet_bits(1))
    return -1 - (int)__crace_nondet_bits(4);
  struct __crace_libc_addrinfo *head = 0;
  unsigned n = 1 + __crace_nondet_bits(1);
  for (unsigned i = 0; i < n; i++) {
    struct __crace_libc_addrinfo *a = __crace_alloc(sizeof *a);
    int af = family ? family : (__crace_nondet_bits(1) ? 10 : 2);
    unsigned len = af == 10 ? 28 : 16;
    a->ai_flags = flags;
    a->ai_family = af;
    a->ai_socktype = socktype ? socktype : 1 + (int)__crace_nondet_bits(1);
    a->ai_protocol = protocol;
    a->ai_addrlen = len;
    a->ai_addr = __crace_alloc(len);
    __crace_libc_input(a->ai_addr, len);
    *(unsigned short *)a->ai_addr = (unsigned short)af;
    a->ai_canonname = 0;
    if ((flags & 2) && i + 1 == n) { /* AI_CANONNAME: on the first answer */
      a->ai_canonname = __crace_alloc(64);
      __crace_libc_input_string(a->ai_canonname, 64);
    }
    a->ai_next = head;
    head = a;
  }
  *res = head;
  return 0;
}
CRACE_MODEL void freeaddrinfo(struct __crace_libc_addrinfo *a) {
  while (a) {
    struct __crace_libc_addrinfo *next = a->ai_next;
    __crace_free(a->ai_addr);
    if (a->ai_canonname)
      __crace_free(a->ai_canonname);
    __crace_free(a);
    a = next;
  }
}
CRACE_MODEL const char *gai_strerror(int e) { return __crace_libc_unknown_msg; }
CRACE_MODEL int getnameinfo(const void *sa, unsigned salen, char *host,
                            unsigned hostlen, char *serv, unsigned servlen,
                            int flags) {
  if (salen)
    __crace_read(sa, salen);
  if (__crace_nondet_bits(1))
    return -1 - (int)__crace_nondet_bits(4);
  if (host && hostlen)
    __crace_libc_input_string(host, hostlen);
  if (serv && servlen)
    __crace_libc_input_string(serv, servlen);
  return 0;
}
CRACE_MODEL struct __crace_libc_hostent *gethostbyname(const char *name) {
  __crace_libc_read_string(name);
  return __crace_libc_lookup_host(2);
}
CRACE_MODEL struct __crace_libc_hostent *gethostbyname2(const char *name, int af) {
  __crace_libc_read_string(name);
  return __crace_libc_lookup_host(af);
}
CRACE_MODEL struct __crace_libc_hostent *gethostbyaddr(const void *a, unsigned len,
                                                       int type) {
  if (len)
    __crace_read(a, len);
  return __crace_libc_lookup_host(type);
}
/* The reentrant form: the strings and lists go into the caller's buf. */
CRACE_MODEL int gethostbyname_r(const char *name, struct __crace_libc_hostent *ret,
                                char *buf, crace_size_t n,
                                struct __crace_libc_hostent **res, int *herr) {
  __crace_libc_read_string(name);
  crace_size_t need = 64 + 16 + 3 * sizeof(char *);
  if (n < need || __crace_nondet_bits(1)) {
    *res = 0;
    *herr = 1 + (int)__crace_nondet_bits(2);
    return n < need ? 34 : 0;
  }
  char **lists = (char **)buf;
  __crace_libc_fill_host(ret, buf + 3 * sizeof(char *), buf + 3 * sizeof(char *) + 64,
                         lists, lists + 1, 2);
  *res = ret;
  return 0;
}
/* The reverse lookup: the address is read; a found entry has its type and
   length. */
CRACE_MODEL int gethostbyaddr_r(const void *a, unsigned len, int type,
                                struct __crace_libc_hostent *ret, char *buf,
                                crace_size_t n, struct __crace_libc_hostent **res,
                                int *herr) {
  if (len)
    __crace_read(a, len);
  crace_size_t need = 64 + 16 + 3 * sizeof(char *);
  if (len > 16 || n < need || __crace_nondet_bits(1)) {
    *res = 0;
    *herr = 1 + (int)__crace_nondet_bits(2);
    return n < need ? 34 : 0;
  }
  char **lists = (char **)buf;
  __crace_libc_fill_host(ret, buf + 3 * sizeof(char *), buf + 3 * sizeof(char *) + 64,
                         lists, lists + 1, type);
  ret->h_length = (int)len;
  *res = ret;
  return 0;
}
struct __crace_libc_servent {
  char *s_name;
  char **s_aliases;
  int s_port;
  char *s_proto;
};
static struct __crace_libc_servent __crace_libc_serv;
static char __crace_libc_serv_name[32];
static char *__crace_libc_serv_aliases[1];
CRACE_MODEL struct __crace_libc_servent *getservbyname(const char *name,
                                                       const char *proto) {
  __crace_libc_read_string(name);
  __crace_libc_read_string(proto);
  if (__crace_nondet_bits(1))
    return 0;
  __crace_lock(&__crace_libc_static_lock);
  __crace_libc_input_string(__crace_libc_serv_name, 32);
  __crace_libc_serv_aliases[0] = 0;
  __crace_libc_serv.s_name = __crace_libc_serv_name;
  __crace_libc_serv.s_aliases = __crace_libc_serv_aliases;
  __crace_libc_serv.s_port = (int)__crace_nondet_bits(16);
  __crace_libc_serv.s_proto = __crace_libc_serv_name;
  __crace_unlock(&__crace_libc_static_lock);
  return &__crace_libc_serv;
}
CRACE_MODEL int gethostname(char *name, crace_size_t n) {
  if (n == 0 || __crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_input_string(name, n);
  return 0;
}
CRACE_MODEL int getdomainname(char *name, crace_size_t n) {
  if (n == 0 || __crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_input_string(name, n);
  return 0;
}
/* NIS: the default domain is the system's domain name (input), in a buffer
   of libc's set once; YPERR_NODOM (12) when there is none. */
static char __crace_libc_yp_domain[65];
static int __crace_libc_yp_domain_set;
CRACE_MODEL int yp_get_default_domain(char **outdomain) {
  __crace_lock(&__crace_libc_static_lock);
  if (!__crace_libc_yp_domain_set) {
    __crace_libc_yp_domain_set = 1;
    __crace_libc_input_string(__crace_libc_yp_domain, sizeof __crace_libc_yp_domain);
  }
  __crace_unlock(&__crace_libc_static_lock);
  if (!__crace_libc_yp_domain[0])
    return 12;
  *outdomain = __crace_libc_yp_domain;
  return 0;
}
struct __crace_libc_utsname {
  char f[6][65];
};
CRACE_MODEL int uname(struct __crace_libc_utsname *u) {
  for (int i = 0; i < 6; i++)
    __crace_libc_input_string(u->f[i], 65);
  return 0;
}

/* ---- processes, users, limits -------------------------------------------- */
/* The process id is input, the same for every call; a thread's id is the
   process id for the main thread and distinct for every other thread. */
static int __crace_libc_pid, __crace_libc_pid_lock;
CRACE_MODEL int __crace_libc_getpid(void) {
  __crace_lock(&__crace_libc_pid_lock);
  if (!__crace_libc_pid)
    __crace_libc_pid = 2 + (int)__crace_nondet_bits(21);
  int pid = __crace_libc_pid;
  __crace_unlock(&__crace_libc_pid_lock);
  return pid;
}
CRACE_MODEL int __crace_libc_gettid(void) {
  return __crace_libc_getpid() + (int)__crace_thread_self();
}
CRACE_MODEL int getpid(void) { return __crace_libc_getpid(); }
CRACE_MODEL int getppid(void) { return __crace_nondet_int() & 0x3fffff; }
CRACE_MODEL int gettid(void) { return __crace_libc_gettid(); }
/* syscall(2): the calls with a model of their own (gettid, getpid; the
   program may define functions of those names around syscall); any other
   system call's effect is not computed. */
CRACE_MODEL long syscall(long n, ...) {
  int ilp32 = sizeof(long) == 4;
  if (n == (ilp32 ? 224 : 186))
    return __crace_libc_gettid();
  if (n == (ilp32 ? 20 : 39))
    return __crace_libc_getpid();
  return (long)__crace_unknown_longlong();
}
CRACE_MODEL unsigned getuid(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL unsigned geteuid(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL unsigned getgid(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL unsigned getegid(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL int setuid(unsigned u) { return __crace_libc_status(); }
CRACE_MODEL int setgid(unsigned g) { return __crace_libc_status(); }
CRACE_MODEL int seteuid(unsigned u) { return __crace_libc_status(); }
CRACE_MODEL int setegid(unsigned g) { return __crace_libc_status(); }
CRACE_MODEL int setgroups(crace_size_t n, const unsigned *list) {
  if (n)
    __crace_read(list, n * sizeof(unsigned));
  return __crace_libc_status();
}
CRACE_MODEL int initgroups(const char *user, unsigned g) {
  __crace_libc_read_string(user);
  return __crace_libc_status();
}
CRACE_MODEL int setsid(void) { return __crace_libc_fd(); }
CRACE_MODEL int setpgrp(void) { return __crace_libc_status(); }
CRACE_MODEL int setpgid(int p, int g) { return __crace_libc_status(); }
CRACE_MODEL int getpgrp(void) { return getpid(); }
CRACE_MODEL int nice(int n) { return (int)__crace_nondet_bits(5); }
/* wait/waitpid: a child's status, or -1 (no child). */
CRACE_MODEL int waitpid(int pid, int *status, int opt) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  if (status)
    *status = __crace_nondet_int();
  return __crace_nondet_int() & 0x3fffff;
}
CRACE_MODEL int wait(int *status) { return waitpid(-1, status, 0); }
/* struct passwd {name, passwd, uid, gid, gecos, dir, shell}: the user
   database is input; getpwnam/getpwuid fill libc's static entry. */
struct __crace_libc_passwd {
  char *pw_name;
  char *pw_passwd;
  unsigned pw_uid;
  unsigned pw_gid;
  char *pw_gecos;
  char *pw_dir;
  char *pw_shell;
};
static struct __crace_libc_passwd __crace_libc_pw;
static char __crace_libc_pw_text[5][64];
CRACE_MODEL void __crace_libc_fill_passwd(struct __crace_libc_passwd *p, char *text,
                                          crace_size_t each) {
  for (int i = 0; i < 5; i++)
    __crace_libc_input_string(text + i * each, each);
  p->pw_name = text;
  p->pw_passwd = text + each;
  p->pw_gecos = text + 2 * each;
  p->pw_dir = text + 3 * each;
  p->pw_shell = text + 4 * each;
  p->pw_uid = (unsigned)__crace_nondet_int();
  p->pw_gid = (unsigned)__crace_nondet_int();
}
CRACE_MODEL struct __crace_libc_passwd *__crace_libc_getpw(void) {
  if (__crace_nondet_bits(1))
    return 0;
  __crace_lock(&__crace_libc_static_lock);
  __crace_libc_fill_passwd(&__crace_libc_pw, &__crace_libc_pw_text[0][0], 64);
  __crace_unlock(&__crace_libc_static_lock);
  return &__crace_libc_pw;
}
CRACE_MODEL struct __crace_libc_passwd *getpwnam(const char *name) {
  __crace_libc_read_string(name);
  return __crace_libc_getpw();
}
CRACE_MODEL struct __crace_libc_passwd *getpwuid(unsigned uid) {
  return __crace_libc_getpw();
}
CRACE_MODEL int getpwuid_r(unsigned uid, struct __crace_libc_passwd *pw, char *buf,
                           crace_size_t n, struct __crace_libc_passwd **res) {
  if (n < 5 || __crace_nondet_bits(1)) {
    *res = 0;
    return n < 5 ? 34 : 0;
  }
  __crace_libc_fill_passwd(pw, buf, n / 5);
  *res = pw;
  return 0;
}
CRACE_MODEL int getpwnam_r(const char *name, struct __crace_libc_passwd *pw,
                           char *buf, crace_size_t n,
                           struct __crace_libc_passwd **res) {
  __crace_libc_read_string(name);
  return getpwuid_r(0, pw, buf, n, res);
}
/* struct group {name, passwd, gid, members}. */
struct __crace_libc_group {
  char *gr_name;
  char *gr_passwd;
  unsigned gr_gid;
  char **gr_mem;
};
CRACE_MODEL int getgrgid_r(unsigned gid, struct __crace_libc_group *g, char *buf,
                           crace_size_t n, struct __crace_libc_group **res) {
  crace_size_t need = sizeof(char *) + 2;
  if (n < need || __crace_nondet_bits(1)) {
    *res = 0;
    return n < need ? 34 : 0;
  }
  char **mem = (char **)buf;
  mem[0] = 0;
  char *text = buf + sizeof(char *);
  crace_size_t each = (n - sizeof(char *)) / 2;
  __crace_libc_input_string(text, each);
  __crace_libc_input_string(text + each, each);
  g->gr_name = text;
  g->gr_passwd = text + each;
  g->gr_gid = (unsigned)__crace_nondet_int();
  g->gr_mem = mem;
  *res = g;
  return 0;
}
struct __crace_libc_rlimit {
  unsigned long cur;
  unsigned long max;
};
CRACE_MODEL int getrlimit(int r, struct __crace_libc_rlimit *l) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  l->cur = (unsigned long)__crace_nondet_longlong();
  l->max = (unsigned long)__crace_nondet_longlong();
  return 0;
}
CRACE_MODEL int setrlimit(int r, const struct __crace_libc_rlimit *l) {
  __crace_read(l, sizeof *l);
  return __crace_libc_status();
}
CRACE_MODEL int getrlimit64(int r, void *l) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_input(l, 16);
  return 0;
}
CRACE_MODEL int setrlimit64(int r, const void *l) {
  __crace_read(l, 16);
  return __crace_libc_status();
}
/* struct rusage: 2 timevals and 14 longs. */
CRACE_MODEL int getrusage(int who, void *u) {
  __crace_libc_input(u, 18 * sizeof(long));
  return 0;
}
CRACE_MODEL long times(void *t) {
  __crace_libc_input(t, 4 * sizeof(long));
  return (long)__crace_nondet_longlong();
}
/* daemon: models/start.c (it forks). */

/* ---- time: the clock is input, and it does not go backwards -------------- */
/* One clock for the whole program, in nanoseconds: it starts at an
   arbitrary instant before 2038 and each reading advances it by an
   arbitrary amount (0 to 4.3 s). time, gettimeofday and clock_gettime (every
   clock id) read it, so a program that waits for time to pass ("until 1 ms
   has elapsed") terminates in explore's sampled runs as it does for real.
   That the system clock is not set backwards while the program runs is
   printed as an assumption (ProgramStart.cpp). */
static unsigned long long __crace_libc_clock_ns;
static int __crace_libc_clock_started;
static int __crace_libc_clock_lock;
CRACE_MODEL unsigned long long __crace_libc_clock_read(void) {
  __crace_lock(&__crace_libc_clock_lock);
  if (!__crace_libc_clock_started) {
    __crace_libc_clock_started = 1;
    __crace_libc_clock_ns =
        (unsigned long long)(__crace_nondet_bits(31)) * 1000000000ull +
        __crace_nondet_bits(29);
  }
  /* Any step of 0 to 2^32 - 1 ns. The drawn value v is the step, except
     that 1, 2, 3 and 1, 2, 3 ms trade places: explore's sampling, which
     favours small values, then gives whole milliseconds often, so a loop
     that waits for an exact elapsed time (a cycle-counter calibration
     waiting for "start + 1000 us") ends in a few readings. */
  unsigned long long v = __crace_nondet_bits(32);
  if (v >= 1 && v <= 3)
    v *= 1000000ull;
  else if (v % 1000000ull == 0 && v >= 1000000ull && v <= 3000000ull)
    v /= 1000000ull;
  __crace_libc_clock_ns += v;
  unsigned long long now = __crace_libc_clock_ns;
  __crace_unlock(&__crace_libc_clock_lock);
  return now;
}
CRACE_MODEL long time(long *t) {
  long v = (long)(__crace_libc_clock_read() / 1000000000ull);
  if (t)
    *t = v;
  return v;
}
CRACE_MODEL int gettimeofday(long *tv, void *tz) {
  unsigned long long now = __crace_libc_clock_read();
  if (tv) {
    tv[0] = (long)(now / 1000000000ull);
    tv[1] = (long)(now % 1000000000ull / 1000u);
  }
  if (tz)
    __crace_libc_input(tz, 2 * sizeof(int));
  return 0;
}
CRACE_MODEL int clock_gettime(int clk, long *ts) {
  unsigned long long now = __crace_libc_clock_read();
  ts[0] = (long)(now / 1000000000ull);
  ts[1] = (long)(now % 1000000000ull);
  return 0;
}
/* struct tm: 9 ints, a long and a pointer (glibc): sec, min, hour, mday,
   mon, year - 1900, wday, yday, isdst, gmtoff, zone. Conversions are exact
   (civil calendar, proleptic Gregorian); the local time zone is input: one
   offset for the whole run, whole quarter hours within +-14 h, and a
   daylight-saving flag. localtime/gmtime fill libc's static tm under its
   lock. */
struct __crace_libc_tm {
  int f[9];
  long gmtoff;
  const char *zone;
};
static struct __crace_libc_tm __crace_libc_tm_buf;
static const char __crace_libc_zone_utc[] = "GMT";
static const char __crace_libc_zone_local[] = "LOC";
static int __crace_libc_tz_started, __crace_libc_tz_offset, __crace_libc_tz_dst;
CRACE_MODEL void __crace_libc_tz(void) {
  __crace_lock(&__crace_libc_clock_lock);
  if (!__crace_libc_tz_started) {
    __crace_libc_tz_started = 1;
    __crace_libc_tz_offset = ((int)(__crace_nondet_bits(7) % 113u) - 56) * 900;
    __crace_libc_tz_dst = (int)__crace_nondet_bits(1);
  }
  __crace_unlock(&__crace_libc_clock_lock);
}
/* Days since 1970-01-01 of year y, month m (1..12), day d (Hinnant). */
CRACE_MODEL long long __crace_libc_days_from_civil(long long y, int m, int d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
CRACE_MODEL struct __crace_libc_tm *__crace_libc_civil(long long t, long off,
                                                  struct __crace_libc_tm *tm) {
  t += off;
  long long days = t / 86400, secs = t % 86400;
  if (secs < 0) {
    secs += 86400;
    days--;
  }
  long long z = days + 719468;
  long long era = (z >= 0 ? z : z - 146096) / 146097;
  long long doe = z - era * 146097;
  long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long y = yoe + era * 400;
  long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long long mp = (5 * doy + 2) / 153;
  int d = (int)(doy - (153 * mp + 2) / 5 + 1);
  int m = (int)(mp < 10 ? mp + 3 : mp - 9);
  y += m <= 2;
  tm->f[0] = (int)(secs % 60);
  tm->f[1] = (int)(secs / 60 % 60);
  tm->f[2] = (int)(secs / 3600);
  tm->f[3] = d;
  tm->f[4] = m - 1;
  tm->f[5] = (int)(y - 1900);
  tm->f[6] = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
  tm->f[7] = (int)(days - __crace_libc_days_from_civil(y, 1, 1));
  tm->f[8] = 0;
  tm->gmtoff = off;
  tm->zone = __crace_libc_zone_utc;
  return tm;
}
CRACE_MODEL struct __crace_libc_tm *gmtime_r(const long *t, struct __crace_libc_tm *tm) {
  return __crace_libc_civil(*t, 0, tm);
}
CRACE_MODEL struct __crace_libc_tm *localtime_r(const long *t,
                                                struct __crace_libc_tm *tm) {
  __crace_libc_tz();
  __crace_libc_civil(*t, __crace_libc_tz_offset, tm);
  tm->f[8] = __crace_libc_tz_dst;
  tm->zone = __crace_libc_zone_local;
  return tm;
}
CRACE_MODEL struct __crace_libc_tm *localtime(const long *t) {
  __crace_lock(&__crace_libc_static_lock);
  struct __crace_libc_tm *r = localtime_r(t, &__crace_libc_tm_buf);
  __crace_unlock(&__crace_libc_static_lock);
  return r;
}
CRACE_MODEL struct __crace_libc_tm *gmtime(const long *t) {
  __crace_lock(&__crace_libc_static_lock);
  struct __crace_libc_tm *r = gmtime_r(t, &__crace_libc_tm_buf);
  __crace_unlock(&__crace_libc_static_lock);
  return r;
}
/* mktime: the local time the (possibly out-of-range) fields denote, and the
   fields normalised. */
CRACE_MODEL long mktime(struct __crace_libc_tm *tm) {
  __crace_libc_tz();
  long long mon = tm->f[4], y = (long long)tm->f[5] + 1900 + mon / 12;
  mon %= 12;
  if (mon < 0) {
    mon += 12;
    y--;
  }
  long long t = (__crace_libc_days_from_civil(y, (int)mon + 1, 1) + tm->f[3] - 1) *
                    86400 +
                (long long)tm->f[2] * 3600 + (long long)tm->f[1] * 60 + tm->f[0] -
                __crace_libc_tz_offset;
  long r = (long)t;
  localtime_r(&r, tm);
  return r;
}
/* strftime: exact for the numeric and C-locale conversions; a format with
   another conversion gives bytes the model does not compute. */
static const char *const __crace_libc_wday[] = {"Sunday", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday"};
static const char *const __crace_libc_month[] = {"January", "February",
    "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"};
CRACE_MODEL crace_size_t __crace_libc_put_num(char *s, crace_size_t k, crace_size_t n,
                                         long long v, int width, char pad) {
  char d[24];
  int i = 0, neg = v < 0;
  unsigned long long u = neg ? 0 - (unsigned long long)v : (unsigned long long)v;
  do {
    d[i++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (i < width - neg)
    d[i++] = pad;
  if (neg)
    d[i++] = '-';
  while (i > 0) {
    if (k + 1 >= n)
      return n;
    s[k++] = d[--i];
  }
  return k;
}
CRACE_MODEL crace_size_t __crace_libc_put_str(char *s, crace_size_t k, crace_size_t n,
                                         const char *t, int len) {
  for (int i = 0; t[i] && (len < 0 || i < len); i++) {
    if (k + 1 >= n)
      return n;
    s[k++] = t[i];
  }
  return k;
}
/* One simple conversion c written at s[k] (n: the buffer size); returns the
   new length, n when it does not fit, n + 1 when c is not a simple one. */
CRACE_MODEL crace_size_t __crace_libc_strftime1(char *s, crace_size_t k, crace_size_t n,
                                           char c, const struct __crace_libc_tm *tm) {
  const int *f = tm->f;
  switch (c) {
  case 'Y': return __crace_libc_put_num(s, k, n, (long long)f[5] + 1900, 1, '0');
  case 'y': return __crace_libc_put_num(s, k, n, ((f[5] % 100) + 100) % 100, 2, '0');
  case 'C': return __crace_libc_put_num(s, k, n, ((long long)f[5] + 1900) / 100, 2, '0');
  case 'm': return __crace_libc_put_num(s, k, n, f[4] + 1, 2, '0');
  case 'd': return __crace_libc_put_num(s, k, n, f[3], 2, '0');
  case 'e': return __crace_libc_put_num(s, k, n, f[3], 2, ' ');
  case 'H': return __crace_libc_put_num(s, k, n, f[2], 2, '0');
  case 'I': return __crace_libc_put_num(s, k, n, (f[2] + 11) % 12 + 1, 2, '0');
  case 'M': return __crace_libc_put_num(s, k, n, f[1], 2, '0');
  case 'S': return __crace_libc_put_num(s, k, n, f[0], 2, '0');
  case 'j': return __crace_libc_put_num(s, k, n, f[7] + 1, 3, '0');
  case 'w': return __crace_libc_put_num(s, k, n, f[6], 1, '0');
  case 'u': return __crace_libc_put_num(s, k, n, f[6] ? f[6] : 7, 1, '0');
  case 'p': return __crace_libc_put_str(s, k, n, f[2] < 12 ? "AM" : "PM", -1);
  case 'a': return __crace_libc_put_str(s, k, n, __crace_libc_wday[((f[6] % 7) + 7) % 7], 3);
  case 'A': return __crace_libc_put_str(s, k, n, __crace_libc_wday[((f[6] % 7) + 7) % 7], -1);
  case 'b':
  case 'h': return __crace_libc_put_str(s, k, n, __crace_libc_month[((f[4] % 12) + 12) % 12], 3);
  case 'B': return __crace_libc_put_str(s, k, n, __crace_libc_month[((f[4] % 12) + 12) % 12], -1);
  case 'Z': return __crace_libc_put_str(s, k, n, tm->zone ? tm->zone : "", -1);
  case 'n': return __crace_libc_put_str(s, k, n, "\n", -1);
  case 't': return __crace_libc_put_str(s, k, n, "\t", -1);
  case '%': return __crace_libc_put_str(s, k, n, "%", -1);
  }
  return n + 1;
}
CRACE_MODEL crace_size_t __crace_libc_strftime(char *s, crace_size_t n, const char *fmt,
                                          const struct __crace_libc_tm *tm) {
  crace_size_t k = 0;
  for (crace_size_t i = 0; fmt[i]; i++) {
    if (fmt[i] != '%') {
      if (k + 1 >= n)
        return n;
      s[k++] = fmt[i];
      continue;
    }
    char c = fmt[++i];
    /* The composite conversions of the C locale. */
    const char *sub = c == 'D' || c == 'x' ? "mdy" : c == 'F' ? "Ymd"
                    : c == 'T' || c == 'X' ? "HMS" : c == 'R' ? "HM"
                    : c == 'r' ? "IMSp" : c == 'c' ? "abeHMSY" : 0;
    const char *sep = c == 'D' || c == 'x' ? "//" : c == 'F' ? "--"
                    : c == 'r' ? ":: " : c == 'c' ? "   :: " : "::";
    crace_size_t r;
    if (sub) {
      r = k;
      for (int j = 0; sub[j] && r < n; j++) {
        r = __crace_libc_strftime1(s, r, n, sub[j], tm);
        if (sub[j + 1] && r < n)
          r = __crace_libc_put_str(s, r, n, sep + j, 1);
      }
    } else {
      r = __crace_libc_strftime1(s, k, n, c, tm);
    }
    if (r == n + 1) { /* a conversion the model does not compute */
      crace_size_t u = (crace_size_t)__crace_unknown_longlong();
      if (u >= n - k)
        return n;
      __crace_libc_unknown(s + k, u);
      r = k + u;
      if (!c)
        i--;
    }
    if (r >= n)
      return n;
    k = r;
  }
  return k;
}
CRACE_MODEL crace_size_t strftime(char *s, crace_size_t n, const char *fmt,
                                  const struct __crace_libc_tm *tm) {
  crace_size_t k = n ? __crace_libc_strftime(s, n, fmt, tm) : n;
  if (k >= n)
    return 0; /* too long: the contents are unspecified */
  s[k] = 0;
  return k;
}
/* asctime/ctime: "Wed Jun 30 21:49:08 1993\n", the C locale's strftime
   "%a %b %e %H:%M:%S %Y\n" (26 bytes with the zero); null when the year
   does not fit. ctime is asctime of localtime; the static forms share
   libc's buffer under its lock. */
static char __crace_libc_asctime_buf[32];
CRACE_MODEL char *asctime_r(const struct __crace_libc_tm *tm, char *buf) {
  if (!strftime(buf, 26, "%a %b %e %H:%M:%S %Y\n", tm)) {
    __crace_libc_fail();
    return 0;
  }
  return buf;
}
CRACE_MODEL char *ctime_r(const long *t, char *buf) {
  struct __crace_libc_tm tm;
  return asctime_r(localtime_r(t, &tm), buf);
}
CRACE_MODEL char *asctime(const struct __crace_libc_tm *tm) {
  __crace_lock(&__crace_libc_static_lock);
  char *r = asctime_r(tm, __crace_libc_asctime_buf);
  __crace_unlock(&__crace_libc_static_lock);
  return r;
}
CRACE_MODEL char *ctime(const long *t) {
  struct __crace_libc_tm tm;
  return asctime(localtime_r(t, &tm));
}
CRACE_MODEL void tzset(void) {}
CRACE_MODEL double difftime(long a, long b) { return (double)a - (double)b; }

/* ---- directories: their entries are input ---------------------------------- */
/* glibc's struct dirent: inode, offset, record length, type, name[256]. */
struct __crace_libc_dirent {
  unsigned long d_ino;
  long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[256];
};
/* A DIR holds the entry readdir returns (as glibc's does). */
CRACE_MODEL void *opendir(const char *path) {
  __crace_libc_read_string(path);
  if (__crace_nondet_bits(1)) {
    __crace_libc_fail();
    return 0;
  }
  return __crace_alloc(sizeof(struct __crace_libc_dirent));
}
CRACE_MODEL void *fdopendir(int fd) { return opendir(0); }
CRACE_MODEL int closedir(void *d) {
  __crace_free(d);
  return 0;
}
CRACE_MODEL void __crace_libc_fill_dirent(struct __crace_libc_dirent *e) {
  e->d_ino = (unsigned long)__crace_nondet_longlong();
  e->d_off = (long)__crace_nondet_longlong();
  e->d_reclen = (unsigned short)__crace_nondet_bits(16);
  e->d_type = (unsigned char)__crace_nondet_bits(4);
  __crace_libc_input_string(e->d_name, 256);
}
CRACE_MODEL struct __crace_libc_dirent *readdir(void *d) {
  if (__crace_nondet_bits(1))
    return 0; /* no more entries */
  struct __crace_libc_dirent *e = (struct __crace_libc_dirent *)d;
  __crace_libc_fill_dirent(e);
  return e;
}
CRACE_MODEL struct __crace_libc_dirent *readdir64(void *d) { return readdir(d); }
CRACE_MODEL int readdir_r(void *d, struct __crace_libc_dirent *e,
                          struct __crace_libc_dirent **res) {
  if (__crace_nondet_bits(1)) {
    *res = 0;
    return 0;
  }
  __crace_libc_fill_dirent(e);
  *res = e;
  return 0;
}
CRACE_MODEL void rewinddir(void *d) {}
/* scandir: each entry goes through the filter; the kept ones are sorted
   with the comparator (both are the program's code and run here). */
CRACE_MODEL int scandir(const char *path, struct __crace_libc_dirent ***list,
                        int (*filter)(const struct __crace_libc_dirent *),
                        int (*cmp)(const struct __crace_libc_dirent **,
                                   const struct __crace_libc_dirent **)) {
  __crace_libc_read_string(path);
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  crace_size_t n = __crace_libc_count(64);
  struct __crace_libc_dirent **a = (struct __crace_libc_dirent **)__crace_alloc(
      (n ? n : 1) * sizeof(void *));
  if (!a)
    return __crace_libc_fail();
  crace_size_t k = 0;
  for (crace_size_t i = 0; i < n; i++) {
    struct __crace_libc_dirent *e = (struct __crace_libc_dirent *)__crace_alloc(
        sizeof(struct __crace_libc_dirent));
    if (!e)
      return __crace_libc_fail();
    __crace_libc_fill_dirent(e);
    if (!filter || filter(e))
      a[k++] = e;
    else
      __crace_free(e);
  }
  if (cmp)
    qsort(a, k, sizeof(void *), (int (*)(const void *, const void *))cmp);
  *list = a;
  return (int)k;
}
CRACE_MODEL int alphasort(const struct __crace_libc_dirent **a,
                          const struct __crace_libc_dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}
/* ftw: fn runs on every entry of the tree (input), with a fresh path and
   stat buffer; a nonzero result stops the walk and is returned. */
CRACE_MODEL int ftw(const char *dir, int (*fn)(const char *, const void *, int),
                    int nfd) {
  __crace_libc_read_string(dir);
  crace_size_t n = __crace_libc_count(64);
  for (crace_size_t i = 0; i < n; i++) {
    char *path = (char *)__crace_alloc(256);
    void *st = __crace_alloc(144);
    if (!path || !st)
      return -1;
    __crace_libc_input_string(path, 256);
    __crace_libc_fill_stat(st, 88, 144);
    int r = fn(path, st, (int)__crace_nondet_bits(3));
    __crace_free(path);
    __crace_free(st);
    if (r)
      return r;
  }
  return __crace_libc_status();
}
CRACE_MODEL int nftw(const char *dir,
                     int (*fn)(const char *, const void *, int, void *), int nfd,
                     int flags) {
  __crace_libc_read_string(dir);
  crace_size_t n = __crace_libc_count(64);
  for (crace_size_t i = 0; i < n; i++) {
    char *path = (char *)__crace_alloc(256);
    void *st = __crace_alloc(144);
    int *ftwbuf = (int *)__crace_alloc(2 * sizeof(int));
    if (!path || !st || !ftwbuf)
      return -1;
    __crace_libc_input_string(path, 256);
    __crace_libc_fill_stat(st, 88, 144);
    __crace_libc_input(ftwbuf, 2 * sizeof(int));
    int r = fn(path, st, (int)__crace_nondet_bits(3), ftwbuf);
    __crace_free(path);
    __crace_free(st);
    __crace_free(ftwbuf);
    if (r)
      return r;
  }
  return __crace_libc_status();
}

/* Mount table (getmntent_r fills the caller's entry from the caller's buf). */
CRACE_MODEL void *setmntent(const char *f, const char *mode) { return fopen(f, mode); }
CRACE_MODEL int endmntent(void *f) { return 1; }
struct __crace_libc_mntent {
  char *fsname, *dir, *type, *opts;
  int freq, passno;
};
CRACE_MODEL struct __crace_libc_mntent *getmntent_r(void *f, struct __crace_libc_mntent *m,
                                                    char *buf, int n) {
  if (n < 4 || __crace_nondet_bits(1))
    return 0;
  crace_size_t each = (crace_size_t)n / 4;
  for (int i = 0; i < 4; i++)
    __crace_libc_input_string(buf + i * each, each);
  m->fsname = buf;
  m->dir = buf + each;
  m->type = buf + 2 * each;
  m->opts = buf + 3 * each;
  m->freq = (int)__crace_nondet_bits(8);
  m->passno = (int)__crace_nondet_bits(8);
  return m;
}

/* ---- memory mappings ------------------------------------------------------ */
/* A fresh object of len bytes (MAP_FAILED when it fails). An anonymous
   mapping is zero; a file's contents are input. Mappings shared with other
   processes are not modelled beyond that. munmap leaves the object (a use
   after it is a memory error, not a race). */
CRACE_MODEL void *mmap(void *addr, crace_size_t len, int prot, int flags, int fd,
                       long off) {
  void *p = len && !__crace_nondet_bits(1) ? __crace_alloc(len) : 0;
  if (!p) {
    __crace_libc_fail();
    return (void *)-1;
  }
  if (!(flags & 0x20)) /* not MAP_ANONYMOUS */
    __crace_libc_input(p, len);
  return p;
}
CRACE_MODEL void *mmap64(void *addr, crace_size_t len, int prot, int flags, int fd,
                         long long off) {
  return mmap(addr, len, prot, flags, fd, 0);
}
CRACE_MODEL int munmap(void *p, crace_size_t len) { return __crace_libc_status(); }
CRACE_MODEL int mprotect(void *p, crace_size_t len, int prot) {
  return __crace_libc_status();
}
CRACE_MODEL int msync(void *p, crace_size_t len, int flags) { return __crace_libc_status(); }
CRACE_MODEL int madvise(void *p, crace_size_t len, int advice) { return 0; }
CRACE_MODEL int mlock(const void *p, crace_size_t len) { return __crace_libc_status(); }
CRACE_MODEL int munlock(const void *p, crace_size_t len) { return __crace_libc_status(); }
CRACE_MODEL int mlockall(int flags) { return __crace_libc_status(); }
CRACE_MODEL int munlockall(void) { return __crace_libc_status(); }
/* mremap: the contents move to a fresh object (varargs: a new address). */
CRACE_MODEL void *mremap(void *old, crace_size_t oldlen, crace_size_t len, int flags,
                         ...) {
  void *p = len && !__crace_nondet_bits(1) ? __crace_alloc(len) : 0;
  if (!p) {
    __crace_libc_fail();
    return (void *)-1;
  }
  __builtin_memcpy(p, old, oldlen < len ? oldlen : len);
  return p;
}

/* ---- signal sets: exact (the signals themselves are models/start.c's) ---- */
#define CRACE_SIGWORDS (128 / sizeof(unsigned long))
CRACE_MODEL int sigemptyset(unsigned long *s) {
  for (unsigned i = 0; i < CRACE_SIGWORDS; i++)
    s[i] = 0;
  return 0;
}
CRACE_MODEL int sigfillset(unsigned long *s) {
  for (unsigned i = 0; i < CRACE_SIGWORDS; i++)
    s[i] = ~0UL;
  return 0;
}
#define CRACE_SIGBITS (8 * sizeof(unsigned long))
CRACE_MODEL int sigaddset(unsigned long *s, int n) {
  if (n < 1 || n > 64) {
    __crace_libc_errno = 22; /* EINVAL */
    return -1;
  }
  s[(n - 1) / CRACE_SIGBITS] |= 1UL << ((n - 1) % CRACE_SIGBITS);
  return 0;
}
CRACE_MODEL int sigdelset(unsigned long *s, int n) {
  if (n < 1 || n > 64) {
    __crace_libc_errno = 22;
    return -1;
  }
  s[(n - 1) / CRACE_SIGBITS] &= ~(1UL << ((n - 1) % CRACE_SIGBITS));
  return 0;
}
CRACE_MODEL int sigismember(const unsigned long *s, int n) {
  if (n < 1 || n > 64) {
    __crace_libc_errno = 22;
    return -1;
  }
  return (s[(n - 1) / CRACE_SIGBITS] >> ((n - 1) % CRACE_SIGBITS)) & 1;
}
/* sigwait: returns when a signal of the set arrives (from any process), or
   never. */
CRACE_MODEL int sigwait(const unsigned long *s, int *sig) {
  /* No signal may ever come (the thread waits for good: explore tries this
     first, so a loop around sigwait lets the other threads run on in the
     first runs); else one of the set's members, each in turn (a choice per
     member, so explore tries every member, the lowest first). */
  if (!__crace_nondet_bits(1))
    __crace_assume(0);
  int n = 0;
  for (int k = 1; k <= 64 && !n; k++)
    if (sigismember(s, k) == 1 && !__crace_nondet_bits(1))
      n = k;
  __crace_assume(n != 0);
  *sig = n;
  return 0;
}

/* ---- threads: calls of old or rarely used pthread API ------------------- */
CRACE_MODEL int pthread_attr_getstacksize(const void *a, crace_size_t *s) {
  *s = (crace_size_t)__crace_nondet_longlong();
  return 0;
}
CRACE_MODEL int pthread_attr_getdetachstate(const void *a, int *s) {
  *s = (int)__crace_nondet_bits(1);
  return 0;
}
/* pthread_cancel is a no-op in models/pthread.c: no thread is ever
   cancelled, so testing for it does nothing. */
CRACE_MODEL void pthread_testcancel(void) {}
/* Draft-4 (DCE) threads, as old programs call them. */
CRACE_MODEL int pthread_attr_create(void *a) { return 0; }
CRACE_MODEL int pthread_mutexattr_setkind_np(void *a, int k) { return 0; }

/* ---- dynamic loading: a library may fail to load -------------------------- */
/* dlsym stays unmodelled: the code it returns is not the program's. */
CRACE_MODEL void *dlopen(const char *file, int mode) {
  __crace_libc_read_string(file);
  return __crace_nondet_bits(1) ? 0 : __crace_alloc(1);
}
CRACE_MODEL int dlclose(void *h) { return (int)__crace_nondet_bits(1); }
static const char __crace_libc_dl_msg[] = "dynamic loading failed";
CRACE_MODEL char *dlerror(void) {
  return __crace_nondet_bits(1) ? 0 : (char *)__crace_libc_dl_msg;
}

/* ---- regular expressions: results computed from the pattern, unknown ---- */
/* regex_t is libc's compiled pattern (32 bytes on i386, 64 on x86_64);
   regmatch_t is two ints. */
CRACE_MODEL int regcomp(void *re, const char *pattern, int flags) {
  __crace_libc_read_string(pattern);
  __crace_libc_unknown(re, sizeof(void *) == 4 ? 32 : 64);
  return __crace_unknown_int();
}
CRACE_MODEL int regexec(const void *re, const char *s, crace_size_t n, int *match,
                        int flags) {
  __crace_read(re, sizeof(void *) == 4 ? 32 : 64);
  __crace_libc_read_string(s);
  if (n && match)
    __crace_libc_unknown(match, n * 2 * sizeof(int));
  return __crace_unknown_int();
}
CRACE_MODEL void regfree(void *re) {}
CRACE_MODEL crace_size_t regerror(int e, const void *re, char *buf, crace_size_t n) {
  if (n)
    __crace_libc_unknown(buf, 1);
  return 1 + (crace_size_t)(unsigned)__crace_unknown_int();
}

/* ---- environment ---------------------------------------------------------- */
/* The environment itself (getenv, environ) is modelled elsewhere
   (models/start.c); setenv and friends read their arguments and may fail.
   A getenv model must not take the environment to be fixed, since these
   change it. */
CRACE_MODEL int setenv(const char *name, const char *value, int overwrite) {
  __crace_libc_read_string(name);
  __crace_libc_read_string(value);
  return __crace_libc_status();
}
CRACE_MODEL int unsetenv(const char *name) {
  __crace_libc_read_string(name);
  return __crace_libc_status();
}
CRACE_MODEL int putenv(char *s) {
  __crace_libc_read_string(s);
  return __crace_libc_status();
}

/* ---- macOS names (asm labels of its headers) ------------------------------ */
#define CRACE_MAC(ret, name, label, params, args)                              \
  CRACE_MODEL ret __crace_libc_mac_##name params __asm__(label);               \
  CRACE_MODEL ret __crace_libc_mac_##name params { return name args; }
CRACE_MAC(int, accept, "_accept$UNIX2003", (int f, void *a, unsigned *l), (f, a, l))
CRACE_MAC(int, bind, "_bind$UNIX2003", (int f, const void *a, unsigned l), (f, a, l))
CRACE_MAC(int, close, "_close$UNIX2003", (int f), (f))
CRACE_MAC(int, closedir, "_closedir$UNIX2003", (void *d), (d))
CRACE_MAC(int, connect, "_connect$UNIX2003", (int f, const void *a, unsigned l), (f, a, l))
CRACE_MAC(int, getpeername, "_getpeername$UNIX2003", (int f, void *a, unsigned *l),
          (f, a, l))
CRACE_MAC(int, getsockname, "_getsockname$UNIX2003", (int f, void *a, unsigned *l),
          (f, a, l))
CRACE_MAC(int, listen, "_listen$UNIX2003", (int f, int n), (f, n))
CRACE_MAC(void *, opendir, "_opendir$UNIX2003", (const char *p), (p))
CRACE_MAC(long, read, "_read$UNIX2003", (int f, void *b, crace_size_t n), (f, b, n))
CRACE_MAC(long, recv, "_recv$UNIX2003", (int f, void *b, crace_size_t n, int fl),
          (f, b, n, fl))
CRACE_MAC(long, recvfrom, "_recvfrom$UNIX2003",
          (int f, void *b, crace_size_t n, int fl, void *a, unsigned *l),
          (f, b, n, fl, a, l))
CRACE_MAC(int, select, "_select$UNIX2003", (int n, void *r, void *w, void *e, void *t),
          (n, r, w, e, t))
CRACE_MAC(long, send, "_send$UNIX2003", (int f, const void *b, crace_size_t n, int fl),
          (f, b, n, fl))
CRACE_MAC(long, sendto, "_sendto$UNIX2003",
          (int f, const void *b, crace_size_t n, int fl, const void *a, unsigned l),
          (f, b, n, fl, a, l))
CRACE_MAC(char *, strerror, "_strerror$UNIX2003", (int e), (e))
CRACE_MAC(int, waitpid, "_waitpid$UNIX2003", (int p, int *st, int o), (p, st, o))
CRACE_MAC(crace_size_t, strftime, "_strftime$UNIX2003",
          (char *s, crace_size_t n, const char *f, const struct __crace_libc_tm *t),
          (s, n, f, t))
CRACE_MODEL int __crace_libc_mac_open(const char *p, int fl, ...) __asm__("_open$UNIX2003");
CRACE_MODEL int __crace_libc_mac_open(const char *p, int fl, ...) {
  __crace_libc_read_string(p);
  return __crace_libc_fd();
}
/* macOS's struct stat (96 bytes on i386, 144 on x86_64) and struct dirent
   differ from glibc's: the entry is input bytes wherever its fields are. */
CRACE_MODEL int __crace_libc_mac_stat(const char *p, void *buf) __asm__("_stat");
CRACE_MODEL int __crace_libc_mac_stat(const char *p, void *buf) {
  __crace_libc_read_string(p);
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  __crace_libc_fill_stat(buf, 96, 144);
  return 0;
}
CRACE_MODEL void *__crace_libc_mac_readdir(void *d) __asm__("_readdir");
CRACE_MODEL void *__crace_libc_mac_readdir(void *d) {
  if (__crace_nondet_bits(1))
    return 0;
  crace_size_t n = sizeof(struct __crace_libc_dirent);
  __crace_libc_input(d, n - 1);
  ((char *)d)[n - 1] = 0;
  return d;
}
/* macOS's assertion failure. */
CRACE_MODEL void __assert_rtn(const char *fn, const char *file, int line,
                              const char *e) {
  __crace_assert(0, e);
  __crace_exit(134);
}

/* glibc's name-service switch configuration. */
CRACE_MODEL int __nss_configure_lookup(const char *db, const char *service) {
  __crace_libc_read_string(db);
  __crace_libc_read_string(service);
  return __crace_libc_status();
}

/* ---- setjmp: the first return ----------------------------------------------- */
/* setjmp returns 0 when called; it returns again only through longjmp,
   which stays unmodelled (a call to it is an unsoundness reason of its own,
   src/model/ProgramModel.cpp), so every execution the models allow has the
   one return. pthread_cleanup_push expands to __sigsetjmp and
   __pthread_register_cancel: its second return comes with cancellation,
   which models/pthread.c never performs (pthread_cancel is a no-op). */
CRACE_MODEL int setjmp(void *env) { return 0; }
CRACE_MODEL int _setjmp(void *env) { return 0; }
CRACE_MODEL int __sigsetjmp(void *env, int savemask) { return 0; }
CRACE_MODEL void __pthread_register_cancel(void *buf) {}
CRACE_MODEL void __pthread_unregister_cancel(void *buf) {}
CRACE_MODEL void __pthread_unwind_next(void *buf) { __crace_thread_exit((void *)-1); }

/* ---- Sun RPC: registration with the port mapper ------------------------- */
/* The transport handles (glibc's SVCXPRT layout) carry only the socket and
   port here: their operation table stays null, so a call through it (the
   svc_getargs/svc_sendreply macros, in dispatch functions) is not followed.
   Dispatch functions run only from svc_run, which has no model: every
   engine reports it, and explore stops the thread that calls it. */
struct __crace_rpc_xprt {
  int xp_sock;
  unsigned short xp_port;
  const void *xp_ops;
  int xp_addrlen;
  char xp_raddr[16];
  struct {
    int oa_flavor;
    char *oa_base;
    unsigned oa_length;
  } xp_verf;
  char *xp_p1, *xp_p2;
  char xp_pad[256];
};
CRACE_MODEL struct __crace_rpc_xprt *__crace_rpc_xprt_create(int sock) {
  if (__crace_nondet_bits(1))
    return 0;
  struct __crace_rpc_xprt *x =
      (struct __crace_rpc_xprt *)calloc(1, sizeof(struct __crace_rpc_xprt));
  if (!x)
    return 0;
  x->xp_sock = sock >= 0 ? sock : __crace_libc_fd();
  x->xp_port = (unsigned short)__crace_nondet_bits(16);
  return x;
}
CRACE_MODEL struct __crace_rpc_xprt *svcudp_create(int sock) {
  return __crace_rpc_xprt_create(sock);
}
CRACE_MODEL struct __crace_rpc_xprt *svcudp_bufcreate(int sock, unsigned s, unsigned r) {
  return __crace_rpc_xprt_create(sock);
}
CRACE_MODEL struct __crace_rpc_xprt *svctcp_create(int sock, unsigned s, unsigned r) {
  return __crace_rpc_xprt_create(sock);
}
CRACE_MODEL int svc_register(struct __crace_rpc_xprt *x, unsigned long prog,
                             unsigned long vers, void (*dispatch)(void *, void *),
                             unsigned long protocol) {
  return (int)__crace_nondet_bits(1);
}
CRACE_MODEL void svc_unregister(unsigned long prog, unsigned long vers) {}
CRACE_MODEL int pmap_unset(unsigned long prog, unsigned long vers) {
  return (int)__crace_nondet_bits(1);
}
CRACE_MODEL int pmap_set(unsigned long prog, unsigned long vers, int protocol,
                         unsigned short port) {
  return (int)__crace_nondet_bits(1);
}

/* ---- Sun RPC: XDR primitives (glibc's, through the stream's operations) -- */
/* An XDR stream is glibc's struct XDR: the program's xdr routines call these
   primitives by name, and they go through x_ops as glibc's do, so a stream
   of the program's own works too. The streams the client models below
   create are memory streams (xdrmem) whose bytes are input when decoding:
   a reply datagram of any content and length. */
struct __crace_rpc_xdr;
typedef int (*__crace_rpc_xdrproc)(struct __crace_rpc_xdr *, void *);
struct __crace_rpc_xdr_ops {
  int (*x_getlong)(struct __crace_rpc_xdr *, long *);
  int (*x_putlong)(struct __crace_rpc_xdr *, const long *);
  int (*x_getbytes)(struct __crace_rpc_xdr *, char *, unsigned);
  int (*x_putbytes)(struct __crace_rpc_xdr *, const char *, unsigned);
  unsigned (*x_getpostn)(const struct __crace_rpc_xdr *);
  int (*x_setpostn)(struct __crace_rpc_xdr *, unsigned);
  int *(*x_inline)(struct __crace_rpc_xdr *, unsigned);
  void (*x_destroy)(struct __crace_rpc_xdr *);
  int (*x_getint32)(struct __crace_rpc_xdr *, int *);
  int (*x_putint32)(struct __crace_rpc_xdr *, const int *);
};
struct __crace_rpc_xdr {
  int x_op; /* 0 XDR_ENCODE, 1 XDR_DECODE, 2 XDR_FREE */
  const struct __crace_rpc_xdr_ops *x_ops;
  char *x_public;
  char *x_private;
  char *x_base;
  unsigned x_handy;
};
CRACE_MODEL int xdr_void(void) { return 1; }
CRACE_MODEL int xdr_long(struct __crace_rpc_xdr *x, long *lp) {
  if (x->x_op == 0) {
    /* glibc: a value that does not fit in 32 bits does not encode. */
    if (sizeof(long) > 4 && (long)(int)*lp != *lp)
      return 0;
    return x->x_ops->x_putlong(x, lp);
  }
  if (x->x_op == 1)
    return x->x_ops->x_getlong(x, lp);
  return x->x_op == 2;
}
CRACE_MODEL int xdr_u_long(struct __crace_rpc_xdr *x, unsigned long *up) {
  long l;
  if (x->x_op == 1) {
    if (!x->x_ops->x_getlong(x, &l))
      return 0;
    *up = (unsigned long)(unsigned)l; /* the 32 bits, zero-extended */
    return 1;
  }
  if (x->x_op == 0) {
    /* glibc: a value that does not fit in 32 bits does not encode. */
    if (sizeof(long) > 4 && (*up >> 16 >> 16) != 0)
      return 0;
    l = (long)*up;
    return x->x_ops->x_putlong(x, &l);
  }
  return x->x_op == 2;
}
/* int, u_int, enum, bool, short, u_short, char: through a long, as glibc. */
#define CRACE_RPC_XDR_SMALL(NAME, T, DECODE)                                    \
  CRACE_MODEL int NAME(struct __crace_rpc_xdr *x, T *p) {                        \
    long l;                                                                    \
    if (x->x_op == 0) {                                                        \
      l = (long)*p;                                                            \
      return x->x_ops->x_putlong(x, &l);                                       \
    }                                                                          \
    if (x->x_op == 1) {                                                        \
      if (!x->x_ops->x_getlong(x, &l))                                         \
        return 0;                                                              \
      *p = DECODE;                                                             \
      return 1;                                                                \
    }                                                                          \
    return x->x_op == 2;                                                       \
  }
CRACE_RPC_XDR_SMALL(xdr_int, int, (int)l)
CRACE_RPC_XDR_SMALL(xdr_u_int, unsigned, (unsigned)l)
CRACE_RPC_XDR_SMALL(xdr_enum, int, (int)l)
CRACE_RPC_XDR_SMALL(xdr_short, short, (short)l)
CRACE_RPC_XDR_SMALL(xdr_u_short, unsigned short, (unsigned short)l)
CRACE_RPC_XDR_SMALL(xdr_char, char, (char)l)
CRACE_RPC_XDR_SMALL(xdr_u_char, unsigned char, (unsigned char)l)
CRACE_MODEL int xdr_bool(struct __crace_rpc_xdr *x, int *bp) {
  long l;
  if (x->x_op == 0) {
    l = *bp ? 1 : 0;
    return x->x_ops->x_putlong(x, &l);
  }
  if (x->x_op == 1) {
    if (!x->x_ops->x_getlong(x, &l))
      return 0;
    *bp = l ? 1 : 0;
    return 1;
  }
  return x->x_op == 2;
}
static char __crace_rpc_crud[4];
static const char __crace_rpc_zero[4];
CRACE_MODEL int xdr_opaque(struct __crace_rpc_xdr *x, char *cp, unsigned cnt) {
  if (cnt == 0)
    return 1;
  unsigned rndup = cnt % 4;
  if (rndup > 0)
    rndup = 4 - rndup;
  if (x->x_op == 1) {
    if (!x->x_ops->x_getbytes(x, cp, cnt))
      return 0;
    return rndup == 0 || x->x_ops->x_getbytes(x, __crace_rpc_crud, rndup);
  }
  if (x->x_op == 0) {
    if (!x->x_ops->x_putbytes(x, cp, cnt))
      return 0;
    return rndup == 0 || x->x_ops->x_putbytes(x, __crace_rpc_zero, rndup);
  }
  return x->x_op == 2;
}
CRACE_MODEL int xdr_string(struct __crace_rpc_xdr *x, char **cpp, unsigned maxsize) {
  char *sp = *cpp;
  unsigned size = 0;
  if (x->x_op == 2 || x->x_op == 0) {
    if (sp == 0)
      return x->x_op == 2;
    size = (unsigned)strlen(sp);
  }
  if (!xdr_u_int(x, &size))
    return 0;
  if (size > maxsize || size + 1 == 0)
    return 0;
  if (x->x_op == 1) {
    if (sp == 0)
      *cpp = sp = (char *)malloc(size + 1);
    if (sp == 0)
      return 0;
    sp[size] = 0;
    return xdr_opaque(x, sp, size);
  }
  if (x->x_op == 0)
    return xdr_opaque(x, sp, size);
  free(sp);
  *cpp = 0;
  return 1;
}
CRACE_MODEL int xdr_wrapstring(struct __crace_rpc_xdr *x, char **cpp) {
  return xdr_string(x, cpp, ~0u);
}
CRACE_MODEL int xdr_bytes(struct __crace_rpc_xdr *x, char **cpp, unsigned *sizep,
                          unsigned maxsize) {
  char *sp = *cpp;
  if (!xdr_u_int(x, sizep))
    return 0;
  unsigned nodesize = *sizep;
  if (nodesize > maxsize && x->x_op != 2)
    return 0;
  if (x->x_op == 1) {
    if (nodesize == 0)
      return 1;
    if (sp == 0)
      *cpp = sp = (char *)malloc(nodesize);
    if (sp == 0)
      return 0;
    return xdr_opaque(x, sp, nodesize);
  }
  if (x->x_op == 0)
    return xdr_opaque(x, sp, nodesize);
  if (sp != 0) {
    free(sp);
    *cpp = 0;
  }
  return 1;
}
/* The port mapper's mapping (four u_longs). */
struct __crace_rpc_pmap {
  unsigned long pm_prog, pm_vers, pm_prot, pm_port;
};
CRACE_MODEL int xdr_pmap(struct __crace_rpc_xdr *x, struct __crace_rpc_pmap *p) {
  return xdr_u_long(x, &p->pm_prog) && xdr_u_long(x, &p->pm_vers) &&
         xdr_u_long(x, &p->pm_prot) && xdr_u_long(x, &p->pm_port);
}
CRACE_MODEL void xdr_free(__crace_rpc_xdrproc proc, char *objp) {
  struct __crace_rpc_xdr x;
  x.x_op = 2;
  x.x_ops = 0;
  proc(&x, objp);
}

/* The model stream: glibc's memory stream. Encoding counts the room left
   (x_handy) and reads what it encodes; decoding reads input: before each
   item the datagram may end (then the item fails, as xdrmem's does), and
   within x_handy bytes of room the bytes are any values, written to the
   receive buffer (x_base) when there is one, so the buffer holds what was
   decoded. */
struct __crace_rpc_stream {
  struct __crace_rpc_xdr x;
  unsigned pos;   /* bytes from the start of the message */
  int ended;      /* decoding: the datagram ended */
  int record;     /* a TCP record stream (no fixed room) */
};
CRACE_MODEL int __crace_rpc_room(struct __crace_rpc_stream *s, unsigned n) {
  if (s->x.x_op == 1) {
    if (!s->ended && __crace_nondet_bits(1))
      s->ended = 1;
    if (s->ended)
      return 0;
  }
  if (!s->record) {
    if (n > s->x.x_handy)
      return 0;
    s->x.x_handy -= n;
  }
  s->pos += n;
  return 1;
}
CRACE_MODEL void __crace_rpc_store_be(char *p, unsigned v) {
  p[0] = (char)(v >> 24);
  p[1] = (char)(v >> 16);
  p[2] = (char)(v >> 8);
  p[3] = (char)v;
}
CRACE_MODEL int __crace_rpc_getlong(struct __crace_rpc_xdr *x, long *lp) {
  struct __crace_rpc_stream *s = (struct __crace_rpc_stream *)x;
  unsigned at = s->pos;
  if (!__crace_rpc_room(s, 4))
    return 0;
  int v = __crace_nondet_int();
  if (x->x_base)
    __crace_rpc_store_be(x->x_base + at, (unsigned)v);
  *lp = (long)v;
  return 1;
}
CRACE_MODEL int __crace_rpc_putlong(struct __crace_rpc_xdr *x, const long *lp) {
  long v = *lp;
  return __crace_rpc_room((struct __crace_rpc_stream *)x, 4);
}
CRACE_MODEL int __crace_rpc_getbytes(struct __crace_rpc_xdr *x, char *p, unsigned n) {
  struct __crace_rpc_stream *s = (struct __crace_rpc_stream *)x;
  unsigned at = s->pos;
  if (!__crace_rpc_room(s, n))
    return 0;
  if (n == 0)
    return 1;
  if (x->x_base) {
    __crace_libc_input(x->x_base + at, n);
    __builtin_memcpy(p, x->x_base + at, n);
  } else {
    __crace_libc_input(p, n);
  }
  return 1;
}
CRACE_MODEL int __crace_rpc_putbytes(struct __crace_rpc_xdr *x, const char *p, unsigned n) {
  if (n)
    __crace_read(p, n);
  return __crace_rpc_room((struct __crace_rpc_stream *)x, n);
}
CRACE_MODEL unsigned __crace_rpc_getpostn(const struct __crace_rpc_xdr *x) {
  const struct __crace_rpc_stream *s = (const struct __crace_rpc_stream *)x;
  if (s->record)
    return (unsigned)__crace_unknown_int();
  return s->pos;
}
/* Moving within a decoded message would read bytes again: not computed. */
CRACE_MODEL int __crace_rpc_setpostn(struct __crace_rpc_xdr *x, unsigned pos) {
  struct __crace_rpc_stream *s = (struct __crace_rpc_stream *)x;
  if (x->x_op != 0 || s->record)
    return __crace_unknown_int();
  unsigned end = s->pos + x->x_handy;
  if (pos > end)
    return 0;
  s->pos = pos;
  x->x_handy = end - pos;
  return 1;
}
CRACE_MODEL int *__crace_rpc_inline(struct __crace_rpc_xdr *x, unsigned n) {
  struct __crace_rpc_stream *s = (struct __crace_rpc_stream *)x;
  if (s->record)
    return __crace_unknown_int() ? (int *)__crace_alloc(n ? n : 1) : 0;
  unsigned at = s->pos;
  if (!__crace_rpc_room(s, n))
    return 0;
  char *b = x->x_base && x->x_op == 1 ? x->x_base + at : (char *)__crace_alloc(n ? n : 1);
  if (x->x_op == 1 && n)
    __crace_libc_input(b, n);
  return (int *)b;
}
CRACE_MODEL void __crace_rpc_xdestroy(struct __crace_rpc_xdr *x) {}
CRACE_MODEL int __crace_rpc_getint32(struct __crace_rpc_xdr *x, int *ip) {
  long l;
  if (!__crace_rpc_getlong(x, &l))
    return 0;
  *ip = (int)l;
  return 1;
}
CRACE_MODEL int __crace_rpc_putint32(struct __crace_rpc_xdr *x, const int *ip) {
  long l = *ip;
  return __crace_rpc_putlong(x, &l);
}
static const struct __crace_rpc_xdr_ops __crace_rpc_xdrmem_ops = {
    __crace_rpc_getlong,  __crace_rpc_putlong,  __crace_rpc_getbytes,
    __crace_rpc_putbytes, __crace_rpc_getpostn, __crace_rpc_setpostn,
    __crace_rpc_inline,   __crace_rpc_xdestroy, __crace_rpc_getint32,
    __crace_rpc_putint32};
/* op: 0 encode, 1 decode, 2 free; room: bytes left (encode) or the room
   for the rest of the datagram (decode); buf: where decoded bytes go (or
   null). */
CRACE_MODEL void __crace_rpc_stream_init(struct __crace_rpc_stream *s, int op,
                                         unsigned pos, unsigned room, char *buf) {
  s->x.x_op = op;
  s->x.x_ops = &__crace_rpc_xdrmem_ops;
  s->x.x_public = 0;
  s->x.x_private = 0;
  s->x.x_base = buf;
  s->x.x_handy = room;
  s->pos = pos;
  s->ended = 0;
  s->record = 0;
}

/* ---- Sun RPC: authentication handles (glibc's AUTH) ---------------------- */
struct __crace_rpc_opaque_auth {
  int oa_flavor;
  char *oa_base;
  unsigned oa_length;
};
struct __crace_rpc_auth;
struct __crace_rpc_auth_ops {
  void (*ah_nextverf)(struct __crace_rpc_auth *);
  int (*ah_marshal)(struct __crace_rpc_auth *, struct __crace_rpc_xdr *);
  int (*ah_validate)(struct __crace_rpc_auth *, struct __crace_rpc_opaque_auth *);
  int (*ah_refresh)(struct __crace_rpc_auth *);
  void (*ah_destroy)(struct __crace_rpc_auth *);
};
struct __crace_rpc_auth {
  struct __crace_rpc_opaque_auth ah_cred, ah_verf;
  union {
    struct {
      unsigned high, low;
    } key;
    char c[8];
  } ah_key;
  const struct __crace_rpc_auth_ops *ah_ops;
  char *ah_private;
};
CRACE_MODEL void __crace_rpc_auth_nextverf(struct __crace_rpc_auth *a) {}
/* Marshalling puts the credential and the verifier: their flavors and
   lengths and the credential's bytes. */
CRACE_MODEL int __crace_rpc_auth_marshal(struct __crace_rpc_auth *a,
                                         struct __crace_rpc_xdr *x) {
  long w = 0;
  return x->x_ops->x_putlong(x, &w) && x->x_ops->x_putlong(x, &w) &&
         (a->ah_cred.oa_length == 0 ||
          x->x_ops->x_putbytes(x, a->ah_cred.oa_base, a->ah_cred.oa_length)) &&
         x->x_ops->x_putlong(x, &w) && x->x_ops->x_putlong(x, &w);
}
CRACE_MODEL int __crace_rpc_auth_validate(struct __crace_rpc_auth *a,
                                          struct __crace_rpc_opaque_auth *v) {
  return 1;
}
/* authnone's and authunix's refresh fail while the credential is the
   original one (always, here). */
CRACE_MODEL int __crace_rpc_auth_refresh(struct __crace_rpc_auth *a) { return 0; }
CRACE_MODEL void __crace_rpc_authnone_destroy(struct __crace_rpc_auth *a) {}
CRACE_MODEL void __crace_rpc_authunix_destroy(struct __crace_rpc_auth *a) {
  free(a->ah_cred.oa_base);
  free(a);
}
static const struct __crace_rpc_auth_ops __crace_rpc_authnone_ops = {
    __crace_rpc_auth_nextverf, __crace_rpc_auth_marshal, __crace_rpc_auth_validate,
    __crace_rpc_auth_refresh, __crace_rpc_authnone_destroy};
static const struct __crace_rpc_auth_ops __crace_rpc_authunix_ops = {
    __crace_rpc_auth_nextverf, __crace_rpc_auth_marshal, __crace_rpc_auth_validate,
    __crace_rpc_auth_refresh, __crace_rpc_authunix_destroy};
/* glibc's authnone handle is one shared object that is never freed. */
static struct __crace_rpc_auth __crace_rpc_authnone = {
    {0, 0, 0}, {0, 0, 0}, {{0, 0}}, &__crace_rpc_authnone_ops, 0};
CRACE_MODEL struct __crace_rpc_auth *authnone_create(void) {
  return &__crace_rpc_authnone;
}
/* authunix's credential: a stamp, the host name (counted, padded), uid,
   gid and up to 16 groups; the host name (at most 255 bytes, no zero), the
   ids and the groups are input. */
CRACE_MODEL struct __crace_rpc_auth *authunix_create_default(void) {
  struct __crace_rpc_auth *a =
      (struct __crace_rpc_auth *)calloc(1, sizeof(struct __crace_rpc_auth));
  char *cred = (char *)calloc(1, 400);
  if (!a || !cred) {
    free(a);
    free(cred);
    return 0;
  }
  unsigned hl = (unsigned)__crace_libc_count(255), n = (unsigned)__crace_libc_count(16);
  __crace_libc_input(cred, 4); /* stamp */
  __crace_rpc_store_be(cred + 4, hl);
  for (unsigned i = 0; i < hl; i++)
    cred[8 + i] = (char)(1 + __crace_nondet_bits(8) % 255);
  unsigned at = 8 + (hl + 3) / 4 * 4;
  __crace_libc_input(cred + at, 8); /* uid, gid */
  __crace_rpc_store_be(cred + at + 8, n);
  __crace_libc_input(cred + at + 12, 4 * n);
  a->ah_cred.oa_flavor = 1; /* AUTH_UNIX */
  a->ah_cred.oa_base = cred;
  a->ah_cred.oa_length = at + 12 + 4 * n;
  a->ah_ops = &__crace_rpc_authunix_ops;
  return a;
}

/* ---- Sun RPC: clients (glibc's CLIENT, UDP and TCP) ------------------------ */
/* cl_private is glibc's struct cu_data (the UDP client's state; programs
   such as ypbind read it) with its send and receive buffers after it, as
   glibc allocates them; the TCP client uses the same block. */
struct __crace_rpc_timeval {
  long tv_sec, tv_usec;
};
struct __crace_rpc_err {
  int re_status;
  union {
    int re_errno;
    struct {
      unsigned long low, high;
    } re_vers;
    struct {
      long s1, s2;
    } re_lb;
  } ru;
};
struct __crace_rpc_sockaddr_in {
  unsigned short sin_family, sin_port;
  unsigned sin_addr;
  char sin_zero[8];
};
struct __crace_rpc_cu {
  int cu_sock;
  int cu_closeit;
  struct __crace_rpc_sockaddr_in cu_raddr;
  int cu_rlen;
  struct __crace_rpc_timeval cu_wait, cu_total;
  struct __crace_rpc_err cu_error;
  struct __crace_rpc_xdr cu_outxdrs;
  unsigned cu_xdrpos, cu_sendsz;
  char *cu_outbuf;
  unsigned cu_recvsz;
  char cu_inbuf[1];
};
struct __crace_rpc_client;
struct __crace_rpc_clnt_ops {
  int (*cl_call)(struct __crace_rpc_client *, unsigned long, __crace_rpc_xdrproc, char *,
                 __crace_rpc_xdrproc, char *, struct __crace_rpc_timeval);
  void (*cl_abort)(void);
  void (*cl_geterr)(struct __crace_rpc_client *, struct __crace_rpc_err *);
  int (*cl_freeres)(struct __crace_rpc_client *, __crace_rpc_xdrproc, char *);
  void (*cl_destroy)(struct __crace_rpc_client *);
  int (*cl_control)(struct __crace_rpc_client *, int, char *);
};
struct __crace_rpc_client {
  struct __crace_rpc_auth *cl_auth;
  const struct __crace_rpc_clnt_ops *cl_ops;
  char *cl_private;
};
struct __crace_rpc_createerr {
  int cf_stat;
  struct __crace_rpc_err cf_error;
};
/* rpc_createerr: glibc gives the first thread that uses RPC the global,
   every other thread its own. */
__attribute__((weak)) struct __crace_rpc_createerr rpc_createerr;
static __thread struct __crace_rpc_createerr __crace_rpc_createerr_own;
static int __crace_rpc_vars_once;
static unsigned long __crace_rpc_vars_owner;
CRACE_MODEL struct __crace_rpc_createerr *__rpc_thread_createerr(void) {
  unsigned long self = __crace_thread_self();
  __crace_atomic_begin();
  if (!__crace_rpc_vars_once) {
    __crace_rpc_vars_once = 1;
    __crace_rpc_vars_owner = self;
  }
  int global = __crace_rpc_vars_owner == self;
  __crace_atomic_end();
  return global ? &rpc_createerr : &__crace_rpc_createerr_own;
}
CRACE_MODEL void *__crace_rpc_create_fail(int stat) {
  struct __crace_rpc_createerr *e = __rpc_thread_createerr();
  e->cf_stat = stat;
  e->cf_error.ru.re_errno = (int)__crace_nondet_bits(7);
  return 0;
}
/* Status codes. */
enum {
  CRACE_RPC_SUCCESS = 0,
  CRACE_RPC_CANTENCODEARGS = 1,
  CRACE_RPC_CANTDECODERES = 2,
  CRACE_RPC_CANTSEND = 3,
  CRACE_RPC_CANTRECV = 4,
  CRACE_RPC_TIMEDOUT = 5,
  CRACE_RPC_SYSTEMERROR = 12,
  CRACE_RPC_UNKNOWNPROTO = 17,
  CRACE_RPC_PMAPFAILURE = 14,
  CRACE_RPC_PROGNOTREGISTERED = 15
};
/* An accepted or denied reply that is not a success: what glibc's
   _seterr_reply can give. */
CRACE_MODEL int __crace_rpc_reply_error(struct __crace_rpc_err *e) {
  static const int codes[8] = {6, 7, 8, 9, 10, 11, 12, 16};
  e->re_status = codes[__crace_nondet_bits(3)];
  e->ru.re_lb.s1 = (long)__crace_nondet_int();
  e->ru.re_lb.s2 = (long)__crace_nondet_int();
  return e->re_status;
}

CRACE_MODEL int __crace_rpc_clnt_call(struct __crace_rpc_client *cl, unsigned long proc,
                                      __crace_rpc_xdrproc xargs, char *argsp,
                                      __crace_rpc_xdrproc xres, char *resp,
                                      struct __crace_rpc_timeval timeout);
CRACE_MODEL void __crace_rpc_clnt_abort(void) {}
CRACE_MODEL void __crace_rpc_clnt_geterr(struct __crace_rpc_client *cl,
                                         struct __crace_rpc_err *e) {
  *e = ((struct __crace_rpc_cu *)cl->cl_private)->cu_error;
}
CRACE_MODEL int __crace_rpc_clnt_freeres(struct __crace_rpc_client *cl,
                                         __crace_rpc_xdrproc xres, char *resp) {
  struct __crace_rpc_stream s;
  __crace_rpc_stream_init(&s, 2, 0, 0, 0);
  return xres(&s.x, resp);
}
CRACE_MODEL void __crace_rpc_clnt_destroy(struct __crace_rpc_client *cl) {
  struct __crace_rpc_cu *cu = (struct __crace_rpc_cu *)cl->cl_private;
  if (cu->cu_closeit)
    close(cu->cu_sock);
  free(cu);
  free(cl);
}
/* glibc's clntudp_control (clnttcp_control has the same requests). */
CRACE_MODEL int __crace_rpc_clnt_control(struct __crace_rpc_client *cl, int req,
                                         char *info) {
  struct __crace_rpc_cu *cu = (struct __crace_rpc_cu *)cl->cl_private;
  unsigned char *ob = (unsigned char *)cu->cu_outbuf;
  switch (req) {
  case 8: /* CLSET_FD_CLOSE */
    cu->cu_closeit = 1;
    return 1;
  case 9: /* CLSET_FD_NCLOSE */
    cu->cu_closeit = 0;
    return 1;
  }
  if (info == 0)
    return 0;
  switch (req) {
  case 1: /* CLSET_TIMEOUT */
    cu->cu_total = *(struct __crace_rpc_timeval *)info;
    return 1;
  case 2: /* CLGET_TIMEOUT */
    *(struct __crace_rpc_timeval *)info = cu->cu_total;
    return 1;
  case 4: /* CLSET_RETRY_TIMEOUT */
    cu->cu_wait = *(struct __crace_rpc_timeval *)info;
    return 1;
  case 5: /* CLGET_RETRY_TIMEOUT */
    *(struct __crace_rpc_timeval *)info = cu->cu_wait;
    return 1;
  case 3: /* CLGET_SERVER_ADDR */
    *(struct __crace_rpc_sockaddr_in *)info = cu->cu_raddr;
    return 1;
  case 6: /* CLGET_FD */
    *(int *)info = cu->cu_sock;
    return 1;
  case 10: /* CLGET_XID */
  case 12: /* CLGET_VERS */
  case 14: { /* CLGET_PROG */
    unsigned o = req == 10 ? 0 : req == 12 ? 16 : 12;
    *(unsigned long *)info = (unsigned long)ob[o] << 24 | (unsigned long)ob[o + 1] << 16 |
                             (unsigned long)ob[o + 2] << 8 | ob[o + 3];
    return 1;
  }
  case 11: /* CLSET_XID */
    __crace_rpc_store_be(cu->cu_outbuf, (unsigned)(*(unsigned long *)info - 1));
    return 1;
  case 13: /* CLSET_VERS */
    __crace_rpc_store_be(cu->cu_outbuf + 16, (unsigned)*(unsigned long *)info);
    return 1;
  case 15: /* CLSET_PROG */
    __crace_rpc_store_be(cu->cu_outbuf + 12, (unsigned)*(unsigned long *)info);
    return 1;
  }
  return 0;
}
/* One table for both transports: the call tells them apart by a mark in
   the client's block (no model function refers to a table, so an unused
   table and its functions are dropped). */
static const struct __crace_rpc_clnt_ops __crace_rpc_clnt_ops = {
    __crace_rpc_clnt_call,    __crace_rpc_clnt_abort,   __crace_rpc_clnt_geterr,
    __crace_rpc_clnt_freeres, __crace_rpc_clnt_destroy, __crace_rpc_clnt_control};

/* glibc's clntudp_bufcreate / clnttcp_create: a port of 0 is asked of the
   port mapper (input; written to *raddr); RPC_ANYSOCK (-1) makes a socket
   the client closes; the call header (xid, CALL, version 2, program,
   version) is encoded at the start of the send buffer. */
CRACE_MODEL struct __crace_rpc_client *
__crace_rpc_client_create(struct __crace_rpc_sockaddr_in *raddr, unsigned long prog,
                          unsigned long vers, struct __crace_rpc_timeval wait,
                          int *sockp, unsigned sendsz, unsigned recvsz, int tcp) {
  if (raddr->sin_port == 0) {
    if (__crace_nondet_bits(1))
      return __crace_rpc_create_fail(__crace_nondet_bits(1) ? CRACE_RPC_PMAPFAILURE
                                                            : CRACE_RPC_PROGNOTREGISTERED);
    unsigned short port = (unsigned short)(1 + __crace_nondet_bits(16) % 65535);
    raddr->sin_port = (unsigned short)(port >> 8 | port << 8);
  }
  if (!tcp) {
    sendsz = (sendsz + 3) / 4 * 4;
    recvsz = (recvsz + 3) / 4 * 4;
  }
  if (sendsz < 20)
    return __crace_rpc_create_fail(CRACE_RPC_SYSTEMERROR);
  struct __crace_rpc_client *cl =
      (struct __crace_rpc_client *)calloc(1, sizeof(struct __crace_rpc_client));
  struct __crace_rpc_cu *cu = (struct __crace_rpc_cu *)calloc(
      1, sizeof(struct __crace_rpc_cu) + (crace_size_t)sendsz + recvsz);
  if (!cl || !cu) {
    free(cl);
    free(cu);
    return __crace_rpc_create_fail(CRACE_RPC_SYSTEMERROR);
  }
  int closeit = 0;
  if (*sockp < 0) {
    int s = socket(2, tcp ? 1 : 2, tcp ? 6 : 17);
    if (s < 0 || (tcp && __crace_nondet_bits(1))) { /* tcp: connect failed */
      if (s >= 0)
        close(s);
      free(cl);
      free(cu);
      return __crace_rpc_create_fail(CRACE_RPC_SYSTEMERROR);
    }
    *sockp = s;
    closeit = 1;
  }
  cu->cu_sock = *sockp;
  cu->cu_closeit = closeit;
  cu->cu_raddr = *raddr;
  cu->cu_rlen = sizeof(struct __crace_rpc_sockaddr_in);
  cu->cu_wait = wait;
  cu->cu_total.tv_sec = -1;
  cu->cu_total.tv_usec = -1;
  cu->cu_sendsz = sendsz;
  cu->cu_recvsz = recvsz;
  cu->cu_outbuf = &cu->cu_inbuf[recvsz];
  __crace_libc_input(cu->cu_outbuf, 4); /* xid */
  __crace_rpc_store_be(cu->cu_outbuf + 4, 0);
  __crace_rpc_store_be(cu->cu_outbuf + 8, 2);
  __crace_rpc_store_be(cu->cu_outbuf + 12, (unsigned)prog);
  __crace_rpc_store_be(cu->cu_outbuf + 16, (unsigned)vers);
  cu->cu_xdrpos = 20;
  cu->cu_outxdrs.x_handy = tcp ? 1 : 0; /* the model's mark of a TCP client */
  cl->cl_auth = authnone_create();
  cl->cl_ops = &__crace_rpc_clnt_ops;
  cl->cl_private = (char *)cu;
  return cl;
}
CRACE_MODEL struct __crace_rpc_client *
clntudp_bufcreate(struct __crace_rpc_sockaddr_in *raddr, unsigned long prog,
                  unsigned long vers, struct __crace_rpc_timeval wait, int *sockp,
                  unsigned sendsz, unsigned recvsz) {
  return __crace_rpc_client_create(raddr, prog, vers, wait, sockp, sendsz, recvsz, 0);
}
CRACE_MODEL struct __crace_rpc_client *
clntudp_create(struct __crace_rpc_sockaddr_in *raddr, unsigned long prog,
               unsigned long vers, struct __crace_rpc_timeval wait, int *sockp) {
  return __crace_rpc_client_create(raddr, prog, vers, wait, sockp, 8800, 8800, 0);
}
CRACE_MODEL struct __crace_rpc_client *
clnttcp_create(struct __crace_rpc_sockaddr_in *raddr, unsigned long prog,
               unsigned long vers, int *sockp, unsigned sendsz, unsigned recvsz) {
  struct __crace_rpc_timeval w = {0, 0};
  return __crace_rpc_client_create(raddr, prog, vers, w, sockp, 4000, 4000, 1);
}
/* clnt_create looks the host up (input) and the protocol up in the
   protocol database (input): UDP, TCP, or unknown. */
CRACE_MODEL struct __crace_rpc_client *clnt_create(const char *host, unsigned long prog,
                                                   unsigned long vers,
                                                   const char *proto) {
  __crace_libc_read_string(host);
  __crace_libc_read_string(proto);
  if (__crace_nondet_bits(1))
    return __crace_rpc_create_fail(13); /* RPC_UNKNOWNHOST */
  unsigned k = __crace_nondet_bits(2);
  if (k >= 2)
    return __crace_rpc_create_fail(CRACE_RPC_UNKNOWNPROTO);
  struct __crace_rpc_sockaddr_in a;
  __builtin_memset(&a, 0, sizeof a);
  a.sin_family = 2;
  a.sin_addr = (unsigned)__crace_nondet_int();
  int sock = -1;
  struct __crace_rpc_timeval w = {5, 0};
  if (k == 0)
    return clntudp_create(&a, prog, vers, w, &sock);
  return clnttcp_create(&a, prog, vers, &sock, 0, 0);
}
CRACE_MODEL unsigned short pmap_getport(struct __crace_rpc_sockaddr_in *addr,
                                        unsigned long prog, unsigned long vers,
                                        unsigned prot) {
  __crace_read(addr, sizeof *addr);
  if (__crace_nondet_bits(1)) {
    __crace_rpc_create_fail(__crace_nondet_bits(1) ? CRACE_RPC_PMAPFAILURE
                                                   : CRACE_RPC_PROGNOTREGISTERED);
    return 0;
  }
  return (unsigned short)(1 + __crace_nondet_bits(16) % 65535);
}

/* clnt_call (glibc's clntudp_call and clnttcp_call). The arguments are
   encoded after the call header, the procedure and the credential (the
   xdr routines run: an encoding that does not fit fails); the wait for
   the reply may end with a time-out or a receive error, or a reply comes:
   one that does not decode, an error reply (as _seterr_reply sets it;
   then the credential's refresh is asked, as glibc does), or an accepted
   one whose results xres decodes from input (its failure gives
   RPC_CANTDECODERES, with what it decoded so far in *resp). Datagrams
   that are not the reply may overwrite the start of the receive buffer
   (ypbind reads it). The UDP timeout is the CLSET_TIMEOUT one when set. */
CRACE_MODEL int __crace_rpc_clnt_call(struct __crace_rpc_client *cl, unsigned long proc,
                                      __crace_rpc_xdrproc xargs, char *argsp,
                                      __crace_rpc_xdrproc xres, char *resp,
                                      struct __crace_rpc_timeval timeout) {
  struct __crace_rpc_cu *cu = (struct __crace_rpc_cu *)cl->cl_private;
  struct __crace_rpc_err *e = &cu->cu_error;
  int tcp = cu->cu_outxdrs.x_handy == 1; /* see __crace_rpc_client_create */
  int nrefreshes = 2;
  struct __crace_rpc_stream s;
  if (!tcp && cu->cu_total.tv_usec != -1)
    timeout = cu->cu_total;
  int zero = timeout.tv_sec == 0 && timeout.tv_usec == 0;
call_again:
  if (tcp)
    e->re_status = CRACE_RPC_SUCCESS;
  if (xargs || tcp) {
    unsigned *xid = (unsigned *)cu->cu_outbuf;
    if (tcp)
      --*xid;
    else
      ++*xid;
    __crace_rpc_stream_init(&s, 0, cu->cu_xdrpos, cu->cu_sendsz - cu->cu_xdrpos, 0);
    s.record = tcp;
    long p = (long)proc;
    if (!s.x.x_ops->x_putlong(&s.x, &p) ||
        !cl->cl_auth->ah_ops->ah_marshal(cl->cl_auth, &s.x) || !xargs ||
        !xargs(&s.x, argsp)) {
      if (tcp && e->re_status != CRACE_RPC_SUCCESS)
        return e->re_status;
      return e->re_status = CRACE_RPC_CANTENCODEARGS;
    }
    if (__crace_nondet_bits(1)) {
      e->ru.re_errno = 1 + (int)__crace_nondet_bits(7);
      return e->re_status = CRACE_RPC_CANTSEND;
    }
    if (tcp && !xres && zero)
      return CRACE_RPC_SUCCESS; /* not shipped: message passing */
    if (zero)
      return e->re_status = CRACE_RPC_TIMEDOUT;
  }
  /* Waiting: datagrams that are not the reply (UDP), then the end.
     (Choices are single bits: explore tries each.) */
  char *in = tcp ? 0 : cu->cu_inbuf;
  if (in && __crace_nondet_bits(1))
    __crace_libc_input(in, 4);
  if (!__crace_nondet_bits(1)) {
    if (__crace_nondet_bits(1))
      return e->re_status = CRACE_RPC_TIMEDOUT;
    e->ru.re_errno = 1 + (int)__crace_nondet_bits(7);
    return e->re_status = CRACE_RPC_CANTRECV;
  }
  /* The reply: the call's xid (any without a call), REPLY, then its kind. */
  if (in) {
    if (xargs)
      __builtin_memcpy(in, cu->cu_outbuf, 4);
    else
      __crace_libc_input(in, 4);
    __crace_rpc_store_be(in + 4, 1);
  }
  if (!__crace_nondet_bits(1)) {
    if (!tcp && __crace_nondet_bits(1))
      return e->re_status = CRACE_RPC_CANTDECODERES; /* the header does not decode */
    __crace_rpc_reply_error(e);
    if (nrefreshes > 0 && cl->cl_auth->ah_ops->ah_refresh(cl->cl_auth)) {
      nrefreshes--;
      goto call_again;
    }
    return e->re_status;
  }
  /* Accepted, a null verifier, SUCCESS: the results. */
  struct __crace_rpc_opaque_auth verf = {0, 0, 0};
  if (in) {
    __crace_rpc_store_be(in + 8, 0);
    __crace_rpc_store_be(in + 12, 0);
    __crace_rpc_store_be(in + 16, 0);
    __crace_rpc_store_be(in + 20, 0);
  }
  __crace_rpc_stream_init(&s, 1, 24, tcp ? 0 : cu->cu_recvsz - 24, in);
  s.record = tcp;
  if (tcp && !cl->cl_auth->ah_ops->ah_validate(cl->cl_auth, &verf)) {
    e->ru.re_errno = 6; /* AUTH_INVALIDRESP */
    return e->re_status = 7;
  }
  if (!xres || !xres(&s.x, resp)) {
    if (!tcp)
      return e->re_status = CRACE_RPC_CANTDECODERES;
    /* the record ended, or reading it timed out or failed */
    static const int tcp_fail[4] = {2, 2, 5, 4};
    return e->re_status = tcp_fail[__crace_nondet_bits(2)];
  }
  if (!tcp && !cl->cl_auth->ah_ops->ah_validate(cl->cl_auth, &verf)) {
    e->ru.re_errno = 6; /* AUTH_INVALIDRESP */
    return e->re_status = 7;
  }
  return e->re_status = CRACE_RPC_SUCCESS;
}
/* clnt_broadcast (glibc): the arguments are encoded into a 1400-byte call
   to the port mapper's CALLIT (with an authunix credential), sent, and
   replies are taken until eachresult returns TRUE (RPC_SUCCESS) or the
   wait times out. Each reply that decodes as accepted runs xresults on its
   results (after the forwarded port and the results' length), eachresult
   if its xid is the call's, then xresults with an XDR_FREE stream. */
CRACE_MODEL int clnt_broadcast(unsigned long prog, unsigned long vers, unsigned long proc,
                               __crace_rpc_xdrproc xargs, char *argsp,
                               __crace_rpc_xdrproc xresults, char *resultsp,
                               int (*eachresult)(char *, struct __crace_rpc_sockaddr_in *)) {
  struct __crace_rpc_stream s;
  struct __crace_rpc_auth *a = authunix_create_default();
  int stat;
  if (!a)
    return __crace_unknown_int(); /* glibc marshals through a null handle */
  if (__crace_nondet_bits(1)) {
    stat = CRACE_RPC_CANTSEND; /* no socket, or no broadcast on it */
    goto done;
  }
  __crace_rpc_stream_init(&s, 0, 0, 1400, 0);
  long w = 0;
  unsigned long u[3] = {prog, vers, proc};
  if (!__crace_rpc_room(&s, 24) || !a->ah_ops->ah_marshal(a, &s.x) ||
      !xdr_u_long(&s.x, &u[0]) || !xdr_u_long(&s.x, &u[1]) || !xdr_u_long(&s.x, &u[2]) ||
      !s.x.x_ops->x_putlong(&s.x, &w) || !xargs(&s.x, argsp)) {
    stat = CRACE_RPC_CANTENCODEARGS;
    goto done;
  }
  if (__crace_nondet_bits(1)) {
    stat = CRACE_RPC_CANTSEND;
    goto done;
  }
  if (!eachresult) {
    stat = CRACE_RPC_SUCCESS;
    goto done;
  }
  for (;;) {
    if (!__crace_nondet_bits(1)) {
      if (__crace_nondet_bits(1))
        stat = CRACE_RPC_TIMEDOUT;
      else
        stat = __crace_nondet_bits(1) ? CRACE_RPC_CANTRECV : CRACE_RPC_CANTSEND;
      goto done;
    }
    /* A reply: accepted with SUCCESS, or not (no results). (The bits'
       first value, 0, is the way out of the loop: explore tries it first.) */
    int done_ = 0;
    if (!__crace_nondet_bits(1)) {
      unsigned long port, len;
      __crace_rpc_stream_init(&s, 1, 24, 8800 - 24, 0);
      if (xdr_u_long(&s.x, &port) && xdr_u_long(&s.x, &len) && xresults(&s.x, resultsp) &&
          !__crace_nondet_bits(1) /* the xid is the call's */) {
        struct __crace_rpc_sockaddr_in raddr;
        raddr.sin_family = 2;
        raddr.sin_port = (unsigned short)((port & 0xff) << 8 | (port >> 8 & 0xff));
        raddr.sin_addr = (unsigned)__crace_nondet_int();
        __builtin_memset(raddr.sin_zero, 0, sizeof raddr.sin_zero);
        done_ = eachresult(resultsp, &raddr);
      }
    }
    __crace_rpc_stream_init(&s, 2, 0, 0, 0);
    xresults(&s.x, resultsp);
    if (done_) {
      stat = CRACE_RPC_SUCCESS;
      goto done;
    }
  }
done:
  a->ah_ops->ah_destroy(a);
  return stat;
}

/* clnt_sperrno: glibc's messages (constant strings). */
static const char *const __crace_rpc_errstr[18] = {
    "RPC: Success",
    "RPC: Can't encode arguments",
    "RPC: Can't decode result",
    "RPC: Unable to send",
    "RPC: Unable to receive",
    "RPC: Timed out",
    "RPC: Incompatible versions of RPC",
    "RPC: Authentication error",
    "RPC: Program unavailable",
    "RPC: Program/version mismatch",
    "RPC: Procedure unavailable",
    "RPC: Server can't decode arguments",
    "RPC: Remote system error",
    "RPC: Unknown host",
    "RPC: Port mapper failure",
    "RPC: Program not registered",
    "RPC: Failed (unspecified error)",
    "RPC: Unknown protocol"};
CRACE_MODEL char *clnt_sperrno(int stat) {
  if (stat >= 0 && stat < 18)
    return (char *)__crace_rpc_errstr[stat];
  return (char *)"RPC: (unknown error code)";
}
int fputs(const char *, void *);
CRACE_MODEL void clnt_perrno(int stat) { fputs(clnt_sperrno(stat), stderr); }
