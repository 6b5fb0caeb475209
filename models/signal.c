/* Signals: a handler installed with signal() or sigaction() may run at any
   point after its installation, in any thread that does not block the
   signal (a signal from outside the process can always arrive). crace
   models it as a thread created at the installation (ProgramModel names it
   "signal handler F"); the verdict then covers every point where it may
   interrupt the program. One such thread per installation: the handler is
   assumed not to run concurrently with itself (printed with the verdict).
   Masking (sigprocmask, pthread_sigmask) is not modelled: a blocked signal
   is treated as deliverable, which over-approximates.
   SIG_DFL (0), SIG_IGN (1) and SIG_ERR (-1) install no handler. */
#include "crace_intrinsics.h"

/* The handle of a handler "thread": thread-local, so installations in
   different threads never look like a race on it. */
static __thread unsigned long crace_signal_handle;

CRACE_MODEL void __crace_install_handler(int sig, void *h) {
  if ((unsigned long)h + 1 > 2)
    __crace_thread_create(&crace_signal_handle, (void *(*)(void *))h,
                          (void *)(long)sig);
}
CRACE_MODEL void *signal(int sig, void *h) {
  __crace_install_handler(sig, h);
  return 0;
}
CRACE_MODEL void *bsd_signal(int sig, void *h) { return signal(sig, h); }
CRACE_MODEL void *sysv_signal(int sig, void *h) { return signal(sig, h); }
CRACE_MODEL void *__sysv_signal(int sig, void *h) { return signal(sig, h); }

/* struct sigaction starts with the handler (sa_handler/sa_sigaction share
   it) on Linux; the old action gets SIG_DFL. */
CRACE_MODEL int sigaction(int sig, const void *act, void *old) {
  if (old)
    *(void **)old = 0;
  if (act)
    __crace_install_handler(sig, *(void *const *)act);
  return 0;
}

/* Sending a signal runs the handler, which is already a thread of its own. */
CRACE_MODEL int raise(int sig) { return 0; }
CRACE_MODEL int kill(int pid, int sig) { return 0; }
CRACE_MODEL int pthread_kill(unsigned long t, int sig) { return 0; }
CRACE_MODEL unsigned alarm(unsigned s) { return 0; }
CRACE_MODEL int sigprocmask(int how, const void *set, void *old) {
  if (set)
    __crace_read(set, sizeof(unsigned long));
  if (old)
    __crace_write(old, sizeof(unsigned long));
  return 0;
}
CRACE_MODEL int pthread_sigmask(int how, const void *set, void *old) {
  return sigprocmask(how, set, old);
}

/* sigwait and pause: models/posix.c. */
CRACE_MODEL int sigsuspend(const void *mask) { return -1; }
