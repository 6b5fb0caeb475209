//===- SemaphoreLocksTest.cpp - semaphores taken as locks -----------------===//
#include "analysis/SemaphoreLocks.h"
#include "TestUtil.h"
#include "model/ProgramModel.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "gtest/gtest.h"

using namespace crace;
using namespace crace::test;

namespace {

const char *Code = R"(
  #include <pthread.h>
  #include <semaphore.h>
  sem_t sem;
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  int readers, other;
  void enter(void) { pthread_mutex_lock(&m); if (!readers) sem_wait(&sem); readers++; pthread_mutex_unlock(&m); }
  void leave(void) { pthread_mutex_lock(&m); readers--; if (!readers) sem_post(&sem); pthread_mutex_unlock(&m); }
  void loose(void) { if (!other) sem_wait(&sem); other++; }
  void *r(void *a) { enter(); leave(); loose(); return 0; }
  int main() { pthread_t t; sem_init(&sem, 0, 1); pthread_create(&t, 0, r, 0); return 0; })";

/// The only store of F.
const llvm::StoreInst *storeIn(const llvm::Module &M, const char *F) {
  const llvm::StoreInst *Out = nullptr;
  for (const llvm::Instruction &I : llvm::instructions(*M.getFunction(F)))
    if (const auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
      Out = S;
  return Out;
}

} // namespace

TEST(SemaphoreLocksTest, ReadersTakeTheSemaphoreForReading) {
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  LockTable Locks(*C.PM);
  std::set<uint32_t> NotLocks;
  SemaphoreLocks Sems(*C.PM, Locks, NotLocks);
  const llvm::StoreInst *In = storeIn(*C.M, "enter"),
                        *Out = storeIn(*C.M, "leave"),
                        *Loose = storeIn(*C.M, "loose");
  ASSERT_TRUE(In && Out && Loose);
  LockSet LS;
  Sems.afterStore(*In, LS);
  ASSERT_EQ(LS.Held.size(), 1u);
  EXPECT_TRUE(LS.Held[0].second); // for reading
  uint32_t Sem = LS.Held[0].first;
  Sems.afterStore(*Out, LS);
  EXPECT_TRUE(LS.Held.empty());
  EXPECT_TRUE(NotLocks.empty());
  // An exit by a thread that is not among the readers: not a lock.
  Sems.afterStore(*Out, LS);
  EXPECT_TRUE(NotLocks.count(Sem));
}

TEST(SemaphoreLocksTest, ACounterWrittenOutsideTheProtocolIsNoGroup) {
  // `loose` counts without the mutex: its store is no protocol step, and
  // the same program's protocol on `readers` still is one.
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  LockTable Locks(*C.PM);
  std::set<uint32_t> NotLocks;
  SemaphoreLocks Sems(*C.PM, Locks, NotLocks);
  LockSet LS;
  Sems.afterStore(*storeIn(*C.M, "loose"), LS);
  EXPECT_TRUE(LS.Held.empty());
  EXPECT_TRUE(NotLocks.empty());
}
