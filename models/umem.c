/* libumem (Solaris's user-space slab allocator, umem.h), as zfs-fuse uses
   it.

   umem_alloc(size, flags) returns fresh memory of size bytes (umem_zalloc:
   zeroed), or NULL for size 0 and, unless flags has UMEM_NOFAIL (0x100),
   when memory runs out. umem_free(buf, size) frees it.

   umem_cache_create(name, bufsize, align, constructor, destructor,
   reclaim, private, vmp, cflags) returns a cache (NULL on failure: a bad
   alignment or no memory). umem_cache_alloc(cache, flags) returns either
   an object freed earlier to the cache, still constructed (its contents
   are what they were when it was freed), or a fresh object of bufsize
   bytes on which the constructor, when there is one, runs in the calling
   thread as constructor(buf, private, flags); a constructor that fails
   (non-zero) makes the allocation return NULL, or try again with
   UMEM_NOFAIL. umem_cache_free(cache, buf) puts the object back in the
   cache: it stays there constructed, or libumem destroys it later (when a
   magazine is full, when the update thread reaps the cache under memory
   pressure); the model runs destructor(buf, private) and frees the object
   in a thread of its own started at the free (the reaping thread may run
   it at any later time; the model's may even run after
   umem_cache_destroy, which over-approximates), or leaves it cached.
   umem_cache_destroy runs the destructor on every object still cached, in the
   calling thread, and frees the cache. A reclaim callback, which libumem's
   update thread calls when memory is short, runs as reclaim(private) any number
   of times in a thread started at umem_cache_create. The cache's own lists are
   guarded by a model lock (libumem locks them). */
#include "crace_intrinsics.h"

#define CRACE_UMEM_NOFAIL 0x0100

typedef int (*__crace_umem_ctor)(void *, void *, int);
typedef void (*__crace_umem_dtor)(void *, void *);
typedef void (*__crace_umem_reclaim)(void *);

struct __crace_umem_obj {
  void *buf;
  struct __crace_umem_obj *next;
};
struct __crace_umem_cache {
  crace_size_t size;
  __crace_umem_ctor ctor;
  __crace_umem_dtor dtor;
  __crace_umem_reclaim reclaim;
  void *priv;
  struct __crace_umem_obj *cached;
};
static char __crace_umem_lock;

/* What a cache without a constructor, destructor or reclaim callback does
   (stored in place of NULL, so that every call below has a target the
   analysis knows). */
CRACE_MODEL int __crace_umem_no_ctor(void *buf, void *priv, int flags) {
  return 0;
}
CRACE_MODEL void __crace_umem_no_dtor(void *buf, void *priv) {}
CRACE_MODEL void __crace_umem_no_reclaim(void *priv) {}

CRACE_MODEL void *umem_alloc(crace_size_t size, int flags) {
  if (size == 0)
    return 0;
  if (!(flags & CRACE_UMEM_NOFAIL) && __crace_nondet_bits(1))
    return 0;
  return __crace_alloc(size);
}
CRACE_MODEL void *umem_zalloc(crace_size_t size, int flags) {
  unsigned char *p = umem_alloc(size, flags);
  if (p)
    for (crace_size_t i = 0; i < size; i++)
      p[i] = 0;
  return p;
}
CRACE_MODEL void umem_free(void *buf, crace_size_t size) {
  if (buf && size)
    __crace_free(buf);
}

/* The thread that runs a reclaim callback. */
CRACE_MODEL void *__crace_umem_reclaimer(void *c) {
  struct __crace_umem_cache *cp = c;
  while (__crace_nondet_bits(1))
    cp->reclaim(cp->priv);
  return 0;
}
CRACE_MODEL void *umem_cache_create(char *name, crace_size_t bufsize,
                                    crace_size_t align, __crace_umem_ctor ctor,
                                    __crace_umem_dtor dtor,
                                    __crace_umem_reclaim reclaim, void *priv,
                                    void *vmp, int cflags) {
  __crace_libc_read_string(name);
  if ((align & (align - 1)) != 0 || __crace_nondet_bits(1))
    return 0;
  struct __crace_umem_cache *cp = __crace_alloc(sizeof *cp);
  cp->size = bufsize;
  cp->ctor = ctor ? ctor : __crace_umem_no_ctor;
  cp->dtor = dtor ? dtor : __crace_umem_no_dtor;
  cp->reclaim = reclaim ? reclaim : __crace_umem_no_reclaim;
  cp->priv = priv;
  cp->cached = 0;
  if (reclaim) {
    unsigned long h;
    __crace_thread_create(&h, __crace_umem_reclaimer, cp);
  }
  return cp;
}
CRACE_MODEL void *umem_cache_alloc(void *c, int flags) {
  struct __crace_umem_cache *cp = c;
  __crace_lock(&__crace_umem_lock);
  struct __crace_umem_obj *o = cp->cached;
  if (o && __crace_nondet_bits(1)) {
    cp->cached = o->next;
    __crace_unlock(&__crace_umem_lock);
    void *buf = o->buf;
    __crace_free(o);
    return buf;
  }
  __crace_unlock(&__crace_umem_lock);
  for (;;) {
    if (!(flags & CRACE_UMEM_NOFAIL) && __crace_nondet_bits(1))
      return 0;
    void *buf = __crace_alloc(cp->size);
    if (cp->ctor(buf, cp->priv, flags) == 0)
      return buf;
    __crace_free(buf);
  }
}
struct __crace_umem_dead {
  __crace_umem_dtor dtor;
  void *priv;
  void *buf;
};
/* The thread that destroys a freed object (libumem's magazine or reaping
   layer, at some time after the free). */
CRACE_MODEL void *__crace_umem_destroyer(void *d) {
  struct __crace_umem_dead *x = d;
  x->dtor(x->buf, x->priv);
  __crace_free(x->buf);
  __crace_free(x);
  return 0;
}
CRACE_MODEL void umem_cache_free(void *c, void *buf) {
  struct __crace_umem_cache *cp = c;
  int has_dtor = cp->dtor != __crace_umem_no_dtor;
  if (has_dtor && __crace_nondet_bits(1)) {
    struct __crace_umem_dead *x = __crace_alloc(sizeof *x);
    x->dtor = cp->dtor;
    x->priv = cp->priv;
    x->buf = buf;
    unsigned long h;
    __crace_thread_create(&h, __crace_umem_destroyer, x);
    return;
  }
  if (!has_dtor && __crace_nondet_bits(1)) {
    __crace_free(buf);
    return;
  }
  struct __crace_umem_obj *o = __crace_alloc(sizeof *o);
  o->buf = buf;
  __crace_lock(&__crace_umem_lock);
  o->next = cp->cached;
  cp->cached = o;
  __crace_unlock(&__crace_umem_lock);
}
CRACE_MODEL void umem_cache_destroy(void *c) {
  struct __crace_umem_cache *cp = c;
  __crace_lock(&__crace_umem_lock);
  struct __crace_umem_obj *o = cp->cached;
  cp->cached = 0;
  __crace_unlock(&__crace_umem_lock);
  while (o) {
    struct __crace_umem_obj *next = o->next;
    cp->dtor(o->buf, cp->priv);
    __crace_free(o->buf);
    __crace_free(o);
    o = next;
  }
  __crace_free(cp);
}
