//===- LibcLowering.cpp - variadic C library calls with fixed-arity models ===//

#include "frontend/LibcLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

namespace {

/// syscall(nr, a, b, c) with a constant nr naming read or write (the
/// target's numbers: i386 3/4, x86_64 0/1) -> read/write(a, b, c).
unsigned lowerSyscalls(Module &M) {
  Function *Syscall = M.getFunction("syscall");
  if (!Syscall ||
      !(Syscall->isDeclaration() || Syscall->getSection().starts_with(".crace_model")))
    return 0; // the program's own syscall()
  bool Ilp32 = M.getDataLayout().getPointerSize() == 4;
  struct Row {
    uint64_t Nr;
    const char *Name;
  } Rows[] = {{Ilp32 ? 3u : 0u, "read"}, {Ilp32 ? 4u : 1u, "write"}};
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Syscall->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledOperand() == Syscall && CI->arg_size() == 4 &&
        isa<ConstantInt>(CI->getArgOperand(0)) && CI->getType()->isIntegerTy())
      Calls.push_back(CI);
  unsigned N = 0;
  for (CallInst *CI : Calls) {
    uint64_t Nr = cast<ConstantInt>(CI->getArgOperand(0))->getZExtValue();
    Function *F = nullptr;
    for (const Row &R : Rows)
      if (R.Nr == Nr)
        F = M.getFunction(R.Name);
    if (!F || !F->getSection().starts_with(".crace_model") || F->arg_size() != 3)
      continue;
    FunctionType *FT = F->getFunctionType();
    IRBuilder<> B(CI);
    SmallVector<Value *, 3> Args;
    for (unsigned I = 0; I < 3; ++I) {
      Value *A = CI->getArgOperand(I + 1);
      Type *To = FT->getParamType(I);
      if (A->getType() == To)
        Args.push_back(A);
      else if (To->isPointerTy() && A->getType()->isIntegerTy())
        Args.push_back(B.CreateIntToPtr(A, To));
      else if (To->isPointerTy() && A->getType()->isPointerTy())
        Args.push_back(B.CreatePointerCast(A, To));
      else if (To->isIntegerTy() && A->getType()->isIntegerTy())
        Args.push_back(B.CreateZExtOrTrunc(A, To));
      else
        break;
    }
    if (Args.size() != 3 || !FT->getReturnType()->isIntegerTy())
      continue;
    CallInst *New = B.CreateCall(F, Args);
    New->setDebugLoc(CI->getDebugLoc());
    CI->replaceAllUsesWith(B.CreateSExtOrTrunc(New, CI->getType()));
    CI->eraseFromParent();
    ++N;
  }
  return N;
}

} // namespace

unsigned lowerVariadicLibraryCalls(Module &M) {
  unsigned Lowered = lowerSyscalls(M);
  Function *Ioctl = M.getFunction("ioctl");
  Function *Model = M.getFunction("__crace_libc_ioctl");
  if (!Ioctl || !Model || !Ioctl->isDeclaration() || Model->isDeclaration() ||
      Model->arg_size() != 4)
    return Lowered;
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
  return Lowered + N;
}

} // namespace crace
