//===- LibcLowering.cpp - variadic C library calls with fixed-arity models ===//

#include "frontend/LibcLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

unsigned lowerVariadicLibraryCalls(Module &M) {
  Function *Ioctl = M.getFunction("ioctl");
  Function *Model = M.getFunction("__crace_libc_ioctl");
  if (!Ioctl || !Model || !Ioctl->isDeclaration() || Model->isDeclaration() ||
      Model->arg_size() != 4)
    return 0;
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Ioctl->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledOperand() == Ioctl && CI->arg_size() >= 2)
      Calls.push_back(CI);
  unsigned N = 0;
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    FunctionType *FT = Model->getFunctionType();
    auto Cast = [&](Value *V, Type *To) -> Value * {
      if (V->getType() == To)
        return V;
      if (V->getType()->isIntegerTy() && To->isIntegerTy())
        return B.CreateZExtOrTrunc(V, To);
      return nullptr;
    };
    Value *Fd = Cast(CI->getArgOperand(0), FT->getParamType(0));
    Value *Req = Cast(CI->getArgOperand(1), FT->getParamType(1));
    Type *PtrTy = FT->getParamType(2);
    Value *Ptr = ConstantPointerNull::get(cast<PointerType>(PtrTy));
    unsigned How = 0;
    if (CI->arg_size() >= 3) {
      Value *A = CI->getArgOperand(2);
      if (A->getType()->isPointerTy()) {
        Ptr = B.CreatePointerCast(A, PtrTy);
        How = 1;
      } else if (A->getType()->isIntegerTy()) {
        Ptr = B.CreateIntToPtr(A, PtrTy);
        How = 2;
      }
    }
    if (!Fd || !Req || !CI->getType()->isIntegerTy())
      continue;
    CallInst *New = B.CreateCall(
        Model, {Fd, Req, Ptr, ConstantInt::get(FT->getParamType(3), How)});
    New->setDebugLoc(CI->getDebugLoc());
    Value *R = New;
    if (R->getType() != CI->getType())
      R = B.CreateSExtOrTrunc(R, CI->getType());
    CI->replaceAllUsesWith(R);
    CI->eraseFromParent();
    ++N;
  }
  return N;
}

} // namespace crace
