//===- Executor.cpp - deterministic LLVM IR executor ----------------------===//
#include "engines/explore/Executor.h"
#include "model/ProgramModel.h"
#include "analysis/PointsTo.h"

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
#include <cmath>
#include <cctype>
#include <cstring>

using namespace llvm;

namespace crace::explore {

namespace {

constexpr Word FirstAddress = 0x10000;
constexpr Word Gap = 16;

Word mask(Word V, unsigned Bits) {
  return Bits >= 64 ? V : (V & ((Word(1) << Bits) - 1));
}
int64_t sext(Word V, unsigned Bits) {
  return Bits >= 64 ? int64_t(V) : SignExtend64(V, Bits);
}
double asDouble(Word W, Type *Ty) {
  if (Ty->isFloatTy())
    return double(bit_cast<float>(uint32_t(W)));
  return bit_cast<double>(W);
}
Word fromDouble(double D, Type *Ty) {
  if (Ty->isFloatTy())
    return bit_cast<uint32_t>(float(D));
  return bit_cast<Word>(D);
}
bool supportedFP(Type *Ty) { return Ty->isFloatTy() || Ty->isDoubleTy(); }

} // namespace

Executor::Executor(const ProgramModel &PM, ExecLimits Limits)
    : PM(PM), M(PM.module()), DL(M.getDataLayout()), Limits(Limits),
      PtrBytes(DL.getPointerSize()) {}

Executor::~Executor() = default;

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
                    Addr == 0                ? "at null"
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
    uint32_t Id =
        newObject(sizeOf(GV->getValueType()), GV, /*Visible=*/true);
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

bool Executor::evalPure(const Instruction &I, ArrayRef<RVal> Ops, RVal &Out) {
  Type *Ty = I.getType();
  unsigned Bits = Ty->isIntegerTy() ? Ty->getIntegerBitWidth()
                  : Ty->isPointerTy() ? PtrBytes * 8
                                      : 64;
  if (Ty->isVectorTy() || (Ty->isIntegerTy() && Bits > 64)) {
    Error = "vector or wider-than-64-bit integer operation";
    return false;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    if (Ty->isFloatingPointTy()) {
      if (!supportedFP(Ty)) {
        Error = "floating-point type other than float and double";
        return false;
      }
      double A = asDouble(Ops[0].W, Ty), B = asDouble(Ops[1].W, Ty), R = 0;
      switch (BO->getOpcode()) {
      case Instruction::FAdd: R = A + B; break;
      case Instruction::FSub: R = A - B; break;
      case Instruction::FMul: R = A * B; break;
      case Instruction::FDiv: R = A / B; break;
      case Instruction::FRem: R = std::fmod(A, B); break;
      default: Error = "unsupported floating-point operation"; return false;
      }
      Out.W = fromDouble(R, Ty);
      return true;
    }
    Word A = mask(Ops[0].W, Bits), B = mask(Ops[1].W, Bits), R = 0;
    int64_t SA = sext(A, Bits), SB = sext(B, Bits);
    switch (BO->getOpcode()) {
    case Instruction::Add: R = A + B; break;
    case Instruction::Sub: R = A - B; break;
    case Instruction::Mul: R = A * B; break;
    case Instruction::UDiv:
    case Instruction::URem:
    case Instruction::SDiv:
    case Instruction::SRem:
      if (B == 0) {
        Error = "division by zero";
        return false;
      }
      if (BO->getOpcode() == Instruction::UDiv)
        R = A / B;
      else if (BO->getOpcode() == Instruction::URem)
        R = A % B;
      else if (SB == -1)
        R = BO->getOpcode() == Instruction::SDiv ? Word(-SA) : 0;
      else
        R = BO->getOpcode() == Instruction::SDiv ? Word(SA / SB)
                                                 : Word(SA % SB);
      break;
    case Instruction::Shl: R = B >= Bits ? 0 : A << B; break;
    case Instruction::LShr: R = B >= Bits ? 0 : A >> B; break;
    case Instruction::AShr:
      R = Word(B >= Bits ? (SA < 0 ? -1 : 0) : (SA >> B));
      break;
    case Instruction::And: R = A & B; break;
    case Instruction::Or: R = A | B; break;
    case Instruction::Xor: R = A ^ B; break;
    default: Error = "unsupported binary operation"; return false;
    }
    Out.W = mask(R, Bits);
    return true;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(&I)) {
    if (UO->getOpcode() != Instruction::FNeg || !supportedFP(Ty)) {
      Error = "unsupported unary operation";
      return false;
    }
    Out.W = fromDouble(-asDouble(Ops[0].W, Ty), Ty);
    return true;
  }
  if (auto *Cmp = dyn_cast<CmpInst>(&I)) {
    Type *OT = I.getOperand(0)->getType();
    if (OT->isVectorTy()) {
      Error = "vector comparison";
      return false;
    }
    if (auto *FC = dyn_cast<FCmpInst>(Cmp)) {
      if (!supportedFP(OT)) {
        Error = "floating-point type other than float and double";
        return false;
      }
      double A = asDouble(Ops[0].W, OT), B = asDouble(Ops[1].W, OT);
      bool Unord = std::isnan(A) || std::isnan(B), R = false;
      switch (FC->getPredicate()) {
      case FCmpInst::FCMP_FALSE: R = false; break;
      case FCmpInst::FCMP_TRUE: R = true; break;
      case FCmpInst::FCMP_OEQ: R = !Unord && A == B; break;
      case FCmpInst::FCMP_OGT: R = !Unord && A > B; break;
      case FCmpInst::FCMP_OGE: R = !Unord && A >= B; break;
      case FCmpInst::FCMP_OLT: R = !Unord && A < B; break;
      case FCmpInst::FCMP_OLE: R = !Unord && A <= B; break;
      case FCmpInst::FCMP_ONE: R = !Unord && A != B; break;
      case FCmpInst::FCMP_ORD: R = !Unord; break;
      case FCmpInst::FCMP_UNO: R = Unord; break;
      case FCmpInst::FCMP_UEQ: R = Unord || A == B; break;
      case FCmpInst::FCMP_UGT: R = Unord || A > B; break;
      case FCmpInst::FCMP_UGE: R = Unord || A >= B; break;
      case FCmpInst::FCMP_ULT: R = Unord || A < B; break;
      case FCmpInst::FCMP_ULE: R = Unord || A <= B; break;
      case FCmpInst::FCMP_UNE: R = Unord || A != B; break;
      default: break;
      }
      Out.W = R;
      return true;
    }
    unsigned OB = OT->isPointerTy() ? PtrBytes * 8 : OT->getIntegerBitWidth();
    if (OB > 64) {
      Error = "wider-than-64-bit integer comparison";
      return false;
    }
    Word A = mask(Ops[0].W, OB), B = mask(Ops[1].W, OB);
    int64_t SA = sext(A, OB), SB = sext(B, OB);
    bool R = false;
    switch (Cmp->getPredicate()) {
    case ICmpInst::ICMP_EQ: R = A == B; break;
    case ICmpInst::ICMP_NE: R = A != B; break;
    case ICmpInst::ICMP_UGT: R = A > B; break;
    case ICmpInst::ICMP_UGE: R = A >= B; break;
    case ICmpInst::ICMP_ULT: R = A < B; break;
    case ICmpInst::ICMP_ULE: R = A <= B; break;
    case ICmpInst::ICMP_SGT: R = SA > SB; break;
    case ICmpInst::ICMP_SGE: R = SA >= SB; break;
    case ICmpInst::ICMP_SLT: R = SA < SB; break;
    case ICmpInst::ICMP_SLE: R = SA <= SB; break;
    default: break;
    }
    Out.W = R;
    return true;
  }
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    Type *ST = Cast->getSrcTy();
    if (ST->isVectorTy()) {
      Error = "vector cast";
      return false;
    }
    unsigned SB = ST->isIntegerTy()   ? ST->getIntegerBitWidth()
                  : ST->isPointerTy() ? PtrBytes * 8
                                      : 64;
    if (ST->isIntegerTy() && SB > 64) {
      Error = "wider-than-64-bit integer cast";
      return false;
    }
    Word A = Ops[0].W;
    switch (Cast->getOpcode()) {
    case Instruction::Trunc:
    case Instruction::ZExt:
    case Instruction::PtrToInt:
    case Instruction::IntToPtr:
      Out.W = mask(mask(A, SB), Bits);
      return true;
    case Instruction::SExt:
      Out.W = mask(Word(sext(A, SB)), Bits);
      return true;
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      if (!Ops[0].Bytes.empty()) {
        Out = Ops[0];
        return true;
      }
      Out.W = A;
      return true;
    case Instruction::FPTrunc:
    case Instruction::FPExt:
      if (!supportedFP(ST) || !supportedFP(Ty))
        break;
      Out.W = fromDouble(asDouble(A, ST), Ty);
      return true;
    case Instruction::FPToSI:
    case Instruction::FPToUI: {
      if (!supportedFP(ST))
        break;
      double D = asDouble(A, ST);
      // Out of range is undefined in C; 0 keeps the run going.
      if (std::isnan(D) || D >= 18446744073709551616.0 ||
          D < -9223372036854775808.0 ||
          (Cast->getOpcode() == Instruction::FPToSI &&
           D >= 9223372036854775808.0)) {
        Out.W = 0;
        return true;
      }
      Out.W = mask(Cast->getOpcode() == Instruction::FPToSI || D < 0
                       ? Word(int64_t(D))
                       : Word(D),
                   Bits);
      return true;
    }
    case Instruction::SIToFP:
    case Instruction::UIToFP: {
      if (!supportedFP(Ty))
        break;
      // Convert straight to the target type: going through double would
      // round twice for 64-bit integers converted to float.
      bool Signed = Cast->getOpcode() == Instruction::SIToFP;
      int64_t SV = sext(A, SB);
      uint64_t UV = mask(A, SB);
      if (Ty->isFloatTy())
        Out.W = bit_cast<uint32_t>(Signed ? float(SV) : float(UV));
      else
        Out.W = bit_cast<Word>(Signed ? double(SV) : double(UV));
      return true;
    }
    default:
      break;
    }
    Error = "unsupported cast";
    return false;
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    Word Addr = Ops[0].W;
    unsigned Idx = 1;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI, ++Idx) {
      Type *IT = GTI.getOperand()->getType();
      if (IT->isVectorTy()) {
        Error = "vector getelementptr";
        return false;
      }
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        Addr += DL.getStructLayout(ST)->getElementOffset(unsigned(Ops[Idx].W));
      } else {
        int64_t Index = sext(Ops[Idx].W, IT->getIntegerBitWidth());
        Addr += Word(Index * int64_t(GTI.getSequentialElementStride(DL)));
      }
    }
    Out.W = mask(Addr, PtrBytes * 8);
    return true;
  }
  if (isa<SelectInst>(&I)) {
    Out = (Ops[0].W & 1) ? Ops[1] : Ops[2];
    return true;
  }
  if (isa<FreezeInst>(&I)) {
    Out = Ops[0];
    return true;
  }
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    Type *AT = EV->getAggregateOperand()->getType();
    uint64_t Off = 0;
    for (unsigned Ix : EV->indices()) {
      if (auto *ST = dyn_cast<StructType>(AT)) {
        Off += DL.getStructLayout(ST)->getElementOffset(Ix);
        AT = ST->getElementType(Ix);
      } else {
        AT = AT->getArrayElementType();
        Off += Ix * DL.getTypeAllocSize(AT);
      }
    }
    uint64_t Size = sizeOf(AT);
    const std::vector<uint8_t> &B = Ops[0].Bytes;
    if (Off + Size > B.size()) {
      Error = "malformed aggregate value";
      return false;
    }
    if (AT->isAggregateType()) {
      Out.Bytes.assign(B.begin() + Off, B.begin() + Off + Size);
    } else {
      Out.W = 0;
      for (uint64_t K = 0; K < Size && K < 8; ++K)
        Out.W |= Word(B[Off + K]) << (8 * K);
    }
    return true;
  }
  if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    Out = Ops[0];
    Type *AT = IV->getAggregateOperand()->getType();
    if (Out.Bytes.empty())
      Out.Bytes.assign(sizeOf(AT), 0);
    uint64_t Off = 0;
    for (unsigned Ix : IV->indices()) {
      if (auto *ST = dyn_cast<StructType>(AT)) {
        Off += DL.getStructLayout(ST)->getElementOffset(Ix);
        AT = ST->getElementType(Ix);
      } else {
        AT = AT->getArrayElementType();
        Off += Ix * DL.getTypeAllocSize(AT);
      }
    }
    uint64_t Size = sizeOf(AT);
    if (Off + Size > Out.Bytes.size()) {
      Error = "malformed aggregate value";
      return false;
    }
    if (AT->isAggregateType())
      std::memcpy(Out.Bytes.data() + Off, Ops[1].Bytes.data(),
                  std::min<uint64_t>(Size, Ops[1].Bytes.size()));
    else
      for (uint64_t K = 0; K < Size && K < 8; ++K)
        Out.Bytes[Off + K] = uint8_t(Ops[1].W >> (8 * K));
    return true;
  }
  Error = std::string("unsupported instruction '") + I.getOpcodeName() + "'";
  return false;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

Status Executor::unsupported(const Instruction *I, const std::string &What) {
  Error = What;
  ErrorAt = I;
  return Status::Unsupported;
}

Status Executor::memoryError(const Instruction *I, const std::string &What) {
  Error = What;
  ErrorAt = I;
  return Status::MemoryError;
}

void Executor::setResult(unsigned T, const Instruction *I, RVal V) {
  Threads[T].Stack.back().Vals[I] = std::move(V);
}

void Executor::advance(unsigned T) { ++Threads[T].Stack.back().PC; }

unsigned Executor::spawn(const Function *F, Word Arg, unsigned Creator) {
  unsigned T = Threads.size();
  Threads.emplace_back();
  Thread &Th = Threads.back();
  Th.Name = T == 0 ? std::string("main")
                   : (crace::threadName(F) + "#" + Twine(T)).str();
  Th.Creator = int(Creator);
  Frame Fr;
  Fr.F = F;
  Fr.BB = &F->getEntryBlock();
  Fr.PC = Fr.BB->begin();
  if (F->arg_size() >= 1) {
    RVal A;
    A.W = Arg;
    Fr.Vals[F->getArg(0)] = A;
  }
  Th.Stack.push_back(std::move(Fr));
  return T;
}

Status Executor::reset(NondetSource NewNondet) {
  Nondet = std::move(NewNondet);
  DrawCount.clear();
  Taint.clear();
  CallDraw.clear();
  LoadAddr.clear();
  Cmps.clear();
  Threads.clear();
  Locks.clear();
  Barriers.clear();
  Semaphores.clear();
  AtomicOwner = -1;
  AtomicDepth = 0;
  NextTicket = 0;
  Exited = false;
  SignalChoice = false;
  DivergedAt = nullptr;
  StoppedAt = nullptr;
  StoppedWhy.clear();
  Steps = 0;
  Error.clear();
  ErrorAt = nullptr;
  TLS.clear();
  if (!Initialised) {
    Objects.clear();
    ByBase.clear();
    Objects.emplace_back(); // id 0: nothing
    NextAddr = FirstAddress;
    for (const Function &F : M) {
      uint32_t Id = newObject(1, &F, false);
      Objects[Id].IsFunction = true;
      FunctionAddr[&F] = Objects[Id].Base;
      FunctionAt[Objects[Id].Base] = &F;
    }
    for (const GlobalVariable &GV : M.globals()) {
      if (GV.isThreadLocal())
        continue;
      uint32_t Id = newObject(sizeOf(GV.getValueType()), &GV,
                              /*Visible=*/!GV.isConstant());
      Globals[&GV] = Id;
    }
    // Initialisers may refer to any global's address: all are placed first.
    for (const GlobalVariable &GV : M.globals())
      if (!GV.isThreadLocal() && GV.hasInitializer())
        writeConstant(GV.getInitializer(),
                      Objects[Globals[&GV]].Bytes.data());
    InitialObjects = Objects;
    InitialNextAddr = NextAddr;
    Initialised = true;
  } else {
    Objects = InitialObjects;
    NextAddr = InitialNextAddr;
    ByBase.clear();
    for (uint32_t I = 1; I < Objects.size(); ++I)
      ByBase[Objects[I].Base] = I;
  }
  const Function *Main = PM.mainFunction();
  if (!Main)
    return unsupported(nullptr, "the program has no main function");
  spawn(Main, 0, 0);
  Threads[0].Creator = -1;
  // main takes no parameters: the front end computes argc, argv and the
  // environment as inputs at its start (frontend/ProgramStart.h).
  return stopIfUnsupported(0, runToVisible(0));
}

Status Executor::stopIfUnsupported(unsigned T, Status S) {
  if (S != Status::Unsupported || T >= Threads.size())
    return S;
  // The thread stops for good where the engine cannot follow it; the run
  // is real up to here, so the other threads go on (the engine notes the
  // search is not exhaustive).
  PendingOp P;
  P.K = PendingOp::Blocked;
  P.Inst = ErrorAt ? ErrorAt
                   : (Threads[T].Stack.empty() ? nullptr
                                               : &*Threads[T].Stack.back().PC);
  Threads[T].Pending = P;
  StoppedAt = P.Inst;
  StoppedWhy = Error;
  return Status::Ok;
}

bool Executor::enabled(unsigned T) const {
  const Thread &Th = Threads[T];
  if (Exited || Th.Finished)
    return false;
  if (AtomicOwner != -1 && AtomicOwner != int(T))
    return false;
  const PendingOp &P = Th.Pending;
  if (Th.SpinBlocked) {
    // Runs again only when another thread is about to change what it reads
    // (then its partial loop iterations matter for races), and only once
    // per such situation.
    uint64_t Key = enablerKey(T);
    if (Key == 0 || Key == Th.SpinDoneKey)
      return false;
    // ... and then only if its operation itself can run.
  }
  switch (P.K) {
  case PendingOp::Done:
  case PendingOp::Blocked:
    return false;
  case PendingOp::Lock: {
    if (P.Try)
      return true;
    auto It = Locks.find(P.Sync);
    if (It == Locks.end())
      return true;
    if (P.ReadLock)
      return It->second.Owner == -1;
    return It->second.Owner == -1 && It->second.Readers == 0;
  }
  case PendingOp::CondWake: {
    // POSIX allows spurious wake-ups: a waiter may return without a
    // signal, so only the mutex gates it (signals need no modelling).
    auto It = Locks.find(P.Sync2);
    return It == Locks.end() ||
           (It->second.Owner == -1 && It->second.Readers == 0);
  }
  case PendingOp::AtomicBegin:
    return AtomicOwner == -1 || AtomicOwner == int(T);
  case PendingOp::BarrierLeave: {
    auto It = Barriers.find(P.Sync);
    return It != Barriers.end() && It->second.Generation != Th.BarrierGen;
  }
  case PendingOp::SemWait: {
    auto It = Semaphores.find(P.Sync);
    return It != Semaphores.end() && It->second > 0;
  }
  case PendingOp::Create:
    // At the thread bound the creator waits: the runs explored are those
    // where it has not got that far yet (never a wrong race).
    return Threads.size() < Limits.MaxThreads;
  case PendingOp::Join: {
    Word H = P.Sync;
    if (H == 0 || H > Threads.size())
      return false;
    return Threads[H - 1].Finished;
  }
  default:
    return true;
  }
}

bool Executor::memRef(Word Addr, uint64_t Size, bool Write, bool Atomic,
                      PendingOp &P, const char *What) {
  uint32_t Id;
  if (!checkAccess(Addr, Size, Id, What))
    return false;
  if (!Objects[Id].Visible)
    return true;
  MemRef R;
  R.Addr = Addr;
  R.Size = Size;
  R.Write = Write;
  R.Atomic = Atomic;
  R.Obj = Id;
  R.Off = Addr - Objects[Id].Base;
  P.Refs.push_back(R);
  return true;
}

void Executor::returnFrom(unsigned T, RVal V) {
  Thread &Th = Threads[T];
  Frame &Fr = Th.Stack.back();
  for (uint32_t A : Fr.Allocas)
    Objects[A].Alive = false;
  const CallBase *Caller = Fr.Caller;
  Th.Stack.pop_back();
  if (Th.Stack.empty()) {
    PendingOp P;
    P.K = T == 0 ? PendingOp::ProgramExit : PendingOp::ThreadEnd;
    Th.Result = V.W;
    Th.Pending = P;
    return;
  }
  if (Caller && !Caller->getType()->isVoidTy())
    setResult(T, Caller, std::move(V));
  advance(T);
}

Status Executor::callFunction(unsigned T, const Function *F,
                              const CallBase &CB, ArrayRef<RVal> Args) {
  Thread &Th = Threads[T];
  if (Th.Stack.size() >= Limits.MaxStackDepth) {
    Error = formatv("call depth bound of {0} reached", Limits.MaxStackDepth);
    ErrorAt = &CB;
    return Status::BoundHit;
  }
  Frame Fr;
  Fr.F = F;
  Fr.BB = &F->getEntryBlock();
  Fr.PC = Fr.BB->begin();
  Fr.Caller = &CB;
  if (F->isVarArg())
    if (Status S = setUpVarArgs(T, Fr, CB, Args); S != Status::Ok)
      return S;
  for (unsigned I = 0; I < F->arg_size() && I < Args.size(); ++I) {
    const Argument *A = F->getArg(I);
    if (A->hasByValAttr()) {
      // A struct passed by value: the callee gets its own copy.
      uint64_t Size = DL.getTypeAllocSize(A->getParamByValType());
      std::vector<uint8_t> Buf(Size);
      if (Size && !load(Args[I].W, Size, Buf.data()))
        return memoryError(&CB, Error);
      uint32_t Id = newObject(Size, A, /*Visible=*/true);
      std::memcpy(Objects[Id].Bytes.data(), Buf.data(), Size);
      Fr.Allocas.push_back(Id);
      RVal Copy;
      Copy.W = Objects[Id].Base;
      Fr.Vals[A] = Copy;
      continue;
    }
    Fr.Vals[A] = Args[I];
  }
  Threads[T].Stack.push_back(std::move(Fr));
  return Status::Ok;
}

Status Executor::callLLVMIntrinsic(unsigned T, const Function *F,
                                   const CallBase &CB, bool &Visible) {
  llvm::Intrinsic::ID ID = F->getIntrinsicID();
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  Type *Ty = CB.getType();
  unsigned Bits = Ty->isIntegerTy() ? Ty->getIntegerBitWidth() : 64;
  switch (ID) {
  case llvm::Intrinsic::vastart:
  case llvm::Intrinsic::vacopy:
  case llvm::Intrinsic::vaend:
    return vaIntrinsic(T, CB);
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::donothing:
  case llvm::Intrinsic::sideeffect:
  case llvm::Intrinsic::var_annotation:
  case llvm::Intrinsic::invariant_start:
  case llvm::Intrinsic::invariant_end:
  case llvm::Intrinsic::prefetch:
  case llvm::Intrinsic::stackrestore:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
    if (!Ty->isVoidTy())
      setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::stacksave:
    setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::threadlocal_address:
  case llvm::Intrinsic::expect:
  case llvm::Intrinsic::expect_with_probability:
  case llvm::Intrinsic::ssa_copy:
    setResult(T, &CB, get(CB.getArgOperand(0), T));
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::is_constant:
    setResult(T, &CB, RVal{});
    advance(T);
    return Status::Ok;
  case llvm::Intrinsic::objectsize: {
    RVal R;
    R.W = (Arg(1) & 1) ? 0 : mask(~Word(0), Bits);
    setResult(T, &CB, R);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::trap:
  case llvm::Intrinsic::ubsantrap: {
    PendingOp P;
    P.K = PendingOp::ProgramExit;
    P.Error = true;
    P.Inst = &CB;
    Threads[T].Pending = P;
    Visible = true;
    return Status::Ok;
  }
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memcpy_inline:
  case llvm::Intrinsic::memmove:
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::memset_inline: {
    Word Dst = Arg(0), N = Arg(2);
    PendingOp P;
    P.K = PendingOp::Memory;
    P.Inst = &CB;
    if (N == 0) {
      advance(T);
      return Status::Ok;
    }
    bool IsSet = ID == llvm::Intrinsic::memset || ID == llvm::Intrinsic::memset_inline;
    if ((!IsSet && !memRef(Arg(1), N, false, false, P, "read")) ||
        !memRef(Dst, N, true, false, P, "write"))
      return memoryError(&CB, Error);
    Threads[T].Pending = P;
    if (!P.Refs.empty()) {
      Visible = true;
      return Status::Ok;
    }
    return performMemory(T);
  }
  case llvm::Intrinsic::sadd_with_overflow:
  case llvm::Intrinsic::uadd_with_overflow:
  case llvm::Intrinsic::ssub_with_overflow:
  case llvm::Intrinsic::usub_with_overflow:
  case llvm::Intrinsic::smul_with_overflow:
  case llvm::Intrinsic::umul_with_overflow: {
    auto *ST = cast<StructType>(Ty);
    unsigned B = ST->getElementType(0)->getIntegerBitWidth();
    if (B > 64)
      return unsupported(&CB, "wider-than-64-bit overflow intrinsic");
    APInt A(B, mask(Arg(0), B)), C(B, mask(Arg(1), B));
    bool Ov = false;
    APInt R(B, 0);
    switch (ID) {
    case llvm::Intrinsic::sadd_with_overflow: R = A.sadd_ov(C, Ov); break;
    case llvm::Intrinsic::uadd_with_overflow: R = A.uadd_ov(C, Ov); break;
    case llvm::Intrinsic::ssub_with_overflow: R = A.ssub_ov(C, Ov); break;
    case llvm::Intrinsic::usub_with_overflow: R = A.usub_ov(C, Ov); break;
    case llvm::Intrinsic::smul_with_overflow: R = A.smul_ov(C, Ov); break;
    default: R = A.umul_ov(C, Ov); break;
    }
    RVal Out;
    Out.Bytes.assign(sizeOf(ST), 0);
    const StructLayout *SL = DL.getStructLayout(ST);
    Word V = R.getZExtValue();
    for (uint64_t K = 0; K < sizeOf(ST->getElementType(0)); ++K)
      Out.Bytes[K] = uint8_t(V >> (8 * K));
    Out.Bytes[SL->getElementOffset(1)] = Ov;
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::smax:
  case llvm::Intrinsic::smin:
  case llvm::Intrinsic::umax:
  case llvm::Intrinsic::umin:
  case llvm::Intrinsic::abs:
  case llvm::Intrinsic::ctpop:
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz:
  case llvm::Intrinsic::bswap:
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr: {
    if (!Ty->isIntegerTy() || Bits > 64)
      return unsupported(&CB, "vector or wide bit-manipulation intrinsic");
    APInt A(Bits, mask(Arg(0), Bits));
    APInt R(Bits, 0);
    switch (ID) {
    case llvm::Intrinsic::smax: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.sge(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::smin: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.sle(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::umax: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.uge(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::umin: {
      APInt C(Bits, mask(Arg(1), Bits));
      R = A.ule(C) ? A : C;
      break;
    }
    case llvm::Intrinsic::abs: R = A.abs(); break;
    case llvm::Intrinsic::ctpop: R = APInt(Bits, A.popcount()); break;
    case llvm::Intrinsic::ctlz: R = APInt(Bits, A.countl_zero()); break;
    case llvm::Intrinsic::cttz: R = APInt(Bits, A.countr_zero()); break;
    case llvm::Intrinsic::bswap: R = A.byteSwap(); break;
    default: {
      APInt C(Bits, mask(Arg(1), Bits));
      unsigned S = unsigned(Arg(2) % Bits);
      APInt Hi = A, Lo = C;
      if (ID == llvm::Intrinsic::fshl)
        R = S == 0 ? Hi : (Hi.shl(S) | Lo.lshr(Bits - S));
      else
        R = S == 0 ? Lo : (Hi.shl(Bits - S) | Lo.lshr(S));
      break;
    }
    }
    RVal Out;
    Out.W = R.getZExtValue();
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  case llvm::Intrinsic::fabs:
  case llvm::Intrinsic::sqrt:
  case llvm::Intrinsic::floor:
  case llvm::Intrinsic::ceil:
  case llvm::Intrinsic::trunc:
  case llvm::Intrinsic::round:
  case llvm::Intrinsic::fmuladd:
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::copysign: {
    if (!supportedFP(Ty))
      return unsupported(&CB, "floating-point type other than float/double");
    double A = asDouble(Arg(0), Ty), R = 0;
    switch (ID) {
    case llvm::Intrinsic::fabs: R = std::fabs(A); break;
    case llvm::Intrinsic::sqrt: R = std::sqrt(A); break;
    case llvm::Intrinsic::floor: R = std::floor(A); break;
    case llvm::Intrinsic::ceil: R = std::ceil(A); break;
    case llvm::Intrinsic::trunc: R = std::trunc(A); break;
    case llvm::Intrinsic::round: R = std::round(A); break;
    case llvm::Intrinsic::copysign: R = std::copysign(A, asDouble(Arg(1), Ty)); break;
    default: R = A * asDouble(Arg(1), Ty) + asDouble(Arg(2), Ty); break;
    }
    RVal Out;
    Out.W = fromDouble(R, Ty);
    setResult(T, &CB, Out);
    advance(T);
    return Status::Ok;
  }
  default:
    return unsupported(&CB, "LLVM intrinsic '" + F->getName().str() +
                                "' is not supported by the explore engine");
  }
}

std::optional<Word> Executor::externalValue(const Function *F,
                                            const CallBase &CB, unsigned T) {
  Type *Ty = CB.getType();
  if (Ty->isVoidTy())
    return Word(0);
  StringRef N = F->getName();
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  if (Ty->isFloatingPointTy()) {
    if (!supportedFP(Ty) || CB.arg_size() < 1 ||
        !supportedFP(CB.getArgOperand(0)->getType()))
      return std::nullopt;
    Type *AT = CB.getArgOperand(0)->getType();
    double X = asDouble(Arg(0), AT), R;
    if (N == "sqrt" || N == "sqrtf") R = std::sqrt(X);
    else if (N == "fabs" || N == "fabsf") R = std::fabs(X);
    else if (N == "floor" || N == "floorf") R = std::floor(X);
    else if (N == "ceil" || N == "ceilf") R = std::ceil(X);
    else if (N == "exp") R = std::exp(X);
    else if (N == "log") R = std::log(X);
    else if (N == "sin") R = std::sin(X);
    else if (N == "cos") R = std::cos(X);
    else if (N == "pow" && CB.arg_size() == 2)
      R = std::pow(X, asDouble(Arg(1), CB.getArgOperand(1)->getType()));
    else
      return std::nullopt;
    return fromDouble(R, Ty);
  }
  unsigned Bits = Ty->isIntegerTy() ? Ty->getIntegerBitWidth() : 64;
  int C = CB.arg_size() ? int(sext(Arg(0), 32)) : 0;
  if (N == "toupper") return mask(Word(std::toupper(C)), Bits);
  if (N == "tolower") return mask(Word(std::tolower(C)), Bits);
  if (N == "isdigit") return Word(C >= 0 && C < 256 && std::isdigit(C) ? 1 : 0);
  if (N == "isspace") return Word(C >= 0 && C < 256 && std::isspace(C) ? 1 : 0);
  if (N == "isalpha") return Word(C >= 0 && C < 256 && std::isalpha(C) ? 1 : 0);
  if (N == "putchar" || N == "fputc" || N == "putc")
    return mask(Word(C & 0xff), Bits);
  // Output functions: their result (a count or 0) is rarely used; report
  // success as 0 only where 0 means success.
  if (N == "fflush" || N == "fclose" || N == "srandom" || N == "nanosleep")
    return Word(0);
  // Output: the count of characters written is approximated by 0 (a
  // program that computes with it is rare; a negative error never comes).
  if (N.contains("printf") || N == "puts" || N == "fputs" || N == "perror" ||
      N == "fwrite")
    return Word(0);
  // Values from the environment: nondeterministic inputs.
  if (N == "random" || N == "clock" || N == "sysconf")
    return mask(draw(T, Bits > 32 ? 64 : 32), Bits);
  // fcntl/ioctl without a pointer argument (those are not executed): -1 or
  // a non-negative value from the kernel.
  if (N == "fcntl" || N == "fcntl64" || N == "ioctl") {
    Word V = draw(T, 32);
    return mask(int32_t(V) < -1 ? Word(-1) : V, Bits);
  }
  return std::nullopt;
}

Status Executor::callExternal(unsigned T, const Function *F,
                              const CallBase &CB, bool &Visible) {
  if (F->isIntrinsic())
    return callLLVMIntrinsic(T, F, CB, Visible);
  auto Arg = [&](unsigned I) { return get(CB.getArgOperand(I), T).W; };
  Thread &Th = Threads[T];
  auto Result = [&](Word W) {
    if (!CB.getType()->isVoidTy()) {
      RVal R;
      R.W = W;
      setResult(T, &CB, R);
    }
  };
  auto Pend = [&](PendingOp::Kind K) {
    PendingOp P;
    P.K = K;
    P.Inst = &CB;
    return P;
  };
  std::optional<Intrinsic> In = lookupIntrinsic(F->getName());
  if (In) {
    switch (*In) {
    case Intrinsic::ThreadCreate: {
      PendingOp P = Pend(PendingOp::Create);
      P.Sync = Arg(1);
      P.Sync2 = Arg(2);
      if (!memRef(Arg(0), PtrBytes, true, false, P, "write"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadJoin: {
      PendingOp P = Pend(PendingOp::Join);
      P.Sync = mask(Arg(0), PtrBytes * 8);
      P.Sync2 = Arg(1);
      if (P.Sync == 0 || P.Sync > Threads.size() || P.Sync - 1 == T)
        return unsupported(&CB, "join of a thread handle that names no "
                                "joinable thread");
      if (P.Sync2 && !memRef(P.Sync2, PtrBytes, true, false, P, "write"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadExit: {
      PendingOp P = Pend(PendingOp::ThreadEnd);
      Th.Result = Arg(0);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ThreadSelf:
      Result(T + 1);
      advance(T);
      return Status::Ok;
    case Intrinsic::Lock:
    case Intrinsic::RdLock:
    case Intrinsic::TryLock:
    case Intrinsic::TryRdLock: {
      PendingOp P = Pend(PendingOp::Lock);
      P.Sync = Arg(0);
      P.ReadLock = *In == Intrinsic::RdLock || *In == Intrinsic::TryRdLock;
      P.Try = *In == Intrinsic::TryLock || *In == Intrinsic::TryRdLock;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::Unlock: {
      PendingOp P = Pend(PendingOp::Unlock);
      P.Sync = Arg(0);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::AtomicBegin:
      Th.Pending = Pend(PendingOp::AtomicBegin);
      Visible = true;
      return Status::Ok;
    case Intrinsic::AtomicEnd:
      Th.Pending = Pend(PendingOp::AtomicEnd);
      Visible = true;
      return Status::Ok;
    case Intrinsic::CondWait: {
      PendingOp P = Pend(PendingOp::CondWait);
      P.Sync = Arg(0);
      P.Sync2 = Arg(1);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::CondSignal:
    case Intrinsic::CondBroadcast: {
      PendingOp P = Pend(PendingOp::CondSignal);
      P.Sync = Arg(0);
      P.Broadcast = *In == Intrinsic::CondBroadcast;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::BarrierInit: {
      BarrierState &B = Barriers[Arg(0)];
      B.N = unsigned(Arg(1));
      B.Arrived = 0;
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::BarrierWait: {
      PendingOp P = Pend(PendingOp::BarrierWait);
      P.Sync = Arg(0);
      if (!Barriers.count(P.Sync))
        return unsupported(&CB, "wait on a barrier that was not initialised");
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::SemInit:
      Semaphores[Arg(0)] = int64_t(uint32_t(Arg(1)));
      advance(T);
      return Status::Ok;
    case Intrinsic::SemWait:
    case Intrinsic::SemPost: {
      PendingOp P = Pend(*In == Intrinsic::SemWait ? PendingOp::SemWait
                                                   : PendingOp::SemPost);
      P.Sync = Arg(0);
      if (!Semaphores.count(P.Sync))
        return unsupported(&CB, "semaphore that was not initialised");
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::NondetInt:
    case Intrinsic::NondetCount:
      Result(mask(draw(T, 32, *In == Intrinsic::NondetCount),
                  CB.getType()->getIntegerBitWidth()));
      advance(T);
      return Status::Ok;
    case Intrinsic::NondetLongLong:
      Result(mask(draw(T, 64), CB.getType()->getIntegerBitWidth()));
      advance(T);
      return Status::Ok;
    case Intrinsic::NondetBits: {
      // An input with a declared domain of 2^bits values (bool: 1, char: 8).
      Word Bits = Arg(0);
      if (Bits < 1 || Bits > 32)
        return unsupported(&CB, "__crace_nondet_bits needs 1..32 bits");
      Result(mask(draw(T, unsigned(Bits)), CB.getType()->getIntegerBitWidth()));
      if (Guidance)
        CallDraw[{T, &CB}] = CurDraw;
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::NondetPtr:
      return unsupported(&CB, "nondeterministic pointer value");
    case Intrinsic::Fork:
      // Which side of the fork the run follows: an input of one bit, so
      // both are enumerated. The parent goes on at once with the child's
      // pid; the child's side is a visible operation (the other threads
      // stop being part of the process).
      if (draw(T, 1)) {
        Result(2 + draw(T, 15));
        advance(T);
        return Status::Ok;
      }
      Th.Pending = Pend(PendingOp::ForkChild);
      Visible = true;
      return Status::Ok;
    case Intrinsic::UnknownInt:
    case Intrinsic::UnknownLongLong:
      return unsupported(&CB, "a library model does not compute this "
                              "call's result");
    case Intrinsic::Assume:
      if (Arg(0) & 0xff) {
        advance(T);
        return Status::Ok;
      }
      // SV-COMP: a failed assumption blocks its thread for good.
      Th.Pending = Pend(PendingOp::Blocked);
      Visible = true;
      return Status::Ok;
    case Intrinsic::Assert:
      if (Arg(0) & 0xff) {
        advance(T);
        return Status::Ok;
      }
      [[fallthrough]];
    case Intrinsic::Error: {
      PendingOp P = Pend(PendingOp::ProgramExit);
      P.Error = true;
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::Exit:
      Th.Pending = Pend(PendingOp::ProgramExit);
      Visible = true;
      return Status::Ok;
    case Intrinsic::Alloc: {
      Word N = Arg(0);
      if (N > (Word(1) << 28)) {
        // More than crace gives a run: the allocation fails, as malloc may.
        Result(0);
        advance(T);
        return Status::Ok;
      }
      if (PtrBytes == 4 && NextAddr + N > (Word(1) << 32) - 0x1000)
        return unsupported(&CB, "32-bit address space exhausted");
      uint32_t Id = newObject(N, &CB, true);
      Objects[Id].Heap = true;
      Result(Objects[Id].Base);
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::Free: {
      Word P0 = Arg(0);
      if (P0 == 0) {
        advance(T);
        return Status::Ok;
      }
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Heap || Objects[*Id].Base != P0 ||
          !Objects[*Id].Alive)
        return memoryError(&CB, "free() of a pointer that is not the start "
                                "of a live heap block");
      PendingOp P = Pend(PendingOp::Memory);
      MemRef R;
      R.Addr = P0;
      R.Size = std::max<uint64_t>(Objects[*Id].Size, 1);
      R.Write = true;
      R.Free = true;
      R.Obj = *Id;
      P.Refs.push_back(R);
      Th.Pending = P;
      Visible = true;
      return Status::Ok;
    }
    case Intrinsic::ObjectSize: {
      Word P0 = Arg(0);
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Alive)
        return memoryError(&CB, "object size of an invalid pointer");
      const Object &O = Objects[*Id];
      Result(P0 - O.Base <= O.Size ? O.Size - (P0 - O.Base) : 0);
      advance(T);
      return Status::Ok;
    }
    case Intrinsic::Read:
    case Intrinsic::Write: {
      Word P0 = Arg(0), N = Arg(1);
      bool W = *In == Intrinsic::Write;
      if (N == 0) {
        // A string: up to and including its terminating zero.
        auto Id = objectAt(P0);
        if (!Id || !Objects[*Id].Alive || Objects[*Id].IsFunction)
          return memoryError(&CB, "string access through an invalid pointer");
        if (W && Objects[*Id].Visible)
          return unsupported(&CB, "a library model writes a string of "
                                  "unknown length");
        const Object &O = Objects[*Id];
        uint64_t Off = P0 - O.Base;
        while (Off < O.Size && O.Bytes[Off] != 0)
          ++Off;
        if (Off >= O.Size)
          return memoryError(&CB, "string without terminating zero");
        N = Off + 1 - (P0 - O.Base);
      }
      PendingOp P = Pend(PendingOp::Memory);
      if (!memRef(P0, N, W, false, P, W ? "write" : "read"))
        return memoryError(&CB, Error);
      Th.Pending = P;
      if (P.Refs.empty()) {
        advance(T);
        return Status::Ok;
      }
      Visible = true;
      return Status::Ok;
    }
    }
  }
  if (isPrintf(F)) {
    Status S = callPrintf(T, F, CB, Visible);
    // A stream printf the engine cannot format (%m, ...) still reads its
    // string operands: the table row below does that.
    if (S != Status::Unsupported || isSprintf(F))
      return S;
  }
  if (isFcntlGetLock(F, CB, T))
    return callFcntlGetLock(T, F, CB, Visible);
  if (isSscanf(F))
    return callSscanf(T, F, CB, Visible);
  if (auto Eff = lookupExternal(F->getName())) {
    PendingOp P = Pend(PendingOp::Memory);
    bool Writes = *Eff == ExternalEffect::WritesArg0 ||
                  *Eff == ExternalEffect::WritesFrom1 ||
                  *Eff == ExternalEffect::WritesFrom2;
    // fcntl writes through its third operand only for F_GETLK, run above:
    // the other commands read a struct flock or take an int.
    if (F->getName() == "fcntl" || F->getName() == "fcntl64")
      Writes = false;
    unsigned FirstWrite = *Eff == ExternalEffect::WritesArg0    ? 0
                          : *Eff == ExternalEffect::WritesFrom1 ? 1
                                                                : 2;
    for (unsigned I = 0; I < CB.arg_size(); ++I) {
      if (!CB.getArgOperand(I)->getType()->isPointerTy())
        continue;
      Word P0 = Arg(I);
      if (P0 == 0)
        continue;
      if (Writes && I >= FirstWrite && (*Eff != ExternalEffect::WritesArg0 || I == 0))
        return unsupported(&CB, "library function '" + F->getName().str() +
                                    "' writes memory the explore engine "
                                    "does not model");
      if (*Eff == ExternalEffect::Pure)
        continue;
      auto Id = objectAt(P0);
      if (!Id || !Objects[*Id].Alive)
        continue; // FILE* and the like: library-internal memory
      const Object &O = Objects[*Id];
      if (O.IsFunction)
        continue;
      uint64_t Off = P0 - O.Base, End = Off;
      while (End < O.Size && O.Bytes[End] != 0)
        ++End;
      uint64_t N = std::min<uint64_t>(End + 1, O.Size) - Off;
      if (N && !memRef(P0, N, false, false, P, "read"))
        return memoryError(&CB, Error);
    }
    if (CB.getType()->isPointerTy())
      return unsupported(&CB, "library function '" + F->getName().str() +
                                  "' returns a pointer");
    auto V = externalValue(F, CB, T);
    if (!V)
      return unsupported(&CB, "the explore engine does not compute the "
                              "result of '" + F->getName().str() + "'");
    Result(*V);
    Th.Pending = P;
    if (P.Refs.empty()) {
      advance(T);
      return Status::Ok;
    }
    Visible = true;
    return Status::Ok;
  }
  return unsupported(&CB, "call of the unknown external function '" +
                              F->getName().str() + "'");
}

Status Executor::execute(unsigned T, bool &Visible) {
  Visible = false;
  Thread &Th = Threads[T];
  Frame &Fr = Th.Stack.back();
  const Instruction &I = *Fr.PC;
  if (++Steps > Limits.MaxInstructionsPerRun) {
    Error = formatv("instruction bound of {0} per run reached",
                    Limits.MaxInstructionsPerRun);
    ErrorAt = &I;
    return Status::BoundHit;
  }
  switch (I.getOpcode()) {
  case Instruction::Alloca: {
    auto &AI = cast<AllocaInst>(I);
    uint64_t N = get(AI.getArraySize(), T).W;
    uint64_t Size = DL.getTypeAllocSize(AI.getAllocatedType()) * N;
    if (Size > (uint64_t(1) << 26))
      return unsupported(&I, "stack object too large");
    uint32_t Obj = PM.pointsTo().objectOf(&AI);
    bool Vis = Obj == PointsTo::UnknownObj || PM.pointsTo().object(Obj).Shared;
    uint32_t Id = newObject(Size, &AI, Vis);
    Fr.Allocas.push_back(Id);
    RVal R;
    R.W = Objects[Id].Base;
    setResult(T, &I, R);
    advance(T);
    return Status::Ok;
  }
  case Instruction::Load:
  case Instruction::Store:
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: {
    PendingOp P;
    P.K = PendingOp::Memory;
    P.Inst = &I;
    bool Ok = true;
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      Ok = memRef(get(LI->getPointerOperand(), T).W, sizeOf(LI->getType()),
                  false, LI->isAtomic(), P, "read");
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      Ok = memRef(get(SI->getPointerOperand(), T).W,
                  sizeOf(SI->getValueOperand()->getType()), true,
                  SI->isAtomic(), P, "write");
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Ok = memRef(get(RMW->getPointerOperand(), T).W,
                  sizeOf(RMW->getValOperand()->getType()), true, true, P,
                  "atomic update");
    } else {
      auto *CX = cast<AtomicCmpXchgInst>(&I);
      Ok = memRef(get(CX->getPointerOperand(), T).W,
                  sizeOf(CX->getCompareOperand()->getType()), true, true, P,
                  "atomic compare-exchange");
    }
    if (!Ok)
      return memoryError(&I, Error);
    Th.Pending = P;
    if (!P.Refs.empty()) {
      Visible = true;
      return Status::Ok;
    }
    return performMemory(T);
  }
  case Instruction::Fence:
    advance(T);
    return Status::Ok;
  case Instruction::PHI:
    // Phis are assigned when their block is entered (below).
    advance(T);
    return Status::Ok;
  case Instruction::Br:
  case Instruction::Switch: {
    const BasicBlock *Next = nullptr;
    if (auto *BI = dyn_cast<BranchInst>(&I)) {
      Next = BI->isUnconditional() || (get(BI->getCondition(), T).W & 1)
                 ? BI->getSuccessor(0)
                 : BI->getSuccessor(1);
    } else {
      auto *SI = cast<SwitchInst>(&I);
      unsigned B = SI->getCondition()->getType()->getIntegerBitWidth();
      Word V = mask(get(SI->getCondition(), T).W, B);
      Next = SI->getDefaultDest();
      for (auto Case : SI->cases())
        if (Case.getCaseValue()->getZExtValue() == V) {
          Next = Case.getCaseSuccessor();
          break;
        }
    }
    // Parallel assignment of the successor's phis.
    SmallVector<std::pair<const PHINode *, RVal>, 4> Phis;
    for (const PHINode &Phi : Next->phis())
      Phis.emplace_back(&Phi, get(Phi.getIncomingValueForBlock(Fr.BB), T));
    for (auto &[Phi, V] : Phis)
      Fr.Vals[Phi] = std::move(V);
    Fr.Prev = Fr.BB;
    Fr.BB = Next;
    Fr.PC = Next->getFirstNonPHIIt();
    return Status::Ok;
  }
  case Instruction::Ret: {
    auto &RI = cast<ReturnInst>(I);
    RVal V;
    if (RI.getReturnValue())
      V = get(RI.getReturnValue(), T);
    returnFrom(T, std::move(V));
    if (Th.Stack.empty())
      Visible = true;
    return Status::Ok;
  }
  case Instruction::Unreachable:
    return memoryError(&I, "reached an unreachable point (undefined "
                           "behaviour, e.g. a function without return)");
  case Instruction::Call: {
    auto &CB = cast<CallBase>(I);
    if (CB.isInlineAsm()) {
      // An empty asm statement is a compiler barrier: nothing to do under
      // sequential consistency.
      auto *IA = cast<InlineAsm>(CB.getCalledOperand());
      if (StringRef(IA->getAsmString()).trim().empty() &&
          CB.getType()->isVoidTy()) {
        advance(T);
        return Status::Ok;
      }
      return unsupported(&I, "inline assembly");
    }
    const Function *Callee = CB.getCalledFunction();
    if (!Callee) {
      Word A = get(CB.getCalledOperand(), T).W;
      Callee = FunctionAt.lookup(A);
      if (!Callee)
        return memoryError(&I, "call through a pointer that is not a "
                               "function");
    }
    if (Callee->isDeclaration())
      return callExternal(T, Callee, CB, Visible);
    if (isStringBuiltin(Callee))
      return callStringBuiltin(T, Callee, CB, Visible);
    SmallVector<RVal, 4> Args;
    for (const Use &U : CB.args())
      Args.push_back(get(U.get(), T));
    return callFunction(T, Callee, CB, Args);
  }
  case Instruction::VAArg:
    return unsupported(&I, "va_arg");
  default: {
    SmallVector<RVal, 4> Ops;
    for (const Use &U : I.operands())
      Ops.push_back(get(U.get(), T));
    RVal Out;
    if (!evalPure(I, Ops, Out)) {
      if (Error == "division by zero")
        return memoryError(&I, Error);
      return unsupported(&I, Error);
    }
    if (Guidance)
      if (auto *IC = dyn_cast<ICmpInst>(&I); IC && IC->isEquality())
        noteICmp(T, *IC, Ops);
    setResult(T, &I, std::move(Out));
    advance(T);
    return Status::Ok;
  }
  }
}

Status Executor::performMemory(unsigned T) {
  Thread &Th = Threads[T];
  const PendingOp &P = Th.Pending;
  const Instruction &I = *P.Inst;
  auto Fail = [&] { return memoryError(&I, Error); };
  if (!P.Refs.empty() && P.Refs[0].Free) {
    Objects[P.Refs[0].Obj].Alive = false;
    advance(T);
    return Status::Ok;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Word A = get(LI->getPointerOperand(), T).W;
    uint64_t N = sizeOf(LI->getType());
    RVal R;
    if (LI->getType()->isAggregateType() || LI->getType()->isVectorTy()) {
      R.Bytes.assign(N, 0);
      if (!load(A, N, R.Bytes.data()))
        return Fail();
    } else {
      if (N > 8)
        return unsupported(&I, "load wider than 64 bits");
      uint8_t Buf[8] = {0};
      if (!load(A, N, Buf))
        return Fail();
      for (uint64_t K = 0; K < N; ++K)
        R.W |= Word(Buf[K]) << (8 * K);
    }
    if (Guidance && N == 1)
      noteLoad(T, *LI, A);
    setResult(T, &I, std::move(R));
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Word A = get(SI->getPointerOperand(), T).W;
    RVal V = get(SI->getValueOperand(), T);
    uint64_t N = sizeOf(SI->getValueOperand()->getType());
    if (!V.Bytes.empty()) {
      V.Bytes.resize(N, 0);
      if (!store(A, N, V.Bytes.data()))
        return Fail();
    } else {
      if (N > 8)
        return unsupported(&I, "store wider than 64 bits");
      uint8_t Buf[8];
      for (uint64_t K = 0; K < 8; ++K)
        Buf[K] = uint8_t(V.W >> (8 * K));
      if (!store(A, N, Buf))
        return Fail();
    }
    if (Guidance && N == 1)
      noteStore(T, *SI, A, uint8_t(V.Bytes.empty() ? V.W : V.Bytes[0]));
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Word A = get(RMW->getPointerOperand(), T).W;
    Type *Ty = RMW->getValOperand()->getType();
    uint64_t N = sizeOf(Ty);
    if (N > 8 || Ty->isFloatingPointTy())
      return unsupported(&I, "atomic update of this type");
    unsigned Bits = Ty->isPointerTy() ? PtrBytes * 8 : Ty->getIntegerBitWidth();
    uint8_t Buf[8] = {0};
    if (!load(A, N, Buf))
      return Fail();
    Word Old = 0;
    for (uint64_t K = 0; K < N; ++K)
      Old |= Word(Buf[K]) << (8 * K);
    Word V = mask(get(RMW->getValOperand(), T).W, Bits), New = 0;
    int64_t SO = sext(Old, Bits), SV = sext(V, Bits);
    switch (RMW->getOperation()) {
    case AtomicRMWInst::Xchg: New = V; break;
    case AtomicRMWInst::Add: New = Old + V; break;
    case AtomicRMWInst::Sub: New = Old - V; break;
    case AtomicRMWInst::And: New = Old & V; break;
    case AtomicRMWInst::Nand: New = ~(Old & V); break;
    case AtomicRMWInst::Or: New = Old | V; break;
    case AtomicRMWInst::Xor: New = Old ^ V; break;
    case AtomicRMWInst::Max: New = SO > SV ? Old : V; break;
    case AtomicRMWInst::Min: New = SO < SV ? Old : V; break;
    case AtomicRMWInst::UMax: New = Old > V ? Old : V; break;
    case AtomicRMWInst::UMin: New = Old < V ? Old : V; break;
    default: return unsupported(&I, "atomic update operation");
    }
    New = mask(New, Bits);
    for (uint64_t K = 0; K < N; ++K)
      Buf[K] = uint8_t(New >> (8 * K));
    if (!store(A, N, Buf))
      return Fail();
    RVal R;
    R.W = Old;
    setResult(T, &I, R);
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Word A = get(CX->getPointerOperand(), T).W;
    Type *Ty = CX->getCompareOperand()->getType();
    uint64_t N = sizeOf(Ty);
    if (N > 8)
      return unsupported(&I, "compare-exchange wider than 64 bits");
    unsigned Bits = Ty->isPointerTy() ? PtrBytes * 8 : Ty->getIntegerBitWidth();
    uint8_t Buf[8] = {0};
    if (!load(A, N, Buf))
      return Fail();
    Word Old = 0;
    for (uint64_t K = 0; K < N; ++K)
      Old |= Word(Buf[K]) << (8 * K);
    bool Eq = Old == mask(get(CX->getCompareOperand(), T).W, Bits);
    if (Eq) {
      Word New = get(CX->getNewValOperand(), T).W;
      for (uint64_t K = 0; K < N; ++K)
        Buf[K] = uint8_t(New >> (8 * K));
      if (!store(A, N, Buf))
        return Fail();
    }
    auto *ST = cast<StructType>(CX->getType());
    RVal R;
    R.Bytes.assign(sizeOf(ST), 0);
    for (uint64_t K = 0; K < N; ++K)
      R.Bytes[K] = uint8_t(Old >> (8 * K));
    R.Bytes[DL.getStructLayout(ST)->getElementOffset(1)] = Eq;
    setResult(T, &I, R);
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    Word Dst = get(MI->getDest(), T).W;
    Word N = get(MI->getLength(), T).W;
    if (auto *MT = dyn_cast<MemTransferInst>(MI)) {
      std::vector<uint8_t> Buf(N);
      if (!load(get(MT->getSource(), T).W, N, Buf.data()) ||
          !store(Dst, N, Buf.data()))
        return Fail();
      if (Guidance)
        noteCopy(Dst, get(MT->getSource(), T).W, N);
    } else {
      std::vector<uint8_t> Buf(N, uint8_t(get(MI->getArgOperand(1), T).W));
      if (!store(Dst, N, Buf.data()))
        return Fail();
    }
  } else if (auto *CB = dyn_cast<CallBase>(&I); CB && P.Native) {
    if (Status S = performNative(T, *CB); S != Status::Ok)
      return S;
  }
  // Calls of library functions and __crace_read/write only access memory
  // (their result, if any, is already set).
  advance(T);
  return Status::Ok;
}

Status Executor::runToVisible(unsigned T) {
  for (uint64_t Local = 0;; ++Local) {
    Thread &Th = Threads[T];
    if (Th.Stack.empty())
      return Status::Ok; // pending ThreadEnd / ProgramExit set by returnFrom
    if (Local >= Limits.MaxLocalSteps) {
      // A loop that touches nothing shared and never synchronises: to the
      // other threads this thread has stopped for good. (The engine notes
      // it: a long but finite loop would have done more.)
      PendingOp P;
      P.K = PendingOp::Blocked;
      P.Inst = &*Th.Stack.back().PC;
      Th.Pending = P;
      DivergedAt = P.Inst;
      return Status::Ok;
    }
    bool Visible = false;
    Status S = execute(T, Visible);
    if (S != Status::Ok)
      return S;
    if (Visible)
      return Status::Ok;
  }
}

Status Executor::step(unsigned T) {
  uint64_t EpochBefore = Epoch;
  PendingOp::Kind K = Threads[T].Pending.K;
  Status S = stopIfUnsupported(T, stepImpl(T));
  // Lock operations and atomic sections show in the stepping thread's
  // local state (localHash); memory writes bump the epoch in store().
  if (K != PendingOp::Memory && K != PendingOp::Lock &&
      K != PendingOp::Unlock && K != PendingOp::AtomicBegin &&
      K != PendingOp::AtomicEnd && K != PendingOp::Join &&
      K != PendingOp::CondWait && K != PendingOp::CondWake &&
      K != PendingOp::CondSignal)
    ++Epoch;
  if (K == PendingOp::Memory && !LastStepped.Refs.empty() &&
      LastStepped.Refs[0].Free)
    ++Epoch;
  if (S == Status::Ok && !Exited)
    noteSpin(T, LastStepped, EpochBefore);
  return S;
}

uint64_t Executor::localHash(unsigned T) const {
  const Thread &Th = Threads[T];
  uint64_t H = hash_combine(Th.Stack.size(), Th.Pending.K);
  for (const Frame &F : Th.Stack) {
    H = hash_combine(H, F.F, F.BB, F.Prev,
                     F.PC == F.BB->end() ? nullptr : &*F.PC);
    // Order-independent sum over the registers.
    uint64_t Sum = 0;
    for (const auto &[V, R] : F.Vals)
      Sum += hash_combine(V, R.W,
                          hash_combine_range(R.Bytes.begin(), R.Bytes.end()));
    H = hash_combine(H, Sum);
  }
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      H = hash_combine(H, Addr);
  if (AtomicOwner == int(T))
    H = hash_combine(H, AtomicDepth);
  return H;
}

void Executor::noteSpin(unsigned T, const PendingOp &Done,
                        uint64_t EpochBefore) {
  Thread &Th = Threads[T];
  if (Th.Finished)
    return;
  if (Epoch != EpochBefore || Th.SpinEpoch != EpochBefore) {
    // Something changed: start looking for a cycle afresh.
    Th.SpinSeen.clear();
    Th.CycleRefs.clear();
    Th.CycleLocks.clear();
    Th.SpinEpoch = Epoch;
  } else {
    for (const MemRef &R : Done.Refs)
      Th.CycleRefs.push_back({R.Addr, R.Size});
    if (Done.K == PendingOp::Lock || Done.K == PendingOp::Unlock)
      Th.CycleLocks.push_back(Done.Sync);
    if (Done.K == PendingOp::CondWait || Done.K == PendingOp::CondWake)
      Th.CycleLocks.push_back(Done.Sync2);
  }
  if (Th.Pending.K == PendingOp::Done || Th.Pending.K == PendingOp::Blocked)
    return;
  if (Th.SpinSeen.insert(localHash(T)).second)
    return;
  // Back in a state of the cycle. Park only where the thread holds none of
  // the locks its cycle takes and releases (a condition wait's mutex), or
  // the others would be kept from them.
  for (Word L : Th.CycleLocks) {
    auto It = Locks.find(L);
    if (It != Locks.end() && It->second.Owner == int(T))
      return;
  }
  Th.SpinBlocked = true;
  Th.SpinDoneKey = enablerKey(T);
}

uint64_t Executor::enablerKey(unsigned T) const {
  const Thread &Th = Threads[T];
  uint64_t Key = 0;
  for (unsigned U = 0; U < Threads.size(); ++U) {
    const Thread &O = Threads[U];
    if (U == T || O.Finished || O.SpinBlocked)
      continue;
    const PendingOp &Q = O.Pending;
    bool Enables = false;
    if (Q.K == PendingOp::Unlock || Q.K == PendingOp::CondWait)
      for (Word L : Th.CycleLocks)
        Enables |= L == Q.Sync || L == Q.Sync2;
    for (const MemRef &R : Q.Refs)
      if (R.Write)
        for (auto [A, N] : Th.CycleRefs)
          Enables |= R.Addr < A + N && A < R.Addr + R.Size;
    if (Enables)
      Key = hash_combine(Key, U, Q.Inst, Q.Refs.empty() ? 0 : Q.Refs[0].Addr) |
            1;
  }
  return Key;
}

void Executor::unblockSpinners(Word Addr, uint64_t Size, Word Lock,
                               unsigned By) {
  for (unsigned U = 0; U < Threads.size(); ++U) {
    Thread &Th = Threads[U];
    if (!Th.SpinBlocked || U == By)
      continue;
    bool Hit = false;
    if (Lock)
      Hit = std::find(Th.CycleLocks.begin(), Th.CycleLocks.end(), Lock) !=
            Th.CycleLocks.end();
    for (auto [A, N] : Th.CycleRefs)
      Hit |= Size && Addr < A + N && A < Addr + Size;
    if (Hit) {
      Th.SpinBlocked = false;
      Th.SpinDoneKey = 0;
      Th.SpinSeen.clear();
      Th.CycleRefs.clear();
      Th.CycleLocks.clear();
    }
  }
}

Status Executor::stepImpl(unsigned T) {
  Thread &Th = Threads[T];
  PendingOp P = Th.Pending;
  LastStepped = P;
  switch (P.K) {
  case PendingOp::Memory: {
    Status S = performMemory(T);
    if (S != Status::Ok)
      return S;
    break;
  }
  case PendingOp::Lock: {
    LockState &L = Locks[P.Sync];
    bool Free = P.ReadLock ? L.Owner == -1 : (L.Owner == -1 && L.Readers == 0);
    if (P.Try && !Free) {
      RVal R;
      R.W = 16; // EBUSY
      setResult(T, P.Inst, R);
    } else {
      if (P.ReadLock)
        ++L.Readers;
      else
        L.Owner = int(T);
      if (P.Try)
        setResult(T, P.Inst, RVal{});
    }
    advance(T);
    break;
  }
  case PendingOp::Unlock: {
    LockState &L = Locks[P.Sync];
    if (L.Owner == int(T))
      L.Owner = -1;
    else if (L.Readers > 0)
      --L.Readers;
    else
      return memoryError(P.Inst, "unlock of a lock the thread does not hold");
    unblockSpinners(0, 0, P.Sync, T);
    advance(T);
    break;
  }
  case PendingOp::AtomicBegin:
    AtomicOwner = int(T);
    ++AtomicDepth;
    advance(T);
    break;
  case PendingOp::AtomicEnd:
    if (AtomicOwner == int(T) && AtomicDepth > 0 && --AtomicDepth == 0)
      AtomicOwner = -1;
    advance(T);
    break;
  case PendingOp::CondWait: {
    LockState &L = Locks[P.Sync2];
    if (L.Owner != int(T))
      return memoryError(P.Inst, "condition wait without holding the mutex");
    L.Owner = -1;
    Th.WaitCond = P.Sync;
    Th.Signalled = false;
    Th.WaitTicket = NextTicket++;
    Th.Pending.K = PendingOp::CondWake;
    return Status::Ok; // the call completes when woken
  }
  case PendingOp::CondWake:
    Locks[P.Sync2].Owner = int(T);
    Th.WaitCond = 0;
    advance(T);
    break;
  case PendingOp::CondSignal: {
    SmallVector<unsigned, 4> Waiters;
    for (unsigned U = 0; U < Threads.size(); ++U)
      if (Threads[U].Pending.K == PendingOp::CondWake &&
          Threads[U].WaitCond == P.Sync && !Threads[U].Signalled)
        Waiters.push_back(U);
    if (P.Broadcast) {
      for (unsigned U : Waiters)
        Threads[U].Signalled = true;
    } else if (!Waiters.empty()) {
      if (Waiters.size() > 1)
        SignalChoice = true;
      unsigned Oldest = Waiters[0];
      for (unsigned U : Waiters)
        if (Threads[U].WaitTicket < Threads[Oldest].WaitTicket)
          Oldest = U;
      Threads[Oldest].Signalled = true;
    }
    advance(T);
    break;
  }
  case PendingOp::BarrierWait: {
    BarrierState &B = Barriers[P.Sync];
    if (++B.Arrived >= B.N) {
      B.Arrived = 0;
      ++B.Generation;
      RVal R;
      R.W = mask(Word(-1), 32); // PTHREAD_BARRIER_SERIAL_THREAD
      if (!P.Inst->getType()->isVoidTy())
        setResult(T, P.Inst, R);
      advance(T);
      break;
    }
    Th.BarrierGen = B.Generation;
    Th.Pending.K = PendingOp::BarrierLeave;
    return Status::Ok;
  }
  case PendingOp::BarrierLeave:
    if (!P.Inst->getType()->isVoidTy())
      setResult(T, P.Inst, RVal{});
    advance(T);
    break;
  case PendingOp::SemWait:
    --Semaphores[P.Sync];
    advance(T);
    break;
  case PendingOp::SemPost:
    ++Semaphores[P.Sync];
    advance(T);
    break;
  case PendingOp::Create: {
    if (Threads.size() >= Limits.MaxThreads) {
      Error = formatv("thread bound of {0} reached", Limits.MaxThreads);
      ErrorAt = P.Inst;
      return Status::BoundHit;
    }
    const Function *F = FunctionAt.lookup(P.Sync);
    if (!F || F->isDeclaration())
      return unsupported(P.Inst, "thread start routine is not a function "
                                 "of the program");
    unsigned Child = spawn(F, P.Sync2, T);
    Threads[Child].SignalHandler =
        isSignalHandlerCreate(*cast<CallBase>(P.Inst));
    Word H = Child + 1;
    uint8_t Buf[8];
    for (unsigned K = 0; K < 8; ++K)
      Buf[K] = uint8_t(H >> (8 * K));
    if (!store(get(cast<CallBase>(P.Inst)->getArgOperand(0), T).W, PtrBytes,
               Buf))
      return memoryError(P.Inst, Error);
    advance(T);
    Status S = runToVisible(Child);
    if (S != Status::Ok)
      return S;
    break;
  }
  case PendingOp::Join: {
    if (P.Sync2) {
      Word R = Threads[P.Sync - 1].Result;
      uint8_t Buf[8];
      for (unsigned K = 0; K < 8; ++K)
        Buf[K] = uint8_t(R >> (8 * K));
      if (!store(P.Sync2, PtrBytes, Buf))
        return memoryError(P.Inst, Error);
    }
    advance(T);
    break;
  }
  case PendingOp::ThreadEnd:
    Th.Finished = true;
    for (Frame &Fr : Th.Stack)
      for (uint32_t A : Fr.Allocas)
        Objects[A].Alive = false;
    Th.Stack.clear();
    Th.Pending = PendingOp();
    Th.Pending.K = PendingOp::Done;
    return Status::Ok;
  case PendingOp::ProgramExit:
    Exited = true;
    Th.Finished = true;
    return Status::Ok;
  case PendingOp::ForkChild: {
    // The child process has this thread only, and a copy of memory (the
    // other threads' stacks included): they end without running another
    // step or any exit code. Signal handlers stay installed, so their
    // threads go on.
    for (unsigned U = 0; U < Threads.size(); ++U) {
      Thread &Other = Threads[U];
      if (U == T || Other.Finished || Other.SignalHandler)
        continue;
      Other.Finished = true;
      Other.Stack.clear();
      Other.Pending = PendingOp();
      Other.Pending.K = PendingOp::Done;
    }
    RVal R;
    R.W = 0;
    setResult(T, P.Inst, R);
    advance(T);
    break;
  }
  case PendingOp::Blocked:
  case PendingOp::Done:
    return Status::Ok;
  }
  Threads[T].Pending = PendingOp(); // (spawn may have moved Th)
  return runToVisible(T);
}

std::string Executor::describeAddress(Word Addr) const {
  auto Id = objectAt(Addr);
  if (!Id)
    return formatv("{0:x}", Addr).str();
  return describe(*Id, Addr - Objects[*Id].Base, 1);
}

std::vector<std::string> Executor::locksHeld(unsigned T) const {
  std::vector<std::string> Names;
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      Names.push_back(describeAddress(Addr));
  if (AtomicOwner == int(T))
    Names.push_back("atomic section");
  return Names;
}

void Executor::ownedLocks(unsigned T, llvm::SmallVectorImpl<Word> &Out) const {
  Out.clear();
  for (const auto &[Addr, L] : Locks)
    if (L.Owner == int(T))
      Out.push_back(Addr);
}

ThreadPos Executor::position(unsigned T) const {
  ThreadPos P;
  const Thread &Th = Threads[T];
  if (Exited || Th.Finished)
    return P;
  switch (Th.Pending.K) {
  case PendingOp::Done:
  case PendingOp::Blocked:
  case PendingOp::ThreadEnd:
  case PendingOp::ProgramExit:
    return P;
  default:
    break;
  }
  for (auto It = Th.Stack.rbegin(); It != Th.Stack.rend(); ++It) {
    FramePos F;
    F.F = It->F;
    F.BB = It->BB;
    F.PC = It->PC == It->BB->end() ? nullptr : &*It->PC;
    P.push_back(F);
  }
  return P;
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
