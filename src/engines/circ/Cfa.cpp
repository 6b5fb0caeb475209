//===- Cfa.cpp - thread templates as control flow automata ----------------===//
#include "engines/circ/Cfa.h"

#include "model/ProgramModel.h"
#include "model/SyncAPI.h"
#include "smt/IRTerms.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace crace::circ {

VarId Vars::add(std::string Name, unsigned Width, bool Global) {
  VarId Id = List.size();
  Cur.push_back(Ctx.bv_const(Name.c_str(), Width));
  Next.push_back(Ctx.bv_const((Name + "'").c_str(), Width));
  List.push_back({std::move(Name), Width, Global});
  LoadedFrom.push_back(-1);
  Init.push_back(std::nullopt);
  return Id;
}

std::vector<VarId> writtenGlobals(const Edge &E, const Vars &V) {
  std::vector<VarId> Out;
  for (const auto &[X, _] : E.Assigns)
    if (V.List[X].Global)
      Out.push_back(X);
  for (VarId X : E.Havocs)
    if (V.List[X].Global)
      Out.push_back(X);
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

namespace {

using Shared = Vars;

class Builder {
public:
  Builder(const ProgramModel &PM, unsigned T, Vars &V,
          const DenseSet<const Instruction *> &Wanted, Shared &S)
      : PM(PM), PTA(PM.pointsTo()), DL(PM.module().getDataLayout()), T(T), V(V),
        Wanted(Wanted), S(S) {}

  Cfa build() {
    const ThreadTemplate &TT = PM.threads()[T];
    C.Template = T;
    const Function *F = TT.Entry;
    if (!F || F->isDeclaration()) {
      C.Unsupported = "no entry function with a body";
      return std::move(C);
    }
    Contexts.push_back({-1, nullptr, F});
    bool Alone = !TT.CreateSite; // main, before it creates a thread
    Sink = newLoc(false, false);
    C.Entry = locAt(0, &*F->getEntryBlock().begin(), 0, Alone);
    while (!Work.empty() && C.Unsupported.empty()) {
      auto [Key, L] = Work.back();
      Work.pop_back();
      visit(Key, L);
      if (C.size() > MaxLocations)
        C.Unsupported = formatv("more than {0} locations", MaxLocations);
    }
    C.Out.assign(C.size(), {});
    for (unsigned I = 0; I < C.Edges.size(); ++I)
      C.Out[C.Edges[I].From].push_back(I);
    return std::move(C);
  }

private:
  static constexpr unsigned MaxLocations = 20000, MaxCallDepth = 24;
  struct Context {
    int Parent;
    const CallBase *Call;
    const Function *F;
  };
  using Key = std::tuple<int, const Instruction *, unsigned, bool>;

  const ProgramModel &PM;
  const PointsTo &PTA;
  const DataLayout &DL;
  unsigned T;
  Vars &V;
  const DenseSet<const Instruction *> &Wanted;
  Shared &S;
  Cfa C;
  unsigned Sink = 0;
  std::vector<Context> Contexts;
  std::map<Key, unsigned> Locs;
  std::vector<std::pair<Key, unsigned>> Work;
  std::map<std::pair<int, const Value *>, VarId> Locals;
  std::map<const Instruction *, bool> Termable;

  unsigned newLoc(bool Atomic, bool Alone) {
    C.Atomic.push_back(Atomic);
    C.Alone.push_back(Alone);
    return C.Atomic.size() - 1;
  }

  static bool invisible(const Instruction &I) {
    if (isa<AllocaInst>(I) || isa<GetElementPtrInst>(I) || isa<PHINode>(I) ||
        isa<FenceInst>(I))
      return true;
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *F = CB->getCalledFunction())
        return F->isIntrinsic() && isBenignLLVMIntrinsic(*F);
    return false;
  }

  /// The location where (Ctx, I, Depth, Alone) continues: the next
  /// instruction that does something.
  unsigned locAt(int Ctx, const Instruction *I, unsigned Depth, bool Alone) {
    while (invisible(*I) ||
           (!I->isTerminator() && !isa<LoadInst>(I) && !isa<StoreInst>(I) &&
            !isa<CallBase>(I) && !isa<AtomicRMWInst>(I) &&
            !isa<AtomicCmpXchgInst>(I) && !needsHavoc(Ctx, I)))
      I = I->getNextNode();
    Key K{Ctx, I, Depth, Alone};
    auto [It, New] = Locs.try_emplace(K, 0);
    if (New) {
      It->second = newLoc(Depth > 0, Alone);
      Work.push_back({K, It->second});
    }
    return It->second;
  }

  VarId local(int Ctx, const Value *Val) {
    auto [It, New] = Locals.try_emplace({Ctx, Val}, 0);
    if (New) {
      std::string Name = formatv("t{0}.c{1}.{2}", T, Ctx,
                                 Val->hasName() ? Val->getName().str()
                                                : std::to_string(Locals.size()))
                             .str();
      It->second = V.add(Name, Val->getType()->getIntegerBitWidth(), false);
    }
    return It->second;
  }

  /// A pure integer instruction whose value is a term over its operands.
  bool pure(const Instruction *I) {
    if (!I->getType()->isIntegerTy())
      return false;
    auto It = Termable.find(I);
    if (It != Termable.end())
      return It->second;
    bool Ok = false;
    if (const auto *B = dyn_cast<BinaryOperator>(I))
      Ok = binaryTerm(B->getOpcode(), V.Ctx.bv_val(0, 8), V.Ctx.bv_val(0, 8))
               .has_value();
    else if (const auto *Cmp = dyn_cast<ICmpInst>(I))
      Ok = Cmp->getOperand(0)->getType()->isIntegerTy();
    else if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I))
      Ok = I->getOperand(0)->getType()->isIntegerTy();
    else if (const auto *Sel = dyn_cast<SelectInst>(I))
      Ok = Sel->getCondition()->getType()->isIntegerTy(1);
    Termable[I] = Ok;
    return Ok;
  }
  bool needsHavoc(int, const Instruction *I) {
    return I->getType()->isIntegerTy() && !pure(I) && !isa<PHINode>(I);
  }

  std::optional<z3::expr> term(int Ctx, const Value *Val) {
    if (!Val->getType()->isIntegerTy())
      return std::nullopt;
    unsigned W = Val->getType()->getIntegerBitWidth();
    if (const auto *CI = dyn_cast<ConstantInt>(Val))
      return V.Ctx.bv_val(toString(CI->getValue(), 10, false).c_str(), W);
    if (isa<UndefValue>(Val) || isa<Argument>(Val))
      return V.Cur[local(Ctx, Val)];
    const auto *I = dyn_cast<Instruction>(Val);
    if (!I)
      return std::nullopt;
    if (!pure(I))
      return V.Cur[local(Ctx, I)];
    auto Op = [&](unsigned N) { return term(Ctx, I->getOperand(N)); };
    if (const auto *B = dyn_cast<BinaryOperator>(I)) {
      auto A = Op(0), Bv = Op(1);
      if (!A || !Bv)
        return std::nullopt;
      return binaryTerm(B->getOpcode(), *A, *Bv);
    }
    if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
      auto B = boolTerm(Ctx, Cmp);
      if (!B)
        return std::nullopt;
      return z3::ite(*B, V.Ctx.bv_val(1, 1), V.Ctx.bv_val(0, 1));
    }
    if (isa<SelectInst>(I)) {
      auto Cnd = Op(0), A = Op(1), B = Op(2);
      if (!Cnd || !A || !B)
        return std::nullopt;
      return z3::ite(*Cnd == V.Ctx.bv_val(1, 1), *A, *B);
    }
    auto A = Op(0);
    if (!A)
      return std::nullopt;
    unsigned From = A->get_sort().bv_size();
    if (isa<ZExtInst>(I))
      return z3::zext(*A, W - From);
    if (isa<SExtInst>(I))
      return z3::sext(*A, W - From);
    return A->extract(W - 1, 0);
  }

  /// The Boolean a condition (i1) stands for.
  std::optional<z3::expr> boolTerm(int Ctx, const Value *Cond) {
    if (const auto *Cmp = dyn_cast<ICmpInst>(Cond);
        Cmp && Cmp->getOperand(0)->getType()->isIntegerTy()) {
      auto A = term(Ctx, Cmp->getOperand(0)), B = term(Ctx, Cmp->getOperand(1));
      if (!A || !B)
        return std::nullopt;
      auto R = icmpTerm(Cmp->getPredicate(), *A, *B);
      if (R)
        V.Comparisons.push_back(*R);
      return R;
    }
    auto T1 = term(Ctx, Cond);
    if (!T1)
      return std::nullopt;
    z3::expr B = *T1 == V.Ctx.bv_val(1, T1->get_sort().bv_size());
    V.Comparisons.push_back(B); // a flag tested as it is (a _Bool)
    return B;
  }

  /// The tracked global P denotes in context Ctx (through the actual
  /// arguments of inlined calls), or null.
  const GlobalVariable *resolve(int Ctx, const Value *P) {
    P = P->stripPointerCasts();
    if (const auto *GV = dyn_cast<GlobalVariable>(P))
      return S.Globals.count(GV) ? GV : nullptr;
    if (const auto *A = dyn_cast<Argument>(P)) {
      const Context &Cx = Contexts[Ctx];
      if (Cx.Parent >= 0 && Cx.Call && A->getArgNo() < Cx.Call->arg_size())
        return resolve(Cx.Parent, Cx.Call->getArgOperand(A->getArgNo()));
    }
    return nullptr;
  }

  /// Tracked globals a store through P may write.
  void mayWrite(const Value *P, std::vector<VarId> &Out) {
    const PtsSet &Pts = PTA.pointsTo(P);
    bool Unknown = false;
    std::set<uint32_t> Objs;
    for (const Loc &L : Pts) {
      if (L.Obj == PointsTo::UnknownObj)
        Unknown = true;
      Objs.insert(L.Obj);
    }
    for (const auto &[GV, Id] : S.Globals) {
      uint32_t O = PTA.objectOf(GV);
      if (Objs.count(O) || (Unknown && PTA.reachableByUnknown(O)))
        Out.push_back(Id);
    }
  }

  std::optional<VarId> lockVar(const Value *P) {
    auto L = PM.lockLocation(P);
    if (!L)
      return std::nullopt;
    auto [It, New] = S.Locks.try_emplace(*L, 0);
    if (New) {
      It->second = V.add(formatv("lock{0}.{1}", L->Obj, L->Off).str(), 1, true);
      V.Init[It->second] = V.Ctx.bv_val(0, 1);
    }
    return It->second;
  }

  Edge &edge(unsigned From, unsigned To, const Instruction *I) {
    C.Edges.push_back({});
    Edge &E = C.Edges.back();
    E.From = From;
    E.To = To;
    E.Inst = I;
    if (I && Wanted.contains(I)) {
      E.Accesses.push_back(I);
      if (V.AccessId.try_emplace(I, V.AccessList.size()).second)
        V.AccessList.push_back(I);
    }
    return E;
  }

  void assignOrHavoc(Edge &E, VarId X, std::optional<z3::expr> Tm) {
    if (Tm && Tm->get_sort().bv_size() == V.List[X].Width)
      E.Assigns.push_back({X, *Tm});
    else
      E.Havocs.push_back(X);
  }

  /// Edges from L over the branch Pred -> Succ in Ctx, with Guards.
  void branch(int Ctx, unsigned L, const Instruction *Term,
              const BasicBlock *Succ, std::vector<z3::expr> Guards,
              unsigned Depth, bool Alone) {
    unsigned To = locAt(Ctx, &*Succ->begin(), Depth, Alone);
    Edge &E = edge(L, To, Term);
    E.Guards = std::move(Guards);
    for (const PHINode &Phi : Succ->phis())
      if (Phi.getType()->isIntegerTy())
        assignOrHavoc(
            E, local(Ctx, &Phi),
            term(Ctx, Phi.getIncomingValueForBlock(Term->getParent())));
  }

  void visit(const Key &K, unsigned L);
  void visitCall(int Ctx, const CallBase &CB, unsigned L, unsigned Depth,
                 bool Alone);
};

void Builder::visit(const Key &K, unsigned L) {
  auto [Ctx, I, Depth, Alone] = K;
  auto Next = [&](unsigned D, bool A) {
    return locAt(Ctx, I->getNextNode(), D, A);
  };
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    unsigned To = Next(Depth, Alone);
    Edge &E2 = edge(L, To, I);
    if (LI->getType()->isIntegerTy()) {
      VarId X = local(Ctx, LI);
      const GlobalVariable *GV = resolve(Ctx, LI->getPointerOperand());
      if (GV &&
          V.List[S.Globals[GV]].Width == LI->getType()->getIntegerBitWidth()) {
        E2.Assigns.push_back({X, V.Cur[S.Globals[GV]]});
        V.LoadedFrom[X] = S.Globals[GV];
      } else {
        E2.Havocs.push_back(X);
      }
    }
    return;
  }
  if (const auto *SI = dyn_cast<StoreInst>(I)) {
    unsigned To = Next(Depth, Alone);
    Edge &E = edge(L, To, I);
    const Value *Val = SI->getValueOperand();
    const GlobalVariable *GV = resolve(Ctx, SI->getPointerOperand());
    if (GV && Val->getType()->isIntegerTy() &&
        V.List[S.Globals[GV]].Width == Val->getType()->getIntegerBitWidth()) {
      assignOrHavoc(E, S.Globals[GV], term(Ctx, Val));
    } else {
      std::vector<VarId> W;
      mayWrite(SI->getPointerOperand(), W);
      E.Havocs.insert(E.Havocs.end(), W.begin(), W.end());
    }
    return;
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    unsigned To = Next(Depth, Alone);
    Edge &E = edge(L, To, I);
    std::vector<VarId> W;
    mayWrite(I->getOperand(0), W);
    E.Havocs.insert(E.Havocs.end(), W.begin(), W.end());
    if (I->getType()->isIntegerTy())
      E.Havocs.push_back(local(Ctx, I));
    return;
  }
  if (const auto *CB = dyn_cast<CallBase>(I))
    return visitCall(Ctx, *CB, L, Depth, Alone);
  if (!I->isTerminator()) { // an integer value we cannot express
    unsigned To = Next(Depth, Alone);
    edge(L, To, I).Havocs.push_back(local(Ctx, I));
    return;
  }
  if (const auto *Br = dyn_cast<BranchInst>(I)) {
    if (Br->isUnconditional())
      return branch(Ctx, L, I, Br->getSuccessor(0), {}, Depth, Alone);
    auto B = boolTerm(Ctx, Br->getCondition());
    for (unsigned S2 = 0; S2 < 2; ++S2) {
      std::vector<z3::expr> G;
      if (B)
        G.push_back(S2 == 0 ? *B : !*B);
      branch(Ctx, L, I, Br->getSuccessor(S2), G, Depth, Alone);
    }
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchInst>(I)) {
    auto Cond = term(Ctx, Sw->getCondition());
    std::vector<z3::expr> Default;
    for (const auto &Case : Sw->cases()) {
      std::vector<z3::expr> G;
      if (Cond) {
        auto Val = term(Ctx, Case.getCaseValue());
        G.push_back(*Cond == *Val);
        Default.push_back(*Cond != *Val);
        V.Comparisons.push_back(*Cond == *Val);
      }
      branch(Ctx, L, I, Case.getCaseSuccessor(), G, Depth, Alone);
    }
    branch(Ctx, L, I, Sw->getDefaultDest(), Default, Depth, Alone);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnInst>(I)) {
    const Context &Cx = Contexts[Ctx];
    if (Cx.Parent < 0) { // the thread ends
      edge(L, Sink, I);
      return;
    }
    unsigned To = locAt(Cx.Parent, Cx.Call->getNextNode(), Depth, Alone);
    Edge &E = edge(L, To, I);
    if (Cx.Call->getType()->isIntegerTy() && Ret->getReturnValue())
      assignOrHavoc(E, local(Cx.Parent, Cx.Call),
                    term(Ctx, Ret->getReturnValue()));
    return;
  }
  if (isa<UnreachableInst>(I))
    return; // no successor
  C.Unsupported = formatv("instruction '{0}' in {1}", I->getOpcodeName(),
                          I->getFunction()->getName());
}

void Builder::visitCall(int Ctx, const CallBase &CB, unsigned L, unsigned Depth,
                        bool Alone) {
  const Instruction *I = &CB;
  auto Next = [&](unsigned D, bool A) {
    return locAt(Ctx, I->getNextNode(), D, A);
  };
  auto HavocResult = [&](Edge &E) {
    if (CB.getType()->isIntegerTy())
      E.Havocs.push_back(local(Ctx, &CB));
  };
  auto HavocPointees = [&](Edge &E) {
    std::vector<VarId> W;
    for (const Value *A : CB.args())
      if (A->getType()->isPointerTy())
        mayWrite(A, W);
    E.Havocs.insert(E.Havocs.end(), W.begin(), W.end());
  };
  if (auto In = callIntrinsic(CB)) {
    switch (*In) {
    case Intrinsic::ThreadCreate: {
      unsigned To = Next(Depth, false);
      HavocResult(edge(L, To, I));
      return;
    }
    case Intrinsic::ThreadExit:
    case Intrinsic::Exit:
    case Intrinsic::Error:
      edge(L, Sink, I);
      return;
    case Intrinsic::AtomicBegin:
      edge(L, Next(Depth + 1, Alone), I);
      return;
    case Intrinsic::AtomicEnd:
      edge(L, Next(Depth ? Depth - 1 : 0, Alone), I);
      return;
    case Intrinsic::Lock:
    case Intrinsic::Unlock:
    case Intrinsic::TryLock: {
      auto LV = lockVar(CB.getArgOperand(0));
      unsigned To = Next(Depth, Alone);
      z3::expr Free = V.Ctx.bv_val(0, 1), Held = V.Ctx.bv_val(1, 1);
      if (!LV) {
        Edge &E = edge(L, To, I);
        HavocResult(E);
        if (*In == Intrinsic::Unlock) // some lock is released: any may be
          for (const auto &[_, Id] : S.Locks)
            E.Havocs.push_back(Id);
        return;
      }
      Edge &E = edge(L, To, I);
      if (*In == Intrinsic::Unlock) {
        E.Assigns.push_back({*LV, Free});
        HavocResult(E);
        return;
      }
      E.Guards.push_back(V.Cur[*LV] == Free);
      V.Comparisons.push_back(E.Guards.back());
      E.Assigns.push_back({*LV, Held});
      if (*In == Intrinsic::Lock) {
        HavocResult(E);
        return;
      }
      if (CB.getType()->isIntegerTy()) { // trylock: 0 taken, else busy
        VarId R = local(Ctx, &CB);
        unsigned W = V.List[R].Width;
        E.Assigns.push_back({R, V.Ctx.bv_val(0, W)});
        Edge &F = edge(L, To, I);
        F.Havocs.push_back(R);
        // After the havoc: the failure value is not 0.
        unsigned Mid = newLoc(Depth > 0, Alone);
        F.To = Mid;
        Edge &G = edge(Mid, To, nullptr);
        G.Guards.push_back(V.Cur[R] != V.Ctx.bv_val(0, W));
      }
      return;
    }
    case Intrinsic::CondWait: {
      auto LV = lockVar(CB.getArgOperand(1));
      unsigned To = Next(Depth, Alone);
      if (!LV) {
        HavocResult(edge(L, To, I));
        return;
      }
      unsigned Mid = newLoc(Depth > 0, Alone);
      edge(L, Mid, I).Assigns.push_back({*LV, V.Ctx.bv_val(0, 1)});
      Edge &E = edge(Mid, To, nullptr);
      E.Guards.push_back(V.Cur[*LV] == V.Ctx.bv_val(0, 1));
      E.Assigns.push_back({*LV, V.Ctx.bv_val(1, 1)});
      HavocResult(E);
      return;
    }
    case Intrinsic::Assume: {
      Edge &E = edge(L, Next(Depth, Alone), I);
      if (auto Tm = term(Ctx, CB.getArgOperand(0))) {
        E.Guards.push_back(*Tm != V.Ctx.bv_val(0, Tm->get_sort().bv_size()));
        V.Comparisons.push_back(E.Guards.back());
      }
      return;
    }
    case Intrinsic::Write: {
      Edge &E = edge(L, Next(Depth, Alone), I);
      std::vector<VarId> W;
      mayWrite(CB.getArgOperand(0), W);
      E.Havocs.insert(E.Havocs.end(), W.begin(), W.end());
      return;
    }
    default: {
      // Nondet and unknown values, joins, signals, semaphores (never
      // blocking here: more behaviours), barriers, allocation: the result
      // is arbitrary, memory through pointer arguments may change.
      Edge &E = edge(L, Next(Depth, Alone), I);
      HavocResult(E);
      if (*In != Intrinsic::Read && *In != Intrinsic::ThreadJoin &&
          *In != Intrinsic::Free && *In != Intrinsic::Alloc &&
          *In != Intrinsic::Assert)
        HavocPointees(E);
      return;
    }
    }
  }
  SmallVector<const Function *, 4> Callees;
  if (const Function *F = CB.getCalledFunction())
    Callees.push_back(F);
  else
    Callees = PM.callees(CB);
  bool AllBodies = !Callees.empty();
  for (const Function *F : Callees)
    AllBodies &= !F->isDeclaration();
  if (!AllBodies) {
    // Library functions: an arbitrary result; what they may write
    // through their pointer arguments becomes arbitrary (unknown ones
    // make the program model unsound, which the engine reports).
    if (Callees.empty() && !CB.getCalledFunction()) {
      C.Unsupported = formatv("an unresolved indirect call in {0}",
                              CB.getFunction()->getName());
      return;
    }
    Edge &E = edge(L, Next(Depth, Alone), I);
    HavocResult(E);
    if (CB.getCalledFunction()->isIntrinsic() ||
        lookupExternal(CB.getCalledFunction()->getName()) !=
            ExternalEffect::Pure)
      HavocPointees(E);
    return;
  }
  unsigned CallDepth = 0;
  for (int P = Ctx; P >= 0; P = Contexts[P].Parent)
    ++CallDepth;
  for (const Function *F : Callees) {
    for (int P = Ctx; P >= 0; P = Contexts[P].Parent)
      if (Contexts[P].F == F) {
        C.Unsupported = formatv("recursion through {0}", F->getName());
        return;
      }
    if (CallDepth > MaxCallDepth) {
      C.Unsupported = "calls nested too deeply";
      return;
    }
    int NewCtx = Contexts.size();
    Contexts.push_back({Ctx, &CB, F});
    unsigned To = locAt(NewCtx, &*F->getEntryBlock().begin(), Depth, Alone);
    Edge &E = edge(L, To, I);
    for (const Argument &A : F->args())
      if (A.getType()->isIntegerTy() && A.getArgNo() < CB.arg_size())
        assignOrHavoc(E, local(NewCtx, &A),
                      term(Ctx, CB.getArgOperand(A.getArgNo())));
  }
}

} // namespace

Cfa buildCfa(const ProgramModel &PM, unsigned T, Vars &V,
             const DenseSet<const Instruction *> &Wanted) {
  if (V.Globals.empty())
    for (const GlobalVariable &GV : PM.module().globals()) {
      // A thread-local variable is one per thread: as a shared variable
      // the contexts' regions would constrain the thread's own copy.
      if (!GV.getValueType()->isIntegerTy() || GV.isThreadLocal() ||
          GV.getName().starts_with("llvm."))
        continue;
      unsigned W = GV.getValueType()->getIntegerBitWidth();
      VarId X = V.add(GV.getName().str(), W, true);
      V.Globals[&GV] = X;
      if (GV.hasDefinitiveInitializer())
        if (const auto *CI = dyn_cast<ConstantInt>(GV.getInitializer()))
          V.Init[X] =
              V.Ctx.bv_val(toString(CI->getValue(), 10, false).c_str(), W);
    }
  Builder B(PM, T, V, Wanted, V);
  return B.build();
}

} // namespace crace::circ

namespace crace::circ {

std::vector<z3::expr> seedPredicates(const std::vector<Cfa> &Cfas,
                                     const Vars &V, unsigned Max) {
  std::vector<z3::expr> Global, Local;
  std::set<unsigned> Seen;
  auto Add = [&](z3::expr E) {
    E = E.simplify();
    if (E.is_true() || E.is_false())
      return;
    if (E.is_not())
      E = E.arg(0);
    if (!Seen.insert(E.id()).second)
      return;
    bool G = true;
    std::vector<z3::expr> Todo{E};
    while (!Todo.empty() && G) {
      z3::expr X = Todo.back();
      Todo.pop_back();
      if (X.is_const() && !X.is_numeral()) {
        for (VarId I = 0; I < V.List.size(); ++I)
          if (z3::eq(V.Cur[I], X)) {
            G = V.List[I].Global;
            break;
          }
        continue;
      }
      if (X.is_app())
        for (unsigned I = 0; I < X.num_args(); ++I)
          Todo.push_back(X.arg(I));
    }
    (G ? Global : Local).push_back(E);
  };
  z3::expr_vector From(V.Ctx), To(V.Ctx);
  for (VarId X = 0; X < V.List.size(); ++X)
    if (V.LoadedFrom[X] >= 0 &&
        V.List[X].Width == V.List[V.LoadedFrom[X]].Width) {
      From.push_back(V.Cur[X]);
      To.push_back(V.Cur[V.LoadedFrom[X]]);
    }
  for (const z3::expr &C : V.Comparisons) {
    z3::expr Cp = C;
    Add(From.empty() ? Cp : Cp.substitute(From, To));
    Add(C);
  }
  for (const Cfa &C : Cfas)
    for (const Edge &E : C.Edges)
      for (const auto &[X, Tm] : E.Assigns)
        if (V.List[X].Global && Tm.is_numeral())
          Add(V.Cur[X] == Tm);
  std::vector<z3::expr> Out = Global;
  Out.insert(Out.end(), Local.begin(), Local.end());
  if (Out.size() > Max)
    Out.resize(Max, V.Ctx.bool_val(true));
  return Out;
}

} // namespace crace::circ
