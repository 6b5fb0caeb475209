//===- CircTest.cpp - unit tests of circ's CFAs and context inference -----===//
//
// Small C programs compiled through crace's front end; their templates'
// CFAs (engines/circ/Cfa.h) checked for what the abstraction rests on
// (which globals are variables, how a lock becomes a guarded assignment,
// which comparisons become predicates), and runCirc (Circ.h) on the whole
// program: a proof of CIRC's own example, and no proof where a second
// thread can take the flag while the first still writes.
//
//===----------------------------------------------------------------------===//
#include "engines/circ/Circ.h"
#include "TestUtil.h"
#include "analysis/Lockset.h"
#include "engines/circ/Cfa.h"
#include "smt/Solver.h"
#include "gtest/gtest.h"

#include "llvm/IR/GlobalVariable.h"

using namespace crace;
using namespace crace::circ;
using namespace crace::test;
using namespace llvm;

namespace {

struct Built {
  Compiled C;
  z3::context Ctx;
  std::unique_ptr<Vars> V;
  std::vector<Cfa> Cfas;
  std::vector<TemplateCount> Counts;
  Result Static;
  PairSet Pairs;
};

std::unique_ptr<Built> build(const std::string &Code) {
  auto B = std::make_unique<Built>();
  B->C = compile(Code);
  EXPECT_TRUE(B->C.PM) << B->C.Error;
  if (!B->C.PM)
    return B;
  B->Static = analyseLocksets(*B->C.PM, nullptr, 0);
  DenseSet<const Instruction *> Wanted;
  for (const Candidate &Cd : B->Static.Candidates) {
    Wanted.insert(Cd.A);
    Wanted.insert(Cd.B);
    B->Pairs.insert({Cd.A, Cd.ThreadA, Cd.B, Cd.ThreadB});
    B->Pairs.insert({Cd.B, Cd.ThreadB, Cd.A, Cd.ThreadA});
  }
  B->V = std::make_unique<Vars>(B->Ctx);
  for (const ThreadTemplate &T : B->C.PM->threads()) {
    B->Cfas.push_back(buildCfa(*B->C.PM, T.Id, *B->V, Wanted));
    B->Counts.push_back({T.Id, T.Multi});
  }
  return B;
}

bool tracked(const Vars &V, StringRef Name) {
  for (const auto &[GV, _] : V.Globals)
    if (GV->getName() == Name)
      return true;
  return false;
}

CircOutcome::Kind circ(Built &B) {
  auto S = smt::makeSolver(B.Ctx, smt::SolverOptions());
  std::vector<z3::expr> Preds = seedPredicates(B.Cfas, *B.V, 40);
  return runCirc(B.Cfas, B.Counts, *B.V, Preds, B.Pairs, *S, CircOptions()).K;
}

const char *StateFlag = R"(
#include <pthread.h>
int x, state;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  for (;;) {
    pthread_mutex_lock(&m);
    int old = state;
    if (state == 0)
      state = 1;
    pthread_mutex_unlock(&m);
    if (old == 0) {
      %s
    }
  }
  return 0;
}
int main(void) {
  pthread_t t;
  for (;;)
    pthread_create(&t, 0, worker, 0);
  return 0;
}
)";

std::string stateFlag(const char *Body) {
  char Buf[2048];
  snprintf(Buf, sizeof Buf, StateFlag, Body);
  return Buf;
}

TEST(CircCfa, IntegerGlobalsAreVariablesThreadLocalsAreNot) {
  auto B = build(R"(
#include <pthread.h>
int g;
__thread int t;
int arr[4];
void *w(void *a) { g = t; t = 1; arr[1] = 2; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, w, 0); return g; }
)");
  ASSERT_TRUE(B->C.PM);
  EXPECT_TRUE(tracked(*B->V, "g"));
  // One copy per thread: as a shared variable, other threads' regions
  // would constrain this thread's own copy.
  EXPECT_FALSE(tracked(*B->V, "t"));
  EXPECT_FALSE(tracked(*B->V, "arr"));
  for (const Cfa &C : B->Cfas)
    EXPECT_EQ(C.Unsupported, "");
}

TEST(CircCfa, LockIsAGuardedAssignmentOfItsBit) {
  auto B = build(stateFlag("x = x + 1; pthread_mutex_lock(&m); state = 0; "
                           "pthread_mutex_unlock(&m);"));
  ASSERT_TRUE(B->C.PM);
  ASSERT_EQ(B->V->Locks.size(), 1u);
  VarId L = B->V->Locks.begin()->second;
  unsigned Acquires = 0, Releases = 0;
  for (const Cfa &C : B->Cfas)
    for (const Edge &E : C.Edges) {
      bool Assigns = false;
      for (const auto &[X, Tm] : E.Assigns)
        Assigns |= X == L;
      if (!Assigns)
        continue;
      if (E.Guards.empty())
        ++Releases;
      else
        ++Acquires; // guard: the bit is 0
    }
  EXPECT_EQ(Acquires, 2u);
  EXPECT_EQ(Releases, 2u);
}

TEST(CircCfa, FlagsTestedAsTheyAreBecomePredicates) {
  auto B = build(R"(
#include <pthread.h>
_Bool ready;
int data;
void *r(void *a) { while (!ready) {} return (void *)(long)data; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, r, 0);
  data = 1;
  ready = 1;
  return 0;
}
)");
  ASSERT_TRUE(B->C.PM);
  VarId Ready = B->V->Globals.begin()->second;
  for (const auto &[GV, X] : B->V->Globals)
    if (GV->getName() == "ready")
      Ready = X;
  // Some predicate is over the global `ready` itself (the test of the
  // thread's load, with the load replaced by the global).
  bool OverReady = false;
  for (const z3::expr &P : seedPredicates(B->Cfas, *B->V, 40)) {
    std::string S = P.to_string();
    OverReady |= S.find(B->V->List[Ready].Name) != std::string::npos &&
                 S.find("t1.") == std::string::npos;
  }
  EXPECT_TRUE(OverReady);
}

TEST(Circ, ProvesTheStateFlagProtocol) {
  auto B = build(stateFlag("x = x + 1; pthread_mutex_lock(&m); state = 0; "
                           "pthread_mutex_unlock(&m);"));
  ASSERT_TRUE(B->C.PM);
  ASSERT_FALSE(B->Pairs.empty());
  EXPECT_EQ(circ(*B), CircOutcome::Safe);
}

TEST(Circ, NoProofWhenTheFlagIsResetBeforeTheWrite) {
  auto B = build(stateFlag("pthread_mutex_lock(&m); state = 0; "
                           "pthread_mutex_unlock(&m); x = x + 1;"));
  ASSERT_TRUE(B->C.PM);
  EXPECT_EQ(circ(*B), CircOutcome::AbstractRace);
}

} // namespace
