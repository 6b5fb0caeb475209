//===- KissTest.cpp - unit tests of the KISS transform (engines/kiss) -----===//
//
// Small C programs compiled through crace's front end (models linked and
// inlined, as in real runs), transformed by kiss::transform, and the
// emitted IR checked for the structures of the transform: the raise
// global, schedule() and the nondeterministic RAISE immediately before
// every visible instruction, thread creation as a put into ts (or a direct
// run when ts has no slot), `if (raise) return` after calls that may raise,
// the per-target access checks (failure call and record), and a valid
// module. Two end-to-end checks run the bmc on the output: a racy program
// reaches a race failure, a lock-protected one does not.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "bmc/Bmc.h"
#include "engines/kiss/KissTransform.h"
#include "frontend/Frontend.h"
#include "gtest/gtest.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/IR/Operator.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace crace;
using namespace crace::test;
using namespace llvm;

namespace {

/// t writes x under no lock, main reads it: a race on x. y is written in
/// helper (called from main: a call that may raise) and by t. `pure` has no
/// visible instruction, so calls of it are not instrumented.
const char *Racy = R"C(
#include <pthread.h>
int x, y;
int pure(int a) { return a * 2 + 1; }
void helper(void) { y = 2; }
void *t(void *p) {
  x = 1;
  y = 3;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int k = pure(3);
  helper();
  int v = x;
  pthread_join(h, 0);
  return v + k;
}
)C";

const char *Locked = R"C(
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t(void *p) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  int v = x;
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  return v;
}
)C";

/// A malloc'd object shared by main and t (a heap target), racy on hits.
const char *HeapRacy = R"C(
#include <pthread.h>
#include <stdlib.h>
struct s { int hits, other; };
void *t(void *p) {
  struct s *o = p;
  o->hits = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  struct s *o = malloc(sizeof *o);
  o->hits = 0;
  pthread_create(&h, 0, t, o);
  int v = o->hits;
  pthread_join(h, 0);
  return v;
}
)C";

/// Two objects of one malloc site, each written by its own thread only.
const char *TwoInstances = R"C(
#include <pthread.h>
#include <stdlib.h>
void *t(void *p) {
  *(int *)p = 1;
  return 0;
}
int main(void) {
  pthread_t h[2];
  int *o[2];
  for (int i = 0; i < 2; i++) {
    o[i] = malloc(sizeof(int));
    *o[i] = 0;
    pthread_create(&h[i], 0, t, o[i]);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  return 0;
}
)C";

struct Kissed {
  Compiled C;
  kiss::KissProgram P;
  std::string Error;
  /// Output instruction of an input one.
  std::map<const Instruction *, Instruction *> FromOrig;
};

std::unique_ptr<Kissed> kissOf(const char *Code, kiss::KissOptions O = {},
                               std::vector<std::string> Only = {}) {
  auto K = std::make_unique<Kissed>();
  K->C = compile(Code);
  if (!K->C.PM) {
    K->Error = "compile failed: " + K->C.Error;
    return K;
  }
  std::vector<kiss::Target> Targets;
  for (const kiss::Target &T : kiss::sharedTargets(*K->C.PM))
    if (Only.empty() ||
        std::find(Only.begin(), Only.end(), T.Name) != Only.end())
      Targets.push_back(T);
  if (!O.CompileC)
    O.CompileC = compileEmbeddedC; // as the driver sets it
  auto P = kiss::transform(*K->C.PM, Targets, O);
  if (!P) {
    K->Error = toString(P.takeError());
    return K;
  }
  K->P = std::move(*P);
  for (const auto &[Out, In] : K->P.ToOrig)
    K->FromOrig[In] = const_cast<Instruction *>(Out);
  return K;
}

/// The first instruction of F (input module) accessing global G with the
/// given opcode (Load or Store).
const Instruction *accessOf(const Module &M, StringRef F, StringRef G,
                            unsigned Opcode) {
  const Function *Fn = M.getFunction(F);
  const GlobalVariable *GV = M.getNamedGlobal(G);
  if (!Fn || !GV)
    return nullptr;
  for (const Instruction &I : instructions(*Fn))
    if (I.getOpcode() == Opcode &&
        getLoadStorePointerOperand(&I)->stripPointerCasts() == GV)
      return &I;
  return nullptr;
}

/// The first call in F (input module) to a function whose name is Callee.
const CallBase *callOf(const Module &M, StringRef F, StringRef Callee) {
  const Function *Fn = M.getFunction(F);
  if (!Fn)
    return nullptr;
  for (const Instruction &I : instructions(*Fn))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *C = CB->getCalledFunction();
          C && C->getName() == Callee)
        return CB;
  return nullptr;
}

bool callsTo(const Instruction &I, StringRef Callee) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *C = CB->getCalledFunction())
      return C->getName() == Callee;
  return false;
}

/// A RAISE block: `store i1 true, @__kiss_raise`, then return.
bool isRaiseBlock(const BasicBlock *BB) {
  if (!BB || !isa<ReturnInst>(BB->getTerminator()))
    return false;
  for (const Instruction &I : *BB)
    if (const auto *S = dyn_cast<StoreInst>(&I))
      if (S->getPointerOperand()->getName() == "__kiss_raise")
        if (const auto *C = dyn_cast<ConstantInt>(S->getValueOperand()))
          return C->isOne();
  return false;
}

/// Scanning back from I along its dominators: is the first instruction met
/// that is either a call of __kiss_schedule or an instruction of the input
/// program (ToOrig) the schedule call? (So schedule() runs after the
/// previous program instruction and before I.)
bool scheduledJustBefore(const Kissed &K, Instruction &I) {
  Function &F = *I.getFunction();
  DominatorTree DT(F);
  BasicBlock *BB = I.getParent();
  Instruction *Cur = I.getPrevNode();
  while (true) {
    for (; Cur; Cur = Cur->getPrevNode()) {
      if (callsTo(*Cur, "__kiss_schedule"))
        return true;
      if (K.P.ToOrig.count(Cur))
        return false;
    }
    DomTreeNode *N = DT.getNode(BB)->getIDom();
    if (!N)
      return false;
    BB = N->getBlock();
    Cur = BB->getTerminator();
  }
}

/// The block of I is entered only from a conditional branch whose other
/// target is a RAISE block and whose condition uses a __kiss_nondet call.
bool nondetRaiseJustBefore(Instruction &I) {
  const BasicBlock *BB = I.getParent();
  if (&BB->front() != &I)
    return false;
  const BasicBlock *Pred = BB->getSinglePredecessor();
  if (!Pred)
    return false;
  const auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  const BasicBlock *Other =
      Br->getSuccessor(0) == BB ? Br->getSuccessor(1) : Br->getSuccessor(0);
  if (!isRaiseBlock(Other))
    return false;
  // The condition: (nondet() & !atomic) (or nondet() alone).
  std::vector<const Value *> Work{Br->getCondition()};
  for (unsigned Depth = 0; Depth < 4 && !Work.empty(); ++Depth) {
    std::vector<const Value *> Next;
    for (const Value *V : Work) {
      if (const auto *CI = dyn_cast<CallInst>(V))
        if (callsTo(*CI, "__kiss_nondet"))
          return true;
      if (const auto *U = dyn_cast<Instruction>(V))
        for (const Value *Op : U->operands())
          Next.push_back(Op);
    }
    Work = std::move(Next);
  }
  return false;
}

#define ASSERT_KISSED(K)                                                       \
  ASSERT_TRUE((K)->Error.empty()) << (K)->Error;                               \
  ASSERT_TRUE((K)->P.M)

TEST(KissTransform, OutputIsValidAndHasRaiseAndRuntime) {
  auto K = kissOf(Racy);
  ASSERT_KISSED(K);
  std::string Err;
  raw_string_ostream ES(Err);
  EXPECT_FALSE(verifyModule(*K->P.M, &ES)) << Err;
  const GlobalVariable *Raise = K->P.M->getNamedGlobal("__kiss_raise");
  ASSERT_TRUE(Raise);
  EXPECT_TRUE(Raise->getValueType()->isIntegerTy(1));
  ASSERT_TRUE(Raise->hasInitializer());
  EXPECT_TRUE(Raise->getInitializer()->isNullValue());
  const Function *Sched = K->P.M->getFunction("__kiss_schedule");
  ASSERT_TRUE(Sched);
  EXPECT_FALSE(Sched->isDeclaration());
  // main runs the original main (renamed) as the first thread, then
  // schedules the others when it stopped by RAISE.
  const Function *Main = K->P.M->getFunction("main");
  ASSERT_TRUE(Main);
  bool CallsOrigMain = false, Schedules = false;
  for (const Instruction &I : instructions(*Main)) {
    CallsOrigMain |= callsTo(I, "__kiss_main");
    Schedules |= callsTo(I, "__kiss_schedule");
  }
  EXPECT_TRUE(CallsOrigMain);
  EXPECT_TRUE(Schedules);
  // The input module is not changed.
  EXPECT_FALSE(K->C.M->getNamedGlobal("__kiss_raise"));
  EXPECT_TRUE(K->C.M->getFunction("main") &&
              !K->C.M->getFunction("__kiss_main"));
}

TEST(KissTransform, ScheduleAndRaiseBeforeEveryVisibleInstruction) {
  auto K = kissOf(Racy);
  ASSERT_KISSED(K);
  const Module &In = *K->C.M;
  struct Case {
    const Instruction *I;
    const char *What;
  } Cases[] = {
      {accessOf(In, "t", "x", Instruction::Store), "write x in t"},
      {accessOf(In, "t", "y", Instruction::Store), "write y in t"},
      {accessOf(In, "helper", "y", Instruction::Store), "write y in helper"},
      {accessOf(In, "main", "x", Instruction::Load), "read x in main"},
      {callOf(In, "main", "helper"), "call of helper (may raise)"},
      {callOf(In, "main", "__crace_thread_create"), "thread creation"},
      {callOf(In, "main", "__crace_thread_join"), "join"},
  };
  for (const Case &C : Cases) {
    ASSERT_TRUE(C.I) << C.What << " not found in the input";
    Instruction *Out = K->FromOrig[C.I];
    ASSERT_TRUE(Out) << C.What << " not in the output";
    EXPECT_TRUE(scheduledJustBefore(*K, *Out))
        << "no schedule() right before " << C.What;
    EXPECT_TRUE(nondetRaiseJustBefore(*Out))
        << "no nondeterministic RAISE right before " << C.What;
  }
  // Local computation is not a schedule point: pure() contains no visible
  // instruction, so its call is not instrumented.
  const CallBase *Pure = callOf(In, "main", "pure");
  ASSERT_TRUE(Pure);
  Instruction *PureOut = K->FromOrig[Pure];
  ASSERT_TRUE(PureOut);
  EXPECT_FALSE(scheduledJustBefore(*K, *PureOut));
  EXPECT_FALSE(nondetRaiseJustBefore(*PureOut));
}

TEST(KissTransform, RaiseCheckAfterCallsThatMayRaise) {
  auto K = kissOf(Racy);
  ASSERT_KISSED(K);
  const CallBase *Helper = callOf(*K->C.M, "main", "helper");
  ASSERT_TRUE(Helper);
  Instruction *Out = K->FromOrig[Helper];
  ASSERT_TRUE(Out);
  // call helper(); %r = load i1 @__kiss_raise; br %r, RAISE, rest
  const auto *L = dyn_cast_or_null<LoadInst>(Out->getNextNode());
  ASSERT_TRUE(L) << "no load of raise after the call";
  EXPECT_EQ(L->getPointerOperand()->getName(), "__kiss_raise");
  const auto *Br = dyn_cast_or_null<BranchInst>(L->getNextNode());
  ASSERT_TRUE(Br && Br->isConditional());
  EXPECT_EQ(Br->getCondition(), L);
  EXPECT_TRUE(isRaiseBlock(Br->getSuccessor(0)))
      << "if (raise) does not return";
  EXPECT_FALSE(isRaiseBlock(Br->getSuccessor(1)));
}

TEST(KissTransform, ThreadCreationPutsIntoTs) {
  kiss::KissOptions O;
  O.Max = 1;
  auto K = kissOf(Racy, O);
  ASSERT_KISSED(K);
  const CallBase *Create = callOf(*K->C.M, "main", "__crace_thread_create");
  ASSERT_TRUE(Create);
  auto *Out = dyn_cast_or_null<CallBase>(K->FromOrig[Create]);
  ASSERT_TRUE(Out);
  ASSERT_TRUE(Out->getCalledFunction());
  EXPECT_EQ(Out->getCalledFunction()->getName(), "__kiss_create");
  // __kiss_create stores the start routine into a slot of ts.
  const Function *KC = K->P.M->getFunction("__kiss_create");
  ASSERT_TRUE(KC && !KC->isDeclaration());
  bool PutsFn = false;
  for (const Instruction &I : instructions(*KC))
    if (const auto *S = dyn_cast<StoreInst>(&I))
      if (S->getValueOperand() == KC->getArg(1))
        // (Slot 0's address is the array's own.)
        PutsFn |= getUnderlyingObject(S->getPointerOperand())->getName() ==
                  "__kiss_ts_fn";
  EXPECT_TRUE(PutsFn) << "thread creation does not put into ts";
  // ts has one slot.
  const GlobalVariable *Fns = K->P.M->getNamedGlobal("__kiss_ts_fn");
  ASSERT_TRUE(Fns);
  ASSERT_TRUE(Fns->getValueType()->isArrayTy());
  EXPECT_EQ(Fns->getValueType()->getArrayNumElements(), 1u);
}

TEST(KissTransform, ThreadCreationRunsAtOnceWithoutSlots) {
  auto K = kissOf(Racy); // Max = 0 (the default)
  ASSERT_KISSED(K);
  const Function *KC = K->P.M->getFunction("__kiss_create");
  ASSERT_TRUE(KC && !KC->isDeclaration());
  bool Runs = false, Puts = false;
  for (const Instruction &I : instructions(*KC)) {
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (CB->getCalledFunction() &&
          CB->getCalledFunction()->getName() == "__kiss_run") {
        Runs = true;
        EXPECT_EQ(CB->getArgOperand(0), KC->getArg(1))
            << "the created routine is not the one run";
      }
    if (const auto *S = dyn_cast<StoreInst>(&I))
      Puts |= S->getValueOperand() == KC->getArg(1);
  }
  EXPECT_TRUE(Runs) << "with ts size 0 the thread must run at once";
  EXPECT_FALSE(Puts) << "with ts size 0 nothing is put into ts";
  // __kiss_run calls the start routine.
  const Function *Run = K->P.M->getFunction("__kiss_run");
  ASSERT_TRUE(Run);
  bool CallsFn = false;
  for (const Instruction &I : instructions(*Run))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      CallsFn |= CB->getCalledOperand() == Run->getArg(0);
  EXPECT_TRUE(CallsFn);
}

TEST(KissTransform, ChecksOnTheTargetOnly) {
  // Only x is a target: its two accesses get a check (failure site) and a
  // record (of the access kind); y's accesses get none.
  auto K = kissOf(Racy, {}, {"x"});
  ASSERT_KISSED(K);
  ASSERT_EQ(K->P.Targets.size(), 1u);
  EXPECT_EQ(K->P.Targets[0].Name, "x");
  const Module &In = *K->C.M;
  const Instruction *W = accessOf(In, "t", "x", Instruction::Store);
  const Instruction *R = accessOf(In, "main", "x", Instruction::Load);
  const Instruction *Wy = accessOf(In, "t", "y", Instruction::Store);
  ASSERT_TRUE(W && R && Wy);
  std::map<const Instruction *, unsigned> Fails, Records;
  for (const auto &[CB, S] : K->P.FailSites) {
    ++Fails[S.Orig];
    EXPECT_TRUE(callsTo(*CB, "__crace_bmc_fail"));
    EXPECT_EQ(S.Target, 0u);
    // After the failure the thread stops (RAISE).
    EXPECT_TRUE(isRaiseBlock(CB->getParent()->getSingleSuccessor()));
  }
  for (const auto &[BB, S] : K->P.SetBlocks) {
    ++Records[S.Orig];
    // The record: access := present | write (1 | 2 for a write, 1 for a
    // read), then RAISE (the access stays pending).
    uint64_t Want = S.Kind == AccessKind::Write ? 3 : 1;
    bool Stored = false;
    for (const Instruction &I : *BB)
      if (const auto *St = dyn_cast<StoreInst>(&I))
        if (St->getPointerOperand()->getName() == "__kiss_access.x")
          if (const auto *C = dyn_cast<ConstantInt>(St->getValueOperand()))
            Stored |= C->getZExtValue() == Want;
    EXPECT_TRUE(Stored) << "no record of the access kind";
    EXPECT_TRUE(isRaiseBlock(BB->getSingleSuccessor()));
  }
  EXPECT_EQ(Fails[W], 1u) << "no check on the write of x";
  EXPECT_EQ(Fails[R], 1u) << "no check on the read of x";
  EXPECT_EQ(Records[W], 1u);
  EXPECT_EQ(Records[R], 1u);
  EXPECT_EQ(Fails.count(Wy), 0u) << "y is not a target";
  EXPECT_EQ(K->P.Checks, 2u);
  EXPECT_TRUE(K->P.M->getNamedGlobal("__kiss_access.x"));
  EXPECT_FALSE(K->P.M->getNamedGlobal("__kiss_access.y"));
  // The check comes after schedule() and before the access: the failure
  // call's block is dominated by a schedule call that also dominates the
  // access.
  Instruction *WOut = K->FromOrig[W];
  ASSERT_TRUE(WOut);
  DominatorTree DT(*WOut->getFunction());
  for (const auto &[CB, S] : K->P.FailSites)
    if (S.Orig == W) {
      EXPECT_EQ(CB->getFunction(), WOut->getFunction());
      bool Dominated = false;
      for (const Instruction &I : instructions(*WOut->getFunction()))
        if (callsTo(I, "__kiss_schedule") && DT.dominates(&I, CB) &&
            DT.dominates(&I, WOut))
          Dominated = true;
      EXPECT_TRUE(Dominated);
    }
}

TEST(KissTransform, BmcFindsTheRaceInTheRacyProgram) {
  auto K = kissOf(Racy, {}, {"x"});
  ASSERT_KISSED(K);
  bmc::Result R = bmc::check(*K->P.M, "main");
  ASSERT_EQ(R.S, bmc::Status::Unsafe) << bmc::Checker::describe(R);
  ASSERT_TRUE(R.Cex);
  auto It = K->P.FailSites.find(R.Cex->FailureCall);
  ASSERT_NE(It, K->P.FailSites.end())
      << "the failure is not a race check of the transform";
  // The failing check is one of the two accesses of x, and the other one
  // was recorded (pending) before it on the path.
  const Instruction *W = accessOf(*K->C.M, "t", "x", Instruction::Store);
  const Instruction *Rd = accessOf(*K->C.M, "main", "x", Instruction::Load);
  EXPECT_TRUE(It->second.Orig == W || It->second.Orig == Rd);
  const kiss::SiteInfo *Pending = nullptr;
  for (const bmc::TraceStep &St : R.Cex->Steps)
    if (auto S = K->P.SetBlocks.find(St.Block); S != K->P.SetBlocks.end())
      Pending = &S->second;
  ASSERT_TRUE(Pending);
  EXPECT_NE(Pending->Orig, It->second.Orig);
  EXPECT_TRUE(Pending->Kind == AccessKind::Write ||
              It->second.Kind == AccessKind::Write);
}

TEST(KissTransform, BmcFindsNoRaceInTheLockedProgram) {
  auto K = kissOf(Locked);
  ASSERT_KISSED(K);
  ASSERT_EQ(K->P.Targets.size(), 1u);
  EXPECT_GT(K->P.Checks, 0u);
  bmc::Result R = bmc::check(*K->P.M, "main");
  EXPECT_EQ(R.S, bmc::Status::Safe) << bmc::Checker::describe(R);
}

TEST(KissTransform, HeapObjectIsATarget) {
  auto K = kissOf(HeapRacy);
  ASSERT_KISSED(K);
  ASSERT_EQ(K->P.Targets.size(), 1u);
  const kiss::Target &T = K->P.Targets[0];
  EXPECT_EQ(T.G, nullptr);
  EXPECT_EQ(K->C.PM->pointsTo().object(T.Obj).Kind, ObjKind::Heap);
  EXPECT_EQ(T.Name.rfind("heap object allocated at ", 0), 0u) << T.Name;
  // The write in t, main's initialisation and main's read are checked.
  std::set<const Instruction *> Checked;
  for (const auto &[CB, S] : K->P.FailSites)
    Checked.insert(S.Orig);
  EXPECT_EQ(Checked.size(), 3u);
  std::string Err;
  raw_string_ostream ES(Err);
  EXPECT_FALSE(verifyModule(*K->P.M, &ES)) << Err;
}

TEST(KissTransform, OverlapIsGuardedBySameObject) {
  // Before the bytes of the pending access and this one are ordered
  // (ICmpULT), a branch on __crace_bmc_same_object(this, pending): the
  // ordering is evaluated only for addresses in one object.
  for (const char *Code : {HeapRacy, Racy}) {
    auto K = kissOf(Code);
    ASSERT_KISSED(K);
    const Function *Same = K->P.M->getFunction("__crace_bmc_same_object");
    ASSERT_TRUE(Same);
    EXPECT_TRUE(Same->isDeclaration());
    EXPECT_TRUE(Same->getReturnType()->isIntegerTy(1));
    ASSERT_EQ(Same->arg_size(), 2u);
    EXPECT_TRUE(Same->getArg(0)->getType()->isPointerTy());
    EXPECT_TRUE(Same->getArg(1)->getType()->isPointerTy());
    ASSERT_FALSE(K->P.FailSites.empty());
    for (const auto &[CB, S] : K->P.FailSites) {
      // fail <- bytes (ULT ordering) <- overlap (branch on same object)
      const BasicBlock *Bytes = CB->getParent()->getSinglePredecessor();
      ASSERT_TRUE(Bytes);
      unsigned Ults = 0;
      for (const Instruction &I : *Bytes)
        if (const auto *C = dyn_cast<ICmpInst>(&I))
          Ults += C->getPredicate() == ICmpInst::ICMP_ULT &&
                  C->getOperand(0)->getType()->isPointerTy();
      EXPECT_EQ(Ults, 2u);
      const BasicBlock *Ov = Bytes->getSinglePredecessor();
      ASSERT_TRUE(Ov);
      const auto *Br = dyn_cast<BranchInst>(Ov->getTerminator());
      ASSERT_TRUE(Br && Br->isConditional());
      EXPECT_EQ(Br->getSuccessor(0), Bytes);
      const auto *SC = dyn_cast<CallInst>(Br->getCondition());
      ASSERT_TRUE(SC);
      EXPECT_EQ(SC->getCalledFunction(), Same);
      // Its arguments: this access's pointer and the pending one (loaded
      // from __kiss_pending.*).
      const auto *PL = dyn_cast<LoadInst>(SC->getArgOperand(1));
      ASSERT_TRUE(PL);
      EXPECT_TRUE(
          PL->getPointerOperand()->getName().starts_with("__kiss_pending."));
      for (const Instruction &I : *Ov) {
        if (const auto *C = dyn_cast<ICmpInst>(&I)) {
          EXPECT_FALSE(C->getOperand(0)->getType()->isPointerTy() &&
                       !C->isEquality())
              << "an ordering comparison before the object check";
        }
      }
    }
  }
}

TEST(KissTransform, BmcHeapRaceAndTwoInstancesOfOneSite) {
  auto K = kissOf(HeapRacy);
  ASSERT_KISSED(K);
  bmc::Result R = bmc::check(*K->P.M, "main");
  ASSERT_EQ(R.S, bmc::Status::Unsafe) << bmc::Checker::describe(R);
  ASSERT_TRUE(R.Cex);
  EXPECT_TRUE(K->P.FailSites.count(R.Cex->FailureCall));
  // One target for both objects of the site: same offset, different
  // objects, each written by one thread only — no race, and no
  // over-approximated address comparison either (Safe, not Unknown).
  auto K2 = kissOf(TwoInstances);
  ASSERT_KISSED(K2);
  ASSERT_EQ(K2->P.Targets.size(), 1u);
  EXPECT_EQ(K2->P.Targets[0].G, nullptr);
  EXPECT_GT(K2->P.Checks, 0u);
  bmc::Result R2 = bmc::check(*K2->P.M, "main");
  EXPECT_EQ(R2.S, bmc::Status::Safe) << bmc::Checker::describe(R2);
}

} // namespace
