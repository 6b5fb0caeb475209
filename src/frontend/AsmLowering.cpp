//===- AsmLowering.cpp - inline assembly with a known meaning, as LLVM IR -===//

#include "frontend/AsmLowering.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace crace {
namespace {

/// The assembly text with every run of blanks made one space, trimmed.
std::string normalisedText(StringRef S) {
  std::string Out;
  bool Blank = false;
  for (char C : S.trim()) {
    if (C == ' ' || C == '\t' || C == '\n') {
      Blank = true;
      continue;
    }
    if (Blank && !Out.empty())
      Out += ' ';
    Blank = false;
    Out += C;
  }
  return Out;
}

/// The constraint string without its clobbers ("~{...}").
std::string operandConstraints(StringRef S) {
  SmallVector<StringRef, 8> Parts;
  S.split(Parts, ',');
  std::string Out;
  for (StringRef P : Parts) {
    if (P.starts_with("~"))
      continue;
    if (!Out.empty())
      Out += ',';
    Out += P.str();
  }
  return Out;
}

/// A value of type Ty (an integer of at most 64 bits) drawn by
/// __crace_nondet_bits, 32 bits at a time.
Value *nondetInt(IRBuilder<> &B, Module &M, IntegerType *Ty) {
  FunctionCallee Bits = M.getOrInsertFunction(
      intrinsicName(Intrinsic::NondetBits), B.getInt32Ty(), B.getInt32Ty());
  Value *Acc = nullptr;
  for (unsigned Lo = 0; Lo < Ty->getBitWidth(); Lo += 32) {
    unsigned W = std::min(32u, Ty->getBitWidth() - Lo);
    Value *Part = B.CreateZExtOrTrunc(B.CreateCall(Bits, {B.getInt32(W)}), Ty);
    if (Lo)
      Part = B.CreateShl(Part, Lo);
    Acc = Acc ? B.CreateOr(Acc, Part) : Part;
  }
  return Acc;
}

/// The 32-bit word of an x86 bit string at Base holding bit Off (signed),
/// and the mask of that bit in it.
std::pair<Value *, Value *> bitOf(IRBuilder<> &B, Value *Base, Value *Off) {
  Value *Off32 = B.CreateSExtOrTrunc(Off, B.getInt32Ty());
  Value *Word = B.CreateGEP(B.getInt32Ty(), Base, B.CreateAShr(Off32, 5));
  Value *Mask = B.CreateShl(B.getInt32(1), B.CreateAnd(Off32, 31));
  return {Word, Mask};
}

/// Converts V (a pointer or an integer) to Ty (a pointer or an integer).
Value *convert(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  if (V->getType()->isPointerTy() && Ty->isIntegerTy())
    return B.CreatePtrToInt(V, Ty);
  if (V->getType()->isIntegerTy() && Ty->isPointerTy())
    return B.CreateIntToPtr(V, Ty);
  if (V->getType()->isIntegerTy() && Ty->isIntegerTy())
    return B.CreateZExtOrTrunc(V, Ty);
  return nullptr;
}

/// The replacement of CB's value, or nullptr when CB is not one of the known
/// statements. Sets Done when CB (void) was rewritten.
Value *lower(CallInst &CB, Module &M, bool &Done) {
  auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  std::string Text = normalisedText(IA->getAsmString());
  std::string Ops = operandConstraints(IA->getConstraintString());
  Type *RetTy = CB.getType();
  IRBuilder<> B(&CB);
  auto *IntRet = dyn_cast<IntegerType>(RetTy);

  if (Text == "bswap $0" && Ops == "=r,0" && IntRet &&
      (IntRet->getBitWidth() == 32 || IntRet->getBitWidth() == 64) &&
      CB.getArgOperand(0)->getType() == RetTy)
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, CB.getArgOperand(0));

  if (Text == "rorw $$8, ${0:w}" && Ops == "=r,0" && IntRet &&
      IntRet->getBitWidth() == 16 && CB.getArgOperand(0)->getType() == RetTy)
    return B.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, CB.getArgOperand(0));

  if (Text == "rdtsc" && Ops == "=A" && IntRet && IntRet->getBitWidth() <= 64)
    return nondetInt(B, M, IntRet);

  if (Text == "cld; rep; stosl" && Ops == "={cx},={di},{ax},0,1" &&
      CB.arg_size() == 3) {
    auto *StructTy = dyn_cast<StructType>(RetTy);
    auto *Fill = dyn_cast<ConstantInt>(CB.getArgOperand(0));
    Value *Count = CB.getArgOperand(1);
    Value *Dest = CB.getArgOperand(2);
    if (!StructTy || StructTy->getNumElements() != 2 || !Fill ||
        !Fill->isZero() || !Count->getType()->isIntegerTy() ||
        !Dest->getType()->isPointerTy() ||
        !StructTy->getElementType(0)->isIntegerTy() ||
        !StructTy->getElementType(1)->isIntOrPtrTy())
      return nullptr;
    Value *Bytes = B.CreateMul(Count, ConstantInt::get(Count->getType(), 4));
    B.CreateMemSet(Dest, B.getInt8(0), Bytes, MaybeAlign(1));
    Value *End = B.CreateGEP(B.getInt8Ty(), Dest, Bytes);
    Value *Cx = convert(B, ConstantInt::get(Count->getType(), 0),
                        StructTy->getElementType(0));
    Value *Di = convert(B, End, StructTy->getElementType(1));
    Value *R = B.CreateInsertValue(PoisonValue::get(StructTy), Cx, 0);
    return B.CreateInsertValue(R, Di, 1);
  }

  if ((Text == "btsl $1,$0" || Text == "btrl $1,$0") && Ops == "=*m,r" &&
      RetTy->isVoidTy() && CB.arg_size() == 2 &&
      CB.getParamElementType(0) == B.getInt32Ty() &&
      CB.getArgOperand(1)->getType()->isIntegerTy()) {
    auto [Word, Mask] = bitOf(B, CB.getArgOperand(0), CB.getArgOperand(1));
    Value *Old = B.CreateLoad(B.getInt32Ty(), Word);
    Value *New = Text[2] == 's' ? B.CreateOr(Old, Mask)
                                : B.CreateAnd(Old, B.CreateNot(Mask));
    B.CreateStore(New, Word);
    Done = true;
    return nullptr;
  }

  if (Text == "btl $1,$2 ; setcb ${0:b}" && Ops == "=q,r,*m" && IntRet &&
      CB.arg_size() == 2 && CB.getParamElementType(1) == B.getInt32Ty() &&
      CB.getArgOperand(0)->getType()->isIntegerTy()) {
    auto [Word, Mask] = bitOf(B, CB.getArgOperand(1), CB.getArgOperand(0));
    Value *Set = B.CreateICmpNE(
        B.CreateAnd(B.CreateLoad(B.getInt32Ty(), Word), Mask), B.getInt32(0));
    return B.CreateZExt(Set, IntRet);
  }
  return nullptr;
}

} // namespace

unsigned lowerKnownInlineAsm(Module &M) {
  SmallVector<CallInst *, 16> Asms;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isInlineAsm())
          Asms.push_back(CI);
  unsigned N = 0;
  for (CallInst *CI : Asms) {
    bool Done = false;
    Value *V = lower(*CI, M, Done);
    if (!V && !Done)
      continue; // not a known statement (nothing was emitted)
    if (V)
      CI->replaceAllUsesWith(V);
    CI->eraseFromParent();
    ++N;
  }
  return N;
}

} // namespace crace
