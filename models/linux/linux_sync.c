/* Linux kernel model, synchronisation: mutexes, spinlocks (incl. _irqsave,
   _irq, _bh), rwlocks, rw-semaphores, semaphores, completions, atomic_t,
   atomic bitops, RCU read side, local_irq_*, RTNL.

   Linked only in driver mode (--driver or --entry); see docs/usage.md,
   section "Drivers". Prototypes follow WHOOP's kernel model headers (which
   the 4.0 drivers are compiled against) where they declare the function,
   the kernel's otherwise; lock objects are the addresses the driver passes,
   so any layout of struct mutex / spinlock_t works. */
#include "crace_intrinsics.h"

/* Global locks of the kernel: RTNL, and the "interrupts disabled" state
   (see local_irq_disable below). The harness takes __crace_linux_rtnl
   around RTNL-held callbacks. */
int __crace_linux_rtnl;
int __crace_linux_irqs_off;

/* WHOOP's smack.h: nondeterministic values. */
CRACE_MODEL int __SMACK_nondet(void) { return __crace_nondet_int(); }

/* Mutexes. Interruptible/killable variants return 0 when they acquired the
   lock, which is a try-lock's contract. */
CRACE_MODEL void mutex_init(void *m) {}
CRACE_MODEL void __mutex_init(void *m, const char *name, void *key) {}
CRACE_MODEL void mutex_destroy(void *m) {}
CRACE_MODEL void mutex_lock(void *m) { __crace_lock(m); }
CRACE_MODEL void mutex_lock_nested(void *m, unsigned sub) { __crace_lock(m); }
/* WHOOP declares it returning bool; true means interrupted. */
CRACE_MODEL _Bool mutex_lock_interruptible(void *m) { return __crace_trylock(m) != 0; }
CRACE_MODEL int mutex_lock_killable(void *m) { return __crace_trylock(m); }
/* mutex_trylock returns 1 on success (kernel convention). */
CRACE_MODEL int mutex_trylock(void *m) { return __crace_trylock(m) == 0; }
CRACE_MODEL void mutex_unlock(void *m) { __crace_unlock(m); }
CRACE_MODEL int mutex_is_locked(void *m) { return __crace_unknown_int(); }

/* Spinlocks: the _irq/_irqsave/_bh variants also mask interrupts on the
   local CPU only, so they give no more exclusion than the spinlock. */
CRACE_MODEL void spin_lock_init(void *l) {}
CRACE_MODEL void spin_lock(void *l) { __crace_lock(l); }
CRACE_MODEL void spin_lock_irqsave(void *l, unsigned long flags) { __crace_lock(l); }
CRACE_MODEL void spin_lock_irq(void *l) { __crace_lock(l); }
CRACE_MODEL void spin_lock_bh(void *l) { __crace_lock(l); }
CRACE_MODEL void spin_lock_nested(void *l, int sub) { __crace_lock(l); }
CRACE_MODEL void spin_unlock(void *l) { __crace_unlock(l); }
CRACE_MODEL void spin_unlock_irqrestore(void *l, unsigned long flags) { __crace_unlock(l); }
CRACE_MODEL void spin_unlock_irq(void *l) { __crace_unlock(l); }
CRACE_MODEL void spin_unlock_bh(void *l) { __crace_unlock(l); }
/* spin_trylock returns 1 on success. */
CRACE_MODEL int spin_trylock(void *l) { return __crace_trylock(l) == 0; }
CRACE_MODEL int spin_is_locked(void *l) { return __crace_unknown_int(); }
/* The kernel's own spellings behind the macros. */
CRACE_MODEL void _raw_spin_lock(void *l) { __crace_lock(l); }
CRACE_MODEL unsigned long _raw_spin_lock_irqsave(void *l) {
  __crace_lock(l);
  return 0;
}
CRACE_MODEL void _raw_spin_unlock(void *l) { __crace_unlock(l); }
CRACE_MODEL void _raw_spin_unlock_irqrestore(void *l, unsigned long f) {
  __crace_unlock(l);
}

/* Reader-writer spinlocks. */
CRACE_MODEL void rwlock_init(void *l) {}
CRACE_MODEL void read_lock(void *l) { __crace_rdlock(l); }
CRACE_MODEL void read_lock_irqsave(void *l, unsigned long f) { __crace_rdlock(l); }
CRACE_MODEL void read_lock_irq(void *l) { __crace_rdlock(l); }
CRACE_MODEL void read_lock_bh(void *l) { __crace_rdlock(l); }
CRACE_MODEL void read_unlock(void *l) { __crace_unlock(l); }
CRACE_MODEL void read_unlock_irqrestore(void *l, unsigned long f) { __crace_unlock(l); }
CRACE_MODEL void read_unlock_irq(void *l) { __crace_unlock(l); }
CRACE_MODEL void read_unlock_bh(void *l) { __crace_unlock(l); }
CRACE_MODEL void write_lock(void *l) { __crace_lock(l); }
CRACE_MODEL void write_lock_irqsave(void *l, unsigned long f) { __crace_lock(l); }
CRACE_MODEL void write_lock_irq(void *l) { __crace_lock(l); }
CRACE_MODEL void write_lock_bh(void *l) { __crace_lock(l); }
CRACE_MODEL void write_unlock(void *l) { __crace_unlock(l); }
CRACE_MODEL void write_unlock_irqrestore(void *l, unsigned long f) { __crace_unlock(l); }
CRACE_MODEL void write_unlock_irq(void *l) { __crace_unlock(l); }
CRACE_MODEL void write_unlock_bh(void *l) { __crace_unlock(l); }

/* Reader-writer semaphores (sleeping rwlocks). */
CRACE_MODEL void init_rwsem(void *s) {}
CRACE_MODEL void __init_rwsem(void *s, const char *name, void *key) {}
CRACE_MODEL void down_read(void *s) { __crace_rdlock(s); }
CRACE_MODEL int down_read_trylock(void *s) { return __crace_tryrdlock(s) == 0; }
CRACE_MODEL void up_read(void *s) { __crace_unlock(s); }
CRACE_MODEL void down_write(void *s) { __crace_lock(s); }
CRACE_MODEL int down_write_trylock(void *s) { return __crace_trylock(s) == 0; }
CRACE_MODEL void up_write(void *s) { __crace_unlock(s); }
CRACE_MODEL void downgrade_write(void *s) {
  __crace_unlock(s);
  __crace_rdlock(s);
}

/* Counting semaphores: not locks (up() may come from another thread), so
   the lockset engine draws no protection from them. */
CRACE_MODEL void sema_init(void *s, int val) { __crace_sem_init(s, (unsigned)val); }
CRACE_MODEL void down(void *s) { __crace_sem_wait(s); }
CRACE_MODEL int down_interruptible(void *s) {
  if (__crace_nondet_int())
    return -4; /* -EINTR */
  __crace_sem_wait(s);
  return 0;
}
CRACE_MODEL int down_killable(void *s) { return down_interruptible(s); }
CRACE_MODEL int down_trylock(void *s) {
  if (__crace_unknown_int())
    return 1;
  __crace_sem_wait(s);
  return 0;
}
CRACE_MODEL void up(void *s) { __crace_sem_post(s); }

/* Completions: a counting semaphore that starts at 0. */
CRACE_MODEL void init_completion(void *c) { __crace_sem_init(c, 0); }
CRACE_MODEL void reinit_completion(void *c) {}
CRACE_MODEL void complete(void *c) { __crace_sem_post(c); }
CRACE_MODEL void complete_all(void *c) { __crace_sem_post(c); }
CRACE_MODEL void wait_for_completion(void *c) { __crace_sem_wait(c); }
CRACE_MODEL int wait_for_completion_interruptible(void *c) {
  if (__crace_nondet_int())
    return -512; /* -ERESTARTSYS */
  __crace_sem_wait(c);
  return 0;
}
CRACE_MODEL unsigned long wait_for_completion_timeout(void *c, unsigned long t) {
  if (__crace_nondet_int())
    return 0;
  __crace_sem_wait(c);
  return 1;
}

/* atomic_t { int counter; }: every operation is an atomic access of the
   counter at the start of the object. */
CRACE_MODEL int atomic_read(const void *v) {
  return __atomic_load_n((const int *)v, __ATOMIC_SEQ_CST);
}
CRACE_MODEL void atomic_set(void *v, int i) {
  __atomic_store_n((int *)v, i, __ATOMIC_SEQ_CST);
}
CRACE_MODEL void atomic_add(int i, void *v) {
  __atomic_fetch_add((int *)v, i, __ATOMIC_SEQ_CST);
}
CRACE_MODEL void atomic_sub(int i, void *v) {
  __atomic_fetch_sub((int *)v, i, __ATOMIC_SEQ_CST);
}
CRACE_MODEL void atomic_inc(void *v) {
  __atomic_fetch_add((int *)v, 1, __ATOMIC_SEQ_CST);
}
CRACE_MODEL void atomic_dec(void *v) {
  __atomic_fetch_sub((int *)v, 1, __ATOMIC_SEQ_CST);
}
CRACE_MODEL int atomic_add_return(int i, void *v) {
  return __atomic_add_fetch((int *)v, i, __ATOMIC_SEQ_CST);
}
CRACE_MODEL int atomic_sub_return(int i, void *v) {
  return __atomic_sub_fetch((int *)v, i, __ATOMIC_SEQ_CST);
}
CRACE_MODEL int atomic_inc_return(void *v) { return atomic_add_return(1, v); }
CRACE_MODEL int atomic_dec_return(void *v) { return atomic_sub_return(1, v); }
CRACE_MODEL int atomic_sub_and_test(int i, void *v) {
  return atomic_sub_return(i, v) == 0;
}
CRACE_MODEL int atomic_dec_and_test(void *v) { return atomic_sub_return(1, v) == 0; }
CRACE_MODEL int atomic_inc_and_test(void *v) { return atomic_add_return(1, v) == 0; }
CRACE_MODEL int atomic_add_negative(int i, void *v) {
  return atomic_add_return(i, v) < 0;
}
CRACE_MODEL int atomic_xchg(void *v, int n) {
  return __atomic_exchange_n((int *)v, n, __ATOMIC_SEQ_CST);
}
CRACE_MODEL int atomic_cmpxchg(void *v, int old, int n) {
  __atomic_compare_exchange_n((int *)v, &old, n, 0, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return old;
}
CRACE_MODEL int atomic_add_unless(void *v, int a, int u) {
  int c = __atomic_load_n((int *)v, __ATOMIC_SEQ_CST);
  if (c == u)
    return 0;
  __atomic_fetch_add((int *)v, a, __ATOMIC_SEQ_CST);
  return 1;
}

/* Atomic bit operations on unsigned long words (test_bit is a marked
   read in the kernel). The non-atomic __set_bit family is plain. */
#define CRACE_WORD(nr, addr) ((unsigned long *)(addr) + (nr) / (8 * sizeof(long)))
#define CRACE_MASK(nr) (1UL << ((nr) % (8 * sizeof(long))))
CRACE_MODEL void set_bit(long nr, void *addr) {
  __atomic_fetch_or(CRACE_WORD(nr, addr), CRACE_MASK(nr), __ATOMIC_SEQ_CST);
}
CRACE_MODEL void clear_bit(long nr, void *addr) {
  __atomic_fetch_and(CRACE_WORD(nr, addr), ~CRACE_MASK(nr), __ATOMIC_SEQ_CST);
}
CRACE_MODEL void change_bit(long nr, void *addr) {
  __atomic_fetch_xor(CRACE_WORD(nr, addr), CRACE_MASK(nr), __ATOMIC_SEQ_CST);
}
CRACE_MODEL int test_and_set_bit(long nr, void *addr) {
  return (__atomic_fetch_or(CRACE_WORD(nr, addr), CRACE_MASK(nr),
                            __ATOMIC_SEQ_CST) & CRACE_MASK(nr)) != 0;
}
CRACE_MODEL int test_and_clear_bit(long nr, void *addr) {
  return (__atomic_fetch_and(CRACE_WORD(nr, addr), ~CRACE_MASK(nr),
                             __ATOMIC_SEQ_CST) & CRACE_MASK(nr)) != 0;
}
CRACE_MODEL int test_and_change_bit(long nr, void *addr) {
  return (__atomic_fetch_xor(CRACE_WORD(nr, addr), CRACE_MASK(nr),
                             __ATOMIC_SEQ_CST) & CRACE_MASK(nr)) != 0;
}
CRACE_MODEL int test_bit(long nr, const void *addr) {
  return (__atomic_load_n(CRACE_WORD(nr, addr), __ATOMIC_SEQ_CST) &
          CRACE_MASK(nr)) != 0;
}
CRACE_MODEL void __set_bit(long nr, void *addr) { *CRACE_WORD(nr, addr) |= CRACE_MASK(nr); }
CRACE_MODEL void __clear_bit(long nr, void *addr) { *CRACE_WORD(nr, addr) &= ~CRACE_MASK(nr); }

/* RCU read side: readers exclude nobody (updaters do not wait for them with
   a lock), so read-side sections give no protection; the pointer accessors
   are marked (atomic) accesses in the kernel. */
CRACE_MODEL void rcu_read_lock(void) {}
CRACE_MODEL void rcu_read_unlock(void) {}
CRACE_MODEL void rcu_read_lock_bh(void) {}
CRACE_MODEL void rcu_read_unlock_bh(void) {}
CRACE_MODEL void synchronize_rcu(void) {}
CRACE_MODEL void synchronize_sched(void) {}

/* Interrupts: with the uniprocessor assumption (printed; --no-irq-lock
   turns it off) a local_irq_disable() section excludes every other such
   section, modelled as one global lock. Without it they exclude nothing. */
#ifndef CRACE_LINUX_NO_IRQ_LOCK
CRACE_MODEL void local_irq_disable(void) { __crace_lock(&__crace_linux_irqs_off); }
CRACE_MODEL void local_irq_enable(void) { __crace_unlock(&__crace_linux_irqs_off); }
CRACE_MODEL void local_irq_save(unsigned long flags) {
  __crace_lock(&__crace_linux_irqs_off);
}
CRACE_MODEL void local_irq_restore(unsigned long flags) {
  __crace_unlock(&__crace_linux_irqs_off);
}
#else
CRACE_MODEL void local_irq_disable(void) {}
CRACE_MODEL void local_irq_enable(void) {}
CRACE_MODEL void local_irq_save(unsigned long flags) {}
CRACE_MODEL void local_irq_restore(unsigned long flags) {}
#endif
CRACE_MODEL void local_bh_disable(void) {}
CRACE_MODEL void local_bh_enable(void) {}
CRACE_MODEL void preempt_disable(void) {}
CRACE_MODEL void preempt_enable(void) {}

/* RTNL: one global mutex; the harness holds it around RTNL-held callbacks. */
CRACE_MODEL void rtnl_lock(void) { __crace_lock(&__crace_linux_rtnl); }
CRACE_MODEL void rtnl_unlock(void) { __crace_unlock(&__crace_linux_rtnl); }
CRACE_MODEL int rtnl_trylock(void) { return __crace_trylock(&__crace_linux_rtnl) == 0; }
CRACE_MODEL void ASSERT_RTNL(void) {}

/* Barriers order nothing the analyses rely on. */
CRACE_MODEL void barrier(void) {}
CRACE_MODEL void mb(void) {}
CRACE_MODEL void rmb(void) {}
CRACE_MODEL void wmb(void) {}
CRACE_MODEL void smp_mb(void) {}
CRACE_MODEL void smp_rmb(void) {}
CRACE_MODEL void smp_wmb(void) {}
CRACE_MODEL void cpu_relax(void) {}
