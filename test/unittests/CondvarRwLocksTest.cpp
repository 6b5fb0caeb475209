//===- CondvarRwLocksTest.cpp - reader/writer locks from a mutex and a cv -===//
#include "analysis/CondvarRwLocks.h"
#include "TestUtil.h"
#include "model/ProgramModel.h"
#include "gtest/gtest.h"

using namespace crace;
using namespace crace::test;

namespace {

// ypbind's four functions (CIL's nested ifs for the waits), the counters
// at offsets 0 (readers) and 4 (writers), and a helper that logs: a call
// that is not the mutex's or the condition variable's.
const char *Code = R"(
  #include <pthread.h>
  #include <stdio.h>
  #include <stdlib.h>
  typedef struct { int readers, writers, wishwrite;
                   pthread_mutex_t mutex; pthread_cond_t lock_free; } rdwr_t;
  rdwr_t lock;
  rdwr_t *heap_lock;
  int data;
  int rlock(rdwr_t *p) {
    pthread_mutex_lock(&p->mutex);
    while (1) { if (!p->writers) { if (!p->wishwrite) break; }
                pthread_cond_wait(&p->lock_free, &p->mutex); }
    p->readers++;
    pthread_mutex_unlock(&p->mutex);
    return 0;
  }
  int wlock(rdwr_t *p) {
    pthread_mutex_lock(&p->mutex);
    p->wishwrite++;
    while (p->writers || p->readers)
      pthread_cond_wait(&p->lock_free, &p->mutex);
    p->writers++;
    p->wishwrite--;
    pthread_mutex_unlock(&p->mutex);
    return 0;
  }
  int runlock(rdwr_t *p) {
    pthread_mutex_lock(&p->mutex);
    if (p->readers) { p->readers--; if (!p->readers) pthread_cond_signal(&p->lock_free); }
    pthread_mutex_unlock(&p->mutex);
    return 0;
  }
  int wunlock(rdwr_t *p) {
    pthread_mutex_lock(&p->mutex);
    p->writers = 0;
    pthread_cond_broadcast(&p->lock_free);
    pthread_mutex_unlock(&p->mutex);
    return 0;
  }
  int wlock_logged(rdwr_t *p) {
    pthread_mutex_lock(&p->mutex);
    while (p->writers || p->readers)
      pthread_cond_wait(&p->lock_free, &p->mutex);
    p->writers = 1;
    pthread_mutex_unlock(&p->mutex);
    puts("locked");
    return 0;
  }
  void *w(void *a) { rdwr_t *p = a; wlock(p); data++; wunlock(p); return 0; }
  void *r(void *a) { rdwr_t *p = a; rlock(p); int x = data; runlock(p); return (void *)(long)x; }
  int main() {
    pthread_t t1, t2, t3;
    heap_lock = calloc(1, sizeof(rdwr_t));
    pthread_create(&t1, 0, w, &lock);
    pthread_create(&t2, 0, r, &lock);
    pthread_create(&t3, 0, w, heap_lock);
    wlock_logged(heap_lock);
    return 0;
  })";

} // namespace

TEST(CondvarRwLocksTest, RecognisesTheFourShapes) {
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  CondvarRwLocks RW(*C.PM);
  auto Op = [&](const char *Name) { return RW.opOf(C.M->getFunction(Name)); };
  ASSERT_TRUE(Op("rlock"));
  EXPECT_EQ(Op("rlock")->K, RwLockOp::ReadAcquire);
  EXPECT_EQ(Op("rlock")->Counter, 0);
  ASSERT_TRUE(Op("wlock"));
  EXPECT_EQ(Op("wlock")->K, RwLockOp::WriteAcquire);
  EXPECT_EQ(Op("wlock")->Counter, 4);
  // The write acquire saw the readers 0 through the `||` phi.
  EXPECT_EQ(Op("wlock")->ZeroAt,
            (std::vector<std::pair<int64_t, uint64_t>>{{0, 4}}));
  ASSERT_TRUE(Op("runlock"));
  EXPECT_EQ(Op("runlock")->K, RwLockOp::Release);
  EXPECT_FALSE(Op("runlock")->Zeroes);
  ASSERT_TRUE(Op("wunlock"));
  EXPECT_TRUE(Op("wunlock")->Zeroes);
  EXPECT_FALSE(Op("wlock_logged")); // it calls puts
  EXPECT_FALSE(Op("w"));
}

TEST(CondvarRwLocksTest, OnlyAZeroedGlobalWhoseCountersOnlyTheyWrite) {
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  CondvarRwLocks RW(*C.PM);
  const PointsTo &PTA = C.PM->pointsTo();
  uint32_t Global = PTA.objectOf(C.M->getNamedGlobal("lock"));
  auto L = RW.validate(Loc{Global, 0});
  ASSERT_TRUE(L);
  EXPECT_EQ(L->R, 0);
  EXPECT_EQ(L->W, 4);
  EXPECT_EQ(L->Id.Off, 4); // named by its writers counter
  // Not at an offset the functions do not use it at.
  EXPECT_FALSE(RW.validate(Loc{Global, 4}));
  // The calloc'ed one: not a global (and wlock_logged writes its writers).
  bool SawHeap = false;
  for (Loc X : PTA.contents(PTA.objectOf(C.M->getNamedGlobal("heap_lock")))) {
    SawHeap = true;
    EXPECT_FALSE(RW.validate(Loc{X.Obj, 0}));
  }
  EXPECT_TRUE(SawHeap);
}
