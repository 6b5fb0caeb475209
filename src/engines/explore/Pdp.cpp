//===- Pdp.cpp - property-driven pruning ----------------------------------===//
#include "engines/explore/Pdp.h"
#include "model/PointsTo.h"
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace::explore {

PdpOracle::PdpOracle(const ProgramModel &PM, const Result &Static) : PM(PM) {
  auto Id = [&](const Instruction *I) {
    auto [It, New] = Index.try_emplace(I, N);
    if (New)
      ++N;
    return It->second;
  };
  for (const auto &[A, B] : Static.CandidatePairs)
    Pairs.push_back({Id(A), Id(B)});
  Partners.resize(N);
  for (auto [A, B] : Pairs) {
    Partners[A].push_back(B);
    if (A != B)
      Partners[B].push_back(A);
  }
  All = BitVector(N, true);
  const Module &M = PM.module();
  for (const Function &F : M) {
    FOwn[&F] = BitVector(N);
    FSpawn[&F] = BitVector(N);
  }
  // Function summaries: a fixpoint over the call graph.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const Function &F : M) {
      if (F.isDeclaration())
        continue;
      BitVector Own(N), Spawn(N);
      for (const BasicBlock &BB : F)
        for (const Instruction &I : BB)
          contribute(I, Own, Spawn);
      if (Own != FOwn[&F] || Spawn != FSpawn[&F]) {
        FOwn[&F] = std::move(Own);
        FSpawn[&F] = std::move(Spawn);
        Changed = true;
      }
    }
  }
  // Block summaries: what is reachable from the start of each block.
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (const BasicBlock &BB : F) {
      BitVector Own(N), Spawn(N);
      for (const Instruction &I : BB)
        contribute(I, Own, Spawn);
      BOwn[&BB] = std::move(Own);
      BSpawn[&BB] = std::move(Spawn);
    }
    bool Grow = true;
    while (Grow) {
      Grow = false;
      for (const BasicBlock &BB : F)
        for (const BasicBlock *S : successors(&BB)) {
          BitVector O = BOwn[&BB], Sp = BSpawn[&BB];
          O |= BOwn[S];
          Sp |= BSpawn[S];
          if (O != BOwn[&BB] || Sp != BSpawn[&BB]) {
            BOwn[&BB] = std::move(O);
            BSpawn[&BB] = std::move(Sp);
            Grow = true;
          }
        }
    }
  }
}

void PdpOracle::contribute(const Instruction &I, BitVector &Own,
                           BitVector &Spawn) const {
  auto It = Index.find(&I);
  if (It != Index.end())
    Own.set(It->second);
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || CB->isInlineAsm())
    return;
  if (auto In = callIntrinsic(*CB)) {
    if (*In != Intrinsic::ThreadCreate)
      return;
    // The new thread runs its start routine (and whatever it creates).
    for (const Loc &L : PM.pointsTo().pointsTo(CB->getArgOperand(1))) {
      const AbsObject &O = PM.pointsTo().object(L.Obj);
      const auto *Fn = dyn_cast_or_null<Function>(O.Site);
      if (O.Kind != ObjKind::Function || !Fn) {
        Spawn |= All;
        continue;
      }
      auto FO = FOwn.find(Fn), FS = FSpawn.find(Fn);
      if (FO != FOwn.end())
        Spawn |= FO->second;
      if (FS != FSpawn.end())
        Spawn |= FS->second;
    }
    return;
  }
  bool Unresolved = false;
  auto Callees = PM.pointsTo().callees(*CB, &Unresolved);
  if (Unresolved) {
    Own |= All;
    Spawn |= All;
  }
  for (const Function *Fn : Callees) {
    auto FO = FOwn.find(Fn), FS = FSpawn.find(Fn);
    if (FO != FOwn.end())
      Own |= FO->second;
    if (FS != FSpawn.end())
      Spawn |= FS->second;
  }
}

void PdpOracle::futureOf(const ThreadPos &T, BitVector &Own,
                         BitVector &Spawn) const {
  for (size_t K = 0; K < T.size(); ++K) {
    const FramePos &P = T[K];
    if (!P.BB || !P.PC)
      continue;
    // Innermost frame: from its pending instruction on; callers: after the
    // call in progress.
    bool Started = false;
    for (const Instruction &I : *P.BB) {
      if (&I == P.PC) {
        Started = true;
        if (K != 0)
          continue;
      }
      if (Started)
        contribute(I, Own, Spawn);
    }
    for (const BasicBlock *S : successors(P.BB)) {
      auto O = BOwn.find(S), Sp = BSpawn.find(S);
      if (O != BOwn.end())
        Own |= O->second;
      if (Sp != BSpawn.end())
        Spawn |= Sp->second;
    }
  }
}

std::vector<unsigned>
PdpOracle::partnerThreads(const Instruction *I,
                          const std::vector<ThreadPos> &Threads) const {
  std::vector<unsigned> Out;
  auto It = Index.find(I);
  if (It == Index.end())
    return Out;
  for (size_t T = 0; T < Threads.size(); ++T) {
    BitVector Own(N), Spawn(N);
    futureOf(Threads[T], Own, Spawn);
    Own |= Spawn;
    for (unsigned P : Partners[It->second])
      if (Own.test(P)) {
        Out.push_back(unsigned(T));
        break;
      }
  }
  return Out;
}

bool PdpOracle::raceFree(const std::vector<ThreadPos> &Threads) const {
  if (Pairs.empty())
    return true;
  std::vector<BitVector> Own(Threads.size(), BitVector(N)),
      Spawn(Threads.size(), BitVector(N));
  BitVector AnySpawn(N);
  for (size_t T = 0; T < Threads.size(); ++T) {
    futureOf(Threads[T], Own[T], Spawn[T]);
    AnySpawn |= Spawn[T];
  }
  for (auto [A, B] : Pairs) {
    // Threads yet to be created may be many: they pair with anyone.
    bool AOwn = false, BOwnAny = false;
    for (size_t T = 0; T < Threads.size(); ++T) {
      AOwn |= Own[T].test(A);
      BOwnAny |= Own[T].test(B);
    }
    if (AnySpawn.test(A) && (AnySpawn.test(B) || BOwnAny))
      return false;
    if (AnySpawn.test(B) && AOwn)
      return false;
    for (size_t T1 = 0; T1 < Threads.size(); ++T1) {
      if (!Own[T1].test(A))
        continue;
      for (size_t T2 = 0; T2 < Threads.size(); ++T2)
        if (T2 != T1 && Own[T2].test(B))
          return false;
    }
  }
  return true;
}

} // namespace crace::explore
