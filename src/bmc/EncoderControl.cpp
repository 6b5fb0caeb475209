//===- EncoderControl.cpp - control flow in the bmc encoder
//-----------------===//
//
// Functions' block orders and loops, calls of defined functions, regions,
// unwound loops, merges of incoming paths, blocks and terminators.
//
//===----------------------------------------------------------------------===//
#include "bmc/Encoder.h"
#include "model/SyncAPI.h"
#include "smt/IRTerms.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace::bmc {

namespace {

std::string locationOf(const Loop *L) {
  if (DebugLoc D = L->getStartLoc())
    return (D->getFilename() + ":" + Twine(D.getLine())).str();
  return location(L->getHeader()->getTerminator());
}

} // namespace

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

Encoder::FunctionInfo &Encoder::info(const Function &F) {
  auto &Slot = Infos[&F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionInfo>();
  FunctionInfo &FI = *Slot;
  auto &NF = const_cast<Function &>(F);
  FI.DT = std::make_unique<DominatorTree>(NF);
  FI.LI = std::make_unique<LoopInfo>(*FI.DT);
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock *BB : RPOT)
    Index[BB] = Index.size();
  for (const BasicBlock *BB : RPOT) {
    const Loop *L = FI.LI->getLoopFor(BB);
    if (L && L->getHeader() == BB)
      FI.Nodes[L->getParentLoop()].push_back(BB);
    FI.Nodes[L].push_back(BB);
    // A retreating edge that is not the back edge of a natural loop makes
    // the control flow irreducible.
    for (const BasicBlock *S : successors(BB)) {
      if (Index[S] > Index[BB])
        continue;
      const Loop *SL = FI.LI->getLoopFor(S);
      if (!SL || SL->getHeader() != S || !SL->contains(BB))
        FI.Irreducible = true;
    }
  }
  // Address-derived integers (fixpoint: phis may close cycles). A
  // difference of two addresses and a small alignment mask are
  // meaningful numbers again.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        if (!I.getType()->isIntegerTy() || FI.AddressDerived.count(&I))
          continue;
        bool D = isa<PtrToIntInst>(I);
        if (!D &&
            (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<SelectInst>(I) ||
             isa<PHINode>(I) || isa<FreezeInst>(I))) {
          unsigned First = isa<SelectInst>(I) ? 1 : 0, Tainted = 0;
          for (unsigned K = First; K < I.getNumOperands(); ++K)
            Tainted += FI.AddressDerived.count(I.getOperand(K));
          D = Tainted > 0;
          if (D && I.getOpcode() == Instruction::Sub && Tainted == 2)
            D = false;
          if (D && I.getOpcode() == Instruction::And)
            for (const Use &U : I.operands())
              if (const auto *C = dyn_cast<ConstantInt>(U))
                if (C->getValue().ule(15))
                  D = false;
        }
        if (D) {
          FI.AddressDerived.insert(&I);
          Changed = true;
        }
      }
  }
  return FI;
}

/// Comparisons whose outcome depends on where objects lie in memory: our
/// object ids order objects arbitrarily and real addresses differ from our
/// bit patterns, so such an outcome is over-approximated by an arbitrary
/// value (with the havoc flag). Only equality of two addresses (or with
/// null) and ordering within one object are exact. True when handled.
bool Encoder::addressCompare(Frame &Fr, const ICmpInst &I, State &S) {
  const Value *A = I.getOperand(0), *B = I.getOperand(1);
  auto IsAddr = [&](const Value *V) {
    return V->getType()->isPointerTy() || Fr.FI->AddressDerived.count(V);
  };
  auto IsNull = [](const Value *V) {
    if (isa<ConstantPointerNull>(V))
      return true;
    const auto *C = dyn_cast<ConstantInt>(V);
    return C && C->isZero();
  };
  bool AA = IsAddr(A), BA = IsAddr(B);
  if (!AA && !BA)
    return false;
  bool Both = (AA || IsNull(A)) && (BA || IsNull(B));
  if (I.isEquality() && Both)
    return false; // exact
  z3::expr X = val(&Fr, A), Y = val(&Fr, B);
  bool FullWidth = X.get_sort().bv_size() == PtrBits;
  std::optional<z3::expr> Exact = pureOp(&Fr, I);
  z3::expr Any = fresh(1, "addrcmp");
  z3::expr Inexact = Z.bool_val(true);
  if (AA && BA && FullWidth && Exact) {
    Inexact = objOf(X) != objOf(Y);
    Fr.Vals.insert_or_assign(&I, z3::ite(Inexact, Any, *Exact));
  } else {
    Fr.Vals.insert_or_assign(&I, Any);
  }
  // The path is over-approximated only where the outcome was arbitrary.
  Havocs.push_back(
      {mkAnd(S.Guard, Inexact), "comparison of addresses at " + location(&I)});
  S.Havoc = mkOr(S.Havoc, Inexact);
  return true;
}

std::optional<Encoder::State>
Encoder::callFunction(const Function &F, const CallBase *Site,
                      const std::vector<z3::expr> &Args, const State &In,
                      z3::expr *RetOut) {
  FunctionInfo &FI = info(F);
  if (FI.Irreducible) {
    event(EventKind::Unsupported, In, Z.bool_val(true),
          &F.getEntryBlock().front(),
          ("irreducible control flow in '" + F.getName() + "'").str());
    return std::nullopt;
  }
  Frame Fr;
  Fr.F = &F;
  Fr.FI = &FI;
  Fr.Site = Site;
  unsigned K = 0;
  for (const Argument &A : F.args()) {
    unsigned Bits = regBits(A.getType());
    Fr.Vals.insert_or_assign(&A, K < Args.size()
                                     ? resize(Args[K], Bits ? Bits : 8)
                                     : fresh(Bits, "arg"));
    ++K;
  }
  Frames.push_back(&Fr);
  Fr.Pending[&F.getEntryBlock()].push_back({In, {}});
  runRegion(Fr, nullptr);
  Frames.pop_back();
  if (Fr.Returns.empty())
    return std::nullopt;
  std::vector<Incoming> Rets;
  for (size_t I = 0; I < Fr.Returns.size(); ++I) {
    Rets.push_back({Fr.Returns[I], {}});
    if (!F.getReturnType()->isVoidTy())
      Rets.back().Phis.push_back(Fr.RetVals[I]);
  }
  Incoming Out = merge(Rets);
  // The frame's stack objects die.
  for (unsigned Id : Fr.Allocas)
    Out.S.Alive = z3::store(Out.S.Alive, bv(Id, ObjBits), Z.bool_val(false));
  if (RetOut && !Out.Phis.empty())
    *RetOut = Out.Phis[0];
  return Out.S;
}

void Encoder::runRegion(Frame &Fr, const Loop *L) {
  // Copy: running a block may add entries for other regions.
  std::vector<const BasicBlock *> Nodes = Fr.FI->Nodes[L];
  for (const BasicBlock *BB : Nodes) {
    const Loop *BL = Fr.FI->LI->getLoopFor(BB);
    if (BL != L)
      runLoop(Fr, BL);
    else
      runBlock(Fr, BB);
  }
}

void Encoder::runLoop(Frame &Fr, const Loop *L) {
  const BasicBlock *H = L->getHeader();
  for (unsigned K = 0;; ++K) {
    if (!Fr.Pending.count(H))
      return;
    runRegion(Fr, L);
    auto It = Fr.Back.find(L);
    if (It == Fr.Back.end())
      return;
    std::vector<Incoming> Back = std::move(It->second);
    Fr.Back.erase(It);
    if (Back.empty())
      return;
    if (K + 1 > O.Unwind) {
      // The (Unwind+1)-th back edge: the unwinding check.
      Incoming Mg = merge(Back);
      event(EventKind::Unwinding, Mg.S, Z.bool_val(true), H->getTerminator(),
            "unwinding bound " + std::to_string(O.Unwind) + " reached at " +
                locationOf(L));
      return;
    }
    Fr.Pending[H] = std::move(Back);
  }
}

Encoder::Incoming Encoder::merge(std::vector<Incoming> &Ins) {
  assert(!Ins.empty() && "merging nothing");
  if (Ins.size() == 1) {
    Incoming R = Ins[0];
    R.S.Guard = name(R.S.Guard);
    return R;
  }
  z3::expr G = Z.bool_val(false);
  for (const Incoming &I : Ins)
    G = mkOr(G, I.S.Guard);
  auto Chain = [&](auto Get) {
    z3::expr R = Get(Ins.back());
    for (size_t I = Ins.size() - 1; I-- > 0;) {
      z3::expr E = Get(Ins[I]);
      if (!z3::eq(E, R))
        R = z3::ite(Ins[I].S.Guard, E, R);
    }
    return R;
  };
  Incoming R{{name(G), Chain([](const Incoming &I) { return I.S.Mem; }),
              Chain([](const Incoming &I) { return I.S.Alive; }),
              Chain([](const Incoming &I) { return I.S.Havoc; })},
             {}};
  for (size_t P = 0; P < Ins[0].Phis.size(); ++P)
    R.Phis.push_back(Chain([P](const Incoming &I) { return I.Phis[P]; }));
  return R;
}

void Encoder::addEdge(Frame &Fr, const BasicBlock *From, const BasicBlock *To,
                      State S) {
  if (S.Guard.is_false())
    return;
  Incoming In{S, {}};
  for (const PHINode &P : To->phis())
    In.Phis.push_back(val(&Fr, P.getIncomingValueForBlock(From)));
  const Loop *TL = Fr.FI->LI->getLoopFor(To);
  if (TL && TL->getHeader() == To && TL->contains(From))
    Fr.Back[TL].push_back(std::move(In));
  else
    Fr.Pending[To].push_back(std::move(In));
}

void Encoder::runBlock(Frame &Fr, const BasicBlock *BB) {
  auto It = Fr.Pending.find(BB);
  if (It == Fr.Pending.end())
    return;
  std::vector<Incoming> Ins = std::move(It->second);
  Fr.Pending.erase(It);
  if (Ins.empty())
    return;
  poll();
  Incoming In = merge(Ins);
  if (In.S.Guard.is_false())
    return;
  unsigned K = 0;
  for (const PHINode &P : BB->phis())
    Fr.Vals.insert_or_assign(&P, In.Phis[K++]);
  State S = In.S;
  Visits.push_back({S.Guard, BB, stack()});
  for (const Instruction &I : *BB) {
    if (isa<PHINode>(I))
      continue;
    if (I.isTerminator()) {
      terminate(Fr, I, S);
      return;
    }
    // The work budget counts instructions encoded, not time, so the
    // encoding stops at the same instruction on every run.
    if (O.Work && O.Work->step())
      throw EncodingAborted{WorkBudgetRanOut};
    meterNodes(0); // the nodes resolve walked for the last instruction
    exec(Fr, I, S);
    if (S.Guard.is_false())
      return;
  }
}

void Encoder::terminate(Frame &Fr, const Instruction &I, State &S) {
  const BasicBlock *BB = I.getParent();
  if (const auto *Br = dyn_cast<BranchInst>(&I)) {
    if (Br->isUnconditional()) {
      addEdge(Fr, BB, Br->getSuccessor(0), S);
      return;
    }
    z3::expr C = toBool(val(&Fr, Br->getCondition()));
    State T = S, F = S;
    T.Guard = mkAnd(S.Guard, C);
    F.Guard = mkAnd(S.Guard, C.is_true()    ? Z.bool_val(false)
                             : C.is_false() ? Z.bool_val(true)
                                            : !C);
    addEdge(Fr, BB, Br->getSuccessor(0), T);
    addEdge(Fr, BB, Br->getSuccessor(1), F);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchInst>(&I)) {
    z3::expr V = escape(Fr, Sw->getCondition(), S, I);
    z3::expr Default = S.Guard;
    for (const auto &Case : Sw->cases()) {
      z3::expr C = V == constVal(Case.getCaseValue());
      if (V.is_numeral())
        C = C.simplify();
      State T = S;
      T.Guard = mkAnd(S.Guard, C);
      addEdge(Fr, BB, Case.getCaseSuccessor(), T);
      Default = mkAnd(Default, C.is_true()    ? Z.bool_val(false)
                               : C.is_false() ? Z.bool_val(true)
                                              : !C);
    }
    State D = S;
    D.Guard = Default;
    addEdge(Fr, BB, Sw->getDefaultDest(), D);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
    Fr.Returns.push_back(S);
    if (const Value *RV = Ret->getReturnValue())
      Fr.RetVals.push_back(escape(Fr, RV, S, I));
    else
      Fr.RetVals.push_back(bv(0, 1));
    return;
  }
  if (isa<UnreachableInst>(I)) {
    event(EventKind::UndefinedBehavior, S, Z.bool_val(true), &I,
          "'unreachable' reached at " + location(&I));
    return;
  }
  event(EventKind::Unsupported, S, Z.bool_val(true), &I,
        std::string("unsupported terminator '") + I.getOpcodeName() + "' at " +
            location(&I));
}

} // namespace crace::bmc
