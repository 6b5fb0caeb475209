//===- ModelTest.cpp - unit tests of the ProgramModel ---------------------===//
#include "TestUtil.h"
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
  EXPECT_EQ(SharedHeap, 1u);   // main's malloc, stored in a global
  EXPECT_EQ(PrivateHeap, 1u);  // the thread's own malloc
  EXPECT_EQ(SharedStack, 1u);  // &local passed to the thread
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
