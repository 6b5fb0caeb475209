//===- SyncAPI.cpp - name tables of SyncAPI.def ---------------------------===//
#include "model/SyncAPI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace crace {

static const StringMap<Intrinsic> &intrinsicTable() {
  static const StringMap<Intrinsic> Table = {
#define INTRINSIC(E, N) {N, Intrinsic::E},
#include "model/SyncAPI.def"
  };
  return Table;
}

static const StringMap<ExternalEffect> &externalTable() {
  static const StringMap<ExternalEffect> Table = {
#define EXTERNAL(E, N, EFFECT) {N, ExternalEffect::EFFECT},
#include "model/SyncAPI.def"
  };
  return Table;
}

std::optional<Intrinsic> lookupIntrinsic(StringRef Name) {
  auto It = intrinsicTable().find(Name);
  if (It == intrinsicTable().end())
    return std::nullopt;
  return It->second;
}

std::optional<ExternalEffect> lookupExternal(StringRef Name) {
  auto It = externalTable().find(Name);
  if (It == externalTable().end())
    return std::nullopt;
  return It->second;
}

bool readsThroughVaList(StringRef Name) {
  static const StringSet<> Table = {
#define VA_LIST_READER(N) N,
#include "model/SyncAPI.def"
  };
  return Table.contains(Name);
}

std::optional<Intrinsic> callIntrinsic(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    return lookupIntrinsic(F->getName());
  return std::nullopt;
}

StringRef intrinsicName(Intrinsic I) {
  switch (I) {
#define INTRINSIC(E, N)                                                        \
  case Intrinsic::E:                                                           \
    return N;
#include "model/SyncAPI.def"
  }
  return "?";
}

bool isNoEffectLLVMIntrinsic(llvm::Intrinsic::ID ID) {
  switch (ID) {
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::donothing:
  case llvm::Intrinsic::sideeffect:
  case llvm::Intrinsic::var_annotation:
  case llvm::Intrinsic::invariant_end:
  case llvm::Intrinsic::prefetch:
  case llvm::Intrinsic::stackrestore:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
    return true;
  default:
    return false;
  }
}

bool isBenignLLVMIntrinsic(const Function &F) {
  if (isNoEffectLLVMIntrinsic(F.getIntrinsicID()))
    return true;
  switch (F.getIntrinsicID()) {
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::expect:
  case llvm::Intrinsic::stacksave:
  case llvm::Intrinsic::trap:
  case llvm::Intrinsic::invariant_start:
  case llvm::Intrinsic::objectsize:
  case llvm::Intrinsic::is_constant:
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz:
  case llvm::Intrinsic::ctpop:
  case llvm::Intrinsic::bswap:
  case llvm::Intrinsic::abs:
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr:
  case llvm::Intrinsic::sadd_with_overflow:
  case llvm::Intrinsic::uadd_with_overflow:
  case llvm::Intrinsic::ssub_with_overflow:
  case llvm::Intrinsic::usub_with_overflow:
  case llvm::Intrinsic::smul_with_overflow:
  case llvm::Intrinsic::umul_with_overflow:
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::vaend:
  case llvm::Intrinsic::threadlocal_address:
    return true;
  default:
    return false;
  }
}

static bool freshOrNull(const llvm::Value *V,
                        llvm::SmallPtrSetImpl<const llvm::Value *> &Seen) {
  V = V->stripPointerCasts();
  if (llvm::isa<llvm::ConstantPointerNull>(V))
    return true;
  if (!Seen.insert(V).second)
    return true; // a cycle of phis adds no other value
  if (const auto *CB = llvm::dyn_cast<llvm::CallBase>(V))
    return callIntrinsic(*CB) == Intrinsic::Alloc;
  if (const auto *P = llvm::dyn_cast<llvm::PHINode>(V))
    return llvm::all_of(P->incoming_values(), [&](const llvm::Value *In) {
      return freshOrNull(In, Seen);
    });
  if (const auto *S = llvm::dyn_cast<llvm::SelectInst>(V))
    return freshOrNull(S->getTrueValue(), Seen) &&
           freshOrNull(S->getFalseValue(), Seen);
  return false;
}

bool freshOrNull(const llvm::Value *V) {
  llvm::SmallPtrSet<const llvm::Value *, 8> Seen;
  return freshOrNull(V, Seen);
}

bool isLockOperation(Intrinsic I) {
  switch (I) {
  case Intrinsic::Lock:
  case Intrinsic::Unlock:
  case Intrinsic::TryLock:
  case Intrinsic::RdLock:
  case Intrinsic::TryRdLock:
    return true;
  default:
    return false;
  }
}

bool usesObjectOnly(Intrinsic I) {
  if (isLockOperation(I))
    return true;
  switch (I) {
  case Intrinsic::CondWait:
  case Intrinsic::CondSignal:
  case Intrinsic::CondBroadcast:
  case Intrinsic::BarrierInit:
  case Intrinsic::BarrierWait:
  case Intrinsic::SemInit:
  case Intrinsic::SemWait:
  case Intrinsic::SemPost:
  case Intrinsic::Read:
  case Intrinsic::Write:
    return true;
  default:
    return false;
  }
}

bool isNondet(Intrinsic I) {
  switch (I) {
  case Intrinsic::NondetInt:
  case Intrinsic::NondetLongLong:
  case Intrinsic::NondetPtr:
  case Intrinsic::NondetBits:
  case Intrinsic::NondetCount:
    return true;
  default:
    return false;
  }
}

bool isUnknownResult(Intrinsic I) {
  switch (I) {
  case Intrinsic::UnknownInt:
  case Intrinsic::UnknownLongLong:
  case Intrinsic::Fork:
    return true;
  default:
    return false;
  }
}

bool isLongJmp(StringRef Name) {
  static const StringSet<> Names = {"longjmp", "_longjmp", "siglongjmp",
                                    "__longjmp_chk"};
  return Names.contains(Name);
}

bool isMarker(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II));
}

bool onlyCreateWrites(const Value *Handle, const CallBase &Create) {
  return all_of(Handle->users(), [&](const User *U) {
    return U == &Create || isa<LoadInst>(U) || isMarker(U);
  });
}

} // namespace crace
