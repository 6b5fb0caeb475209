/* The runtime of the K-round sequential program (src/engines/kiss,
 * --rounds; Rounds.h): thread table, rounds and lock tables that the
 * transform links into the program. kiss_shared.c follows this file.
 *
 * Compiled by KissRuntime.cpp for the program's target, with
 *   KISS_K       rounds
 *   KISS_NT      thread ids (0 is main; later creations are threads that
 *                are never scheduled)
 *   KISS_L       slots of the lock table
 *   KISS_STRIDE  bytes of one copy of the shared state: the transform
 *                moves __kiss_locks into copy 0, the table of round r is
 *                r * KISS_STRIDE bytes further
 * The loops are unrolled before the bmc sees the code (it sees no loop,
 * and every table access has a constant address); KISS_FLAG globals are
 * i1 in the IR. A thread handle (kiss_id) is as wide as a pointer.
 */
typedef __UINTPTR_TYPE__ kiss_id;
typedef void *(*kiss_fn)(void *);
#define KISS_FLAG __attribute__((section("kiss.flag")))
#define KISS_UNROLL _Pragma("clang loop unroll(full)")

int __crace_nondet_int(void);
void *__crace_nondet_ptr(void);
void __crace_assume(int cond);

KISS_FLAG _Bool __kiss_raise = 0;
KISS_FLAG _Bool __kiss_atomic = 0;
kiss_id __kiss_self = 0;
kiss_id __kiss_next = 0;
/* The current round, and the rounds a thread may use (main's return ends
   them). */
unsigned __kiss_round = 0;
unsigned __kiss_limit = KISS_K;
/* The size of one copy of the shared state (set by the transform). */
unsigned long long __kiss_stride = 0;
/* The thread table: start routine, argument and creation round. */
kiss_fn __kiss_tt_fn[KISS_NT] = {};
void *__kiss_tt_arg[KISS_NT] = {};
unsigned __kiss_tt_round[KISS_NT] = {};
/* Completion: whether, in which round, with which result. */
KISS_FLAG _Bool __kiss_done[KISS_NT] = {};
unsigned __kiss_done_round[KISS_NT] = {};
void *__kiss_result[KISS_NT] = {};
/* Joins of threads later in the order: the earliest round of one
   (KISS_K: none) and the result it guessed. */
unsigned __kiss_join_round[KISS_NT] = {[0 ... KISS_NT - 1] = KISS_K};
void *__kiss_join_guess[KISS_NT] = {};
KISS_FLAG _Bool __kiss_join_guessed[KISS_NT] = {};
/* The held locks (copied per round). */
void *__kiss_locks[KISS_L] = {};

_Bool __kiss_nondet(void) { return __crace_nondet_int() != 0; }

void __kiss_assume(_Bool c) { __crace_assume(c); }

/* The copy of the current round of a pointer into copy 0. */
void *__kiss_cur(void *p) {
  return (char *)p + (unsigned long long)__kiss_round * __kiss_stride;
}

/* A context switch: the thread continues in the same or a later round (it
   is not scheduled in the rounds it skips). */
void __kiss_schedule(void) {
  if (__kiss_atomic)
    return;
  unsigned r = __kiss_round, l = __kiss_limit;
  unsigned n = __crace_nondet_int();
  __kiss_assume((n >= r) & (n < l));
  __kiss_round = n;
}

/* A thread completes: its result, its last round, the guessed result of an
   earlier join. */
void __kiss_finish(kiss_id id, void *res) {
  __kiss_done[id] = 1;
  __kiss_result[id] = res;
  __kiss_done_round[id] = __kiss_round;
  _Bool guessed = __kiss_join_guessed[id];
  void *guess = __kiss_join_guess[id];
  __kiss_assume(!guessed | (guess == res));
}

void __kiss_run(kiss_fn fn, void *arg, kiss_id id) {
  kiss_id saved = __kiss_self;
  __kiss_self = id;
  void *r = fn(arg);
  if (!__kiss_raise)
    __kiss_finish(id, r);
  __kiss_raise = 0;
  __kiss_atomic = 0;
  __kiss_self = saved;
}

/* Runs thread id (if created and scheduled at all) from a round not before
   its creation. */
void __kiss_start(kiss_id id) {
  if (id > __kiss_next || __kiss_nondet())
    return;
  unsigned r0 = __kiss_tt_round[id], l = __kiss_limit;
  unsigned r = __crace_nondet_int();
  __kiss_assume((r >= r0) & (r < l));
  __kiss_round = r;
  __kiss_run(__kiss_tt_fn[id], __kiss_tt_arg[id], id);
}

/* Creation: a fresh id (in creation order, the round-robin order); ids
   beyond the table are threads that are never scheduled. */
void __kiss_create(kiss_id *h, kiss_fn fn, void *arg) {
  kiss_id id = __kiss_next + 1;
  __kiss_next = id;
  if (h)
    *h = id;
  if (id < KISS_NT) {
    __kiss_tt_fn[id] = fn;
    __kiss_tt_arg[id] = arg;
    __kiss_tt_round[id] = __kiss_round;
  }
}

/* Join. A thread earlier in the order has run already: it must have
   completed in this round or before. A later one runs afterwards: its
   completion round (before this one) and result are checked then. */
void __kiss_join(kiss_id h, void **ret) {
  __kiss_assume((h < KISS_NT) & (h != 0));
  kiss_id s = __kiss_self;
  __kiss_assume(h != s);
  unsigned r = __kiss_round;
  if (h < s) {
    __kiss_assume(__kiss_done[h]);
    __kiss_assume(__kiss_done_round[h] <= r);
    if (ret)
      *ret = __kiss_result[h];
    return;
  }
  unsigned jr = __kiss_join_round[h];
  __kiss_join_round[h] = r < jr ? r : jr;
  if (!ret)
    return;
  if (__kiss_join_guessed[h]) {
    *ret = __kiss_join_guess[h];
    return;
  }
  void *g = __crace_nondet_ptr();
  __kiss_join_guess[h] = g;
  __kiss_join_guessed[h] = 1;
  *ret = g;
}

/* At the end: every join of a later thread saw it completed before. */
void __kiss_check_joins(void) {
  KISS_UNROLL
  for (unsigned i = 1; i < KISS_NT; ++i) {
    unsigned jr = __kiss_join_round[i];
    __kiss_assume((jr == KISS_K) |
                  (__kiss_done[i] & (__kiss_done_round[i] < jr)));
  }
}

kiss_id __kiss_thread_self(void) { return __kiss_self; }

void __kiss_thread_exit(void *r) {
  __kiss_finish(__kiss_self, r);
  __kiss_raise = 1;
}

/* Locks: the table of held locks is shared state (one per round). The
   operations work on the table t of a round. */
_Bool __kiss_held_at(void *l, void **t) {
  _Bool h = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    h = (t[j] == l) | h;
  return h;
}

void __kiss_lock_at(void *l, void **t) {
  __kiss_assume(!__kiss_held_at(l, t));
  int put = 0;
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    if (!put && !t[j]) {
      t[j] = l;
      put = 1;
    }
  if (!put)
    __kiss_assume(0);
}

void __kiss_unlock_at(void *l, void **t) {
  KISS_UNROLL
  for (unsigned j = 0; j < KISS_L; ++j)
    if (t[j] == l)
      t[j] = 0;
}

/* The lock table of round r (a constant address for a constant r). */
#define KISS_TABLE(r) ((void **)((char *)__kiss_locks + (r) * KISS_STRIDE))

/* Op(l) calls Op_at(l, table of the current round), once per round with a
   constant table, so that every address stays concrete for the bmc (rounds
   past KISS_K - 1 take round 0's, as no round is). */
_Bool __kiss_held(void *l) {
  unsigned cur = __kiss_round;
  _Bool v = 0;
  if (cur == 0 || cur >= KISS_K)
    v = __kiss_held_at(l, KISS_TABLE(0));
  KISS_UNROLL
  for (unsigned r = 1; r < KISS_K; ++r)
    if (cur == r)
      v = __kiss_held_at(l, KISS_TABLE(r));
  return v;
}

void __kiss_lock(void *l) {
  unsigned cur = __kiss_round;
  if (cur == 0 || cur >= KISS_K)
    __kiss_lock_at(l, KISS_TABLE(0));
  KISS_UNROLL
  for (unsigned r = 1; r < KISS_K; ++r)
    if (cur == r)
      __kiss_lock_at(l, KISS_TABLE(r));
}

void __kiss_unlock(void *l) {
  unsigned cur = __kiss_round;
  if (cur == 0 || cur >= KISS_K)
    __kiss_unlock_at(l, KISS_TABLE(0));
  KISS_UNROLL
  for (unsigned r = 1; r < KISS_K; ++r)
    if (cur == r)
      __kiss_unlock_at(l, KISS_TABLE(r));
}
