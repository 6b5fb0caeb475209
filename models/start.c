/* Program start and exit: what runs outside main, and main's inputs.

   The front end (src/frontend/ProgramStart.cpp) rewrites main so that it
   first makes its inputs with the functions below, then runs the
   constructors (llvm.global_ctors, .init_array), then the program; every
   exit (return from main, exit()) runs __crace_run_exit: the handlers
   registered with atexit/on_exit/__cxa_atexit, newest first, then the
   destructors (llvm.global_dtors, .fini_array), which the front end
   generates.

   Inputs are nondeterministic: argc is 1..CRACE_MAX_ARGC, each argument and
   environment string has at most CRACE_MAX_INPUT_STRING characters of any
   value, the environment holds 0..CRACE_MAX_ENVC strings. argc and the
   environment size are drawn bit by bit (two 1-bit inputs each), so the
   explore engine enumerates them; string contents are sampled, so explore
   never bases race freedom on them. With --args/--env the front end defines
   CRACE_FIXED_ARGS/CRACE_FIXED_ENV and the arrays crace_fixed_argv/envp. */
#include "crace_intrinsics.h"

#define CRACE_MAX_ARGC 4
#define CRACE_MAX_ENVC 3
#define CRACE_MAX_INPUT_STRING 7

/* The process environment. Weak, so a program that defines its own wins. */
__attribute__((weak)) char **environ;

/* A fresh string of at most CRACE_MAX_INPUT_STRING characters of any value. */
CRACE_MODEL char *__crace_input_string(void) {
  char *s = (char *)__crace_alloc(CRACE_MAX_INPUT_STRING + 1);
  for (int i = 0; i < CRACE_MAX_INPUT_STRING; i++)
    s[i] = (char)__crace_nondet_bits(8);
  s[CRACE_MAX_INPUT_STRING] = 0;
  return s;
}

/* A NULL-terminated array of n fresh input strings. */
CRACE_MODEL char **__crace_input_strings(int n) {
  char **v = (char **)__crace_alloc((crace_size_t)(n + 1) * sizeof(char *));
  for (int i = 0; i < n; i++)
    v[i] = __crace_input_string();
  v[n] = 0;
  return v;
}

CRACE_MODEL int __crace_start_argc(void) {
#ifdef CRACE_FIXED_ARGS
  return crace_fixed_argc;
#else
  int lo = (int)__crace_nondet_bits(1);
  int hi = (int)__crace_nondet_bits(1);
  return 1 + lo + 2 * hi; /* 1..CRACE_MAX_ARGC */
#endif
}

CRACE_MODEL char **__crace_start_argv(int argc) {
#ifdef CRACE_FIXED_ARGS
  return crace_fixed_argv;
#else
  return __crace_input_strings(argc);
#endif
}

CRACE_MODEL char **__crace_start_envp(void) {
#ifdef CRACE_FIXED_ENV
  environ = crace_fixed_envp;
#else
  int lo = (int)__crace_nondet_bits(1);
  int hi = (int)__crace_nondet_bits(1);
  environ = __crace_input_strings(lo + 2 * hi); /* 0..CRACE_MAX_ENVC */
#endif
  return environ;
}

/* getenv searches the environment, as the C library does: the result points
   into an environment string. */
CRACE_MODEL char *getenv(const char *name) {
  char **e = environ;
  if (!e)
    return 0;
  for (; *e; e++) {
    const char *s = *e, *n = name;
    while (*n && *s == *n) {
      s++;
      n++;
    }
    if (!*n && *s == '=')
      return (char *)s + 1;
  }
  return 0;
}
CRACE_MODEL char *secure_getenv(const char *name) { return getenv(name); }

/* Exit handlers: a table under the C library's lock, run newest first by
   exit() in the exiting thread (the lock is not held while one runs). */
/* POSIX guarantees at least 32 registrations (ATEXIT_MAX). */
#define CRACE_MAX_EXIT_HANDLERS 32
static struct {
  void *fn;
  void *arg;
  int kind; /* 0: atexit f(void); 1: on_exit f(int, void *); 2: f(void *) */
} crace_exit_handlers[CRACE_MAX_EXIT_HANDLERS];
static int crace_exit_count;
static char crace_exit_lock;

CRACE_MODEL int __crace_register_exit(void *fn, void *arg, int kind) {
  int ok = 0;
  __crace_lock(&crace_exit_lock);
  if (crace_exit_count < CRACE_MAX_EXIT_HANDLERS) {
    crace_exit_handlers[crace_exit_count].fn = fn;
    crace_exit_handlers[crace_exit_count].arg = arg;
    crace_exit_handlers[crace_exit_count].kind = kind;
    crace_exit_count++;
  } else {
    /* Past what POSIX guarantees: the C library may or may not accept it;
       an engine that executes the program does not go on. */
    ok = __crace_unknown_int();
  }
  __crace_unlock(&crace_exit_lock);
  return ok;
}
CRACE_MODEL int atexit(void (*f)(void)) {
  return __crace_register_exit((void *)f, 0, 0);
}
CRACE_MODEL int on_exit(void (*f)(int, void *), void *arg) {
  return __crace_register_exit((void *)f, arg, 1);
}
CRACE_MODEL int __cxa_atexit(void (*f)(void *), void *arg, void *dso) {
  return __crace_register_exit((void *)f, arg, 2);
}
CRACE_MODEL int at_quick_exit(void (*f)(void)) { return 0; }

/* Called by exit() and on return from main (the front end generates the
   call when the program registers exit handlers). */
CRACE_MODEL void __crace_run_exit_handlers(int code) {
  for (;;) {
    __crace_lock(&crace_exit_lock);
    if (crace_exit_count == 0) {
      __crace_unlock(&crace_exit_lock);
      return;
    }
    crace_exit_count--;
    void *fn = crace_exit_handlers[crace_exit_count].fn;
    void *arg = crace_exit_handlers[crace_exit_count].arg;
    int kind = crace_exit_handlers[crace_exit_count].kind;
    __crace_unlock(&crace_exit_lock);
    if (kind == 0)
      ((void (*)(void))fn)();
    else if (kind == 1)
      ((void (*)(int, void *))fn)(code, arg);
    else
      ((void (*)(void *))fn)(arg);
  }
}

/* Process control. fork's child is another process: no race crosses it,
   and only the forking thread goes on in it, with a copy of memory.
   __crace_unknown_fork is the one call that says which side a run is on:
   the executing engine (explore) chooses, and on the child's side the
   other threads are not in the process any more; the static engines take
   its result as any value, so they analyse both sides as code of the
   forking thread (more concurrency than there is: sound, and a race they
   find there is never confirmed). daemon() forks, and the parent exits at
   once (_exit: no handlers); it goes on in the child. */
CRACE_MODEL int fork(void) {
  if (__crace_nondet_bits(1))
    return __crace_libc_fail();
  return __crace_unknown_fork();
}
CRACE_MODEL int vfork(void) { return fork(); }
CRACE_MODEL int daemon(int nochdir, int noclose) {
  int r = fork();
  if (r < 0)
    return -1;
  if (r > 0)
    __crace_exit(0);
  return 0;
}
/* exec replaces the process image when it succeeds: every thread ends, no
   exit handler runs; otherwise it returns -1. */
CRACE_MODEL int __crace_exec(const char *path) {
  __crace_read(path, 0);
  if (__crace_nondet_bits(1))
    __crace_exit(0);
  return -1;
}
CRACE_MODEL int execv(const char *p, char *const argv[]) { return __crace_exec(p); }
CRACE_MODEL int execvp(const char *p, char *const argv[]) { return __crace_exec(p); }
CRACE_MODEL int execve(const char *p, char *const argv[], char *const envp[]) {
  return __crace_exec(p);
}
/* The list forms: the argument strings follow as variadic operands. */
CRACE_MODEL int execl(const char *p, const char *arg, ...) { return __crace_exec(p); }
CRACE_MODEL int execlp(const char *p, const char *arg, ...) { return __crace_exec(p); }
CRACE_MODEL int execle(const char *p, const char *arg, ...) { return __crace_exec(p); }
/* system() runs a command in a child process and waits: its status is an
   input. */
CRACE_MODEL int system(const char *cmd) {
  if (cmd)
    __crace_read(cmd, 0);
  return __crace_nondet_int();
}
