//===- ModelTest.cpp - unit tests of the ProgramModel ---------------------===//
#include "TestUtil.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "gtest/gtest.h"

using namespace crace;
using namespace crace::test;

TEST(ModelTest, FindsThreadTemplatesAndMultiplicity) {
  Compiled C = compile(R"(
    #include <pthread.h>
    void *once(void *a) { return 0; }
    void *many(void *a) { return 0; }
    int main() {
      pthread_t t, u[4];
      pthread_create(&t, 0, once, 0);
      for (int i = 0; i < 4; i++) pthread_create(&u[i], 0, many, 0);
      pthread_join(t, 0);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  const auto &Ts = C.PM->threads();
  ASSERT_EQ(Ts.size(), 3u);
  EXPECT_EQ(Ts[0].Name, "main");
  EXPECT_FALSE(Ts[0].Multi);
  for (const ThreadTemplate &T : Ts) {
    if (T.Name == "once") {
      EXPECT_FALSE(T.Multi);
      EXPECT_TRUE(T.CreatedInMain);
      EXPECT_EQ(T.Joins.size(), 1u);
    } else if (T.Name == "many") {
      EXPECT_TRUE(T.Multi);
      EXPECT_TRUE(T.Joins.empty());
    }
  }
}

TEST(ModelTest, FunctionPointerThreadIsResolved) {
  Compiled C = compile(R"(
    #include <pthread.h>
    void *w(void *a) { return 0; }
    void *(*fp)(void *) = w;
    int main() { pthread_t t; pthread_create(&t, 0, fp, 0); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  ASSERT_EQ(C.PM->threads().size(), 2u);
  EXPECT_EQ(C.PM->threads()[1].Name, "w");
  EXPECT_TRUE(C.PM->unsoundness().empty());
}

TEST(ModelTest, UnknownExternalIsReportedOnce) {
  Compiled C = compile(R"(
    void mystery(int *);
    int g;
    int main() { mystery(&g); mystery(&g); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  ASSERT_EQ(C.PM->unsoundness().size(), 1u);
  EXPECT_NE(C.PM->unsoundness()[0].find("mystery"), std::string::npos);
}

TEST(ModelTest, EscapeAnalysis) {
  Compiled C = compile(R"(
    #include <pthread.h>
    #include <stdlib.h>
    int *shared_ptr;
    void *w(void *a) { int *p = malloc(4); *p = 1; *(int *)a = 2; return 0; }
    int main() {
      int local = 0;
      int *h = malloc(4);
      shared_ptr = h;
      pthread_t t;
      pthread_create(&t, 0, w, &local);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  const PointsTo &P = C.PM->pointsTo();
  unsigned SharedHeap = 0, PrivateHeap = 0, SharedStack = 0;
  for (size_t I = 0; I < P.numObjects(); ++I) {
    const AbsObject &O = P.object(I);
    if (O.Kind == ObjKind::Heap)
      (O.Shared ? SharedHeap : PrivateHeap)++;
    if (O.Kind == ObjKind::Stack && O.Shared)
      SharedStack++;
  }
  EXPECT_EQ(SharedHeap, 1u);  // main's malloc, stored in a global
  EXPECT_EQ(PrivateHeap, 1u); // the thread's own malloc
  EXPECT_EQ(SharedStack, 1u); // &local passed to the thread
}

TEST(ModelTest, DescribesFieldsAndCells) {
  Compiled C = compile(R"(
    struct S { int a; int b[4]; } s;
    int main() { s.b[2] = 1; return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const PointsTo &P = C.PM->pointsTo();
  uint32_t Obj = 0;
  for (size_t I = 0; I < P.numObjects(); ++I)
    if (P.object(I).Kind == ObjKind::Global &&
        P.object(I).Site->getName() == "s")
      Obj = I;
  ASSERT_NE(Obj, 0u);
  EXPECT_EQ(C.PM->describe({Obj, 12}), "s.b[2]");
  EXPECT_EQ(C.PM->describe({Obj, 0}), "s.a");
}

TEST(ModelTest, CompileErrorIsAnError) {
  Compiled C = compile("int main() { return x; }");
  EXPECT_FALSE(C.PM);
  EXPECT_FALSE(C.Error.empty());
}

// An instruction the optimiser merged from several lines has line 0: it is
// located at its function's first line, not shown without a line.
TEST(ModelTest, LineZeroIsLocatedAtItsFunction) {
  Compiled C = compile(R"(
    int g;
    void set(int c) {
      if (c)
        g = 1;
    }
    int main(void) { set(0); return 0; }
  )");
  ASSERT_TRUE(C.PM) << C.Error;
  llvm::StoreInst *Store = nullptr;
  for (llvm::Function &F : *C.M)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
        if (S->getPointerOperand()->getName() == "g" && S->getDebugLoc())
          Store = S;
  ASSERT_TRUE(Store);
  SourceLoc Before = C.PM->location(Store);
  EXPECT_EQ(Before.Line, 5u);
  const llvm::DILocation *L = Store->getDebugLoc().get();
  Store->setDebugLoc(llvm::DILocation::get(C.M->getContext(), 0, 0,
                                           L->getScope(), L->getInlinedAt()));
  SourceLoc After = C.PM->location(Store);
  EXPECT_TRUE(After.valid());
  EXPECT_EQ(After.Line, L->getScope()->getSubprogram()->getLine());
  EXPECT_EQ(After.Function, Before.Function);
}

// Code without debug information (a model function that stays a call,
// memcmp) is located at its call when it has one, else at no line.
TEST(ModelTest, ModelCallIsLocatedAtItsOnlyCall) {
  const char *Code = R"(
    #include <string.h>
    char buf[8];
    int main(void) {
      int r = memcmp(buf, "abc", 3);
    #ifdef TWICE
      r += memcmp(buf, "xyz", 3);
    #endif
      return r;
    }
  )";
  for (bool Twice : {false, true}) {
    Compiled C = compile(Code, Twice ? std::vector<std::string>{"-DTWICE"}
                                     : std::vector<std::string>{});
    ASSERT_TRUE(C.PM) << C.Error;
    llvm::Function *F = C.M->getFunction("memcmp");
    ASSERT_TRUE(F && !F->isDeclaration());
    const llvm::Instruction &First = *llvm::inst_begin(*F);
    ASSERT_FALSE(First.getDebugLoc());
    SourceLoc L = C.PM->location(&First);
    if (Twice) {
      EXPECT_FALSE(L.valid());
      EXPECT_EQ(L.File, "memcmp()");
    } else {
      EXPECT_EQ(L.Line, 5u);
      EXPECT_EQ(L.Function, "main");
    }
  }
}

// model/CountedCreates.h: a join loop over tid[0..n), where n counts the
// creates that stored their handles at tid[n], waits for every worker.
TEST(ModelTest, JoinLoopOverCountedHandles) {
  auto AllJoined = [](const char *Create, const char *Bound) {
    std::string Src = std::string(R"(
      #include <pthread.h>
      void *worker(void *a) { return a; }
      int rounds = 2;
      int main() {
        pthread_t tid[16];
        int n = 0;
        for (int i = 0; i < rounds; i++)
          for (int j = 0; j < 3; j++) {
            )") + Create +
                      R"(
          }
        for (int i = 0; i < )" +
                      Bound + R"(; i++) pthread_join(tid[i], 0);
        return 0;
      })";
    Compiled C = compile(Src);
    EXPECT_TRUE(C.PM) << C.Error;
    if (!C.PM)
      return false;
    for (const ThreadTemplate &T : C.PM->threads())
      if (T.Name == "worker")
        return T.AllJoinedAt != nullptr;
    ADD_FAILURE() << "no worker template";
    return false;
  };
  EXPECT_TRUE(AllJoined("pthread_create(&tid[n], 0, worker, 0); n++;", "n"));
  EXPECT_TRUE(AllJoined("if (pthread_create(&tid[n++], 0, worker, 0)) "
                        "return 1;",
                        "n"));
  // The first create writes tid[1]: tid[0] is never a worker's handle.
  EXPECT_FALSE(
      AllJoined("pthread_create(&tid[n + 1], 0, worker, 0); n++;", "n"));
  // A create whose count is skipped: the next one overwrites its handle.
  EXPECT_FALSE(AllJoined(
      "pthread_create(&tid[n], 0, worker, 0); if (j == 1) continue; n++;",
      "n"));
  // The join loop stops one short.
  EXPECT_FALSE(
      AllJoined("pthread_create(&tid[n], 0, worker, 0); n++;", "n - 1"));
}
