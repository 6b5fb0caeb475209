/* Blowfish in the SSLeay/OpenSSL BF_* interface (blowfish.h, as bundled
   with zebedee as blowfish-0.9.5a, and OpenSSL's <openssl/blowfish.h>).

   BF_KEY is { BF_LONG P[18]; BF_LONG S[1024]; } with a 32-bit BF_LONG:
   4168 bytes on every target. BF_set_key(key, len, data) reads the first
   len bytes of data (at most 72, the longest key Blowfish uses; SSLeay
   reads data[0] even when len is 0) and writes the whole schedule.
   BF_cfb64_encrypt(in, out, length, schedule, ivec, num, enc) reads
   length bytes of in, the schedule, the 8-byte ivec and *num, writes
   length bytes of out, the ivec (the feedback register it updates in
   place) and *num, which becomes (*num + length) mod 8 exactly. The bytes
   themselves (schedule, ciphertext, feedback) are a function of the key
   and data the model does not compute (it does not carry Blowfish's
   P-array and S-boxes): __crace_unknown_*, where the explore engine stops,
   after the reads. */
#include "crace_intrinsics.h"

#define CRACE_BF_KEY_SIZE (18 * 4 + 1024 * 4)
#define CRACE_BF_MAXKEYLEN 72

CRACE_MODEL void BF_set_key(void *key, int len, const unsigned char *data) {
  int n = len > CRACE_BF_MAXKEYLEN ? CRACE_BF_MAXKEYLEN : len;
  __crace_read(data, n > 0 ? (crace_size_t)n : 1);
  __crace_write(key, CRACE_BF_KEY_SIZE);
  __crace_libc_unknown(key, CRACE_BF_KEY_SIZE);
}
CRACE_MODEL void BF_cfb64_encrypt(const unsigned char *in, unsigned char *out,
                                  long length, const void *schedule,
                                  unsigned char *ivec, int *num, int enc) {
  int n = *num;
  __crace_read(schedule, CRACE_BF_KEY_SIZE);
  __crace_read(ivec, 8);
  if (length <= 0) {
    *num = n;
    return;
  }
  __crace_read(in, (crace_size_t)length);
  __crace_write(out, (crace_size_t)length);
  __crace_write(ivec, 8);
  __crace_libc_unknown(out, (crace_size_t)length);
  __crace_libc_unknown(ivec, 8);
  *num = (int)(((long)n + length) & 7);
}
