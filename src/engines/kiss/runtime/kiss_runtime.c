/* The runtime of the KISS sequential program (src/engines/kiss, KISS
 * form): the scheduler, the thread table ts and the lock table that the
 * transform links into the program. kiss_shared.c follows this file.
 *
 * Compiled by KissRuntime.cpp for the program's target, with
 *   KISS_MAX  slots of ts (forked threads that may wait to be scheduled)
 *   KISS_NT   thread ids (0 is main)
 *   KISS_L    slots of the lock table
 *   KISS_RD   slots of the reader table (0: the program takes no read
 *             lock, and the runtime has neither table nor checks)
 * The loops are unrolled before the bmc sees the code (it sees no loop,
 * and every table access has a constant address); KISS_FLAG globals are
 * i1 in the IR. A thread handle (kiss_id) is as wide as a pointer.
 */
typedef __UINTPTR_TYPE__ kiss_id;
typedef void *(*kiss_fn)(void *);
#define KISS_FLAG __attribute__((section("kiss.flag")))
#define KISS_UNROLL _Pragma("clang loop unroll(full)")

int __crace_nondet_int(void);
void __crace_assume(int cond);

/* RAISE: the running thread stops (its frames return). */
KISS_FLAG _Bool __kiss_raise = 0;
/* Inside an atomic section: no thread switch. */
KISS_FLAG _Bool __kiss_atomic = 0;
kiss_id __kiss_self = 0;
kiss_id __kiss_next = 0;
/* ts: the forked threads not run yet. */
KISS_FLAG _Bool __kiss_ts_used[KISS_MAX] = {};
kiss_fn __kiss_ts_fn[KISS_MAX] = {};
void *__kiss_ts_arg[KISS_MAX] = {};
kiss_id __kiss_ts_id[KISS_MAX] = {};
/* Per thread id: completed (not merely stopped by RAISE), and its result. */
KISS_FLAG _Bool __kiss_done[KISS_NT] = {};
void *__kiss_result[KISS_NT] = {};
/* The held locks: held exclusively (a mutex, a write lock) ... */
void *__kiss_locks[KISS_L] = {};
#if KISS_RD
/* ... and read locks, one slot per reader holding one (readers exclude
   writers, not each other). */
void *__kiss_rdlocks[KISS_RD] = {};
#endif

_Bool __kiss_held(void *l);
void __kiss_lock(void *l);
void __kiss_unlock(void *l);

_Bool __kiss_nondet(void) { return __crace_nondet_int() != 0; }

void __kiss_assume(_Bool c) { __crace_assume(c); }

/* Runs one thread to completion or to its RAISE. */
void __kiss_run(kiss_fn fn, void *arg, kiss_id id) {
  kiss_id saved = __kiss_self;
  __kiss_self = id;
  void *r = fn(arg);
  if (!__kiss_raise) {
    __kiss_done[id] = 1;
    __kiss_result[id] = r;
  }
  __kiss_raise = 0;
  __kiss_atomic = 0;
  __kiss_self = saved;
}

/* schedule(): KISS_MAX rounds; each may run one thread of ts. */
void __kiss_schedule(void) {
  if (__kiss_atomic)
    return;
  KISS_UNROLL
  for (unsigned k = 0; k < KISS_MAX; ++k) {
    int ran = 0;
    KISS_UNROLL
    for (unsigned j = 0; j < KISS_MAX; ++j)
      if (!ran && __kiss_ts_used[j] && __kiss_nondet()) {
        __kiss_ts_used[j] = 0;
        __kiss_run(__kiss_ts_fn[j], __kiss_ts_arg[j], __kiss_ts_id[j]);
        ran = 1;
      }
  }
}

/* Thread creation: a fresh id, then into ts (the first free slot) or, when
   ts is full, run at once. */
void __kiss_create(kiss_id *h, kiss_fn fn, void *arg) {
  kiss_id id = __kiss_next + 1;
  __kiss_next = id;
  __kiss_assume(id < KISS_NT);
  if (h)
    *h = id;
  int put = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_MAX; ++j)
    if (!put && !__kiss_ts_used[j]) {
      __kiss_ts_used[j] = 1;
      __kiss_ts_fn[j] = fn;
      __kiss_ts_arg[j] = arg;
      __kiss_ts_id[j] = id;
      put = 1;
    }
  if (!put)
    __kiss_run(fn, arg, id);
}

/* Join: the thread must have completed (not merely stopped by RAISE). */
void __kiss_join(kiss_id h, void **ret) {
  __kiss_assume(h < KISS_NT);
  __kiss_assume(__kiss_done[h]);
  if (ret)
    *ret = __kiss_result[h];
}

kiss_id __kiss_thread_self(void) { return __kiss_self; }

void __kiss_thread_exit(void *r) {
  kiss_id s = __kiss_self;
  __kiss_done[s] = 1;
  __kiss_result[s] = r;
  __kiss_raise = 1;
}

/* Locks: a table of held locks. */
_Bool __kiss_held(void *l) {
  _Bool h = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    h = (__kiss_locks[j] == l) | h;
  return h;
}

#if KISS_RD
_Bool __kiss_rdheld(void *l) {
  _Bool h = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_RD; ++j)
    h = (__kiss_rdlocks[j] == l) | h;
  return h;
}

/* Read lock: no writer holds it; readers may. */
void __kiss_rdlock(void *l) {
  __kiss_assume(!__kiss_held(l));
  int put = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_RD; ++j)
    if (!put && !__kiss_rdlocks[j]) {
      __kiss_rdlocks[j] = l;
      put = 1;
    }
  if (!put)
    __kiss_assume(0);
}

int __kiss_tryrdlock(void *l) {
  if (__kiss_held(l))
    return 16; /* EBUSY */
  __kiss_rdlock(l);
  return 0;
}
#endif

void __kiss_lock(void *l) {
  __kiss_assume(!__kiss_held(l));
#if KISS_RD
  __kiss_assume(!__kiss_rdheld(l));
#endif
  int put = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    if (!put && !__kiss_locks[j]) {
      __kiss_locks[j] = l;
      put = 1;
    }
  if (!put)
    __kiss_assume(0);
}

void __kiss_unlock(void *l) {
#if KISS_RD
  /* Not held exclusively: the caller releases its read lock, one of the
     readers' slots (which one does not matter). */
  if (!__kiss_held(l)) {
    int done = 0;
    KISS_UNROLL
    for (unsigned j = 0; j < KISS_RD; ++j)
      if (!done && __kiss_rdlocks[j] == l) {
        __kiss_rdlocks[j] = 0;
        done = 1;
      }
    return;
  }
#endif
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    if (__kiss_locks[j] == l)
      __kiss_locks[j] = 0;
}
