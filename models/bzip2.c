/* bzip2 1.0.x utility functions (bzlib.h): BZ2_bzBuffToBuffCompress and
   BZ2_bzBuffToBuffDecompress, which (de)compress one buffer into another in
   a single call.

   Both read source's sourceLen bytes and the capacity *destLen, write the
   output into dest (at most the capacity) and its length into *destLen.
   The parameter checks are exact (BZ_PARAM_ERROR, -2, before anything is
   read: dest, destLen or source null; blockSize100k outside 1..9,
   verbosity outside 0..4, workFactor outside 0..250; small not 0 or 1).
   Past them, the output bytes, their length and the result (BZ_OK 0,
   BZ_MEM_ERROR -3, BZ_OUTBUFF_FULL -8, and for decompression
   BZ_DATA_ERROR -4, BZ_DATA_ERROR_MAGIC -5, BZ_UNEXPECTED_EOF -7) are a
   function of the input the model does not compute: __crace_unknown_*
   (the explore engine stops there; the static engines see dest written
   up to its capacity). A verbosity above 0 prints to stderr, which is the
   library's. */
#include "crace_intrinsics.h"

#define CRACE_BZ_PARAM_ERROR (-2)

CRACE_MODEL int __crace_bz2_code(char *dest, unsigned *destLen, char *source,
                                 unsigned sourceLen) {
  unsigned cap = *destLen;
  if (sourceLen)
    __crace_read(source, sourceLen);
  int r = __crace_unknown_int();
  unsigned n = (unsigned)__crace_unknown_int();
  if (n > cap)
    n = cap;
  if (cap)
    __crace_write(dest, cap);
  __crace_libc_unknown(dest, n);
  *destLen = n;
  return r;
}
CRACE_MODEL int BZ2_bzBuffToBuffCompress(char *dest, unsigned *destLen,
                                         char *source, unsigned sourceLen,
                                         int blockSize100k, int verbosity,
                                         int workFactor) {
  if (!dest || !destLen || !source || blockSize100k < 1 || blockSize100k > 9 ||
      verbosity < 0 || verbosity > 4 || workFactor < 0 || workFactor > 250)
    return CRACE_BZ_PARAM_ERROR;
  return __crace_bz2_code(dest, destLen, source, sourceLen);
}
CRACE_MODEL int BZ2_bzBuffToBuffDecompress(char *dest, unsigned *destLen,
                                           char *source, unsigned sourceLen,
                                           int small, int verbosity) {
  if (!dest || !destLen || !source || (small != 0 && small != 1) ||
      verbosity < 0 || verbosity > 4)
    return CRACE_BZ_PARAM_ERROR;
  return __crace_bz2_code(dest, destLen, source, sourceLen);
}
