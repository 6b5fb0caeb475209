//===- ExecutorEval.cpp - executing one instruction
//-------------------------===//
//
// The value semantics of LLVM instructions (evalPure) and the step of a
// thread through its local instructions up to a visible one (execute).
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

bool Executor::evalPure(const Instruction &I, ArrayRef<RVal> Ops, RVal &Out) {
  Type *Ty = I.getType();
  unsigned Bits = Ty->isIntegerTy()   ? Ty->getIntegerBitWidth()
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
      case Instruction::FAdd:
        R = A + B;
        break;
      case Instruction::FSub:
        R = A - B;
        break;
      case Instruction::FMul:
        R = A * B;
        break;
      case Instruction::FDiv:
        R = A / B;
        break;
      case Instruction::FRem:
        R = std::fmod(A, B);
        break;
      default:
        Error = "unsupported floating-point operation";
        return false;
      }
      Out.W = fromDouble(R, Ty);
      return true;
    }
    Word A = mask(Ops[0].W, Bits), B = mask(Ops[1].W, Bits), R = 0;
    int64_t SA = sext(A, Bits), SB = sext(B, Bits);
    switch (BO->getOpcode()) {
    case Instruction::Add:
      R = A + B;
      break;
    case Instruction::Sub:
      R = A - B;
      break;
    case Instruction::Mul:
      R = A * B;
      break;
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
    case Instruction::Shl:
      R = B >= Bits ? 0 : A << B;
      break;
    case Instruction::LShr:
      R = B >= Bits ? 0 : A >> B;
      break;
    case Instruction::AShr:
      R = Word(B >= Bits ? (SA < 0 ? -1 : 0) : (SA >> B));
      break;
    case Instruction::And:
      R = A & B;
      break;
    case Instruction::Or:
      R = A | B;
      break;
    case Instruction::Xor:
      R = A ^ B;
      break;
    default:
      Error = "unsupported binary operation";
      return false;
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
      case FCmpInst::FCMP_FALSE:
        R = false;
        break;
      case FCmpInst::FCMP_TRUE:
        R = true;
        break;
      case FCmpInst::FCMP_OEQ:
        R = !Unord && A == B;
        break;
      case FCmpInst::FCMP_OGT:
        R = !Unord && A > B;
        break;
      case FCmpInst::FCMP_OGE:
        R = !Unord && A >= B;
        break;
      case FCmpInst::FCMP_OLT:
        R = !Unord && A < B;
        break;
      case FCmpInst::FCMP_OLE:
        R = !Unord && A <= B;
        break;
      case FCmpInst::FCMP_ONE:
        R = !Unord && A != B;
        break;
      case FCmpInst::FCMP_ORD:
        R = !Unord;
        break;
      case FCmpInst::FCMP_UNO:
        R = Unord;
        break;
      case FCmpInst::FCMP_UEQ:
        R = Unord || A == B;
        break;
      case FCmpInst::FCMP_UGT:
        R = Unord || A > B;
        break;
      case FCmpInst::FCMP_UGE:
        R = Unord || A >= B;
        break;
      case FCmpInst::FCMP_ULT:
        R = Unord || A < B;
        break;
      case FCmpInst::FCMP_ULE:
        R = Unord || A <= B;
        break;
      case FCmpInst::FCMP_UNE:
        R = Unord || A != B;
        break;
      default:
        break;
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
    case ICmpInst::ICMP_EQ:
      R = A == B;
      break;
    case ICmpInst::ICMP_NE:
      R = A != B;
      break;
    case ICmpInst::ICMP_UGT:
      R = A > B;
      break;
    case ICmpInst::ICMP_UGE:
      R = A >= B;
      break;
    case ICmpInst::ICMP_ULT:
      R = A < B;
      break;
    case ICmpInst::ICMP_ULE:
      R = A <= B;
      break;
    case ICmpInst::ICMP_SGT:
      R = SA > SB;
      break;
    case ICmpInst::ICMP_SGE:
      R = SA >= SB;
      break;
    case ICmpInst::ICMP_SLT:
      R = SA < SB;
      break;
    case ICmpInst::ICMP_SLE:
      R = SA <= SB;
      break;
    default:
      break;
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

} // namespace crace::explore
