//===- PointsToEscape.cpp - what code outside the program can reach -------===//
//
// The second half of the points-to analysis (PointsTo.h): after solving,
// the objects more than one thread may reach (computeShared) and the ones
// code crace cannot see may reach (computeEscaped, reachableByUnknown).
// Moved out of PointsTo.cpp, which issue 15 keeps under 800 lines.
//
//===----------------------------------------------------------------------===//
#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace {

namespace {

/// Whether the address V (of a hidden global, or derived from it) only
/// serves as an address: see PointsTo::reachableByUnknown.
bool onlyUsedAsAddress(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  for (const Use &U : V->uses()) {
    const User *Usr = U.getUser();
    if (const auto *L = dyn_cast<LoadInst>(Usr)) {
      (void)L;
      continue;
    }
    if (const auto *S = dyn_cast<StoreInst>(Usr)) {
      if (S->getValueOperand() == V)
        return false;
      continue;
    }
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(Usr)) {
      if (RMW->getValOperand() == V)
        return false;
      continue;
    }
    if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(Usr)) {
      if (CX->getPointerOperand() != V || CX->getCompareOperand() == V ||
          CX->getNewValOperand() == V)
        return false;
      continue;
    }
    if (isa<ICmpInst>(Usr))
      continue;
    if (const auto *CB = dyn_cast<CallBase>(Usr)) {
      auto K = callIntrinsic(*CB);
      if (!K || !CB->isArgOperand(&U))
        return false;
      if (usesObjectOnly(*K))
        continue;
      return false;
    }
    // Address arithmetic and casts: their results must pass the same test.
    if (isa<GEPOperator>(Usr) || isa<BitCastOperator>(Usr) ||
        isa<AddrSpaceCastOperator>(Usr) || isa<PHINode>(Usr) ||
        isa<SelectInst>(Usr)) {
      if (isa<SelectInst>(Usr) && cast<SelectInst>(Usr)->getCondition() == V)
        return false;
      if (!onlyUsedAsAddress(Usr, Depth + 1))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

} // namespace

bool PointsTo::reachableByUnknown(uint32_t Obj) const {
  if (Obj == UnknownObj || Obj >= Objects.size())
    return true;
  if (!Escaped.empty() && !Escaped[Obj])
    return false;
  auto [It, New] = ReachableByUnknown.try_emplace(Obj, true);
  if (!New)
    return It->second;
  const AbsObject &O = Objects[Obj];
  const auto *G = dyn_cast_or_null<GlobalVariable>(O.Site);
  bool Hidden = O.Kind == ObjKind::Global && G &&
                (G->hasLocalLinkage() || G->getName().starts_with("__crace"));
  It->second = !(Hidden && onlyUsedAsAddress(G));
  return It->second;
}

void PointsTo::computeShared(const std::vector<const Value *> &ExtraRoots) {
  std::vector<uint32_t> Work;
  auto Mark = [&](uint32_t O) {
    if (!Objects[O].Shared) {
      Objects[O].Shared = true;
      Work.push_back(O);
    }
  };
  Mark(UnknownObj);
  for (uint32_t O = 0; O < Objects.size(); ++O)
    if (Objects[O].Kind == ObjKind::Global)
      Mark(O);
  for (Loc L : ThreadResults)
    Mark(L.Obj);
  for (const Value *V : ExtraRoots)
    for (Loc L : pointsTo(V))
      Mark(L.Obj);
  while (!Work.empty()) {
    uint32_t O = Work.back();
    Work.pop_back();
    for (Loc L : contents(O))
      Mark(L.Obj);
  }
}

void PointsTo::computeEscaped() {
  std::vector<bool> E(Objects.size(), false);
  std::vector<uint32_t> Work;
  auto Mark = [&](uint32_t O) {
    if (!E[O]) {
      E[O] = true;
      Work.push_back(O);
    }
  };
  auto MarkAll = [&](const Value *V) {
    for (Loc L : pointsTo(V))
      Mark(L.Obj);
  };
  Mark(UnknownObj);
  // Objects code outside the analysed program knows by name: the ones it
  // owns (declared here, defined elsewhere), and every global it can link
  // to when some of that code may be a missing part of the program rather
  // than a library (a function not declared in a system header, an
  // unresolved call, inline assembly that names the global).
  for (const GlobalVariable &G : M.globals())
    if (G.isDeclaration())
      Mark(objectOf(&G));
  StringSet<> Library;
  if (const NamedMDNode *N = M.getNamedMetadata("crace.library_functions"))
    for (const MDNode *Op : N->operands())
      if (const auto *S = dyn_cast<MDString>(Op->getOperand(0)))
        Library.insert(S->getString());
  // Code outside the program may be a missing part of it when the module
  // declares a function that is neither a library function nor modelled,
  // or loads code at run time (dlsym: a plugin of the program). An
  // unresolved indirect call does not by itself: its target is a function
  // of the program (its address escaped; what it returns escapes below) or
  // of a library, reached through a pointer that came from one of the two.
  bool ProgramCode = false;
  for (const Function &Fn : M)
    if (Fn.isDeclaration() && !Fn.isIntrinsic() && !Fn.use_empty() &&
        !lookupIntrinsic(Fn.getName()) && !lookupExternal(Fn.getName()) &&
        (!Library.contains(Fn.getName()) ||
         is_contained({"dlsym", "dlvsym", "dlopen", "dlmopen"}, Fn.getName())))
      ProgramCode = true;
  auto NameGlobalsIn = [&](const InlineAsm &IA) {
    for (const GlobalVariable &G : M.globals())
      if (!G.hasLocalLinkage() && G.hasName() &&
          StringRef(IA.getAsmString()).contains(G.getName()))
        Mark(objectOf(&G));
  };
  bool Everything = false;
  for (const Function &F : M) {
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->isInlineAsm()) {
        // Assembly that yields a pointer may compute any address. One that
        // yields numbers (crc32 instructions) is a source of integers like
        // any other: a pointer cast from them is of unknown origin and,
        // under the printed assumption, reaches what was handed to it.
        if (holdsPointer(CB->getType()))
          Everything = true;
        for (const Use &A : CB->args())
          MarkAll(A.get());
        NameGlobalsIn(*cast<InlineAsm>(CB->getCalledOperand()));
        continue;
      }
      if (isa<IntrinsicInst>(CB))
        continue;
      if (auto K = callIntrinsic(*CB)) {
        if (*K == Intrinsic::NondetPtr)
          Everything = true;
        // A start routine crace cannot see receives its argument.
        if (*K == Intrinsic::ThreadCreate) {
          const PtsSet &Fns = pointsTo(CB->getArgOperand(1));
          if (Fns.empty() || any_of(Fns, [&](Loc L) {
                return Objects[L.Obj].Kind != ObjKind::Function ||
                       cast<Function>(Objects[L.Obj].Site)->isDeclaration();
              }))
            MarkAll(CB->getArgOperand(2));
        }
        continue;
      }
      bool Unresolved = false;
      auto Callees = callees(*CB, &Unresolved);
      bool Outside = Unresolved;
      for (const Function *Fn : Callees) {
        if (Fn->isDeclaration() && !Fn->isIntrinsic() &&
            !lookupExternal(Fn->getName()))
          Outside = true;
        // A va_arg instruction gives a pointer of unknown origin: the
        // variadic arguments of a function that has one are reachable from
        // it. (Clang reads them through the va_list instead, which
        // PointsTo follows, up to VarArgTargetCap targets.)
        if (CollapsedVarArgs.contains(Fn) || VAArgUsers.contains(Fn))
          for (unsigned A = Fn->arg_size(); A < CB->arg_size(); ++A)
            MarkAll(CB->getArgOperand(A));
      }
      if (Outside)
        for (const Use &A : CB->args())
          MarkAll(A.get());
    }
  }
  if (Everything) {
    Escaped.clear(); // every object stays reachable
    return;
  }
  if (ProgramCode)
    for (const GlobalVariable &G : M.globals())
      if (!G.hasLocalLinkage())
        Mark(objectOf(&G));
  while (!Work.empty()) {
    uint32_t O = Work.back();
    Work.pop_back();
    // The outside code follows the pointers stored in what it reaches, and
    // a function it may call hands it what the function returns.
    for (Loc L : contents(O))
      Mark(L.Obj);
    if (Objects[O].Kind == ObjKind::Function)
      if (auto It = Returns.find(cast<Function>(Objects[O].Site));
          It != Returns.end())
        for (Loc L : It->second)
          Mark(L.Obj);
  }
  Escaped = std::move(E);
}

} // namespace crace
