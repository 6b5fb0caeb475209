/* zlib 1.2.x (zlib.h): the utility functions compress2, compress and
   uncompress, which (de)compress one buffer into another in a single call,
   and the deflate stream (deflateInit2_, deflate, deflateEnd).

   compress2(dest, destLen, source, sourceLen, level) reads source's
   sourceLen bytes and the capacity *destLen, writes the compressed data
   into dest (at most the capacity) and its length into *destLen.
   uncompress(dest, destLen, source, sourceLen) does the same in reverse.
   They return Z_OK (0), Z_MEM_ERROR (-4), Z_BUF_ERROR (-5: dest too
   small), Z_STREAM_ERROR (-2: compress2 with a bad level) or Z_DATA_ERROR
   (-3: uncompress of corrupt input). What they write, and whether the
   output fits, is a function of the input bytes that the model does not
   compute (it does not implement deflate): the output bytes, the new
   length and the result are __crace_unknown_* (the explore engine stops
   there; the static engines see dest written up to its capacity, which
   over-approximates a shorter output). The bad level, checked before any
   work, is exact. The library's own memory (deflate state, freed before
   returning) is never visible to the program.

   deflateInit2_(strm, level, method, windowBits, memLevel, strategy,
   version, stream_size) checks its arguments exactly (Z_VERSION_ERROR -6
   for another major version or struct size, Z_STREAM_ERROR for a bad
   parameter), fills in the stream's fields as zlib does (zalloc/zfree,
   when null, become zlib's calloc/free-based defaults; msg, totals,
   data_type, adler) and allocates the state: the program's allocator,
   when it gives one, is called as zlib calls it (the state, window, prev,
   head and pending buffers; the state's size is not computed, where
   explore stops), and deflateEnd gives them back through zfree in zlib's
   order; with the defaults the state is the model's own. deflate
   (strm, flush) reads the stream and its avail_in input bytes and writes
   up to avail_out bytes at next_out; its argument checks are exact
   (Z_STREAM_ERROR, Z_BUF_ERROR with no room), and past them how much it
   consumes and produces, the bytes and the result are not computed
   (__crace_unknown_*: explore stops there). deflateEnd returns Z_OK, or
   (not computed) Z_DATA_ERROR when a deflate call left data pending. */
#include "crace_intrinsics.h"

#define CRACE_Z_OK 0
#define CRACE_Z_STREAM_ERROR (-2)

/* dest gets output whose bytes and length (at most the capacity in *len)
   the model does not compute; returns the zlib result, not computed
   either. */
CRACE_MODEL int __crace_zlib_code(unsigned char *dest, unsigned long *len,
                                  const unsigned char *source,
                                  unsigned long sourceLen) {
  unsigned long cap = *len;
  if (sourceLen)
    __crace_read(source, sourceLen);
  int r = __crace_unknown_int();
  unsigned long n = (unsigned long)__crace_unknown_longlong();
  if (n > cap)
    n = cap;
  if (cap)
    __crace_write(dest, cap);
  __crace_libc_unknown(dest, n);
  *len = n;
  return r;
}
CRACE_MODEL int compress2(unsigned char *dest, unsigned long *destLen,
                          const unsigned char *source, unsigned long sourceLen,
                          int level) {
  if (level != -1 && (level < 0 || level > 9))
    return CRACE_Z_STREAM_ERROR; /* deflateInit rejects it, nothing written */
  return __crace_zlib_code(dest, destLen, source, sourceLen);
}
CRACE_MODEL int compress(unsigned char *dest, unsigned long *destLen,
                         const unsigned char *source, unsigned long sourceLen) {
  return compress2(dest, destLen, source, sourceLen, -1);
}
CRACE_MODEL int uncompress(unsigned char *dest, unsigned long *destLen,
                           const unsigned char *source,
                           unsigned long sourceLen) {
  return __crace_zlib_code(dest, destLen, source, sourceLen);
}

typedef void *(*__crace_z_alloc)(void *, unsigned, unsigned);
typedef void (*__crace_z_free)(void *, void *);
struct __crace_z_stream {
  unsigned char *next_in;
  unsigned avail_in;
  unsigned long total_in;
  unsigned char *next_out;
  unsigned avail_out;
  unsigned long total_out;
  char *msg;
  void *state;
  __crace_z_alloc zalloc;
  __crace_z_free zfree;
  void *opaque;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
};
/* The model's record of a deflate stream: what zalloc gave, and whether a
   deflate call ran. */
struct __crace_z_state {
  void *bufs[5];
  int used;
};
/* zlib's default allocator and deallocator (zutil.c: calloc and free). */
CRACE_MODEL void *__crace_zcalloc(void *opaque, unsigned items, unsigned size) {
  return calloc(items, size);
}
CRACE_MODEL void __crace_zcfree(void *opaque, void *p) { free(p); }

CRACE_MODEL int deflateInit2_(struct __crace_z_stream *strm, int level,
                              int method, int windowBits, int memLevel,
                              int strategy, const char *version,
                              int stream_size) {
  if (!version || version[0] != '1' ||
      stream_size != (int)sizeof(struct __crace_z_stream))
    return -6; /* Z_VERSION_ERROR */
  if (!strm)
    return CRACE_Z_STREAM_ERROR;
  strm->msg = 0;
  if (!strm->zalloc) {
    strm->zalloc = __crace_zcalloc;
    strm->opaque = 0;
  }
  if (!strm->zfree)
    strm->zfree = __crace_zcfree;
  if (level == -1)
    level = 6;
  int wrap = 1;
  if (windowBits < 0) {
    wrap = 0;
    windowBits = -windowBits;
  } else if (windowBits > 15) {
    wrap = 2;
    windowBits -= 16;
  }
  if (memLevel < 1 || memLevel > 9 || method != 8 || windowBits < 8 ||
      windowBits > 15 || level < 0 || level > 9 || strategy < 0 || strategy > 4)
    return CRACE_Z_STREAM_ERROR;
  if (windowBits == 8)
    windowBits = 9;
  struct __crace_z_state *st = __crace_alloc(sizeof *st);
  st->used = 0;
  for (int i = 0; i < 5; i++)
    st->bufs[i] = 0;
  if (strm->zalloc != __crace_zcalloc) {
    /* The program's allocator, called as deflateInit2_ calls it. */
    unsigned wsize = 1u << windowBits;
    unsigned items[5] = {1, wsize, wsize, 1u << (memLevel + 7),
                         1u << (memLevel + 6)};
    for (int i = 0; i < 5; i++) {
      unsigned size = i == 0 ? (unsigned)__crace_unknown_int() : i == 4 ? 4 : 2;
      st->bufs[i] = strm->zalloc(strm->opaque, items[i], size);
      if (!st->bufs[i]) { /* deflateEnd, then Z_MEM_ERROR */
        while (i-- > 0)
          strm->zfree(strm->opaque, st->bufs[i]);
        __crace_free(st);
        strm->msg = "insufficient memory";
        return -4;
      }
    }
  }
  strm->state = st;
  strm->total_in = strm->total_out = 0;
  strm->data_type = 2;             /* Z_UNKNOWN */
  strm->adler = wrap == 2 ? 0 : 1; /* crc32's or adler32's start */
  return CRACE_Z_OK;
}
CRACE_MODEL int deflate(struct __crace_z_stream *strm, int flush) {
  if (!strm || !strm->state || flush > 4 || flush < 0)
    return CRACE_Z_STREAM_ERROR;
  struct __crace_z_state *st = strm->state;
  if (!strm->next_out || (!strm->next_in && strm->avail_in != 0)) {
    strm->msg = "stream error";
    return CRACE_Z_STREAM_ERROR;
  }
  if (strm->avail_out == 0) {
    strm->msg = "buffer error";
    return -5; /* Z_BUF_ERROR */
  }
  st->used = 1;
  unsigned in = strm->avail_in, out = strm->avail_out;
  if (in)
    __crace_read(strm->next_in, in);
  int r = __crace_unknown_int();
  unsigned took = (unsigned)__crace_unknown_int() % (in + 1);
  unsigned made = (unsigned)__crace_unknown_int() % (out + 1);
  __crace_write(strm->next_out, out);
  __crace_libc_unknown(strm->next_out, made);
  strm->next_in += took;
  strm->avail_in -= took;
  strm->total_in += took;
  strm->next_out += made;
  strm->avail_out -= made;
  strm->total_out += made;
  strm->adler = (unsigned long)__crace_unknown_longlong();
  strm->data_type = __crace_unknown_int();
  return r;
}
CRACE_MODEL int deflateEnd(struct __crace_z_stream *strm) {
  if (!strm || !strm->state)
    return CRACE_Z_STREAM_ERROR;
  struct __crace_z_state *st = strm->state;
  int r = st->used ? __crace_unknown_int() : CRACE_Z_OK;
  if (st->bufs[0]) /* pending, head, prev, window, state */
    for (int i = 4; i >= 0; i--)
      strm->zfree(strm->opaque, st->bufs[i]);
  __crace_free(st);
  strm->state = 0;
  return r;
}
