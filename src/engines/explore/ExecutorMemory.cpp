//===- ExecutorMemory.cpp - the executor's objects and values
//---------------===//
//
// Objects and addresses, checked loads and stores, constants and globals
// (per-thread ones too), and how an address is described in a report.
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Executor.h"
#include "engines/explore/ExecutorUtil.h"
#include "model/PointsTo.h"
#include "model/ProgramModel.h"

#include "llvm/Support/FormatVariadic.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"
#include <cctype>
#include <cmath>
#include <cstring>

using namespace llvm;
using namespace crace::explore::detail;

namespace crace::explore {

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

uint32_t Executor::newObject(uint64_t Size, const Value *Site, bool Visible) {
  Object O;
  O.Base = alignTo(NextAddr, 16);
  O.Size = Size;
  O.Bytes.assign(Size, 0);
  O.Site = Site;
  O.Visible = Visible;
  NextAddr = O.Base + std::max<uint64_t>(Size, 1) + Gap;
  uint32_t Id = Objects.size();
  ++Epoch;
  ByBase[O.Base] = Id;
  Objects.push_back(std::move(O));
  return Id;
}

std::optional<uint32_t> Executor::objectAt(Word Addr) const {
  auto It = ByBase.upper_bound(Addr);
  if (It == ByBase.begin())
    return std::nullopt;
  --It;
  const Object &O = Objects[It->second];
  if (Addr >= O.Base + std::max<uint64_t>(O.Size, 1))
    return std::nullopt;
  return It->second;
}

bool Executor::checkAccess(Word Addr, uint64_t Size, uint32_t &Obj,
                           const char *What) {
  auto Id = objectAt(Addr);
  if (!Id) {
    // (Not the address itself: one note per place, however many wild
    // pointers sampled inputs make there.)
    Error = formatv("{0} of {1} byte(s) {2}", What, Size,
                    Addr == 0             ? "at null"
                    : Addr < FirstAddress ? "through a null or invalid pointer"
                                          : "outside every object")
                .str();
    return false;
  }
  Object &O = Objects[*Id];
  if (!O.Alive) {
    Error = formatv("{0} of freed or out-of-scope memory", What).str();
    return false;
  }
  if (O.IsFunction || Addr + Size > O.Base + O.Size) {
    Error = formatv("{0} of {1} byte(s) at offset {2} of an object of {3} "
                    "byte(s): out of bounds",
                    What, Size, Addr - O.Base, O.Size)
                .str();
    return false;
  }
  Obj = *Id;
  return true;
}

bool Executor::load(Word Addr, uint64_t Size, uint8_t *Out) {
  uint32_t Id;
  if (!checkAccess(Addr, Size, Id, "read"))
    return false;
  const Object &O = Objects[Id];
  std::memcpy(Out, O.Bytes.data() + (Addr - O.Base), Size);
  return true;
}

bool Executor::store(Word Addr, uint64_t Size, const uint8_t *In) {
  uint32_t Id;
  if (!checkAccess(Addr, Size, Id, "write"))
    return false;
  Object &O = Objects[Id];
  std::memcpy(O.Bytes.data() + (Addr - O.Base), In, Size);
  ++Epoch;
  unblockSpinners(Addr, Size, 0, ~0u);
  return true;
}

uint64_t Executor::sizeOf(Type *Ty) const {
  return DL.getTypeStoreSize(Ty).getFixedValue();
}

void Executor::writeConstant(const Constant *C, uint8_t *Out) {
  Type *Ty = C->getType();
  uint64_t Size = sizeOf(Ty);
  if (isa<ConstantAggregateZero>(C) || isa<UndefValue>(C) ||
      isa<ConstantPointerNull>(C)) {
    std::memset(Out, 0, Size);
    return;
  }
  if (auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    uint64_t ES = DL.getTypeAllocSize(CDS->getElementType());
    for (unsigned I = 0, E = CDS->getNumElements(); I < E; ++I)
      writeConstant(CDS->getElementAsConstant(I), Out + I * ES);
    return;
  }
  if (auto *CA = dyn_cast<ConstantArray>(C)) {
    uint64_t ES = DL.getTypeAllocSize(CA->getType()->getElementType());
    for (unsigned I = 0, E = CA->getNumOperands(); I < E; ++I)
      writeConstant(CA->getOperand(I), Out + I * ES);
    return;
  }
  if (auto *CS = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *SL = DL.getStructLayout(CS->getType());
    std::memset(Out, 0, Size);
    for (unsigned I = 0, E = CS->getNumOperands(); I < E; ++I)
      writeConstant(CS->getOperand(I), Out + SL->getElementOffset(I));
    return;
  }
  RVal V = constant(C, 0);
  if (!V.Bytes.empty())
    std::memcpy(Out, V.Bytes.data(), std::min<uint64_t>(Size, V.Bytes.size()));
  else
    for (uint64_t I = 0; I < Size && I < 8; ++I)
      Out[I] = uint8_t(V.W >> (8 * I));
}

Word Executor::globalAddress(const GlobalVariable *GV, unsigned T) {
  if (GV->isThreadLocal()) {
    auto Key = std::make_pair(GV, T);
    auto It = TLS.find(Key);
    if (It != TLS.end())
      return Objects[It->second].Base;
    uint32_t Id = newObject(sizeOf(GV->getValueType()), GV, /*Visible=*/true);
    if (GV->hasInitializer())
      writeConstant(GV->getInitializer(), Objects[Id].Bytes.data());
    TLS[Key] = Id;
    return Objects[Id].Base;
  }
  auto It = Globals.find(GV);
  if (It != Globals.end())
    return Objects[It->second].Base;
  // Globals without a definition (extern): an object of the declared size,
  // zero-filled; the engine is told through unsupported() when it matters.
  uint32_t Id = newObject(sizeOf(GV->getValueType()), GV, true);
  Globals[GV] = Id;
  return Objects[Id].Base;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

RVal Executor::constant(const Constant *C, unsigned T) {
  bool Cacheable = !C->isThreadDependent();
  if (Cacheable) {
    auto It = ConstCache.find(C);
    if (It != ConstCache.end())
      return It->second;
  }
  RVal R;
  Type *Ty = C->getType();
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    R.W = CI->getBitWidth() <= 64 ? CI->getZExtValue() : 0;
  } else if (auto *CF = dyn_cast<ConstantFP>(C)) {
    R.W = CF->getValueAPF().bitcastToAPInt().getZExtValue();
  } else if (isa<ConstantPointerNull>(C) || isa<UndefValue>(C)) {
    if (Ty->isAggregateType())
      R.Bytes.assign(sizeOf(Ty), 0);
  } else if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    R.W = globalAddress(GV, T);
  } else if (auto *F = dyn_cast<Function>(C)) {
    R.W = FunctionAddr.lookup(F);
  } else if (auto *GA = dyn_cast<GlobalAlias>(C)) {
    R = constant(GA->getAliasee(), T);
  } else if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<RVal, 4> Ops;
    for (const Use &U : CE->operands())
      Ops.push_back(constant(cast<Constant>(U.get()), T));
    Instruction *I = CE->getAsInstruction();
    RVal Out;
    bool Ok = evalPure(*I, Ops, Out);
    I->deleteValue();
    if (Ok)
      R = Out;
  } else if (Ty->isAggregateType() || Ty->isVectorTy()) {
    R.Bytes.assign(sizeOf(Ty), 0);
    writeConstant(C, R.Bytes.data());
  }
  if (Cacheable)
    ConstCache[C] = R;
  return R;
}

RVal Executor::get(const Value *V, unsigned T) {
  if (auto *C = dyn_cast<Constant>(V))
    return constant(C, T);
  Frame &F = Threads[T].Stack.back();
  auto It = F.Vals.find(V);
  if (It != F.Vals.end())
    return It->second;
  return RVal{};
}

std::string Executor::describeAddress(Word Addr) const {
  auto Id = objectAt(Addr);
  if (!Id)
    return formatv("{0:x}", Addr).str();
  return describe(*Id, Addr - Objects[*Id].Base, 1);
}

std::string Executor::describe(uint32_t Obj, uint64_t Off,
                               uint64_t Size) const {
  if (Obj >= Objects.size())
    return "memory";
  const Object &O = Objects[Obj];
  uint32_t Abs = O.Site ? PM.pointsTo().objectOf(O.Site) : 0;
  if (Abs != PointsTo::UnknownObj)
    return PM.describe(Loc{Abs, int64_t(Off)}, Size);
  return formatv("memory at offset {0}", Off).str();
}

} // namespace crace::explore
