//===- ProgramModel.cpp - the program as every engine sees it -------------===//
#include "model/ProgramModel.h"
#include "model/ArrayElement.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <functional>

using namespace llvm;

namespace crace {

ProgramModel::ProgramModel(Module &M) : M(M) {}

std::unique_ptr<ProgramModel>
ProgramModel::build(Module &M, const std::atomic<bool> *Cancel) {
  std::unique_ptr<ProgramModel> PM(new ProgramModel(M));
  if (Function *F = M.getFunction("main"); F && !F->isDeclaration())
    PM->Main = F;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (scc_iterator<const Function *> I = scc_begin(&F); !I.isAtEnd(); ++I) {
      const std::vector<const BasicBlock *> &SCC = *I;
      if (SCC.size() > 1 || I.hasCycle())
        for (const BasicBlock *BB : SCC)
          PM->CycleBlocks.insert(BB);
    }
  }
  PM->PTA = std::make_unique<PointsTo>(M);
  if (!PM->PTA->solve(Cancel))
    return nullptr;
  if (const char *D = std::getenv("CRACE_DUMP_PTS"); D && *D)
    PM->PTA->dump(llvm::errs(), D);
  PM->PTA->computeEscaped();
  PM->findVaListReaders();
  PM->boundArguments();
  PM->findThreads();
  std::vector<const Value *> Roots;
  for (const ThreadTemplate &T : PM->Threads)
    if (T.CreateSite)
      Roots.push_back(T.CreateSite->getArgOperand(2));
  PM->PTA->computeShared(Roots);
  if (PM->Main)
    PM->MainDT =
        std::make_unique<DominatorTree>(*const_cast<Function *>(PM->Main));
  PM->findJoins();
  if (PM->Main) {
    PM->findJoinLoops();
    PM->findCounterJoins();
    PM->findCreators();
  }
  PM->findForkChildren();
  PM->checkSoundness();
  return PM;
}

static std::vector<std::string> moduleStrings(const Module &M, StringRef Name) {
  std::vector<std::string> Out;
  if (const NamedMDNode *N = M.getNamedMetadata(Name))
    for (const MDNode *Op : N->operands())
      if (Op->getNumOperands() == 1)
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          Out.push_back(S->getString().str());
  return Out;
}

/// The handle a signal handler's pseudo-thread is created with
/// (models/signal.c): a thread-local model variable.
std::optional<Loc> ProgramModel::lockLocation(const Value *P) const {
  const PtsSet &S = PTA->pointsTo(P);
  if (S.size() != 1)
    return std::nullopt;
  Loc L = *S.begin();
  if (!L.exact() || !isSingleton(L.Obj))
    return std::nullopt;
  return L;
}

bool ProgramModel::isSingleton(uint32_t Obj) const {
  const AbsObject &O = PTA->object(Obj);
  switch (O.Kind) {
  case ObjKind::Global:
    return true;
  case ObjKind::Stack:
  case ObjKind::Heap: {
    auto *I = cast<Instruction>(O.Site);
    return runsOnceInMain(I->getFunction()) && !inCycle(I->getParent());
  }
  default:
    return false;
  }
}

bool ProgramModel::isThreadPrivateAccess(const Value *Ptr) const {
  // Strip constant-offset arithmetic and the TLS address intrinsic.
  const Value *V = Ptr;
  for (;;) {
    V = V->stripPointerCasts();
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(V))
      if (II->getIntrinsicID() == llvm::Intrinsic::threadlocal_address) {
        V = II->getArgOperand(0);
        continue;
      }
    break;
  }
  // The variable's own copy is private unless its address escaped: then
  // another thread may write this thread's copy through a pointer.
  auto *G = dyn_cast<GlobalVariable>(V);
  return G && G->isThreadLocal() && !PTA->object(PTA->objectOf(G)).Shared;
}

/// The bytes from P to the end of the array member of a struct that P
/// points into, when P is that member decayed (`s->name`, `&s->name[k]`:
/// a GEP on the array with indices 0 and a constant, on a GEP that selects
/// the member, or one GEP doing both, or the member itself) and the
/// member is not its struct's
/// last (which a struct hack may extend) nor in a union; else 0. A string
/// or block function given such a pointer reaches no byte past the member:
/// its pointer arithmetic would leave the array object (undefined
/// behaviour), as _FORTIFY_SOURCE's object sizes assume.
static uint64_t memberArrayBytes(const Value *P, const DataLayout &DL,
                                 bool WholeOnly = false) {
  const auto *G = dyn_cast<GEPOperator>(stripAddressCasts(P));
  if (!G)
    return 0;
  // A decay `&a[K]` (indices 0 and K on a's array type) of the GEP that
  // names the member a.
  const GEPOperator *Path = G;
  ArrayType *Decayed = nullptr;
  const Value *Elem = nullptr;
  if (auto *AT = dyn_cast<ArrayType>(G->getSourceElementType());
      AT && G->getNumIndices() == 2 &&
      match(G->getOperand(1), PatternMatch::m_Zero())) {
    Path = dyn_cast<GEPOperator>(stripAddressCasts(G->getPointerOperand()));
    Decayed = AT;
    Elem = G->getOperand(2);
    if (!Path)
      return 0;
  }
  // The member path after the pointer's own index: struct members (never
  // of a union, whose one member clang shows need not be the one named),
  // array elements. The array is bounded when some member on the way is
  // not its struct's last, which a struct hack may extend.
  bool Bounded = false;
  // One member step: the member's type, null when it cannot be told.
  auto Member = [&](StructType *ST, const Value *Idx) -> Type * {
    const auto *F = dyn_cast<ConstantInt>(Idx);
    if (!F || ST->isOpaque() || ST->isLiteral() ||
        ST->getName().starts_with("union."))
      return nullptr;
    Bounded |= F->getZExtValue() + 1 < ST->getNumElements();
    return ST->getElementType(unsigned(F->getZExtValue()));
  };
  Type *T = Path->getSourceElementType();
  bool LastIsStruct = false;
  ArrayType *Indexed = nullptr; // the array the path's last index picks in
  for (unsigned I = 2, E = Path->getNumOperands(); I < E; ++I) {
    const Value *Idx = Path->getOperand(I);
    Indexed = nullptr;
    if (auto *ST = dyn_cast<StructType>(T)) {
      if (!(T = Member(ST, Idx)))
        return 0;
      LastIsStruct = true;
    } else if (auto *AT = dyn_cast<ArrayType>(T)) {
      // (Rows of an array nested directly in an array are one array.)
      if (!LastIsStruct && I > 2)
        return 0;
      Indexed = AT;
      Elem = Idx;
      T = AT->getElementType();
      LastIsStruct = false;
    } else {
      return 0;
    }
  }
  // The GEPs the path's struct comes from (`&r->name` then `.c`, one GEP
  // a member): a member on their way that is not its struct's last bounds
  // it as well.
  for (const GEPOperator *Up = Path;
       !Bounded && match(Up->getOperand(1), PatternMatch::m_Zero());) {
    const auto *Parent =
        dyn_cast<GEPOperator>(stripAddressCasts(Up->getPointerOperand()));
    if (!Parent || Parent->getResultElementType() != Up->getSourceElementType())
      break;
    Type *PT = Parent->getSourceElementType();
    for (unsigned I = 2, E = Parent->getNumOperands(); I < E && PT; ++I) {
      if (auto *ST = dyn_cast<StructType>(PT)) {
        if (!(PT = Member(ST, Parent->getOperand(I))))
          return 0;
      } else if (auto *PA = dyn_cast<ArrayType>(PT)) {
        PT = PA->getElementType();
      } else {
        return 0;
      }
    }
    Up = Parent;
  }
  ArrayType *AT = Indexed;
  if (!AT) {
    // The path ends at the member itself (`&s->name`, or its decay).
    AT = dyn_cast<ArrayType>(T);
    if (!LastIsStruct || (Decayed && Decayed != AT))
      return 0;
    if (!Decayed)
      Elem = nullptr;
  } else if (Decayed) {
    return 0;
  }
  const auto *K = dyn_cast_or_null<ConstantInt>(Elem);
  uint64_t Index = K ? K->getZExtValue() : 0;
  if (!Bounded || !AT || (Elem && !K) || Index >= AT->getNumElements() ||
      (WholeOnly && Index))
    return 0;
  return (AT->getNumElements() - Index) *
         DL.getTypeAllocSize(AT->getElementType());
}

/// Where a walk by pointer arithmetic starts: through casts, GEPs of one
/// index (p + i, any i) and the phis and selects of the loop that steps
/// it, the one value that is none of these; null when there are several.
/// Cycle marks a value already on the way (a loop back to the walk).
/// Varies: a step has a variable index, or the walk goes through a phi or
/// a select.
static const Value *const Cycle = reinterpret_cast<const Value *>(1);
static const Value *walkStart(const Value *P,
                              SmallPtrSetImpl<const Value *> &Seen,
                              bool &Varies, unsigned Depth = 0) {
  P = stripAddressCasts(P);
  if (!Seen.insert(P).second)
    return Cycle;
  if (Depth > 32)
    return nullptr;
  SmallVector<const Value *, 4> Next;
  if (const auto *G = dyn_cast<GEPOperator>(P); G && G->getNumIndices() == 1) {
    Next.push_back(G->getPointerOperand());
    Varies |= !isa<Constant>(G->getOperand(1));
  } else if (const auto *Phi = dyn_cast<PHINode>(P)) {
    Next.append(Phi->value_op_begin(), Phi->value_op_end());
    Varies = true;
  } else if (const auto *Sel = dyn_cast<SelectInst>(P)) {
    Next = {Sel->getTrueValue(), Sel->getFalseValue()};
    Varies = true;
  } else {
    return P;
  }
  const Value *Start = Cycle;
  for (const Value *N : Next) {
    const Value *S = walkStart(N, Seen, Varies, Depth + 1);
    if (!S)
      return nullptr;
    if (S == Cycle)
      continue;
    if (Start != Cycle && Start != S)
      return nullptr;
    Start = S;
  }
  return Start;
}

MemAccess ProgramModel::withinMember(MemAccess A) const {
  if (!A.Ptr || !A.Ptr->getType()->isPointerTy())
    return A;
  SmallPtrSet<const Value *, 8> Seen;
  bool Varies = false;
  const Value *Start = walkStart(A.Ptr, Seen, Varies);
  // (A constant step keeps its exact offset.)
  if (!Start || Start == Cycle || !Varies)
    return A;
  uint64_t Bytes = memberBytes(Start, true);
  if (!Bytes || (A.Size && A.Size > Bytes))
    return A;
  A.Ptr = Start;
  A.Size = Bytes;
  return A;
}

uint64_t ProgramModel::memberBytes(const Value *P, bool WholeOnly) const {
  P = stripAddressCasts(P);
  if (const auto *A = dyn_cast<Argument>(P)) {
    auto It = ArgMemberBytes.find(A);
    if (It == ArgMemberBytes.end())
      return 0;
    return WholeOnly ? It->second.second : It->second.first;
  }
  return memberArrayBytes(P, M.getDataLayout(), WholeOnly);
}

void ProgramModel::boundArguments() {
  // (Callers first would need an order; a parameter passed on is looked
  // up again, to a depth that ends recursion.)
  std::function<std::pair<uint64_t, uint64_t>(const Argument &, unsigned)>
      Bound = [&](const Argument &A, unsigned Depth) {
        std::pair<uint64_t, uint64_t> None{0, 0};
        const Function &F = *A.getParent();
        if (Depth > 4 || &F == Main || F.use_empty() || F.isVarArg() ||
            !A.getType()->isPointerTy())
          return None;
        if (auto It = ArgMemberBytes.find(&A); It != ArgMemberBytes.end())
          return It->second;
        // The largest bound of the calls', when every call has one.
        uint64_t From = 0, Whole = 0;
        bool AllFrom = true, AllWhole = true;
        for (const Use &U : F.uses()) {
          const auto *CB = dyn_cast<CallBase>(U.getUser());
          if (!CB || !CB->isCallee(&U) ||
              CB->getFunctionType() != F.getFunctionType())
            return None;
          const Value *V = stripAddressCasts(CB->getArgOperand(A.getArgNo()));
          std::pair<uint64_t, uint64_t> B{0, 0};
          if (const auto *PA = dyn_cast<Argument>(V))
            B = Bound(*PA, Depth + 1);
          else
            B = {memberArrayBytes(V, M.getDataLayout()),
                 memberArrayBytes(V, M.getDataLayout(), true)};
          AllFrom &= B.first != 0;
          AllWhole &= B.second != 0;
          From = std::max(From, B.first);
          Whole = std::max(Whole, B.second);
        }
        return std::pair<uint64_t, uint64_t>{AllFrom ? From : 0,
                                             AllWhole ? Whole : 0};
      };
  for (const Function &F : M)
    if (!F.isDeclaration())
      for (const Argument &A : F.args())
        if (auto B = Bound(A, 0); B.first)
          ArgMemberBytes[&A] = B;
}

void ProgramModel::boundByMembers(SmallVectorImpl<MemAccess> &Out) const {
  for (MemAccess &A : Out)
    if (!A.Size)
      A.Size = memberBytes(A.Ptr, false);
}

/// A model the front end keeps as a call (CRACE_MODEL_CALL): explore
/// computes it, the other engines read its body.
static bool isModelCall(const Function &F) {
  return F.getSection() == ".crace_model_call";
}

SmallVector<MemAccess, 2> ProgramModel::accessesOf(const Instruction &I) const {
  SmallVector<MemAccess, 2> Out;
  const DataLayout &DL = M.getDataLayout();
  auto SizeOf = [&](Type *T) -> uint64_t {
    return T->isSized() ? DL.getTypeStoreSize(T).getFixedValue() : 0;
  };
  auto ConstLen = [](const Value *V) -> uint64_t {
    if (auto *C = dyn_cast<ConstantInt>(V))
      return C->getZExtValue();
    return 0;
  };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Out.push_back({&I, LI->getPointerOperand(), AccessKind::Read,
                   LI->isAtomic(), SizeOf(LI->getType())});
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Out.push_back({&I, SI->getPointerOperand(), AccessKind::Write,
                   SI->isAtomic(), SizeOf(SI->getValueOperand()->getType())});
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Out.push_back({&I, RMW->getPointerOperand(), AccessKind::Write, true,
                   SizeOf(RMW->getValOperand()->getType())});
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Out.push_back({&I, CX->getPointerOperand(), AccessKind::Write, true,
                   SizeOf(CX->getNewValOperand()->getType())});
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    uint64_t N = ConstLen(MI->getLength());
    if (N == 0 && isa<ConstantInt>(MI->getLength()))
      return Out; // zero-length: no access
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      Out.push_back({&I, MT->getSource(), AccessKind::Read, false, N});
    Out.push_back({&I, MI->getDest(), AccessKind::Write, false, N});
  } else if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (auto K = callIntrinsic(*CB)) {
      // In a string model that stays a call (strlen, strcmp, ...), an
      // access through a parameter is its call sites': see below.
      if ((*K == Intrinsic::Read || *K == Intrinsic::Write) &&
          isModelCall(*I.getFunction()) &&
          isa<Argument>(CB->getArgOperand(0)->stripPointerCasts()))
        return Out;
      if (*K == Intrinsic::Read)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Read, false,
                       ConstLen(CB->getArgOperand(1))});
      else if (*K == Intrinsic::Write)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Write, false,
                       ConstLen(CB->getArgOperand(1))});
      else if (*K == Intrinsic::ThreadCreate)
        Out.push_back({&I, CB->getArgOperand(0), AccessKind::Write, false,
                       DL.getPointerSize()});
      boundByMembers(Out);
      return Out;
    }
    // A call of such a model reads (writes) what this call passes: the
    // model's parameter would merge every call site's strings.
    for (const Function *F : PTA->callees(*CB)) {
      if (!isModelCall(*F))
        continue;
      for (const Instruction &J : instructions(*F)) {
        const auto *R = dyn_cast<CallBase>(&J);
        auto K = R ? callIntrinsic(*R) : std::nullopt;
        if (K != Intrinsic::Read && K != Intrinsic::Write)
          continue;
        const auto *P =
            dyn_cast<Argument>(R->getArgOperand(0)->stripPointerCasts());
        if (!P || P->getArgNo() >= CB->arg_size())
          continue;
        const Value *Len = R->getArgOperand(1);
        if (const auto *LA = dyn_cast<Argument>(Len))
          Len = LA->getArgNo() < CB->arg_size()
                    ? CB->getArgOperand(LA->getArgNo())
                    : nullptr;
        Out.push_back(
            {&I, CB->getArgOperand(P->getArgNo()),
             *K == Intrinsic::Read ? AccessKind::Read : AccessKind::Write,
             false, Len ? ConstLen(Len) : 0});
      }
    }
    if (const Function *F = CB->getCalledFunction())
      if (auto E = lookupExternal(F->getName())) {
        for (unsigned A = 0; A < CB->arg_size(); ++A) {
          if (!CB->getArgOperand(A)->getType()->isPointerTy())
            continue;
          bool W = (*E == ExternalEffect::WritesArg0 && A == 0) ||
                   (*E == ExternalEffect::WritesFrom1 && A >= 1) ||
                   (*E == ExternalEffect::WritesFrom2 && A >= 2);
          if (*E == ExternalEffect::Pure)
            continue;
          Out.push_back({&I, CB->getArgOperand(A),
                         W ? AccessKind::Write : AccessKind::Read, false, 0,
                         /*Library=*/true});
        }
      }
    // A variadic function that formats its arguments through a va_list
    // (a logging wrapper around vfprintf) reads what they point to, as
    // printf does: at its call, which points-to resolves exactly (the
    // library call inside sees only the va_list).
    if (CB->arg_size() > CB->getFunctionType()->getNumParams())
      for (const Function *C : PTA->callees(*CB))
        if (VaListReaders.contains(C)) {
          for (unsigned A = C->arg_size(); A < CB->arg_size(); ++A)
            if (CB->getArgOperand(A)->getType()->isPointerTy())
              Out.push_back({&I, CB->getArgOperand(A), AccessKind::Read, false,
                             0, /*Library=*/true});
          break;
        }
  }
  boundByMembers(Out);
  return Out;
}

void ProgramModel::findVaListReaders() {
  // Callers of a reader are readers: seeded with the functions that call a
  // VA_LIST_READER library function, then backwards along the calls
  // (direct and resolved indirect).
  DenseMap<const Function *, SmallVector<const Function *, 4>> Callers;
  SmallVector<const Function *, 16> Work;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (const Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm())
        continue;
      for (const Function *C : PTA->callees(*CB)) {
        if (!C->isDeclaration())
          Callers[C].push_back(&F);
        else if (readsThroughVaList(C->getName()) &&
                 VaListReaders.insert(&F).second)
          Work.push_back(&F);
      }
    }
  }
  while (!Work.empty())
    for (const Function *Caller : Callers.lookup(Work.pop_back_val()))
      if (VaListReaders.insert(Caller).second)
        Work.push_back(Caller);
}

void ProgramModel::checkSoundness() {
  if (!Main) {
    Unsound.push_back("the program has no 'main' function (drivers need "
                      "entry points, which this engine does not take yet)");
    return;
  }
  // Driver mode: what the harness could not model soundly (frontend).
  for (const std::string &R : moduleStrings(M, "crace.reasons"))
    Unsound.push_back(R);
  StringSet<> SeenExternal;
  // Module order, not the set's (pointer-hashed) order: which call site
  // names an unknown external, and the reasons' order, must not change
  // from one run to the next.
  for (const Function &Fn : M) {
    if (!Reachable.count(&Fn))
      continue;
    const Function *F = &Fn;
    for (const Instruction &I : instructions(*F)) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        bool ThroughUnknown = false;
        for (Loc L : PTA->pointsTo(SI->getPointerOperand()))
          ThroughUnknown |= L.Obj == PointsTo::UnknownObj;
        if (ThroughUnknown && !PTA->pointsTo(SI->getValueOperand()).empty())
          Unsound.push_back(formatv("pointer stored through a pointer of "
                                    "unknown origin at {0}",
                                    location(&I).str()));
        continue;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->isInlineAsm()) {
        auto *IA = cast<InlineAsm>(CB->getCalledOperand());
        if (!StringRef(IA->getAsmString()).trim().empty())
          Unsound.push_back(formatv("inline assembly at {0} is not analysed",
                                    location(&I).str()));
        continue;
      }
      if (callIntrinsic(*CB))
        continue;
      bool Unresolved = false;
      auto Callees = PTA->callees(*CB, &Unresolved);
      if (Unresolved)
        Unsound.push_back(formatv("indirect call at {0} could not be resolved",
                                  location(&I).str()));
      for (const Function *C : Callees) {
        if (!C->isDeclaration())
          continue;
        if (C->isIntrinsic()) {
          auto ID = C->getIntrinsicID();
          if (isBenignLLVMIntrinsic(*C) || ID == llvm::Intrinsic::memcpy ||
              ID == llvm::Intrinsic::memmove || ID == llvm::Intrinsic::memset ||
              ID == llvm::Intrinsic::memcpy_inline ||
              ID == llvm::Intrinsic::memset_inline)
            continue;
          // Points-to follows the variadic arguments through the va_list
          // (PointsTo::VarArgAreas), up to a number of targets.
          if (ID == llvm::Intrinsic::vastart || ID == llvm::Intrinsic::vacopy ||
              ID == llvm::Intrinsic::vaend) {
            if (ID == llvm::Intrinsic::vastart && PTA->varArgsUntracked(*F))
              Unsound.push_back(formatv(
                  "variadic function '{0}' is handed pointers to more than "
                  "{1} objects, which crace does not follow through its "
                  "va_list",
                  F->getName(), PointsTo::VarArgTargetCap));
            continue;
          }
          if (SeenExternal.insert(C->getName()).second)
            Unsound.push_back(formatv("unsupported LLVM intrinsic '{0}' at {1}",
                                      C->getName(), location(&I).str()));
          continue;
        }
        if (lookupExternal(C->getName()))
          continue;
        // setjmp is modelled by its first return (models/posix.c); the
        // jump back is not, so its call keeps race freedom unproved.
        if (SeenExternal.insert(C->getName()).second)
          Unsound.push_back(
              isLongJmp(C->getName())
                  ? formatv("call to '{0}' at {1}: the models give setjmp its "
                            "first return only; the return again that '{0}' "
                            "makes is not analysed",
                            C->getName(), location(&I).str())
                        .str()
                  : formatv("call to unknown external function '{0}' "
                            "at {1} (no model: its effects are not "
                            "analysed)",
                            C->getName(), location(&I).str())
                        .str());
      }
    }
  }
}

std::vector<std::string> ProgramModel::assumptions() const {
  std::vector<std::string> A = {
      "sequential consistency (no weak-memory reordering)",
      "a lock is released only by the thread that acquired it",
      "the C environment models in models/ describe the library functions",
      "library functions outside the models touch no program memory but "
      "their buffer arguments (printf-family arguments are read)",
      "no undefined behaviour (out-of-bounds or type-punned pointer accesses "
      "stay inside their object, and an index into an array, or arithmetic "
      "on a pointer to one of its elements, inside that array, but for the "
      "last member of a struct in a heap block; freed memory is not used; a "
      "call through a pointer calls a function of the right arity)",
      "a pointer crace cannot trace (a result of code without a body or "
      "model, an integer cast to a pointer, a number computed by inline "
      "assembly) points into memory that code can reach: its own, the "
      "globals it can name, and what the program handed to it",
      "a pointer is not rebuilt by arithmetic on its bytes, on the "
      "distance between two pointers, on a number below 4096 or on what "
      "checksum, byte-swap, bit-count and time-stamp instructions in "
      "inline assembly compute (a byte-wise copy keeps it; no object lies "
      "in the first page)",
  };
  // Type-based alias tags (clang's !tbaa, absent with -fno-strict-aliasing)
  // may separate pairs (analysis/PairFilters.h).
  if (any_of(M, [](const Function &F) {
        return any_of(instructions(F), [](const Instruction &I) {
          return I.getMetadata(LLVMContext::MD_tbaa) != nullptr;
        });
      }))
    A.push_back("accesses follow C's effective-type rules (strict aliasing, "
                "as compilers assume at -O2): a struct member access "
                "touches only an object of that struct type or one "
                "containing it, never an unrelated struct or a scalar "
                "global variable, and two objects of one struct type never "
                "overlap in part (units compiled with -fno-strict-aliasing "
                "are exempt)");
  // Driver mode: the harness's constraints and modelling choices; main's
  // input bounds (frontend/ProgramStart.cpp).
  for (const std::string &S : moduleStrings(M, "crace.assumptions"))
    A.push_back(S);
  if (any_of(Threads, [](const ThreadTemplate &T) { return T.SignalHandler; }))
    A.push_back("a signal handler does not interrupt itself (one run of each "
                "installed handler at a time), and a blocked signal may still "
                "be delivered");
  if (!ForkChild.empty())
    A.push_back("a fork's child shares no memory with other processes "
                "(memory mapped with MAP_SHARED is not checked for races "
                "between processes)");
  return A;
}

} // namespace crace
