/* libevent 2.x (event2/event.h and the 1.x names of event_compat.h): events
   registered on a base, and the loop that dispatches them.

   A callback runs in the thread that runs event_base_loop (or
   event_base_dispatch, event_dispatch, event_loop) on its event's base,
   with the event's fd, what happened, and the argument it was registered
   with: so the argument is what the program passed, not memory of unknown
   origin, and the callback's accesses belong to the loop's thread. Each
   turn of the loop runs one event whose time has come; which one, and what
   happened (readable, writable, a timeout), is input, since the network and
   the clock decide. A non-persistent event is removed before its callback
   runs, as libevent does. The loop returns 1 when its base has no event
   left (unless EVLOOP_NO_EXIT_ON_EMPTY), after one turn with EVLOOP_ONCE or
   EVLOOP_NONBLOCK, and after event_base_loopexit/loopbreak.

   The model keeps its own record of each event (keyed by the program's
   struct event) and never writes the struct's fields, which are libevent's
   private state; a program that reads them directly is not modelled. The
   record is guarded by a model lock: libevent without evthread locking is
   not safe across threads, but a race inside the library is not the
   program's. */
#include "crace_intrinsics.h"

#define CRACE_EV_TIMEOUT 0x01
#define CRACE_EV_READ 0x02
#define CRACE_EV_WRITE 0x04
#define CRACE_EV_SIGNAL 0x08
#define CRACE_EV_PERSIST 0x10
#define CRACE_EV_CLOSED 0x80
#define CRACE_EVLOOP_ONCE 0x01
#define CRACE_EVLOOP_NONBLOCK 0x02
#define CRACE_EVLOOP_NO_EXIT_ON_EMPTY 0x04

typedef void (*crace_ev_cb)(int, short, void *);

struct crace_ev_base {
  int exit_requested;
  int got_exit;
  int got_break;
};

struct crace_ev {
  void *ev; /* the program's struct event */
  struct crace_ev_base *base;
  int fd;
  short what;
  crace_ev_cb cb;
  void *arg;
  int added;
  struct crace_ev *next;
};

static struct crace_ev *__crace_ev_list;
static struct crace_ev_base *__crace_ev_current;
static char __crace_ev_lock;

/* The record of ev, made when missing (caller holds __crace_ev_lock). */
CRACE_MODEL struct crace_ev *__crace_ev_find(void *ev, int make) {
  for (struct crace_ev *e = __crace_ev_list; e; e = e->next)
    if (e->ev == ev)
      return e;
  if (!make)
    return 0;
  struct crace_ev *e = __crace_alloc(sizeof(struct crace_ev));
  e->ev = ev;
  e->base = 0;
  e->fd = -1;
  e->what = 0;
  e->cb = 0;
  e->arg = 0;
  e->added = 0;
  e->next = __crace_ev_list;
  __crace_ev_list = e;
  return e;
}

/* A base: the model's own state, as the records are (the __crace_ names
   keep them out of what the engines check). */
CRACE_MODEL struct crace_ev_base *__crace_ev_new_base(void) {
  struct crace_ev_base *b = __crace_alloc(sizeof(struct crace_ev_base));
  b->exit_requested = 0;
  b->got_exit = 0;
  b->got_break = 0;
  return b;
}
CRACE_MODEL void *event_base_new(void) { return __crace_ev_new_base(); }
CRACE_MODEL void *event_base_new_with_config(const void *cfg) {
  return event_base_new();
}
CRACE_MODEL void *event_init(void) {
  void *b = event_base_new();
  __crace_lock(&__crace_ev_lock);
  __crace_ev_current = b;
  __crace_unlock(&__crace_ev_lock);
  return b;
}
CRACE_MODEL void event_base_free(void *base) {}
CRACE_MODEL int event_reinit(void *base) { return 0; }
CRACE_MODEL void *event_config_new(void) { return __crace_alloc(16); }
CRACE_MODEL void event_config_free(void *cfg) { __crace_free(cfg); }
CRACE_MODEL int event_config_set_flag(void *cfg, int flag) { return 0; }
CRACE_MODEL int event_config_avoid_method(void *cfg, const char *m) {
  return 0;
}
CRACE_MODEL int event_config_require_features(void *cfg, int f) { return 0; }
CRACE_MODEL const char *event_get_version(void) { return "2.1.12-stable"; }
CRACE_MODEL unsigned event_get_version_number(void) { return 0x02010c00; }
CRACE_MODEL const char *event_base_get_method(const void *base) {
  return "epoll";
}
CRACE_MODEL const char *event_get_method(void) { return "epoll"; }

CRACE_MODEL int event_assign(void *ev, void *base, int fd, short what,
                             crace_ev_cb cb, void *arg) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find(ev, 1);
  e->base = base;
  e->fd = fd;
  e->what = what;
  e->cb = cb;
  e->arg = arg;
  e->added = 0;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL void event_set(void *ev, int fd, short what, crace_ev_cb cb,
                           void *arg) {
  __crace_lock(&__crace_ev_lock);
  void *base = __crace_ev_current;
  __crace_unlock(&__crace_ev_lock);
  event_assign(ev, base, fd, what, cb, arg);
}
CRACE_MODEL int event_base_set(void *base, void *ev) {
  __crace_lock(&__crace_ev_lock);
  __crace_ev_find(ev, 1)->base = base;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL void *event_new(void *base, int fd, short what, crace_ev_cb cb,
                            void *arg) {
  void *ev = __crace_alloc(64);
  event_assign(ev, base, fd, what, cb, arg);
  return ev;
}
CRACE_MODEL int event_add(void *ev, const void *tv) {
  if (tv)
    __crace_read(tv, 2 * sizeof(long));
  __crace_lock(&__crace_ev_lock);
  __crace_ev_find(ev, 1)->added = 1;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL int event_del(void *ev) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find(ev, 0);
  if (e)
    e->added = 0;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL void event_free(void *ev) {
  event_del(ev);
  __crace_free(ev);
}
/* The event runs at the loop's next turn. */
CRACE_MODEL void event_active(void *ev, int res, short ncalls) {
  event_add(ev, 0);
}
CRACE_MODEL int event_pending(const void *ev, short what, void *tv) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find((void *)ev, 0);
  int r = e && e->added ? what & (e->what | CRACE_EV_TIMEOUT) : 0;
  __crace_unlock(&__crace_ev_lock);
  return r;
}
CRACE_MODEL int event_initialized(const void *ev) {
  __crace_lock(&__crace_ev_lock);
  int r = __crace_ev_find((void *)ev, 0) != 0;
  __crace_unlock(&__crace_ev_lock);
  return r;
}
CRACE_MODEL int event_get_fd(const void *ev) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find((void *)ev, 0);
  int fd = e ? e->fd : -1;
  __crace_unlock(&__crace_ev_lock);
  return fd;
}
CRACE_MODEL void *event_get_base(const void *ev) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find((void *)ev, 0);
  void *b = e ? e->base : 0;
  __crace_unlock(&__crace_ev_lock);
  return b;
}
CRACE_MODEL void *event_get_callback_arg(const void *ev) {
  __crace_lock(&__crace_ev_lock);
  struct crace_ev *e = __crace_ev_find((void *)ev, 0);
  void *a = e ? e->arg : 0;
  __crace_unlock(&__crace_ev_lock);
  return a;
}
/* A one-shot event with no struct event of the program's. */
CRACE_MODEL int event_base_once(void *base, int fd, short what,
                                crace_ev_cb cb, void *arg, const void *tv) {
  void *ev = __crace_alloc(1);
  event_assign(ev, base, fd, (short)(what & ~CRACE_EV_PERSIST), cb, arg);
  return event_add(ev, tv);
}

CRACE_MODEL int event_base_loopexit(void *base, const void *tv) {
  struct crace_ev_base *b = base;
  if (tv)
    __crace_read(tv, 2 * sizeof(long));
  __crace_lock(&__crace_ev_lock);
  b->exit_requested = 1;
  b->got_exit = 1;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL int event_base_loopbreak(void *base) {
  struct crace_ev_base *b = base;
  __crace_lock(&__crace_ev_lock);
  b->exit_requested = 1;
  b->got_break = 1;
  __crace_unlock(&__crace_ev_lock);
  return 0;
}
CRACE_MODEL int event_base_got_exit(void *base) {
  struct crace_ev_base *b = base;
  __crace_lock(&__crace_ev_lock);
  int r = b->got_exit;
  __crace_unlock(&__crace_ev_lock);
  return r;
}
CRACE_MODEL int event_base_got_break(void *base) {
  struct crace_ev_base *b = base;
  __crace_lock(&__crace_ev_lock);
  int r = b->got_break;
  __crace_unlock(&__crace_ev_lock);
  return r;
}

CRACE_MODEL int event_base_loop(void *base, int flags) {
  struct crace_ev_base *b = base;
  __crace_lock(&__crace_ev_lock);
  b->got_exit = 0;
  b->got_break = 0;
  __crace_unlock(&__crace_ev_lock);
  for (;;) {
    __crace_lock(&__crace_ev_lock);
    if (b->exit_requested) {
      b->exit_requested = 0;
      __crace_unlock(&__crace_ev_lock);
      return 0;
    }
    /* The event whose time has come: any added event of this base. */
    struct crace_ev *chosen = 0;
    for (struct crace_ev *e = __crace_ev_list; e; e = e->next)
      if (e->base == b && e->added && (!chosen || __crace_nondet_bits(1)))
        chosen = e;
    if (!chosen) {
      __crace_unlock(&__crace_ev_lock);
      if (flags & CRACE_EVLOOP_NO_EXIT_ON_EMPTY)
        continue;
      return 1;
    }
    if (!(chosen->what & CRACE_EV_PERSIST))
      chosen->added = 0;
    crace_ev_cb cb = chosen->cb;
    int fd = chosen->fd;
    void *arg = chosen->arg;
    short happened =
        (short)(chosen->what &
                (CRACE_EV_READ | CRACE_EV_WRITE | CRACE_EV_SIGNAL |
                 CRACE_EV_CLOSED) &
                __crace_nondet_bits(8));
    __crace_unlock(&__crace_ev_lock);
    cb(fd, happened ? happened : CRACE_EV_TIMEOUT, arg);
    if (flags & (CRACE_EVLOOP_ONCE | CRACE_EVLOOP_NONBLOCK))
      return 0;
  }
}
CRACE_MODEL int event_base_dispatch(void *base) {
  return event_base_loop(base, 0);
}
CRACE_MODEL int event_loop(int flags) {
  __crace_lock(&__crace_ev_lock);
  void *b = __crace_ev_current;
  __crace_unlock(&__crace_ev_lock);
  return event_base_loop(b, flags);
}
CRACE_MODEL int event_dispatch(void) { return event_loop(0); }
CRACE_MODEL int event_loopexit(const void *tv) {
  __crace_lock(&__crace_ev_lock);
  void *b = __crace_ev_current;
  __crace_unlock(&__crace_ev_lock);
  return event_base_loopexit(b, tv);
}
CRACE_MODEL int event_loopbreak(void) {
  __crace_lock(&__crace_ev_lock);
  void *b = __crace_ev_current;
  __crace_unlock(&__crace_ev_lock);
  return event_base_loopbreak(b);
}
