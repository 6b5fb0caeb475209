//===- HeapCloning.cpp - one heap object per call of an allocation wrapper
//-===//
#include "frontend/HeapCloning.h"
#include "model/Counters.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "crace-frontend"

using namespace llvm;

CRACE_STATISTIC(NumAllocWrappersInlined,
                "Calls of allocation wrappers inlined (heap cloning)");
CRACE_STATISTIC(NumPlumbingInlined, "Calls of pointer plumbing inlined");
CRACE_STATISTIC(NumLockWrappersInlined, "Calls of lock wrappers inlined");
CRACE_STATISTIC(NumCopyWrappersInlined, "Calls of memcpy wrappers inlined");
CRACE_STATISTIC(NumPoolHelpersInlined, "Calls of pool helpers inlined");

namespace crace {

namespace {

/// Wrappers larger than this are left alone (their copies would cost more
/// than the precision gained).
constexpr unsigned MaxWrapperInstructions = 200;
/// Stop cloning once this many instructions have been added to the module.
constexpr unsigned MaxAddedInstructions = 200000;

bool isAllocation(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  return CB && callIntrinsic(*CB) == Intrinsic::Alloc;
}

bool keepsNoCopy(const Value &Root, const Instruction *Alloc, unsigned Depth);

/// A call that is handed V (not as its callee) keeps no copy of it: a
/// library function of known effect (sscanf into the block, snprintf,
/// fputs), or a function of the program whose parameter only reads,
/// writes, compares or passes it on so (an initialiser `init(p)`), three
/// calls deep.
bool callKeepsNoCopy(const CallBase &CB, const Value *V, unsigned Depth) {
  const Function *C = CB.getCalledFunction();
  if (!C || CB.getCalledOperand() == V)
    return false;
  if (C->isDeclaration())
    return lookupExternal(C->getName()).has_value();
  if (C->isVarArg() || C->getFunctionType() != CB.getFunctionType() ||
      Depth >= 3)
    return false;
  for (unsigned I = 0; I < CB.arg_size(); ++I)
    if (CB.getArgOperand(I) == V &&
        !keepsNoCopy(*C->getArg(I), nullptr, Depth + 1))
      return false;
  return true;
}

/// The pointer Root is only compared, and read or written through
/// (initialised), freed, or handed to calls that keep no copy
/// (callKeepsNoCopy): it is not stored anywhere nor passed to a call that
/// could keep it. With Alloc (Root is that fresh block), it may also be
/// returned and stored into the block itself or into another block its
/// function allocates; without (Root is a parameter), neither.
bool keepsNoCopy(const Value &Root, const Instruction *Alloc, unsigned Depth) {
  SmallVector<const Value *, 8> Work = {&Root};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if ((Alloc && isa<ReturnInst>(U)) || isa<LoadInst>(U) || isa<ICmpInst>(U))
        continue;
      if (const auto *S = dyn_cast<StoreInst>(U)) {
        // Stored: escapes, unless into the fresh block itself (a header
        // pointing at its own payload, as a bignum's digits) or into
        // another block this function allocates (cache_create's
        // `ret->name = strdup(name)`), which must keep to itself too:
        // isAllocationWrapper asks that of every allocation.
        const Value *Into = getUnderlyingObject(S->getPointerOperand());
        if (S->getValueOperand() == V &&
            (!Alloc ||
             (Into != Alloc &&
              !(isAllocation(Into) && cast<Instruction>(Into)->getFunction() ==
                                          Alloc->getFunction()))))
          return false;
        continue;
      }
      if (isa<PHINode>(U) || isa<SelectInst>(U) || isa<CastInst>(U) ||
          isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(U)) {
        switch (II->getIntrinsicID()) {
        case llvm::Intrinsic::memset:
        case llvm::Intrinsic::memcpy:
        case llvm::Intrinsic::memmove:
          // As the destination (initialised) or source (read), never a
          // value stored.
          continue;
        default:
          if (isMarker(II))
            continue;
          return false;
        }
      }
      if (const auto *CB = dyn_cast<CallBase>(U)) {
        auto K = callIntrinsic(*CB);
        // The models' "reads/writes these bytes", and free on a path that
        // gives up (cache_create's `free(ret); return NULL;`): the
        // pointer is not kept.
        if (K == Intrinsic::Read || K == Intrinsic::Write ||
            K == Intrinsic::Free || callKeepsNoCopy(*CB, V, Depth))
          continue;
      }
      return false;
    }
  }
  return true;
}

/// The fresh pointer Alloc is only returned, compared, and initialised
/// (keepsNoCopy). A function that links its new object into a data
/// structure (a tree node constructor) gains nothing from copies: the
/// structure joins them again, and every pointer set into it grows.
bool onlyReturned(const Instruction &Alloc) {
  return keepsNoCopy(Alloc, &Alloc, 0);
}

/// F returns fresh memory on every path that returns (xmalloc, s_malloc,
/// a zeroing or logging wrapper), keeps no copy of it, and does nothing
/// with threads.
bool isAllocationWrapper(const Function &F) {
  if (F.isDeclaration() || F.isVarArg() || F.getName() == "main" ||
      !F.getReturnType()->isPointerTy() ||
      F.getSection() == ".crace_model_call" || // explore computes these
      F.getInstructionCount() > MaxWrapperInstructions)
    return false;
  bool Allocates = false, Returns = false;
  for (const Instruction &I : instructions(F)) {
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->getCalledFunction() == &F)
        return false; // recursive
      auto K = callIntrinsic(*CB);
      if (K == Intrinsic::ThreadCreate || K == Intrinsic::ThreadJoin)
        return false;
      if (K == Intrinsic::Alloc) {
        if (!onlyReturned(I))
          return false;
        Allocates = true;
      }
    }
    if (const auto *R = dyn_cast<ReturnInst>(&I)) {
      if (!R->getReturnValue() || !freshOrNull(R->getReturnValue()))
        return false;
      Returns = true;
    }
  }
  return Allocates && Returns;
}

/// "f() called at file:line:col", for the names of the cloned objects.
std::string callSiteText(const CallBase &CB, const Function &F) {
  std::string Where = "an unknown location";
  if (const DILocation *L = CB.getDebugLoc().get()) {
    // As ProgramModel::location spells a file: absolute, without dots.
    SmallString<256> Path(L->getFilename());
    if (!sys::path::is_absolute(Path) && !L->getDirectory().empty()) {
      Path = L->getDirectory();
      sys::path::append(Path, L->getFilename());
    }
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Where = formatv("{0}:{1}:{2}", Path, L->getLine(), L->getColumn()).str();
  }
  return formatv("{0}() called at {1}", F.getName(), Where).str();
}

/// The direct calls, from other functions, of the functions Inline picks.
SmallVector<CallBase *, 64> directCallSites(Module &M,
                                            bool (*Inline)(const Function &)) {
  SmallVector<CallBase *, 64> Sites;
  for (Function &F : M) {
    if (!Inline(F))
      continue;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledFunction() == &F && CB->getFunction() != &F)
          Sites.push_back(CB);
  }
  return Sites;
}

/// Inlines the direct calls of the functions Inline picks; the number
/// inlined.
unsigned inlineDirectCalls(Module &M, bool (*Inline)(const Function &)) {
  unsigned Inlined = 0;
  for (CallBase *CB : directCallSites(M, Inline)) {
    InlineFunctionInfo IFI;
    Inlined += InlineFunction(*CB, IFI).isSuccess();
  }
  return Inlined;
}

/// Inlines the direct calls of the functions Inline picks, round by round
/// (a wrapper of a wrapper, s_zmalloc around s_malloc, becomes one once
/// the inner one is inlined into it), at most MaxAddedInstructions added.
/// The copies of the allocations a call makes are distinct heap objects,
/// each named after the outermost call that made it (`!crace.via`,
/// ProgramModel::describe). Why: for the debug output. The number inlined.
unsigned inlineInRounds(Module &M, bool (*Inline)(const Function &),
                        const char *Why) {
  unsigned Inlined = 0, Added = 0;
  LLVMContext &Ctx = M.getContext();
  for (unsigned Round = 0; Round < 4; ++Round) {
    bool Progress = false;
    for (CallBase *CB : directCallSites(M, Inline)) {
      Function *F = CB->getCalledFunction();
      if (Added + F->getInstructionCount() > MaxAddedInstructions)
        return Inlined;
      std::string Where = callSiteText(*CB, *F);
      MDNode *Via = MDNode::get(Ctx, MDString::get(Ctx, Where));
      InlineFunctionInfo IFI;
      if (!InlineFunction(*CB, IFI).isSuccess())
        continue;
      LLVM_DEBUG(dbgs() << "crace-frontend: inlined " << Where << ": " << Why
                        << "\n");
      for (CallBase *New : IFI.InlinedCallSites)
        if (isAllocation(New))
          New->setMetadata("crace.via", Via);
      Progress = true;
      ++Inlined;
      Added += F->getInstructionCount();
    }
    if (!Progress)
      break;
  }
  return Inlined;
}

} // namespace

unsigned inlineAllocationWrappers(Module &M) {
  unsigned Inlined = inlineInRounds(
      M, isAllocationWrapper,
      "every path returns null or a fresh block it keeps no copy of "
      "(allocation wrapper)");
  NumAllocWrappersInlined += Inlined;
  return Inlined;
}

/// A debug or lifetime marker: no behaviour.
static bool isMarker(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return isa<DbgInfoIntrinsic>(I) || (II && II->isLifetimeStartOrEnd());
}

/// A defined, non-variadic function other than main whose blocks run one
/// after the other: each ends in a return or an unconditional branch to a
/// block not seen before (`while (1) { ...; break; }`, as CIL writes
/// list.h's INIT_LIST_HEAD, is three such blocks). Body: its instructions
/// in the order they run, without those branches and without debug and
/// lifetime markers.
static bool isStraightLineHelper(const Function &F,
                                 SmallVectorImpl<const Instruction *> &Body) {
  Body.clear();
  if (F.isDeclaration() || F.isVarArg() || F.getName() == "main")
    return false;
  SmallPtrSet<const BasicBlock *, 8> Seen;
  for (const BasicBlock *BB = &F.getEntryBlock(); BB;) {
    if (!Seen.insert(BB).second)
      return false; // a loop
    const Instruction *T = BB->getTerminator();
    const auto *Br = dyn_cast<BranchInst>(T);
    if (!isa<ReturnInst>(T) && (!Br || Br->isConditional()))
      return false;
    for (const Instruction &I : *BB)
      if (&I != Br && !isMarker(I))
        Body.push_back(&I);
    BB = Br ? Br->getSuccessor(0) : nullptr;
  }
  return Seen.size() == F.size();
}

/// A helper that only moves pointers: straight-line code, no call (but debug
/// and lifetime markers), no local in memory, at most MaxPlumbing instructions,
/// and at least one pointer it loads or stores (list.h's
/// __list_add, list_del, INIT_LIST_HEAD).
static bool isPointerPlumbing(const Function &F) {
  constexpr unsigned MaxPlumbing = 24;
  SmallVector<const Instruction *, 32> Body;
  if (!isStraightLineHelper(F, Body) || Body.size() > MaxPlumbing)
    return false;
  bool MovesPointer = false;
  for (const Instruction *I : Body) {
    // (A local whose address is taken would live on in the caller's frame
    // and hide a use after return.)
    if (isa<CallBase>(I) || isa<AllocaInst>(I))
      return false;
    if (const auto *SI = dyn_cast<StoreInst>(I))
      MovesPointer |= SI->getValueOperand()->getType()->isPointerTy();
    if (const auto *LI = dyn_cast<LoadInst>(I))
      MovesPointer |= LI->getType()->isPointerTy();
  }
  return MovesPointer;
}

unsigned inlinePointerPlumbing(Module &M) {
  unsigned Inlined = 0;
  // Round by round: list_add becomes plumbing once __list_add is in it.
  for (unsigned Round = 0; Round < 4; ++Round) {
    unsigned Now = inlineDirectCalls(M, isPointerPlumbing);
    if (!Now)
      break;
    Inlined += Now;
    NumPlumbingInlined += Now;
  }
  return Inlined;
}

/// F's control flow has a cycle.
static bool hasLoop(const Function &F) {
  for (scc_iterator<const Function *> It = scc_begin(&F); !It.isAtEnd(); ++It)
    if (It.hasCycle())
      return true;
  return false;
}

/// A wrapper that takes or releases a lock it is told which (zebedee's
/// mutexLock(n): pthread_mutex_lock(&Mutex[n])): a lock or unlock of a
/// non-constant address, no loop, no memory access, at most
/// MaxLockWrapper instructions, and no calls but crace's lock, assert and
/// exit intrinsics and LLVM's. (A helper that also touches memory under
/// the lock is a critical section: inlined, its GEP to a lock at offset 0
/// folds away, and the field lock of SymbolicLocks.h is no longer seen.)
static bool isLockWrapper(const Function &F) {
  constexpr unsigned MaxLockWrapper = 40;
  if (F.isDeclaration() || F.isVarArg() || F.getName() == "main" ||
      F.size() > 8 || hasLoop(F))
    return false;
  unsigned N = 0;
  bool LocksArgument = false;
  for (const Instruction &I : instructions(F)) {
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    const auto *CB = dyn_cast<CallBase>(&I);
    if (isa<AllocaInst>(I) || (!CB && I.mayReadOrWriteMemory()) ||
        isa_and_present<MemIntrinsic>(CB) || ++N > MaxLockWrapper)
      return false;
    if (!CB || isa<IntrinsicInst>(CB))
      continue;
    auto K = callIntrinsic(*CB);
    if (K && isLockOperation(*K))
      LocksArgument |=
          !isa<Constant>(CB->getArgOperand(0)->stripPointerCasts());
    else if (K != Intrinsic::Assert && K != Intrinsic::Error &&
             K != Intrinsic::Exit)
      return false;
  }
  return LocksArgument;
}

/// Arithmetic only: a defined function of at most 16 instructions that
/// touches no memory and calls nothing (memcached's get_object, `return
/// (uint64_t *)ptr + 1`).
static bool isPureArithmetic(const Function &F) {
  if (F.isDeclaration() || F.getInstructionCount() > 16)
    return false;
  return all_of(instructions(F), [](const Instruction &I) {
    return isMarker(I) || (!isa<CallBase>(I) && !I.mayReadOrWriteMemory());
  });
}

/// A small helper of a pool (memcached's do_cache_alloc and do_cache_free,
/// which pop and push a cache's free list): it takes a pointer, loads or
/// stores one, allocates or frees a block, has no loop and no local, and
/// calls nothing but arithmetic helpers, the allocation, free, access,
/// assert and exit intrinsics and LLVM's memory and marker intrinsics (so
/// no lock: see isLockWrapper on critical sections). Shared, it hands every
/// caller what any caller's pool holds; inlined, a call reaches its own
/// pool, and a block it allocates is an object of that call. Helpers that
/// neither allocate nor free stay calls: inlined, a GEP to a struct member
/// may fold into the caller's and lose the member's type (cafe_ccic's
/// mcam_reg_write) or its array (`s->buf + s->used`).
static bool isPoolHelper(const Function &F) {
  constexpr unsigned MaxPoolHelper = 100;
  if (F.isDeclaration() || F.isVarArg() || F.getName() == "main" ||
      F.hasSection() ||
      none_of(F.args(),
              [](const Argument &A) { return A.getType()->isPointerTy(); }) ||
      hasLoop(F))
    return false;
  unsigned N = 0;
  bool MovesPointer = false, Pools = false;
  for (const Instruction &I : instructions(F)) {
    if (isMarker(I))
      continue;
    if (isa<AllocaInst>(I) || ++N > MaxPoolHelper)
      return false;
    if (const auto *SI = dyn_cast<StoreInst>(&I))
      MovesPointer |= SI->getValueOperand()->getType()->isPointerTy();
    if (const auto *LI = dyn_cast<LoadInst>(&I))
      MovesPointer |= LI->getType()->isPointerTy();
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isa<MemIntrinsic>(CB))
      continue;
    if (const Function *G = CB->getCalledFunction();
        G && G != &F && isPureArithmetic(*G))
      continue;
    auto K = callIntrinsic(*CB);
    if (!K || (*K != Intrinsic::Alloc && *K != Intrinsic::Free &&
               *K != Intrinsic::Read && *K != Intrinsic::Write &&
               *K != Intrinsic::Assert && *K != Intrinsic::Error &&
               *K != Intrinsic::Exit))
      return false;
    Pools |= *K == Intrinsic::Alloc || *K == Intrinsic::Free;
  }
  return MovesPointer && Pools;
}

unsigned inlinePoolHelpers(Module &M) {
  unsigned Inlined =
      inlineInRounds(M, isPoolHelper,
                     "a loop-free helper that hands out or takes back a "
                     "pool's blocks (pool helper)");
  NumPoolHelpersInlined += Inlined;
  return Inlined;
}

unsigned inlineLockWrappers(Module &M) {
  unsigned Inlined = inlineDirectCalls(M, isLockWrapper);
  NumLockWrappersInlined += Inlined;
  return Inlined;
}

/// A wrapper of memcpy, memmove or memset (mDNSPlatformMemCopy(src, dst,
/// len)): straight-line code, no local, no load or store, and no call but the
/// one to the memory intrinsic (and debug and lifetime markers).
static bool isCopyWrapper(const Function &F) {
  constexpr unsigned MaxCopyWrapper = 16;
  SmallVector<const Instruction *, 16> Body;
  if (!isStraightLineHelper(F, Body))
    return false;
  unsigned N = 0, Copies = 0;
  for (const Instruction *I : Body) {
    if (isa<MemIntrinsic>(I)) {
      ++Copies;
      continue;
    }
    if (isa<CallBase>(I) || isa<AllocaInst>(I) || I->mayReadOrWriteMemory() ||
        ++N > MaxCopyWrapper)
      return false;
  }
  return Copies == 1;
}

unsigned inlineCopyWrappers(Module &M) {
  unsigned Inlined = inlineDirectCalls(M, isCopyWrapper);
  NumCopyWrappersInlined += Inlined;
  return Inlined;
}

} // namespace crace
