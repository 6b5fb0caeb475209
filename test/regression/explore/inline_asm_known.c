// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify --engine=lockset %s
// GCC's i386 glibc headers (kept by the CIL-combined programs) expand
// htonl/ntohs, FD_ZERO/FD_SET/FD_ISSET and a cycle counter into inline
// assembly; the front end rewrites those exact statements as IR
// (AsmLowering.h), so no engine stops there and explore computes through
// them. Before: unknown, "inline assembly".
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
typedef struct { int bits[32]; } fdset;
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  unsigned x = 0x11223344, v;
  __asm__("bswap %0" : "=r"(v) : "0"(x));
  unsigned short s = 0x1122, w;
  __asm__("rorw $8, %w0" : "=r"(w) : "0"(s) : "cc");
  unsigned long long tsc;
  __asm__ volatile("rdtsc" : "=A"(tsc));
  fdset set;
  long d0, d1;
  __asm__ volatile("cld; rep; stosl"
                   : "=c"(d0), "=D"(d1)
                   : "a"(0), "0"(sizeof(fdset) / sizeof(int)), "1"(&set.bits[0])
                   : "memory");
  int fd = 37;
  __asm__ volatile("btsl %1,%0" : "=m"(set.bits[fd / 32]) : "r"(fd % 32) : "cc", "memory");
  char in37, in36;
  __asm__ volatile("btl %1,%2 ; setcb %b0" : "=q"(in37) : "r"(fd % 32), "m"(set.bits[fd / 32]) : "cc");
  __asm__ volatile("btl %1,%2 ; setcb %b0" : "=q"(in36) : "r"(36 % 32), "m"(set.bits[36 / 32]) : "cc");
  __asm__ volatile("btrl %1,%0" : "=m"(set.bits[fd / 32]) : "r"(fd % 32) : "cc", "memory");
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (v == 0x44332211 && w == 0x2211 && in37 && !in36 && set.bits[1] == 0 &&
      set.bits[31] == 0 && (void *)d1 == (void *)&set.bits[32] && d0 == 0)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return (int)(tsc & 1);
}
