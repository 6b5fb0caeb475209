/* SV-COMP model: nondeterministic values, assumptions, errors and atomic
   sections. Functions whose name starts with __VERIFIER_atomic_ are made
   atomic sections by the front end (src/frontend/Frontend.cpp). */
#include "crace_intrinsics.h"

CRACE_MODEL int __VERIFIER_nondet_int(void) { return __crace_nondet_int(); }
CRACE_MODEL unsigned __VERIFIER_nondet_uint(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL long __VERIFIER_nondet_long(void) { return (long)__crace_nondet_longlong(); }
CRACE_MODEL unsigned long __VERIFIER_nondet_ulong(void) {
  return (unsigned long)__crace_nondet_longlong();
}
CRACE_MODEL long long __VERIFIER_nondet_longlong(void) { return __crace_nondet_longlong(); }
CRACE_MODEL unsigned long long __VERIFIER_nondet_ulonglong(void) {
  return (unsigned long long)__crace_nondet_longlong();
}
CRACE_MODEL short __VERIFIER_nondet_short(void) { return (short)__crace_nondet_bits(16); }
CRACE_MODEL unsigned short __VERIFIER_nondet_ushort(void) {
  return (unsigned short)__crace_nondet_bits(16);
}
CRACE_MODEL char __VERIFIER_nondet_char(void) { return (char)__crace_nondet_bits(8); }
CRACE_MODEL unsigned char __VERIFIER_nondet_uchar(void) {
  return (unsigned char)__crace_nondet_bits(8);
}
CRACE_MODEL _Bool __VERIFIER_nondet_bool(void) { return __crace_nondet_bits(1); }
CRACE_MODEL unsigned int __VERIFIER_nondet_size_t(void) { return (unsigned)__crace_nondet_int(); }
CRACE_MODEL void *__VERIFIER_nondet_pointer(void) { return __crace_nondet_ptr(); }

CRACE_MODEL void __VERIFIER_assume(int c) { __crace_assume(c); }
CRACE_MODEL void __VERIFIER_error(void) { __crace_error(); }
CRACE_MODEL void reach_error(void) { __crace_error(); }
CRACE_MODEL void __VERIFIER_atomic_begin(void) { __crace_atomic_begin(); }
CRACE_MODEL void __VERIFIER_atomic_end(void) { __crace_atomic_end(); }

CRACE_MODEL void abort(void) { __crace_exit(134); }
/* exit runs the exit handlers and destructors (__crace_run_exit, which the
   front end generates: src/frontend/ProgramStart.cpp) in the calling
   thread; the other threads keep running until the process ends. */
CRACE_MODEL void exit(int code) {
  __crace_run_exit(code);
  __crace_exit(code);
}
CRACE_MODEL void quick_exit(int code) { __crace_exit(code); }
CRACE_MODEL void _Exit(int code) { __crace_exit(code); }
CRACE_MODEL void _exit(int code) { __crace_exit(code); }
CRACE_MODEL void __assert_fail(const char *a, const char *f, unsigned l,
                               const char *fn) {
  __crace_assert(0, a);
  __crace_exit(134);
}
/* assert called as a function: glibc has none (<assert.h> makes it a macro
   that calls __assert_fail); programs written for Goblint's benchmarks call
   it without the header, meaning the macro's check. A program's own
   definition replaces this one (models are weak). */
CRACE_MODEL void assert(int ok) {
  if (!ok)
    __assert_fail("assert", "", 0, "");
}
CRACE_MODEL void __assert_perror_fail(int e, const char *f, unsigned l,
                                      const char *fn) {
  __crace_assert(0, f);
  __crace_exit(134);
}
CRACE_MODEL void __assert(const char *a, const char *f, int l) {
  __crace_assert(0, a);
  __crace_exit(134);
}
