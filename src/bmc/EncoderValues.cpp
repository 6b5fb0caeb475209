//===- EncoderValues.cpp - values and pure instructions in the bmc encoder
//---===//
//
// Registers, constants (also as bytes of memory) and the pure
// instructions as Z3 terms (also constant expressions, with no frame).
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

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

z3::expr Encoder::val(Frame *Fr, const Value *V) {
  if (const auto *C = dyn_cast<Constant>(V))
    return constVal(C);
  if (Fr) {
    auto It = Fr->Vals.find(V);
    if (It != Fr->Vals.end())
      return It->second;
  }
  // A value with no definition on any encoded path (the defining
  // instruction sits after a point where every path was cut). Any use is
  // under a false guard, so its value does not matter.
  unsigned Bits = regBits(V->getType());
  return fresh(Bits ? Bits : 8, "dead");
}

/// The value of V where it leaves the function's SSA values (stored,
/// passed, returned): an address-derived integer then loses track of being
/// an address, and its numeric value (our bit pattern, not a real address)
/// would be read as a number later. It becomes an arbitrary value instead.
z3::expr Encoder::escape(Frame &Fr, const Value *V, State &S,
                         const Instruction &At) {
  if (!Fr.FI->AddressDerived.count(V))
    return val(&Fr, V);
  return havoc(S, regBits(V->getType()),
               "address used as an integer at " + location(&At));
}

z3::expr Encoder::constVal(const Constant *C) {
  auto It = ConstCache.find(C);
  if (It != ConstCache.end())
    return It->second;
  Type *T = C->getType();
  std::optional<z3::expr> R;
  if (const auto *CI = dyn_cast<ConstantInt>(C)) {
    const APInt &A = CI->getValue();
    R = A.getBitWidth() <= 64
            ? Z.bv_val(A.getZExtValue(), A.getBitWidth())
            : Z.bv_val(llvm::toString(A, 10, false).c_str(), A.getBitWidth());
  } else if (isa<ConstantPointerNull>(C)) {
    R = bv(0, PtrBits);
  } else if (const auto *GA = dyn_cast<GlobalAlias>(C)) {
    R = constVal(GA->getAliasee());
  } else if (const auto *GV = dyn_cast<GlobalValue>(C)) {
    auto G = GlobalIds.find(GV);
    if (G == GlobalIds.end())
      throw EncodingAborted{
          ("unsupported global '" + GV->getName() + "'").str()};
    R = address(G->second);
  } else if (isa<UndefValue>(C)) {
    // Undefined (uninitialised) values are arbitrary; not cached, so each
    // use is independent.
    unsigned Bits = regBits(T);
    return fresh(Bits ? Bits : 8, "undef");
  } else if (const auto *CF = dyn_cast<ConstantFP>(C)) {
    APInt A = CF->getValueAPF().bitcastToAPInt();
    R = Z.bv_val(llvm::toString(A, 10, false).c_str(), A.getBitWidth());
  } else if (const auto *CE = dyn_cast<ConstantExpr>(C)) {
    Instruction *I = CE->getAsInstruction();
    std::optional<z3::expr> V = pureOp(nullptr, *I);
    I->deleteValue();
    if (!V)
      throw EncodingAborted{("unsupported constant expression '" +
                             Twine(CE->getOpcodeName()) + "'")
                                .str()};
    R = *V;
  } else if (T->isStructTy() || T->isArrayTy()) {
    uint64_t N = memBytes(T);
    std::vector<z3::expr> Bytes(N, bv(0, 8));
    constBytes(C, 0, [&](uint64_t Off, z3::expr B) {
      if (Off < N)
        Bytes[Off] = B;
    });
    z3::expr E = Bytes[N - 1];
    for (uint64_t I = N - 1; I-- > 0;)
      E = z3::concat(E, Bytes[I]);
    R = resize(E, regBits(T));
  } else {
    throw EncodingAborted{"unsupported constant of type " + [&] {
      std::string S;
      raw_string_ostream OS(S);
      T->print(OS);
      return S;
    }()};
  }
  ConstCache.emplace(C, *R);
  return *R;
}

/// Calls Byte(offset, value) for every non-zero byte of constant C placed at
/// Off (zero bytes are skipped: callers start from zeroed memory).
void Encoder::constBytes(const Constant *C, uint64_t Off,
                         const std::function<void(uint64_t, z3::expr)> &Byte) {
  Type *T = C->getType();
  if (isa<ConstantAggregateZero>(C) || isa<ConstantPointerNull>(C) ||
      isa<UndefValue>(C))
    return;
  auto FromAPInt = [&](APInt A) {
    uint64_t N = memBytes(T);
    A = A.zextOrTrunc(unsigned(N * 8));
    for (uint64_t I = 0; I < N; ++I) {
      uint64_t B = A.extractBitsAsZExtValue(8, unsigned(8 * I));
      if (B)
        Byte(Off + I, bv(B, 8));
    }
  };
  if (const auto *CI = dyn_cast<ConstantInt>(C))
    return FromAPInt(CI->getValue());
  if (const auto *CF = dyn_cast<ConstantFP>(C))
    return FromAPInt(CF->getValueAPF().bitcastToAPInt());
  if (const auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    uint64_t ES = DL.getTypeAllocSize(CDS->getElementType()).getFixedValue();
    for (unsigned I = 0, E = CDS->getNumElements(); I < E; ++I)
      constBytes(CDS->getElementAsConstant(I), Off + I * ES, Byte);
    return;
  }
  if (const auto *CS = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *SL = DL.getStructLayout(CS->getType());
    for (unsigned I = 0, E = CS->getNumOperands(); I < E; ++I)
      constBytes(CS->getOperand(I), Off + SL->getElementOffset(I), Byte);
    return;
  }
  if (const auto *CA = dyn_cast<ConstantArray>(C)) {
    uint64_t ES =
        DL.getTypeAllocSize(CA->getType()->getElementType()).getFixedValue();
    for (unsigned I = 0, E = CA->getNumOperands(); I < E; ++I)
      constBytes(CA->getOperand(I), Off + I * ES, Byte);
    return;
  }
  if (T->isVectorTy())
    throw EncodingAborted{"unsupported vector constant"};
  // Pointers (globals, functions, constant expressions).
  z3::expr E = constVal(C);
  uint64_t N = memBytes(T);
  E = resize(E, unsigned(N * 8));
  for (uint64_t I = 0; I < N; ++I)
    Byte(Off + I, E.extract(unsigned(8 * I + 7), unsigned(8 * I)).simplify());
}

//===----------------------------------------------------------------------===//
// Pure instructions (also used for constant expressions, with Fr == null)
//===----------------------------------------------------------------------===//

std::optional<z3::expr> Encoder::pureOp(Frame *Fr, const Instruction &I) {
  for (const Use &U : I.operands())
    if (U->getType()->isVectorTy())
      return std::nullopt;
  if (I.getType()->isVectorTy())
    return std::nullopt;
  bool AllConst = true;
  auto V = [&](unsigned K) {
    z3::expr E = val(Fr, I.getOperand(K));
    AllConst &= E.is_numeral();
    return E;
  };
  std::optional<z3::expr> R;
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    // The operands are evaluated as in "V(0) + V(1)" before this was
    // shared: Z3 orders terms by creation, which changes how fast it solves.
    R = *binaryTerm(I.getOpcode(), V(0), V(1));
    break;
  case Instruction::ICmp: {
    z3::expr A = V(0), B = V(1);
    std::optional<z3::expr> Cmp =
        icmpTerm(cast<ICmpInst>(I).getPredicate(), A, B);
    if (!Cmp)
      return std::nullopt;
    z3::expr C = *Cmp;
    if (AllConst)
      C = C.simplify();
    return fromBool(C);
  }
  case Instruction::Select: {
    z3::expr C = toBool(V(0)), A = V(1), B = V(2);
    if (C.is_true())
      return A;
    if (C.is_false())
      return B;
    return z3::ite(C, A, B);
  }
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::AddrSpaceCast:
    R = resize(V(0), regBits(I.getType()));
    break;
  case Instruction::SExt: {
    z3::expr A = V(0);
    R = z3::sext(A, regBits(I.getType()) - A.get_sort().bv_size());
    break;
  }
  case Instruction::BitCast: {
    unsigned To = regBits(I.getType());
    z3::expr A = V(0);
    if (!To || A.get_sort().bv_size() != To)
      return std::nullopt;
    return A;
  }
  case Instruction::Freeze:
    return V(0);
  case Instruction::GetElementPtr: {
    const auto &G = cast<GetElementPtrInst>(I);
    z3::expr P = V(0);
    uint64_t ConstOff = 0;
    std::optional<z3::expr> Dyn;
    unsigned K = 1;
    for (gep_type_iterator GI = gep_type_begin(G), GE = gep_type_end(G);
         GI != GE; ++GI, ++K) {
      if (StructType *ST = GI.getStructTypeOrNull()) {
        unsigned F =
            unsigned(cast<ConstantInt>(GI.getOperand())->getZExtValue());
        ConstOff += DL.getStructLayout(ST)->getElementOffset(F);
        continue;
      }
      uint64_t Size = GI.getSequentialElementStride(DL).getFixedValue();
      if (const auto *CI = dyn_cast<ConstantInt>(GI.getOperand())) {
        ConstOff += uint64_t(CI->getSExtValue()) * Size;
        continue;
      }
      z3::expr Idx = V(K);
      unsigned W = Idx.get_sort().bv_size();
      Idx = W < PtrBits ? z3::sext(Idx, PtrBits - W) : resize(Idx, PtrBits);
      z3::expr Term = Idx * bv(Size, PtrBits);
      Dyn = Dyn ? *Dyn + Term : Term;
    }
    z3::expr Res = P;
    if (ConstOff)
      Res = Res + bv(ConstOff, PtrBits);
    if (Dyn)
      Res = Res + *Dyn;
    if (Fr && (Dyn || (isConcatPointer(P) && int64_t(ConstOff) >= 0))) {
      // Variable indexing is checked to stay in its object (see exec), so
      // the result keeps the base's object id syntactically.
      LastGepNatural = AllConst ? Res.simplify() : Res;
      z3::expr Delta = bv(ConstOff, OffBits);
      if (Dyn)
        Delta = Delta + resize(*Dyn, OffBits);
      z3::expr Off = offOf(P) + Delta;
      z3::expr Ob = objOf(P);
      if (Ob.is_numeral() && AllConst)
        return z3::concat(Ob, Off).simplify();
      return z3::concat(Ob, Off);
    }
    R = Res;
    break;
  }
  case Instruction::ExtractValue:
  case Instruction::InsertValue: {
    ArrayRef<unsigned> Idx = isa<ExtractValueInst>(I)
                                 ? cast<ExtractValueInst>(I).getIndices()
                                 : cast<InsertValueInst>(I).getIndices();
    Type *T = I.getOperand(0)->getType();
    uint64_t Off = 0;
    for (unsigned X : Idx) {
      if (auto *ST = dyn_cast<StructType>(T)) {
        Off += DL.getStructLayout(ST)->getElementOffset(X);
        T = ST->getElementType(X);
      } else {
        T = cast<ArrayType>(T)->getElementType();
        Off += X * DL.getTypeAllocSize(T).getFixedValue();
      }
    }
    z3::expr Agg = V(0);
    unsigned Lo = unsigned(Off * 8);
    if (isa<ExtractValueInst>(I)) {
      R = Agg.extract(Lo + regBits(T) - 1, Lo);
    } else {
      unsigned W = unsigned(memBytes(T) * 8), Total = Agg.get_sort().bv_size();
      z3::expr Elem = resize(V(1), W);
      z3::expr Res = Elem;
      if (Lo > 0)
        Res = z3::concat(Res, Agg.extract(Lo - 1, 0));
      if (Lo + W < Total)
        Res = z3::concat(Agg.extract(Total - 1, Lo + W), Res);
      R = Res;
    }
    break;
  }
  default:
    return std::nullopt;
  }
  if (AllConst)
    R = R->simplify();
  return R;
}

} // namespace crace::bmc
