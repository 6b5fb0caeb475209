/* svcomp_rt.c - a tiny run-time for executing SV-COMP tasks natively, used by
 * bench/tsan_baseline.py to run the tasks under ThreadSanitizer, Helgrind and
 * DRD.  It is linked as a separate translation unit next to the task's .i
 * file, so its prototypes never clash with the task's own declarations.
 *
 * Every definition but abort() and __assert_fail() is weak: a task that
 * defines one of these functions itself (many define reach_error,
 * __VERIFIER_assert or __VERIFIER_nondet_int) keeps its own definition and
 * the link still succeeds.  abort() and __assert_fail() are strong because the
 * ThreadSanitizer runtime, linked first, has a weak abort() interceptor that
 * would win over a weak definition here (no task defines either).
 *
 *  - __VERIFIER_nondet_*: pseudo-random values from a generator seeded by the
 *    environment variable SVCOMP_SEED (one seed per run).  Three draws in four
 *    are small (0..15) so that nondeterministic loop bounds, thread counts and
 *    array sizes stay executable; the rest are uniform over the type.
 *  - __VERIFIER_atomic_begin/end: one global recursive pthread mutex (TSan and
 *    the Valgrind tools understand it, so atomic sections synchronise).  The
 *    baseline script also wraps the bodies of functions named
 *    __VERIFIER_atomic_* in __svrt_atomic_enter()/__svrt_atomic_leave().
 *  - __VERIFIER_assume(c) and abort(): a path that violates an assumption (the
 *    tasks' assume_abort_if_not() calls abort()) ends the program quietly with
 *    exit status 0.
 *  - __assert_fail (what reach_error() calls): prints one line and exits with
 *    status 86; a failed assertion is not a data race, so it is not counted as
 *    one (the race verdict comes only from the tools' race reports).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

/* ---- random source: xorshift64*, seeded from SVCOMP_SEED ---------------- */
static pthread_mutex_t rng_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long rng_state;
static int rng_ready;

static unsigned long long next_random(void) {
  pthread_mutex_lock(&rng_lock);
  if (!rng_ready) {
    const char *s = getenv("SVCOMP_SEED");
    rng_state = (s ? strtoull(s, 0, 10) : 1) * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
    if (!rng_state)
      rng_state = 1;
    rng_ready = 1;
  }
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  unsigned long long r = rng_state * 0x2545F4914F6CDD1DULL;
  pthread_mutex_unlock(&rng_lock);
  return r;
}

/* Small values (0..15) three times in four, otherwise all bits random. */
static unsigned long long nondet_bits(void) {
  unsigned long long r = next_random();
  if ((r & 3) != 0)
    return (r >> 8) & 15;
  return next_random();
}

WEAK int __VERIFIER_nondet_int(void) { return (int)nondet_bits(); }
WEAK unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)nondet_bits(); }
WEAK long __VERIFIER_nondet_long(void) { return (long)nondet_bits(); }
WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)nondet_bits(); }
WEAK long long __VERIFIER_nondet_longlong(void) { return (long long)nondet_bits(); }
WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return nondet_bits(); }
WEAK short __VERIFIER_nondet_short(void) { return (short)nondet_bits(); }
WEAK unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)nondet_bits(); }
WEAK char __VERIFIER_nondet_char(void) { return (char)nondet_bits(); }
WEAK unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)nondet_bits(); }
WEAK _Bool __VERIFIER_nondet_bool(void) { return next_random() & 1; }
WEAK unsigned long __VERIFIER_nondet_size_t(void) { return (unsigned long)nondet_bits(); }
WEAK void *__VERIFIER_nondet_pointer(void) { return 0; }
WEAK float __VERIFIER_nondet_float(void) { return (float)(nondet_bits() & 0xffff); }
WEAK double __VERIFIER_nondet_double(void) { return (double)(nondet_bits() & 0xffff); }

/* ---- atomic sections ---------------------------------------------------- */
static pthread_mutex_t atomic_lock;
static pthread_once_t atomic_once = PTHREAD_ONCE_INIT;

static void atomic_init(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&atomic_lock, &a);
  pthread_mutexattr_destroy(&a);
}

WEAK void __VERIFIER_atomic_begin(void) {
  pthread_once(&atomic_once, atomic_init);
  pthread_mutex_lock(&atomic_lock);
}

WEAK void __VERIFIER_atomic_end(void) {
  pthread_once(&atomic_once, atomic_init);
  pthread_mutex_unlock(&atomic_lock);
}

/* Used by the source rewrite of `__VERIFIER_atomic_*` function bodies: the
 * guard variable's cleanup releases the section on every return path. */
void __svrt_atomic_enter(void) { __VERIFIER_atomic_begin(); }
void __svrt_atomic_leave(int *guard) { (void)guard; __VERIFIER_atomic_end(); }

/* ---- assumptions, errors ------------------------------------------------ */
WEAK void __VERIFIER_assume(int cond) {
  if (!cond)
    _exit(0);
}

void abort(void) { _exit(0); }

void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func) {
  fprintf(stderr, "[svcomp_rt] assertion failed: %s (%s:%u %s)\n", expr, file, line, func);
  _exit(86);
}

WEAK void reach_error(void) {
  fprintf(stderr, "[svcomp_rt] reach_error\n");
  _exit(86);
}

WEAK void __VERIFIER_error(void) { reach_error(); }
