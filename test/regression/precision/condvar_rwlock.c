// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DNO_READER_CHECK | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DNO_READER_CHECK | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=lockset %s -- -DREADER_WRITES | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DREADER_WRITES | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=lockset %s -- -DOUTSIDE_WRITE | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DNOT_HOLDER | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DINDIRECT | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DCOUNT_UNLOCKED | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DSTARTS_HELD | %FileCheck %s --check-prefix=RACY
// ypbind's reader/writer lock, built from a mutex, a condition variable and
// two counters (pthread_rdwr_*_np). Writers update `table` holding it for
// writing, readers read it holding it for reading: no race
// (analysis/CondvarRwLocks.h). The variants break the argument: the write
// acquire does not wait for the readers (NO_READER_CHECK, a real race), a
// reader writes (READER_WRITES, a real race), other code writes a counter
// (OUTSIDE_WRITE), a thread releases the lock it does not hold (NOT_HOLDER),
// a release through a function pointer (INDIRECT), a counter updated
// outside the mutex (COUNT_UNLOCKED), or the writer count does not start at
// 0 (STARTS_HELD).
// expected-verdict: race-free
// RACY: possible data race on 'table
// CONFIRMED: error: data race on 'table
#include <pthread.h>

typedef struct {
  int readers;
  int writers;
  int wishwrite;
  pthread_mutex_t mutex;
  pthread_cond_t lock_free;
} rdwr_t;

#ifdef STARTS_HELD
static rdwr_t rw = {0, 1, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
#else
static rdwr_t rw = {0, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
#endif
static int table[4];

static int rdwr_rlock(rdwr_t *p) {
  pthread_mutex_lock(&p->mutex);
  while (p->writers || p->wishwrite)
    pthread_cond_wait(&p->lock_free, &p->mutex);
#ifdef COUNT_UNLOCKED
  pthread_mutex_unlock(&p->mutex);
  p->readers++;
#else
  p->readers++;
  pthread_mutex_unlock(&p->mutex);
#endif
  return 0;
}

static int rdwr_wlock(rdwr_t *p) {
  pthread_mutex_lock(&p->mutex);
  p->wishwrite++;
#ifdef NO_READER_CHECK
  while (p->writers)
#else
  while (p->writers || p->readers)
#endif
    pthread_cond_wait(&p->lock_free, &p->mutex);
  p->writers++;
  p->wishwrite--;
  pthread_mutex_unlock(&p->mutex);
  return 0;
}

static int rdwr_runlock(rdwr_t *p) {
  int status;
  pthread_mutex_lock(&p->mutex);
  if (p->readers == 0) {
    status = -1;
  } else {
    p->readers--;
    if (p->readers == 0)
      pthread_cond_signal(&p->lock_free);
    status = 0;
  }
  pthread_mutex_unlock(&p->mutex);
  return status;
}

static int rdwr_wunlock(rdwr_t *p) {
  int status;
  pthread_mutex_lock(&p->mutex);
  if (p->writers == 0) {
    status = -1;
  } else {
    p->writers = 0;
    pthread_cond_broadcast(&p->lock_free);
    status = 0;
  }
  pthread_mutex_unlock(&p->mutex);
  return status;
}

static int (*volatile release_write)(rdwr_t *) = rdwr_wunlock;

static void *writer(void *arg) {
  rdwr_wlock(&rw);
  table[(long)arg & 3] += 1;
#ifdef INDIRECT
  release_write(&rw);
#else
  rdwr_wunlock(&rw);
#endif
  return 0;
}

static void *reader(void *arg) {
  int sum = 0;
#ifdef NOT_HOLDER
  rdwr_wunlock(&rw);
#endif
  rdwr_rlock(&rw);
  for (int i = 0; i < 4; i++)
    sum += table[i];
#ifdef READER_WRITES
  table[0] = sum;
#endif
  rdwr_runlock(&rw);
  return (void *)(long)sum;
}

int main(void) {
  pthread_t w1, w2, r1, r2;
  pthread_create(&w1, 0, writer, (void *)1);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w2, 0, writer, (void *)2);
  pthread_create(&r2, 0, reader, 0);
#ifdef OUTSIDE_WRITE
  rw.readers = 0;
#endif
  pthread_join(w1, 0);
  pthread_join(r1, 0);
  pthread_join(w2, 0);
  pthread_join(r2, 0);
  return table[0];
}
