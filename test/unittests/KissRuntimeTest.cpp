//===- KissRuntimeTest.cpp - the kiss runtime compiled from C -------------===//
//
// Both runtimes (runtime/kiss_runtime.c, runtime/rounds_runtime.c) compiled
// for a 32-bit and a 64-bit target: every function and global the
// transform looks up is there with the type it uses (handles as wide as a
// pointer, the flags i1, tables sized by the parameters), no loop is
// left, no attributes, and the module verifies. A second compile reads the
// cache; without a compiler (EngineOptions::CompileC) it is an internal
// error.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissRuntime.h"
#include "frontend/Frontend.h"
#include "gtest/gtest.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace crace;
using namespace llvm;

namespace {

struct TargetCase {
  const char *Triple;
  const char *Layout;
  unsigned PtrBits;
};

const TargetCase Targets[] = {
    {"i386-pc-linux-gnu",
     "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:"
     "32-n8:16:32-S128",
     32},
    {"x86_64-pc-linux-gnu",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:"
     "32:64-S128",
     64}};

/// An empty module of T, as the program the runtime is linked into.
std::unique_ptr<Module> programOf(LLVMContext &C, const TargetCase &T) {
  auto Like = std::make_unique<Module>("program", C);
  Like->setTargetTriple(T.Triple);
  Like->setDataLayout(DataLayout(T.Layout));
  return Like;
}

std::unique_ptr<Module> runtimeFor(LLVMContext &C, const TargetCase &T,
                                   const kiss::RuntimeParams &P) {
  // The driver's compiler (EngineOptions::CompileC).
  auto M = kiss::compileRuntime(compileEmbeddedC, *programOf(C, T), P);
  if (!M) {
    ADD_FAILURE() << toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

/// F is defined, external, and has the type Ret (Params...).
void expectFunction(const Module &M, StringRef Name, Type *Ret,
                    std::vector<Type *> Params) {
  const Function *F = M.getFunction(Name);
  ASSERT_TRUE(F && !F->isDeclaration()) << Name.str() << " is missing";
  EXPECT_FALSE(F->hasLocalLinkage()) << Name.str();
  EXPECT_EQ(F->getFunctionType(), FunctionType::get(Ret, Params, false))
      << Name.str();
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 2> Back;
  FindFunctionBackedges(*F, Back);
  EXPECT_TRUE(Back.empty()) << Name.str() << " keeps a loop";
  EXPECT_TRUE(F->getAttributes().isEmpty()) << Name.str() << " has attributes";
}

void expectGlobal(const Module &M, StringRef Name, Type *T) {
  const GlobalVariable *G = M.getNamedGlobal(Name);
  ASSERT_TRUE(G && G->hasInitializer()) << Name.str() << " is missing";
  EXPECT_FALSE(G->hasLocalLinkage()) << Name.str();
  EXPECT_EQ(G->getValueType(), T) << Name.str();
}

/// What both forms provide (the transform's replaceSync and run).
void expectCommon(const Module &M, unsigned PtrBits) {
  LLVMContext &C = M.getContext();
  Type *V = Type::getVoidTy(C), *I1 = Type::getInt1Ty(C),
       *I32 = Type::getInt32Ty(C), *P = PointerType::getUnqual(C),
       *H = Type::getIntNTy(C, PtrBits);
  expectGlobal(M, "__kiss_raise", I1);
  expectGlobal(M, "__kiss_atomic", I1);
  expectGlobal(M, "__kiss_sect_acc", I1);
  expectFunction(M, "__kiss_nondet", I1, {});
  expectFunction(M, "__kiss_assume", V, {I1});
  expectFunction(M, "__kiss_schedule", V, {});
  expectFunction(M, "__kiss_run", V, {P, P, H});
  expectFunction(M, "__kiss_create", V, {P, P, P});
  expectFunction(M, "__kiss_join", V, {H, P});
  expectFunction(M, "__kiss_thread_self", H, {});
  expectFunction(M, "__kiss_thread_exit", V, {P});
  expectFunction(M, "__kiss_held", I1, {P});
  expectFunction(M, "__kiss_lock", V, {P});
  expectFunction(M, "__kiss_unlock", V, {P});
  expectFunction(M, "__kiss_trylock", I32, {P});
  expectFunction(M, "__kiss_cond_wait", V, {P, P});
  expectFunction(M, "__kiss_atomic_begin", V, {});
  expectFunction(M, "__kiss_atomic_end", V, {});
  expectFunction(M, "__kiss_block_i32", I32, {P});
  expectFunction(M, "__kiss_block", V, {P});
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(M, &OS)) << Err;
}

TEST(KissRuntime, KissFormForBothDataModels) {
  for (const TargetCase &T : Targets) {
    SCOPED_TRACE(T.Triple);
    LLVMContext C;
    kiss::RuntimeParams P;
    P.Slots = 2;
    P.Threads = 16;
    P.Locks = 4;
    auto M = runtimeFor(C, T, P);
    ASSERT_TRUE(M);
    expectCommon(*M, T.PtrBits);
    Type *I1 = Type::getInt1Ty(C), *Ptr = PointerType::getUnqual(C),
         *H = Type::getIntNTy(C, T.PtrBits);
    expectGlobal(*M, "__kiss_ts_used", ArrayType::get(I1, 2));
    expectGlobal(*M, "__kiss_ts_fn", ArrayType::get(Ptr, 2));
    expectGlobal(*M, "__kiss_ts_id", ArrayType::get(H, 2));
    expectGlobal(*M, "__kiss_done", ArrayType::get(I1, 16));
    expectGlobal(*M, "__kiss_locks", ArrayType::get(Ptr, 4));
    // No slot (the default): creation runs the thread at once.
    P.Slots = 0;
    auto M0 = runtimeFor(C, T, P);
    ASSERT_TRUE(M0);
    expectCommon(*M0, T.PtrBits);
    expectGlobal(*M0, "__kiss_ts_used", ArrayType::get(I1, 0));
  }
}

TEST(KissRuntime, RoundsFormForBothDataModels) {
  for (const TargetCase &T : Targets) {
    SCOPED_TRACE(T.Triple);
    LLVMContext C;
    kiss::RuntimeParams P;
    P.Rounds = 3;
    P.Threads = 5;
    P.Locks = 2;
    P.Stride = 40;
    auto M = runtimeFor(C, T, P);
    ASSERT_TRUE(M);
    expectCommon(*M, T.PtrBits);
    Type *V = Type::getVoidTy(C), *I32 = Type::getInt32Ty(C),
         *I64 = Type::getInt64Ty(C), *Ptr = PointerType::getUnqual(C),
         *H = Type::getIntNTy(C, T.PtrBits);
    expectFunction(*M, "__kiss_start", V, {H});
    expectFunction(*M, "__kiss_check_joins", V, {});
    expectGlobal(*M, "__kiss_round", I32);
    expectGlobal(*M, "__kiss_limit", I32);
    expectGlobal(*M, "__kiss_stride", I64);
    // roundsLayout moves the lock table into the copied state.
    expectGlobal(*M, "__kiss_locks", ArrayType::get(Ptr, 2));
    const GlobalVariable *Limit = M->getNamedGlobal("__kiss_limit");
    EXPECT_EQ(cast<ConstantInt>(Limit->getInitializer())->getZExtValue(), 3u);
  }
}

/// The shape the bmc's Z3 queries are fast on (the IR-text runtime's):
/// globals in declaration order (they become the bmc's object ids), and
/// __kiss_held an i1 `or` chain over the lock table's slots in order (no
/// int arithmetic on _Bool). Either change slowed one kiss run from 2-11 s
/// to 30-40 s (precision/indexed_locks_mismatch.c, program/signal_ignored.c).
TEST(KissRuntime, ShapeTheBmcIsFastOn) {
  LLVMContext C;
  kiss::RuntimeParams P;
  P.Slots = 2;
  P.Threads = 16;
  P.Locks = 4;
  auto M = runtimeFor(C, Targets[1], P);
  ASSERT_TRUE(M);
  std::vector<std::string> Order;
  for (const GlobalVariable &G : M->globals())
    Order.push_back(G.getName().str());
  const std::vector<std::string> Declared = {
      "__kiss_raise", "__kiss_atomic", "__kiss_self", "__kiss_next",
      "__kiss_ts_used", "__kiss_ts_fn", "__kiss_ts_arg", "__kiss_ts_id",
      "__kiss_done", "__kiss_result", "__kiss_locks",
      // kiss_shared.c's, last: the object ids of the others stay as they
      // were (only programs with atomic sections use it).
      "__kiss_sect_acc"};
  EXPECT_EQ(Order, Declared);
  const Function *Held = M->getFunction("__kiss_held");
  ASSERT_TRUE(Held);
  unsigned Ors = 0, Loads = 0;
  for (const Instruction &I : instructions(*Held)) {
    EXPECT_FALSE(isa<ZExtInst>(I)) << "int arithmetic on _Bool";
    if (I.getOpcode() == Instruction::Or) {
      EXPECT_TRUE(I.getType()->isIntegerTy(1));
      ++Ors;
    }
    if (const auto *L = dyn_cast<LoadInst>(&I)) {
      // Slot Loads, at byte offset 8 * Loads of the table.
      const Value *Ptr = L->getPointerOperand();
      APInt Off(64, 0);
      const Value *Base =
          Ptr->stripAndAccumulateConstantOffsets(M->getDataLayout(), Off,
                                                 /*AllowNonInbounds=*/true);
      EXPECT_EQ(Base, M->getNamedGlobal("__kiss_locks"));
      EXPECT_EQ(Off.getZExtValue(), 8u * Loads);
      ++Loads;
    }
  }
  EXPECT_EQ(Loads, 4u);
  EXPECT_EQ(Ors, 3u);
}

TEST(KissRuntime, NoCompilerIsAnInternalError) {
  LLVMContext C;
  auto M = kiss::compileRuntime(nullptr, *programOf(C, Targets[0]), {});
  ASSERT_FALSE(M);
  EXPECT_NE(toString(M.takeError()).find("internal error"), std::string::npos);
}

TEST(KissRuntime, SecondCompileIsTheSame) {
  LLVMContext C1, C2;
  kiss::RuntimeParams P;
  P.Slots = 1;
  auto A = runtimeFor(C1, Targets[1], P);
  auto B = runtimeFor(C2, Targets[1], P); // from the cache
  ASSERT_TRUE(A && B);
  std::string SA, SB;
  raw_string_ostream OA(SA), OB(SB);
  A->print(OA, nullptr);
  B->print(OB, nullptr);
  EXPECT_EQ(SA, SB);
}

} // namespace
