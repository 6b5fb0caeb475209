// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s -- -DRACY
// gdbm 1.8 (models/gdbm.c): every call reads and writes the handle's state
// (gdbm keeps its bucket cache there, with no lock), gdbm_store reads the
// key and content bytes, gdbm_fetch returns fresh memory of input bytes.
// Without RACY both threads use the database under the lock, and each
// fetched record is the fetching thread's own: race-free (unknown before
// the model). With RACY the worker stores without the lock: it races with
// main's fetch on the handle, and its read of 'name' with main's write;
// explore confirms both.
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
/* The part of <gdbm.h> the program uses. */
typedef struct {
  char *dptr;
  int dsize;
} datum;
typedef struct {
  int dummy[10];
} * GDBM_FILE;
GDBM_FILE gdbm_open(char *, int, int, int, void (*)());
void gdbm_close(GDBM_FILE);
int gdbm_store(GDBM_FILE, datum, datum, int);
datum gdbm_fetch(GDBM_FILE, datum);
#define GDBM_WRCREAT 2
#define GDBM_REPLACE 1

GDBM_FILE db;
char name[8] = "song";
char value[16];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  datum k = {name, 4}, v = {value, sizeof value};
#ifdef RACY
  gdbm_store(db, k, v, GDBM_REPLACE); // expected-race(explore)
#else
  pthread_mutex_lock(&lock);
  gdbm_store(db, k, v, GDBM_REPLACE);
  pthread_mutex_unlock(&lock);
#endif
  return 0;
}

int main(void) {
  db = gdbm_open("songs.gdb", 0, GDBM_WRCREAT, 0600, 0);
  if (!db)
    return 1;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  datum k = {"song", 4};
  int c = 0;
#ifdef RACY
  name[0] = 'S'; // expected-race(explore)
  datum r = gdbm_fetch(db, k); // expected-race(explore)
#else
  pthread_mutex_lock(&lock);
  name[0] = 'S';
  datum r = gdbm_fetch(db, k);
  pthread_mutex_unlock(&lock);
#endif
  if (r.dptr) {
    r.dptr[0] = 0;
    c = r.dsize;
    free(r.dptr);
  }
  pthread_join(t, 0);
  gdbm_close(db);
  return c;
}
