// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s -- -DRACY
// libevent (models/libevent.c): a callback runs in the thread that runs
// its base's loop, with the argument it was registered with. The worker's
// callback touches only its connection, which main never sees, and 'total'
// under the lock: race-free. Before the model, event_assign was code crace
// could not see: the callback's argument was a pointer of unknown origin,
// which may point at 'total' and 'config', so every access raced.
// With RACY the callback also writes 'config', which main writes too:
// explore runs the loop and confirms it.
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
/* The part of <event2/event.h> the program uses (libevent-dev need not be
   installed to run the test). */
struct event_base;
struct event {
  char opaque[128];
};
struct timeval;
#define EV_READ 0x02
#define EV_PERSIST 0x10
struct event_base *event_base_new(void);
int event_assign(struct event *, struct event_base *, int, short,
                 void (*)(int, short, void *), void *);
int event_add(struct event *, const struct timeval *);
int event_base_loop(struct event_base *, int);
#define EVLOOP_ONCE 0x01

struct conn {
  int requests;
  char buf[16];
};
int total, config;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_read(int fd, short what, void *arg) {
  struct conn *c = arg;
  c->requests++;
  c->buf[0] = (char)what;
  pthread_mutex_lock(&lock);
  total++;
  pthread_mutex_unlock(&lock);
#ifdef RACY
  config = 2; // expected-race(explore)
#endif
}

static void *worker(void *arg) {
  struct event_base *base = event_base_new();
  struct conn *c = calloc(1, sizeof *c);
  struct event ev;
  event_assign(&ev, base, 5, EV_READ | EV_PERSIST, on_read, c);
  event_add(&ev, 0);
  for (int i = 0; i < 2; i++)
    event_base_loop(base, EVLOOP_ONCE);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  config = 1; // expected-race(explore)
  pthread_mutex_lock(&lock);
  total = 0;
  pthread_mutex_unlock(&lock);
  pthread_join(t, 0);
  return 0;
}
