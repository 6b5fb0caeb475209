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
  FunctionType *FT = Model->getFunctionType();
  auto *PtrTy = cast<PointerType>(FT->getParamType(2));
  unsigned N = 0;
  for (CallInst *CI : Calls) {
    Value *Fd = CI->getArgOperand(0), *Req = CI->getArgOperand(1);
    if (!Fd->getType()->isIntegerTy() || !Req->getType()->isIntegerTy() ||
        !CI->getType()->isIntegerTy())
      continue;
    IRBuilder<> B(CI);
    Value *Ptr = ConstantPointerNull::get(PtrTy);
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
    CallInst *New = B.CreateCall(
        Model, {B.CreateZExtOrTrunc(Fd, FT->getParamType(0)),
                B.CreateZExtOrTrunc(Req, FT->getParamType(1)), Ptr,
                ConstantInt::get(FT->getParamType(3), How)});
    New->setDebugLoc(CI->getDebugLoc());
    CI->replaceAllUsesWith(B.CreateSExtOrTrunc(New, CI->getType()));
    CI->eraseFromParent();
    ++N;
  }
  return N;
}

} // namespace crace
