// A library of two programs in make_db.py's databases.
#include <pthread.h>

int shared;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void lib_locked_inc(void) {
  pthread_mutex_lock(&m);
  shared++;
  pthread_mutex_unlock(&m);
}

void lib_racy_inc(void) { shared++; }
