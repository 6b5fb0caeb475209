/* C11 <threads.h> model. <stdatomic.h> and the GCC __sync_* / __atomic_*
   builtins need no model: clang lowers them to LLVM atomic instructions,
   which every engine reads as atomic accesses. */
#include "crace_intrinsics.h"

CRACE_MODEL int thrd_create(unsigned long *t, int (*fn)(void *), void *arg) {
  __crace_thread_create(t, (void *(*)(void *))fn, arg);
  return 0; /* thrd_success */
}
CRACE_MODEL int thrd_join(unsigned long t, int *res) {
  void *r;
  __crace_thread_join(t, res ? &r : (void **)0);
  if (res)
    *res = (int)(long)r;
  return 0;
}
CRACE_MODEL void thrd_exit(int res) { __crace_thread_exit((void *)(long)res); }
CRACE_MODEL int thrd_detach(unsigned long t) { return 0; }
CRACE_MODEL unsigned long thrd_current(void) {
  return __crace_thread_self();
}
CRACE_MODEL int thrd_equal(unsigned long a, unsigned long b) { return a == b; }
CRACE_MODEL void thrd_yield(void) {}

CRACE_MODEL int mtx_init(void *m, int type) { return 0; }
CRACE_MODEL void mtx_destroy(void *m) {}
CRACE_MODEL int mtx_lock(void *m) { __crace_lock(m); return 0; }
CRACE_MODEL int mtx_unlock(void *m) { __crace_unlock(m); return 0; }
/* thrd_success == 0 when acquired, thrd_busy otherwise. */
CRACE_MODEL int mtx_trylock(void *m) { return __crace_trylock(m); }

CRACE_MODEL int cnd_init(void *c) { return 0; }
CRACE_MODEL void cnd_destroy(void *c) {}
CRACE_MODEL int cnd_wait(void *c, void *m) { __crace_cond_wait(c, m); return 0; }
CRACE_MODEL int cnd_signal(void *c) { __crace_cond_signal(c); return 0; }
CRACE_MODEL int cnd_broadcast(void *c) { __crace_cond_broadcast(c); return 0; }

CRACE_MODEL void call_once(int *flag, void (*fn)(void)) {
  __crace_lock(flag);
  if (*flag == 0) {
    *flag = 1;
    fn();
  }
  __crace_unlock(flag);
}
