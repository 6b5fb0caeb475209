//===- KissTransformImpl.h - the KISS transform's pieces, private --------===//
//
// Private to src/engines/kiss/KissTransform*.cpp and KissRuntime.cpp: the
// transformer's state (class Transformer) and the synchronisation calls the
// runtime (KissRuntime.h) replaces.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_KISS_KISSTRANSFORMIMPL_H
#define CRACE_ENGINES_KISS_KISSTRANSFORMIMPL_H

#include "engines/kiss/KissTransform.h"
#include "engines/kiss/Rounds.h"
#include "model/PointsTo.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>
#include <string>
#include <vector>

namespace crace::kiss::detail {

using namespace llvm;

enum class SyncOp {
  None,
  Create,
  Join,
  Exit,
  Self,
  Lock,
  RdLock,
  Unlock,
  TryLock,
  TryRdLock,
  CondWait,
  NoOp,
  AtomicBegin,
  AtomicEnd,
  BlockI32,
  Block
};

/// The synchronisation call named N (or None).
SyncOp syncOp(StringRef N);
/// The synchronisation call I makes (or None).
SyncOp syncOpOf(const Instruction &I);
inline bool isRuntime(const Function &F) {
  return F.getName().starts_with("__kiss_");
}

class Transformer {
public:
  Transformer(const ProgramModel &PM, const std::vector<Target> &Targets,
              const KissOptions &O, KissProgram &P)
      : PM(PM), PT(PM.pointsTo()), Targets(Targets), O(O), P(P) {}

  Error run();

private:
  const ProgramModel &PM;
  const PointsTo &PT;
  const std::vector<Target> &Targets;
  const KissOptions &O;
  KissProgram &P;
  ValueToValueMapTy VMap;
  Module *M = nullptr;
  std::vector<Function *> UserFns;
  DenseSet<const Function *> MayRaise;
  std::vector<GlobalVariable *> AccessVars, PendPtr, PendSize;
  std::vector<uint32_t> TargetObjs;
  std::map<const Function *, BasicBlock *> RaiseBB;
  GlobalVariable *Raise = nullptr, *Atomic = nullptr, *SectAcc = nullptr;
  Function *Nondet = nullptr, *Schedule = nullptr, *Fail = nullptr,
           *SameObject = nullptr;

  // K-round (Lal-Reps) form, O.Rounds > 0 (Rounds.h).
  enum class PtrClass { None, Copied, Bad };
  /// The copied globals (input module) and their objects.
  std::vector<const GlobalVariable *> RGlobals;
  DenseSet<uint32_t> RObjs, RWritten;
  StructType *GTy = nullptr;
  uint64_t Stride = 0;
  GlobalVariable *Round = nullptr, *Mem = nullptr;
  std::vector<GlobalVariable *> RaceFlag, RaceSite, PendRound;
  std::vector<SiteInfo> RaceSites;
  /// Operands (clone) that address the copied state: moved to the round's
  /// copy.
  std::vector<std::pair<Instruction *, unsigned>> Redirects;
  PtrClass classify(const Value *V) const;
  Error roundsPrepare();
  Error roundsRedirects();
  void roundsMain(Function *Main);
  void roundsLayout();

  const Instruction *orig(const Instruction *I) const {
    auto It = P.ToOrig.find(I);
    return It == P.ToOrig.end() ? nullptr : It->second;
  }
  bool sharedAccess(const MemAccess &A) const;
  /// Not ruled out by Yield-MR (KissOptions::RacySites): an atomic access
  /// or a plain one in a candidate pair (every access without it).
  bool mayRace(const MemAccess &A) const;
  bool callMayRaise(const CallBase &CB) const;
  bool visible(const Instruction &I) const;
  BasicBlock *raiseBlock(Function &F);
  void instrument(Instruction &I);
  void raiseCheckAfter(CallBase &CB);
  void replaceSync(CallBase &CB, SyncOp Op);
  void adaptStartRoutines();
};

} // namespace crace::kiss::detail

#endif
