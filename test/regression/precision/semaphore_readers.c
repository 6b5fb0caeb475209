// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DREADER_WRITES | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DREADER_WRITES | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=lockset %s -- -DUNLOCKED_ENTRY | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DCOUNT_ELSEWHERE | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DEXIT_WITHOUT_ENTRY | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DSTARTS_AT_TWO | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DPOST_FROM_READER | %FileCheck %s --check-prefix=RACY
// ctrace's readers and writers on one binary semaphore (the protocol of
// Courtois, Heymans and Parnas): a writer takes the semaphore itself, the
// first reader takes it for all readers under a mutex that guards their
// count, and the last reader gives it back. Writers update `table`, readers
// read it: no race (analysis/SemaphoreLocks.h). The variants break the
// argument: a reader writes (READER_WRITES, a real race), an entry counts
// without the mutex (UNLOCKED_ENTRY), main resets the count while threads
// run (COUNT_ELSEWHERE), a thread leaves the readers without having entered
// (EXIT_WITHOUT_ENTRY), the semaphore starts at 2 (STARTS_AT_TWO), or a
// reader posts the semaphore itself (POST_FROM_READER).
// expected-verdict: race-free
// RACY: possible data race on 'table
// CONFIRMED: error: data race on 'table
#include <pthread.h>
#include <semaphore.h>

static sem_t sem;
static pthread_mutex_t count_mutex = PTHREAD_MUTEX_INITIALIZER;
static int readers;
static int table[4];

static void enter(void) {
#ifndef UNLOCKED_ENTRY
  pthread_mutex_lock(&count_mutex);
#endif
  if (!readers)
    sem_wait(&sem);
  readers++;
#ifndef UNLOCKED_ENTRY
  pthread_mutex_unlock(&count_mutex);
#endif
}

static void leave(void) {
  pthread_mutex_lock(&count_mutex);
  readers--;
  if (!readers)
    sem_post(&sem);
  pthread_mutex_unlock(&count_mutex);
}

static void *writer(void *arg) {
  sem_wait(&sem);
  table[(long)arg & 3] += 1;
  sem_post(&sem);
  return 0;
}

static void *reader(void *arg) {
  int sum = 0;
#ifdef EXIT_WITHOUT_ENTRY
  if (arg)
    leave();
#endif
  enter();
  for (int i = 0; i < 4; i++)
    sum += table[i];
#ifdef READER_WRITES
  table[0] = sum;
#endif
#ifdef POST_FROM_READER
  sem_post(&sem);
#endif
  leave();
  return (void *)(long)sum;
}

int main(void) {
  pthread_t w1, w2, r1, r2;
#ifdef STARTS_AT_TWO
  sem_init(&sem, 0, 2);
#else
  sem_init(&sem, 0, 1);
#endif
  pthread_create(&w1, 0, writer, (void *)1);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w2, 0, writer, (void *)2);
  pthread_create(&r2, 0, reader, (void *)1);
#ifdef COUNT_ELSEWHERE
  readers = 0;
#endif
  pthread_join(w1, 0);
  pthread_join(r1, 0);
  pthread_join(w2, 0);
  pthread_join(r2, 0);
  return table[0];
}
