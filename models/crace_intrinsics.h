/* crace model intrinsics.
 *
 * The C environment models in this folder implement library APIs (pthread,
 * C11 threads, SV-COMP, libc) on this small set of functions. They have no
 * body: every engine recognises them by name (src/model/SyncAPI.def), and
 * the model functions that call them are inlined into the program, so each
 * intrinsic call carries the source location of the user's call.
 *
 * Models never include system headers: they must compile for any target
 * (ILP32 SV-COMP tasks as well as LP64 programs), so they use void* and
 * unsigned long where the real API has opaque types of the same LLVM type.
 */
#ifndef CRACE_INTRINSICS_H
#define CRACE_INTRINSICS_H

#define CRACE_MODEL __attribute__((used, weak, section(".crace_model")))
/* A model the front end does not inline: the explore engine computes these
   calls itself (src/engines/explore/Strings.cpp); the other engines use the
   body. */
#define CRACE_MODEL_CALL \
  __attribute__((used, weak, noinline, section(".crace_model_call")))
typedef unsigned long crace_size_t;

/* Threads. create writes a fresh handle to *handle and starts fn(arg). */
void __crace_thread_create(void *handle, void *(*fn)(void *), void *arg);
/* Waits for the thread whose handle value is h; stores its result to *ret
   when ret is not null. */
void __crace_thread_join(unsigned long h, void **ret);
void __crace_thread_exit(void *ret) __attribute__((noreturn));

/* Locks: any address can serve as a lock object. try* return 0 when the
   lock was acquired. rd* take a reader (shared) lock. */
void __crace_lock(void *l);
void __crace_unlock(void *l);
int __crace_trylock(void *l);
void __crace_rdlock(void *l);
int __crace_tryrdlock(void *l);

/* Atomic sections: no other thread runs between begin and end. */
void __crace_atomic_begin(void);
void __crace_atomic_end(void);

/* Condition variables and barriers (m is released while waiting). */
void __crace_cond_wait(void *c, void *m);
void __crace_cond_signal(void *c);
void __crace_cond_broadcast(void *c);
void __crace_barrier_init(void *b, unsigned n);
int __crace_barrier_wait(void *b);

/* Counting semaphores. */
void __crace_sem_init(void *s, unsigned value);
void __crace_sem_wait(void *s);
void __crace_sem_post(void *s);

/* Nondeterministic values. */
int __crace_nondet_int(void);
long long __crace_nondet_longlong(void);
void *__crace_nondet_ptr(void);
/* An input of BITS bits (1..32), zero-extended: its domain has 2^BITS
   values, which the explore engine enumerates when it is small. */
unsigned __crace_nondet_bits(int bits);
/* Any 32-bit value, drawn as the length of an input (how many bytes a read
   returns): the explore engine's comparison-guided inputs change it when
   they add or remove input bytes. */
unsigned __crace_nondet_count(void);
/* Results a model does not compute exactly (strcmp's sign, strchr's
   position): any value. Engines that execute the program cannot trust a
   run past one of these. */
int __crace_unknown_int(void);
/* fork(): 0 on the child's side (only the calling thread is in that
   process), the child's pid on the parent's. */
int __crace_unknown_fork(void);
long long __crace_unknown_longlong(void);
/* The calling thread's handle (what create stored for it; main: 0 is not
   used, main gets its own). */
unsigned long __crace_thread_self(void);
void __crace_assume(int cond);
void __crace_assert(int cond, const char *msg);
void __crace_error(void) __attribute__((noreturn));
void __crace_exit(int code) __attribute__((noreturn));

/* Memory. alloc returns a fresh object of n bytes (one abstract object per
   call site after inlining); read/write say that n bytes at p are accessed
   (n == 0: an unknown number of bytes, as for strings). Copies of memory
   that may hold pointers use __builtin_memcpy, so the pointers flow. */
void *__crace_alloc(crace_size_t n);
void __crace_free(void *p);
/* Bytes from p to the end of the object p points into. */
crace_size_t __crace_object_size(const void *p);
void __crace_read(const void *p, crace_size_t n);
void __crace_write(void *p, crace_size_t n);

/* Defined by the front end (src/frontend/ProgramStart.cpp), not intrinsics:
   what exit() runs before the process ends (exit handlers, destructors),
   and what a thread runs when it exits (thread-specific data destructors). */
void __crace_run_exit(int code);
void __crace_thread_fini(void);

#endif
