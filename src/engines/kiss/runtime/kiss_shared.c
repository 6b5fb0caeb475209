/* The runtime functions both forms of the sequential program share (they
 * follow kiss_runtime.c or rounds_runtime.c, whose declarations they use:
 * __kiss_held, __kiss_lock, __kiss_unlock, __kiss_schedule, __kiss_nondet,
 * __kiss_assume, __kiss_raise and __kiss_atomic; with KISS_RD, which only
 * the KISS form sets, __kiss_rdheld).
 */

int __kiss_trylock(void *l) {
  if (__kiss_held(l))
    return 16; /* EBUSY */
#if KISS_RD
  if (__kiss_rdheld(l))
    return 16;
#endif
  __kiss_lock(l);
  return 0;
}

/* Condition wait: release, let others run, maybe block for good (RAISE;
   under --rounds the thread is not scheduled again), else wake up
   (spuriously or signalled: POSIX allows both) and re-acquire. */
void __kiss_cond_wait(void *c, void *m) {
  __kiss_unlock(m);
  __kiss_schedule();
  if (__kiss_nondet()) {
    __kiss_raise = 1;
    return;
  }
  __kiss_lock(m);
}

/* Inside an atomic section, after its first shared access (the transform
   sets it): a later access of the section is no confirmed race with
   another thread's plain access (see KissTransform.cpp). */
KISS_FLAG _Bool __kiss_sect_acc = 0;

void __kiss_atomic_begin(void) {
  if (!__kiss_atomic)
    __kiss_sect_acc = 0;
  __kiss_atomic = 1;
}

void __kiss_atomic_end(void) { __kiss_atomic = 0; }

/* Not modelled yet: waiting on barriers and semaphores ends the path (the
   executions past it are not explored). */
int __kiss_block_i32(void *p) {
  __kiss_assume(0);
  return 0;
}

void __kiss_block(void *p) { __kiss_assume(0); }
