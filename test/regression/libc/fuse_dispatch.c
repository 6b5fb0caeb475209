// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s -- -DRACY
// FUSE 2.x low-level API (models/fuse.c): fuse_session_process dispatches
// the request the kernel wrote into the buffer to the program's
// struct fuse_lowlevel_ops_compat25 callback, in the calling thread, with
// the userdata given to fuse_lowlevel_new_compat25 (fuse_req_userdata), a
// write's data pointing into the buffer. The worker is the file system's
// request loop; its write callback counts bytes in the mount's state under
// the lock main also takes: race-free. Before the model,
// the callbacks were never called (unknown external functions). With
// RACY the callback also writes 'last_ino', which main reads: explore
// runs INIT, then a write request, and confirms it.
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
/* The part of <fuse_lowlevel.h> (FUSE 2.x, 2.5 compatibility) the program
   uses. */
struct fuse_args {
  int argc;
  char **argv;
  int allocated;
};
struct fuse_file_info {
  int flags;
  unsigned long fh_old;
  int writepage;
  unsigned int direct_io : 1;
  unsigned int keep_cache : 1;
  unsigned int flush : 1;
  unsigned int padding : 29;
  unsigned long long fh;
  unsigned long long lock_owner;
};
typedef struct fuse_req *fuse_req_t;
typedef unsigned long fuse_ino_t;
struct fuse_session;
struct fuse_chan;
struct fuse_lowlevel_ops_compat25 {
  void (*init)(void *);
  void (*destroy)(void *);
  void (*lookup)(fuse_req_t, fuse_ino_t, const char *);
  void (*forget)(fuse_req_t, fuse_ino_t, unsigned long);
  void (*getattr)(fuse_req_t, fuse_ino_t, struct fuse_file_info *);
  void (*setattr)(fuse_req_t, fuse_ino_t, void *, int, struct fuse_file_info *);
  void (*readlink)(fuse_req_t, fuse_ino_t);
  void (*mknod)(fuse_req_t, fuse_ino_t, const char *, unsigned,
                unsigned long long);
  void (*mkdir)(fuse_req_t, fuse_ino_t, const char *, unsigned);
  void (*unlink)(fuse_req_t, fuse_ino_t, const char *);
  void (*rmdir)(fuse_req_t, fuse_ino_t, const char *);
  void (*symlink)(fuse_req_t, const char *, fuse_ino_t, const char *);
  void (*rename)(fuse_req_t, fuse_ino_t, const char *, fuse_ino_t,
                 const char *);
  void (*link)(fuse_req_t, fuse_ino_t, fuse_ino_t, const char *);
  void (*open)(fuse_req_t, fuse_ino_t, struct fuse_file_info *);
  void (*read)(fuse_req_t, fuse_ino_t, size_t, long long,
               struct fuse_file_info *);
  void (*write)(fuse_req_t, fuse_ino_t, const char *, size_t, long long,
                struct fuse_file_info *);
  void *rest[14]; /* flush ... create: not used */
};
int fuse_mount_compat25(const char *, struct fuse_args *);
struct fuse_session *
fuse_lowlevel_new_compat25(struct fuse_args *,
                           const struct fuse_lowlevel_ops_compat25 *, size_t,
                           void *);
struct fuse_chan *fuse_kern_chan_new(int);
void fuse_session_add_chan(struct fuse_session *, struct fuse_chan *);
size_t fuse_chan_bufsize(struct fuse_chan *);
int fuse_chan_receive(struct fuse_chan *, char *, size_t);
int fuse_session_exited(struct fuse_session *);
void fuse_session_process(struct fuse_session *, const char *, size_t,
                          struct fuse_chan *);
void *fuse_req_userdata(fuse_req_t);
int fuse_reply_write(fuse_req_t, size_t);
int fuse_opt_add_arg(struct fuse_args *, const char *);
void fuse_opt_free_args(struct fuse_args *);

struct mount {
  unsigned long long written;
  char first;
};
struct mount the_mount;
pthread_mutex_t mount_lock = PTHREAD_MUTEX_INITIALIZER;
fuse_ino_t last_ino;

static void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
                     size_t size, long long off, struct fuse_file_info *fi) {
  struct mount *m = fuse_req_userdata(req);
  pthread_mutex_lock(&mount_lock);
  m->written += size;
  if (size)
    m->first = buf[0];
  pthread_mutex_unlock(&mount_lock);
#ifdef RACY
  last_ino = ino; // expected-race(explore)
#endif
  fuse_reply_write(req, size);
}
static const struct fuse_lowlevel_ops_compat25 ops = {.write = fs_write};

static void *loop(void *arg) {
  struct fuse_chan *ch = arg;
  struct fuse_session *se = 0;
  /* Requests of at most 256 bytes (fuse_chan_bufsize's 132 KiB would make
     explore's runs long). */
  size_t size = fuse_chan_bufsize(ch) < 256 ? fuse_chan_bufsize(ch) : 256;
  char *buf = malloc(size);
  for (int i = 0; i < 2 && buf; i++) {
    int n = fuse_chan_receive(ch, buf, size);
    if (n <= 0)
      break;
    extern struct fuse_session *session;
    fuse_session_process(session, buf, (size_t)n, ch);
  }
  free(buf);
  return 0;
}
struct fuse_session *session;

int main(void) {
  struct fuse_args args = {0, 0, 0};
  if (fuse_opt_add_arg(&args, "zfs") == -1)
    return 1;
  int fd = fuse_mount_compat25("/mnt", &args);
  if (fd == -1)
    return 1;
  session = fuse_lowlevel_new_compat25(&args, &ops, sizeof ops, &the_mount);
  fuse_opt_free_args(&args);
  struct fuse_chan *ch = session ? fuse_kern_chan_new(fd) : 0;
  if (!ch)
    return 1;
  fuse_session_add_chan(session, ch);
  pthread_t t;
  pthread_create(&t, 0, loop, ch);
  pthread_mutex_lock(&mount_lock);
  unsigned long long w = the_mount.written;
  pthread_mutex_unlock(&mount_lock);
#ifdef RACY
  w += last_ino; // expected-race(explore)
#endif
  pthread_join(t, 0);
  return (int)w;
}
