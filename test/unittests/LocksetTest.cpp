//===- LocksetTest.cpp - unit tests of the lockset engine -----------------===//
#include "analysis/Lockset.h"
#include "TestUtil.h"
#include "analysis/OverlapIndex.h"
#include "analysis/OwnFrames.h"
#include "analysis/PairFilters.h"
#include "analysis/Unpublished.h"
#include "engines/lockset/LocksetEngine.h"
#include "model/ProgramModel.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "gtest/gtest.h"

using namespace crace;
using namespace crace::test;

TEST(LockSetTest, MeetAndProtection) {
  LockSet A, B;
  A.acquire(1, false);
  A.acquire(2, true);
  B.acquire(2, false);
  LockSet M = LockSet::meet(A, B);
  ASSERT_EQ(M.Held.size(), 1u);
  EXPECT_EQ(M.Held[0].first, 2u);
  EXPECT_TRUE(M.Held[0].second);        // read on one side: read
  EXPECT_TRUE(LockSet::protects(A, B)); // 2 held for read vs write
  LockSet R1, R2;
  R1.acquire(3, true);
  R2.acquire(3, true);
  EXPECT_FALSE(LockSet::protects(R1, R2)); // both only readers
  EXPECT_EQ(LockSet::meet(LockSet::top(), A), A);
}

TEST(LocksetEngineTest, PlainRaceIsReported) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x;
    void *w(void *a) { x++; return 0; }
    int main() { pthread_t t; pthread_create(&t, 0, w, 0); x = 2; pthread_join(t, 0); return 0; })");
  EXPECT_EQ(R.Program, Verdict::PossibleRace);
  ASSERT_FALSE(R.Findings.empty());
  EXPECT_EQ(R.Findings[0].First.Variable, "x");
  // Why the pairs are possible races only: the over-approximation, by
  // kind (the step that settles the pairs drops it by kind).
  ASSERT_FALSE(R.Reasons.empty());
  EXPECT_EQ(R.Reasons[0].Kind, ReasonKind::Overapproximation);
}

TEST(LocksetEngineTest, MutexProtects) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    void *w(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
    int main() { pthread_t t[2];
      for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
      return 0; })");
  EXPECT_EQ(R.Program, Verdict::RaceFree);
  EXPECT_TRUE(R.Findings.empty());
  EXPECT_FALSE(R.Assumptions.empty());
}

TEST(LocksetEngineTest, JoinOrders) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x;
    void *w(void *a) { x = 1; return 0; }
    int main() { x = 0; pthread_t t; pthread_create(&t, 0, w, 0);
      pthread_join(t, 0); return x; })");
  EXPECT_EQ(R.Program, Verdict::RaceFree);
}

TEST(LocksetEngineTest, UnknownExternalGivesUnknown) {
  Result R = lockset(R"(
    #include <pthread.h>
    void mystery(void);
    int x;
    void *w(void *a) { mystery(); return 0; }
    int main() { pthread_t t; pthread_create(&t, 0, w, 0); return 0; })");
  EXPECT_EQ(R.Program, Verdict::Unknown);
}

TEST(LocksetEngineTest, TryLockProtectsOnlyTheSuccessBranch) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x, y; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    void *w(void *a) {
      if (pthread_mutex_trylock(&m) == 0) { x++; pthread_mutex_unlock(&m); }
      else { y++; }
      return 0; }
    int main() { pthread_t t[2];
      for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
      return 0; })");
  EXPECT_EQ(R.Program, Verdict::PossibleRace);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].First.Variable, "y");
}

TEST(LocksetEngineTest, ReadLocksDoNotExcludeEachOther) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x; pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
    void *r(void *a) { pthread_rwlock_rdlock(&l); int v = x; pthread_rwlock_unlock(&l); return (void *)(long)v; }
    void *w(void *a) { pthread_rwlock_rdlock(&l); x = 1; pthread_rwlock_unlock(&l); return 0; }
    int main() { pthread_t a, b; pthread_create(&a, 0, r, 0); pthread_create(&b, 0, w, 0); return 0; })");
  // A write under a read lock races with a read under a read lock.
  EXPECT_EQ(R.Program, Verdict::PossibleRace);
  ASSERT_EQ(R.Findings.size(), 1u);
  EXPECT_EQ(R.Findings[0].First.Locks.size(), 1u);
  EXPECT_EQ(R.Findings[0].First.Locks[0], "l (read)");
}

TEST(LocksetEngineTest, AtomicsDoNotRaceWithAtomics) {
  Result R = lockset(R"(
    #include <pthread.h>
    #include <stdatomic.h>
    atomic_int n; int plain;
    void *w(void *a) { atomic_fetch_add(&n, 1); __sync_fetch_and_add(&plain, 1); return 0; }
    int main() { pthread_t t[2];
      for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
      return 0; })");
  EXPECT_EQ(R.Program, Verdict::RaceFree);
}

TEST(LocksetEngineTest, LockReleasedInCalleeIsNotHeld) {
  Result R = lockset(R"(
    #include <pthread.h>
    int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    void leave(void) { pthread_mutex_unlock(&m); }
    void *w(void *a) { pthread_mutex_lock(&m); leave(); x++; return 0; }
    int main() { pthread_t t[2];
      for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
      return 0; })");
  EXPECT_EQ(R.Program, Verdict::PossibleRace);
}

TEST(OwnFramesTest, AllocaDerivedPointersAreOwnLoadedOnesForeign) {
  // 'fill' is called with its caller's own slot; 'peek' loads a pointer to
  // some thread's slot from a global, so it may be another thread's frame.
  Compiled C = compile(R"(
    #include <pthread.h>
    struct st { int n; };
    struct st *last;
    static void fill(struct st *s) { s->n = 1; }
    static void *worker(void *a) { struct st s; fill(&s); last = &s; return 0; }
    static void *peek(void *a) { struct st *s = last; return s ? (void *)(long)s->n : 0; }
    int main() { pthread_t t, u; pthread_create(&t, 0, worker, 0);
                 pthread_create(&u, 0, peek, 0); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  OwnFrames Frames(*C.PM);
  const llvm::Function *Fill = C.M->getFunction("fill");
  ASSERT_TRUE(Fill);
  EXPECT_TRUE(Frames.own(Fill->getArg(0)));
  const llvm::Function *Peek = C.M->getFunction("peek");
  ASSERT_TRUE(Peek);
  bool SawForeignLoad = false;
  for (const llvm::Instruction &I : llvm::instructions(*Peek))
    if (auto *L = llvm::dyn_cast<llvm::LoadInst>(&I))
      if (L->getType()->isPointerTy())
        SawForeignLoad |= !Frames.own(L);
  EXPECT_TRUE(SawForeignLoad);
}

TEST(PairFiltersTest, TypesApartFollowsStructPathTags) {
  // Members of unrelated structs are apart; a plain int, a union member
  // and a member of a struct containing 'struct A' are not; without
  // tags (-fno-strict-aliasing) nothing is.
  const char *Code = R"(
    struct A { int x; int y; };
    struct B { int p; int q; };
    struct O { struct A a; };
    union U { struct A a; int i; };
    int g;
    void f(struct A *a, struct B *b, struct O *o, union U *u, int *i) {
      a->y = 1; b->q = 2; o->a.y = 3; u->i = 4; *i = 5;
    }
    int main() { return 0; })";
  auto Stores = [](const Compiled &C) {
    std::map<int64_t, const llvm::Instruction *> Out;
    for (const llvm::Instruction &I :
         llvm::instructions(*C.M->getFunction("f")))
      if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
        if (auto *V = llvm::dyn_cast<llvm::ConstantInt>(S->getValueOperand()))
          Out[V->getSExtValue()] = &I;
    return Out;
  };
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  auto S = Stores(C);
  ASSERT_EQ(S.size(), 5u);
  EXPECT_TRUE(PairFilters::typesApart(*S[1], *S[2]));  // A.y / B.q
  EXPECT_TRUE(PairFilters::typesApart(*S[2], *S[3]));  // B.q / O.a.y
  EXPECT_FALSE(PairFilters::typesApart(*S[1], *S[3])); // A.y / O.a.y
  EXPECT_FALSE(PairFilters::typesApart(*S[1], *S[4])); // union: char
  EXPECT_FALSE(PairFilters::typesApart(*S[1], *S[5])); // int
  EXPECT_FALSE(PairFilters::typesApart(*S[2], *S[5]));
  // A struct member cannot be the scalar global 'g'; a plain int can.
  const llvm::GlobalVariable *G = C.M->getNamedGlobal("g");
  ASSERT_TRUE(G);
  AbsObject Scalar{ObjKind::Global, G, 4, true};
  EXPECT_TRUE(PairFilters::memberCannotBe(*S[1], Scalar));  // A.y
  EXPECT_FALSE(PairFilters::memberCannotBe(*S[5], Scalar)); // int
  Compiled N = compile(Code, {"-fno-strict-aliasing"});
  ASSERT_TRUE(N.PM) << N.Error;
  auto T = Stores(N);
  ASSERT_EQ(T.size(), 5u);
  EXPECT_FALSE(PairFilters::typesApart(*T[1], *T[2]));
}

TEST(UnpublishedTest, WritesBeforeTheAddressGetsOut) {
  // Stores of 1 and 2 come before any capture of their block (comparing
  // its address as a number and locking a mutex in it are none); 3 follows
  // the store of the address into 'g'; 4 is in a loop the capture at its
  // end reaches again, though the allocation is outside it; 5 is through a
  // block allocated in the loop, captured later in the same round (the
  // back edge runs the allocation again); 6 is to a global.
  const char *Code = R"(
    #include <pthread.h>
    #include <stdlib.h>
    int *g, *h, n;
    void f(int k) {
      int *p = malloc(16);
      if ((unsigned long)p == 0) return;
      pthread_mutex_lock((pthread_mutex_t *)(p + 2));
      p[0] = 1;
      p[1] = 2;
      g = p;
      p[2] = 3;
      int *q = malloc(16);
      if (!q) return;
      for (int i = 0; i < k; i++) {
        q[0] = 4;
        int *r = malloc(4);
        if (!r) return;
        *r = 5;
        h = r;
        if (i == 1) h = q;
      }
      n = 6;
    }
    int main() { f(2); return 0; })";
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  std::map<int64_t, bool> Holds;
  Unpublished U(*C.M);
  for (const llvm::Instruction &I : llvm::instructions(*C.M->getFunction("f")))
    if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
      if (auto *V = llvm::dyn_cast<llvm::ConstantInt>(S->getValueOperand()))
        for (const MemAccess &A : C.PM->accessesOf(I))
          Holds[V->getSExtValue()] = U.holds(A);
  ASSERT_EQ(Holds.size(), 6u);
  EXPECT_TRUE(Holds[1]);
  EXPECT_TRUE(Holds[2]);
  EXPECT_FALSE(Holds[3]);
  EXPECT_FALSE(Holds[4]);
  EXPECT_TRUE(Holds[5]);
  EXPECT_FALSE(Holds[6]);
}

TEST(PairFiltersTest, MemberBytesFollowTheAddressPath) {
  // The bytes each access touches inside one 'struct w': 'tid' [0, 8),
  // 'off' [8, 16), an element of 'name' chosen by a variable: all of
  // 'name', [16, 24); 'in.y' [28, 32). A plain int pointer has none.
  const char *Code = R"(
    struct in { int x; int y; };
    struct w { long tid; long off; char name[8]; struct in in; };
    void f(struct w *p, int i, int *q) {
      p[i].tid = 1;
      p->off = 2;
      p->name[i] = 3;
      p->in.y = 4;
      *q = 5;
    }
    int main() { return 0; })";
  Compiled C = compile(Code);
  ASSERT_TRUE(C.PM) << C.Error;
  const llvm::DataLayout &DL = C.M->getDataLayout();
  std::map<int64_t, std::optional<PairFilters::MemberBytes>> Bytes;
  for (const llvm::Instruction &I : llvm::instructions(*C.M->getFunction("f")))
    if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
      if (auto *V = llvm::dyn_cast<llvm::ConstantInt>(S->getValueOperand()))
        for (const MemAccess &A : C.PM->accessesOf(I))
          Bytes[V->getSExtValue()] = PairFilters::memberBytes(DL, A);
  ASSERT_EQ(Bytes.size(), 5u);
  using R = std::pair<uint64_t, uint64_t>;
  auto Range = [&](int64_t K) {
    return Bytes[K] ? R(Bytes[K]->Begin, Bytes[K]->End) : R(~0ull, ~0ull);
  };
  EXPECT_EQ(Range(1), R(0, 8));
  EXPECT_EQ(Range(2), R(8, 16));
  EXPECT_EQ(Range(3), R(16, 24));
  EXPECT_EQ(Range(4), R(28, 32));
  EXPECT_FALSE(Bytes[5]);
  EXPECT_EQ(Bytes[1]->S, Bytes[4]->S);
}

// The pairing enumerates only the pairs an OverlapIndex lists; it must list
// every J >= I that mayOverlap accepts (exact fields, strided arrays, hulls
// longer than OverlapIndex::Short, anywhere, unknown sizes) and of which one
// of I and J writes, in increasing order, and no pair of two reads.
TEST(OverlapIndexTest, ListsEveryPairThatMayOverlap) {
  std::vector<OverlapIndex::Item> Items;
  uint64_t Seed = 12345;
  auto Next = [&](uint64_t N) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (Seed >> 33) % N;
  };
  for (int I = 0; I < 400; ++I) {
    Loc L{7, int64_t(Next(2000))};
    switch (Next(12)) {
    case 0:
      L.Stride = uint32_t(1 + Next(16));
      L.Count = uint32_t(2 + Next(40));
      break;
    case 1:
      L.Off = UnknownOffset;
      break;
    default:
      break;
    }
    uint64_t Size = Next(20) == 0   ? 0
                    : Next(10) == 0 ? 1 + Next(600)
                                    : 1 + Next(8);
    Items.push_back({L, Size, Next(3) == 0});
  }
  const OverlapIndex Index(Items);
  std::vector<size_t> Got, Want;
  size_t Listed = 0, Total = 0;
  for (size_t I = 0; I < Items.size(); ++I) {
    Index.meeting(I, Got);
    EXPECT_TRUE(std::is_sorted(Got.begin(), Got.end()));
    Want.clear();
    for (size_t J = I; J < Items.size(); ++J)
      if ((Items[I].Writes || Items[J].Writes) &&
          mayOverlap(Items[I].Where, Items[I].Size, Items[J].Where,
                     Items[J].Size))
        Want.push_back(J);
    // Got may hold more (a wide hull is listed for every I), never less.
    EXPECT_TRUE(std::includes(Got.begin(), Got.end(), Want.begin(), Want.end()))
        << "access " << I;
    for (size_t J : Got) {
      EXPECT_GE(J, I);
      EXPECT_TRUE(Items[I].Writes || Items[J].Writes) << I << ", " << J;
    }
    Listed += Got.size();
    Total += Items.size() - I;
  }
  // It does leave pairs out: most of these hulls are far apart.
  EXPECT_LT(Listed, Total / 2);
}
