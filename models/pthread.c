/* POSIX threads model: create/join/exit, mutex (incl. trylock), rwlock,
   spinlock, condition variables, barriers, once, keys, self/equal. */
#include "crace_intrinsics.h"

CRACE_MODEL int pthread_create(unsigned long *t, const void *attr,
                               void *(*fn)(void *), void *arg) {
  __crace_thread_create(t, fn, arg);
  return 0;
}
CRACE_MODEL int pthread_join(unsigned long t, void **ret) {
  __crace_thread_join(t, ret);
  return 0;
}
CRACE_MODEL void pthread_exit(void *ret) {
  __crace_thread_fini(); /* thread-specific data destructors */
  __crace_thread_exit(ret);
}
CRACE_MODEL int pthread_detach(unsigned long t) { return 0; }
CRACE_MODEL unsigned long pthread_self(void) {
  return __crace_thread_self();
}
CRACE_MODEL int pthread_equal(unsigned long a, unsigned long b) { return a == b; }
/* Thread names (at most 15 characters and a zero on Linux): kernel state. */
CRACE_MODEL int pthread_setname_np(unsigned long t, const char *name) {
  __crace_read(name, 0);
  return 0;
}
CRACE_MODEL int pthread_getname_np(unsigned long t, char *buf, crace_size_t n) {
  if (n < 16)
    return 34; /* ERANGE */
  for (crace_size_t i = 0; i < 16; i++) {
    buf[i] = i < 15 ? (char)__crace_nondet_bits(8) : 0;
    if (!buf[i])
      break;
  }
  return 0;
}
CRACE_MODEL int pthread_yield(void) { return 0; }
CRACE_MODEL int sched_yield(void) { return 0; }
CRACE_MODEL int pthread_attr_init(void *a) { return 0; }
CRACE_MODEL int pthread_attr_destroy(void *a) { return 0; }
CRACE_MODEL int pthread_attr_setdetachstate(void *a, int s) { return 0; }
CRACE_MODEL int pthread_attr_setstacksize(void *a, unsigned long s) { return 0; }
CRACE_MODEL int pthread_attr_setscope(void *a, int s) { return 0; }
CRACE_MODEL int pthread_setcancelstate(int s, int *old) { return 0; }
CRACE_MODEL int pthread_setcanceltype(int s, int *old) { return 0; }
/* Cancellation stops the target at a cancellation point of its choosing
   and runs its cleanup handlers: not modelled. For the static engines the
   target simply runs on (more behaviour, sound); an engine that executes
   the program must not trust a run past it. */
CRACE_MODEL int pthread_cancel(unsigned long t) {
  (void)__crace_unknown_int();
  return 0;
}

/* Mutexes. */
CRACE_MODEL int pthread_mutex_init(void *m, const void *attr) { return 0; }
CRACE_MODEL int pthread_mutex_destroy(void *m) { return 0; }
CRACE_MODEL int pthread_mutex_lock(void *m) { __crace_lock(m); return 0; }
CRACE_MODEL int pthread_mutex_unlock(void *m) { __crace_unlock(m); return 0; }
CRACE_MODEL int pthread_mutex_trylock(void *m) { return __crace_trylock(m); }
CRACE_MODEL int pthread_mutexattr_init(void *a) { return 0; }
CRACE_MODEL int pthread_mutexattr_destroy(void *a) { return 0; }
CRACE_MODEL int pthread_mutexattr_settype(void *a, int t) { return 0; }

/* Reader-writer locks. */
CRACE_MODEL int pthread_rwlock_init(void *l, const void *attr) { return 0; }
CRACE_MODEL int pthread_rwlock_destroy(void *l) { return 0; }
CRACE_MODEL int pthread_rwlock_rdlock(void *l) { __crace_rdlock(l); return 0; }
CRACE_MODEL int pthread_rwlock_wrlock(void *l) { __crace_lock(l); return 0; }
CRACE_MODEL int pthread_rwlock_tryrdlock(void *l) { return __crace_tryrdlock(l); }
CRACE_MODEL int pthread_rwlock_trywrlock(void *l) { return __crace_trylock(l); }
CRACE_MODEL int pthread_rwlock_unlock(void *l) { __crace_unlock(l); return 0; }

/* Spinlocks. */
CRACE_MODEL int pthread_spin_init(void *l, int shared) { return 0; }
CRACE_MODEL int pthread_spin_destroy(void *l) { return 0; }
CRACE_MODEL int pthread_spin_lock(void *l) { __crace_lock(l); return 0; }
CRACE_MODEL int pthread_spin_trylock(void *l) { return __crace_trylock(l); }
CRACE_MODEL int pthread_spin_unlock(void *l) { __crace_unlock(l); return 0; }

/* Condition variables: waiting releases and re-acquires the mutex. */
CRACE_MODEL int pthread_cond_init(void *c, const void *attr) { return 0; }
CRACE_MODEL int pthread_cond_destroy(void *c) { return 0; }
CRACE_MODEL int pthread_cond_wait(void *c, void *m) {
  __crace_cond_wait(c, m);
  return 0;
}
CRACE_MODEL int pthread_cond_timedwait(void *c, void *m, const void *ts) {
  __crace_cond_wait(c, m);
  return __crace_nondet_int() ? 0 : 110 /* ETIMEDOUT */;
}
CRACE_MODEL int pthread_cond_signal(void *c) { __crace_cond_signal(c); return 0; }
CRACE_MODEL int pthread_cond_broadcast(void *c) {
  __crace_cond_broadcast(c);
  return 0;
}

/* Barriers. */
CRACE_MODEL int pthread_barrier_init(void *b, const void *attr, unsigned n) {
  __crace_barrier_init(b, n);
  return 0;
}
CRACE_MODEL int pthread_barrier_destroy(void *b) { return 0; }
CRACE_MODEL int pthread_barrier_wait(void *b) { return __crace_barrier_wait(b); }

/* pthread_once: the first caller runs fn; the others wait until it is done,
   which is what holding a lock on the control object for the call gives. */
CRACE_MODEL int pthread_once(int *ctl, void (*fn)(void)) {
  __crace_lock(ctl);
  if (*ctl == 0) {
    *ctl = 1;
    fn();
  }
  __crace_unlock(ctl);
  return 0;
}

/* Thread-specific data: keys index a per-thread table of values; a key's
   destructor runs at the exit of each thread whose value for it is not
   null (__crace_tsd_run_destructors, called by pthread_exit and, through a
   trampoline the front end adds, when a start routine returns). Keys past
   the table share its last slot (a sound merge of their values for the
   static engines; an engine that executes the program stops there). */
#define CRACE_MAX_KEYS 16
static void (*crace_key_destructor[CRACE_MAX_KEYS])(void *);
static unsigned crace_key_count;
static char crace_key_lock;
static __thread void *crace_tsd_values[CRACE_MAX_KEYS];
CRACE_MODEL int pthread_key_create(unsigned *key, void (*dtor)(void *)) {
  __crace_lock(&crace_key_lock);
  unsigned k = CRACE_MAX_KEYS - 1;
  if (crace_key_count < CRACE_MAX_KEYS)
    k = crace_key_count++;
  else
    (void)__crace_unknown_int(); /* merged slot: not exact past here */
  crace_key_destructor[k] = dtor;
  __crace_unlock(&crace_key_lock);
  *key = k;
  return 0;
}
CRACE_MODEL int pthread_key_delete(unsigned key) {
  __crace_lock(&crace_key_lock);
  if (key < CRACE_MAX_KEYS)
    crace_key_destructor[key] = 0;
  __crace_unlock(&crace_key_lock);
  return 0;
}
CRACE_MODEL int pthread_setspecific(unsigned key, const void *v) {
  crace_tsd_values[key < CRACE_MAX_KEYS ? key : CRACE_MAX_KEYS - 1] = (void *)v;
  return 0;
}
CRACE_MODEL void *pthread_getspecific(unsigned key) {
  return crace_tsd_values[key < CRACE_MAX_KEYS ? key : CRACE_MAX_KEYS - 1];
}
/* Not inlined: the front end calls it from thread trampolines. */
__attribute__((weak)) void __crace_tsd_run_destructors(void) {
  for (unsigned k = 0; k < CRACE_MAX_KEYS; k++) {
    __crace_lock(&crace_key_lock);
    unsigned n = crace_key_count;
    void (*d)(void *) = k < n ? crace_key_destructor[k] : 0;
    __crace_unlock(&crace_key_lock);
    if (k >= n)
      break;
    void *v = crace_tsd_values[k];
    if (d && v) {
      crace_tsd_values[k] = 0;
      d(v);
    }
  }
}

/* POSIX semaphores. */
CRACE_MODEL int sem_init(void *s, int shared, unsigned value) {
  __crace_sem_init(s, value);
  return 0;
}
CRACE_MODEL int sem_destroy(void *s) { return 0; }
CRACE_MODEL int sem_wait(void *s) { __crace_sem_wait(s); return 0; }
CRACE_MODEL int sem_trywait(void *s) {
  if (__crace_unknown_int()) {
    __crace_sem_wait(s);
    return 0;
  }
  return -1;
}
CRACE_MODEL int sem_post(void *s) { __crace_sem_post(s); return 0; }
