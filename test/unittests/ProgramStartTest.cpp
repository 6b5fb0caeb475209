//===- ProgramStartTest.cpp - the program outside main (ProgramStart.h) ---===//
#include "TestUtil.h"
#include "gtest/gtest.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace crace;
using namespace crace::test;
using namespace llvm;

namespace {

/// Whether F calls a function named Name (directly).
bool calls(const Function &F, StringRef Name) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *C = CB->getCalledFunction())
        if (C->getName() == Name)
          return true;
  return false;
}

bool hasAssumption(const ProgramModel &PM, StringRef Part) {
  for (const std::string &A : PM.assumptions())
    if (StringRef(A).contains(Part))
      return true;
  return false;
}

} // namespace

TEST(ProgramStartTest, MainTakesItsInputsAndRunsConstructors) {
  Compiled C = compile(R"(
    int seen;
    __attribute__((constructor)) static void init(void) { seen = 1; }
    int main(int argc, char **argv) { return argc + argv[0][0] + seen; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const Function *Main = C.M->getFunction("main");
  ASSERT_TRUE(Main);
  EXPECT_EQ(Main->arg_size(), 0u);
  EXPECT_FALSE(C.M->getGlobalVariable("llvm.global_ctors"));
  EXPECT_TRUE(calls(*Main, "init"));
  // argc comes from two 1-bit inputs (enumerated by explore), the argument
  // strings' characters from 8-bit ones.
  unsigned Bits1 = 0, Bits8 = 0;
  for (const Instruction &I : instructions(*Main))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (CB->getCalledFunction() &&
          CB->getCalledFunction()->getName() == "__crace_nondet_bits")
        if (auto *B = dyn_cast<ConstantInt>(CB->getArgOperand(0)))
          (B->getZExtValue() == 1 ? Bits1 : Bits8) += 1;
  EXPECT_EQ(Bits1, 2u);
  EXPECT_GE(Bits8, 1u);
  EXPECT_TRUE(hasAssumption(*C.PM, "argc <= 4"));
  EXPECT_FALSE(hasAssumption(*C.PM, "environment has at most"));
}

TEST(ProgramStartTest, UnusedParametersAreNoInputs) {
  Compiled C = compile("int main(int argc, char **argv) { return 0; }");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_FALSE(calls(*C.M->getFunction("main"), "__crace_nondet_bits"));
  EXPECT_FALSE(hasAssumption(*C.PM, "argc"));
}

TEST(ProgramStartTest, ReturnFromMainRunsDestructorsAndExitHandlers) {
  Compiled C = compile(R"(
    #include <stdlib.h>
    int x;
    __attribute__((destructor)) static void fini(void) { x = 0; }
    static void bye(void) { x = 1; }
    int main(void) { atexit(bye); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const Function *Main = C.M->getFunction("main");
  EXPECT_FALSE(C.M->getGlobalVariable("llvm.global_dtors"));
  EXPECT_TRUE(calls(*Main, "fini"));
  // The handlers are called through the table (an indirect call).
  bool Indirect = false;
  for (const Instruction &I : instructions(*Main))
    if (auto *CB = dyn_cast<CallBase>(&I))
      Indirect |= CB->isIndirectCall();
  EXPECT_TRUE(Indirect);
  // The hook itself is inlined away.
  EXPECT_FALSE(C.M->getFunction("__crace_run_exit"));
}

TEST(ProgramStartTest, ThreadSpecificDataDestructorsGetATrampoline) {
  Compiled C = compile(R"(
    #include <pthread.h>
    pthread_key_t k;
    static void dtor(void *p) {}
    static void *worker(void *a) { pthread_setspecific(k, a); return 0; }
    int main(void) {
      pthread_t t;
      pthread_key_create(&k, dtor);
      pthread_create(&t, 0, worker, 0);
      pthread_join(t, 0);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  const Function *T = C.M->getFunction("__crace_thread_worker");
  ASSERT_TRUE(T);
  EXPECT_TRUE(calls(*T, "worker"));
  EXPECT_TRUE(calls(*T, "__crace_tsd_run_destructors"));
  bool Found = false;
  for (const ThreadTemplate &Tt : C.PM->threads())
    if (Tt.Entry == T) {
      Found = true;
      EXPECT_EQ(Tt.Name, "worker");
    }
  EXPECT_TRUE(Found);
}

TEST(ProgramStartTest, NoTrampolineWithoutDestructors) {
  Compiled C = compile(R"(
    #include <pthread.h>
    pthread_key_t k;
    static void *worker(void *a) { return 0; }
    int main(void) {
      pthread_t t;
      pthread_key_create(&k, 0);
      pthread_create(&t, 0, worker, 0);
      pthread_join(t, 0);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_FALSE(C.M->getFunction("__crace_thread_worker"));
  EXPECT_FALSE(C.M->getFunction("__crace_tsd_run_destructors"));
}

TEST(ProgramStartTest, SignalHandlersAreThreadsAndIgnoredSignalsNone) {
  Compiled C = compile(R"(
    #include <signal.h>
    static void h(int s) {}
    int main(void) {
      signal(SIGPIPE, SIG_IGN);
      signal(SIGINT, h);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  unsigned Handlers = 0;
  for (const ThreadTemplate &T : C.PM->threads())
    if (T.SignalHandler) {
      ++Handlers;
      EXPECT_EQ(T.Name, "signal handler h");
    }
  EXPECT_EQ(Handlers, 1u);
  EXPECT_TRUE(C.PM->unsoundness().empty());
  EXPECT_TRUE(hasAssumption(*C.PM, "signal handler"));
}
