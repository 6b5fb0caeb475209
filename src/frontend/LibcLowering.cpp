//===- LibcLowering.cpp - variadic C library calls with fixed-arity models ===//

#include "frontend/LibcLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

bool isModelFunction(const Function &F) {
  return F.getSection().starts_with(".crace_model");
}

namespace {

/// The calls of F as the callee with at least MinArgs operands.
SmallVector<CallInst *, 8> directCalls(Function &F, unsigned MinArgs) {
  SmallVector<CallInst *, 8> Calls;
  for (User *U : F.users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledOperand() == &F && CI->arg_size() >= MinArgs)
      Calls.push_back(CI);
  return Calls;
}

/// Replaces the call CI (of an integer type) by the call B makes of Callee
/// with Args.
void replaceCall(IRBuilder<> &B, CallInst *CI, Function *Callee,
                 ArrayRef<Value *> Args) {
  CallInst *New = B.CreateCall(Callee, Args);
  New->setDebugLoc(CI->getDebugLoc());
  CI->replaceAllUsesWith(B.CreateSExtOrTrunc(New, CI->getType()));
  CI->eraseFromParent();
}

/// syscall(nr, a, b, c) with a constant nr naming read or write (the
/// target's numbers: i386 3/4, x86_64 0/1) -> read/write(a, b, c).
unsigned lowerSyscalls(Module &M) {
  Function *Syscall = M.getFunction("syscall");
  if (!Syscall || !(Syscall->isDeclaration() || isModelFunction(*Syscall)))
    return 0; // the program's own syscall()
  bool Ilp32 = M.getDataLayout().getPointerSize() == 4;
  struct Row {
    uint64_t Nr;
    const char *Name;
  } Rows[] = {{Ilp32 ? 3u : 0u, "read"}, {Ilp32 ? 4u : 1u, "write"}};
  unsigned N = 0;
  for (CallInst *CI : directCalls(*Syscall, 4)) {
    auto *Nr = dyn_cast<ConstantInt>(CI->getArgOperand(0));
    if (CI->arg_size() != 4 || !Nr || !CI->getType()->isIntegerTy())
      continue;
    Function *F = nullptr;
    for (const Row &R : Rows)
      if (R.Nr == Nr->getZExtValue())
        F = M.getFunction(R.Name);
    if (!F || !isModelFunction(*F) || F->arg_size() != 3 ||
        !F->getReturnType()->isIntegerTy())
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
    if (Args.size() != 3)
      continue;
    replaceCall(B, CI, F, Args);
    ++N;
  }
  return N;
}

/// ioctl(fd, req[, arg]) -> __crace_libc_ioctl(fd, req, p, how).
unsigned lowerIoctls(Module &M) {
  Function *Ioctl = M.getFunction("ioctl");
  Function *Model = M.getFunction("__crace_libc_ioctl");
  if (!Ioctl || !Model || !Ioctl->isDeclaration() || Model->isDeclaration() ||
      Model->arg_size() != 4)
    return 0;
  FunctionType *FT = Model->getFunctionType();
  auto *PtrTy = cast<PointerType>(FT->getParamType(2));
  unsigned N = 0;
  for (CallInst *CI : directCalls(*Ioctl, 2)) {
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
    replaceCall(B, CI, Model,
                {B.CreateZExtOrTrunc(Fd, FT->getParamType(0)),
                 B.CreateZExtOrTrunc(Req, FT->getParamType(1)), Ptr,
                 ConstantInt::get(FT->getParamType(3), How)});
    ++N;
  }
  return N;
}

} // namespace

unsigned lowerVariadicLibraryCalls(Module &M) {
  return lowerSyscalls(M) + lowerIoctls(M);
}

} // namespace crace
