//===- SolverTest.cpp - the solver interface, its cache and its log ------===//
#include "smt/Solver.h"
#include "smt/WorkMeter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <thread>

using namespace crace;
using namespace crace::smt;

namespace {

/// x * y == N with both factors above 1: satisfiable for a composite N,
/// and a lot of work for Z3 when N is a large semiprime.
z3::expr factors(z3::context &C, unsigned Bits, const char *N) {
  z3::expr X = C.bv_const("x", Bits), Y = C.bv_const("y", Bits);
  z3::expr One = C.bv_val(1, Bits);
  return X * Y == C.bv_val(N, Bits) && z3::ugt(X, One) && z3::ugt(Y, One) &&
         z3::bvmul_no_overflow(X, Y, false);
}

/// Products of two primes (2^31-1 and 2147483629; the two largest 64-bit
/// primes): Z3 needs far more than a few thousand resource units for the
/// first and far more than a second for the second.
constexpr const char *Semiprime = "4611685975477714963";
constexpr const char *Semiprime128 = "340282366920938460843936948965011886881";

TEST(Solver, IncrementalAndFreshAgree) {
  for (unsigned Mode = 0; Mode < 3; ++Mode) {
    z3::context C;
    SolverOptions O;
    O.FreshPerCheck = Mode > 0;
    O.KeepInZ3 = Mode == 2;
    auto S = makeSolver(C, O);
    z3::expr X = C.bv_const("x", 8);
    S->add(z3::ugt(X, C.bv_val(10, 8)));
    EXPECT_EQ(S->check(), Answer::Sat);
    EXPECT_TRUE(z3::ugt(S->model().eval(X, true), C.bv_val(10, 8))
                    .simplify()
                    .is_true());
    S->push();
    S->add(z3::ult(X, C.bv_val(5, 8)));
    EXPECT_EQ(S->check(), Answer::Unsat);
    EXPECT_EQ(S->assertions().size(), 2u);
    S->pop();
    EXPECT_EQ(S->assertions().size(), 1u);
    EXPECT_EQ(S->check(), Answer::Sat);
    // Assumptions hold for one check only.
    z3::expr B = C.bool_const("b");
    S->add(z3::implies(B, X == C.bv_val(3, 8)));
    EXPECT_EQ(S->check({B}), Answer::Unsat);
    EXPECT_EQ(S->check(), Answer::Sat);
    SolverStats St = S->stats();
    EXPECT_EQ(St.Checks, 5u);
    EXPECT_EQ(St.Solved, 5u);
    EXPECT_EQ(St.Sat, 3u);
    EXPECT_EQ(St.Unsat, 2u);
    EXPECT_EQ(St.CacheHits, 0u);
  }
}

TEST(Solver, CacheAnswersRepeatedChecks) {
  z3::context C;
  SolverOptions O;
  O.Cache = true;
  auto S = makeSolver(C, O);
  z3::expr X = C.bv_const("x", 8);
  z3::expr Big = z3::ugt(X, C.bv_val(200, 8));
  EXPECT_EQ(checkAlone(*S, Big), Answer::Sat);
  // The same term again (built anew: Z3 shares equal terms): no Z3 call,
  // and the model is the earlier one.
  EXPECT_EQ(checkAlone(*S, z3::ugt(X, C.bv_val(200, 8))), Answer::Sat);
  EXPECT_EQ(S->stats().Solved, 1u);
  EXPECT_EQ(S->stats().CacheHits, 1u);
  EXPECT_EQ(S->stats().Checks, 2u);
  S->push();
  S->add(Big);
  EXPECT_EQ(S->check(), Answer::Sat); // the same query again
  EXPECT_EQ(S->stats().CacheHits, 2u);
  // Its model was never asked for: the query is checked again for one.
  EXPECT_TRUE(S->model().eval(Big, true).is_true());
  EXPECT_EQ(S->stats().Solved, 2u);
  // Another scope's assertions make another query.
  S->add(z3::ult(X, C.bv_val(100, 8)));
  EXPECT_EQ(S->check(), Answer::Unsat);
  EXPECT_EQ(S->stats().Solved, 3u);
  EXPECT_EQ(S->check(), Answer::Unsat);
  EXPECT_EQ(S->stats().CacheHits, 3u);
  S->pop();
  // Assumptions are part of the query.
  z3::expr B = C.bool_const("b");
  S->add(z3::implies(B, z3::ult(X, C.bv_val(100, 8))));
  EXPECT_EQ(S->check({B, Big}), Answer::Unsat);
  EXPECT_EQ(S->check({Big}), Answer::Sat);
  EXPECT_EQ(S->stats().Solved, 5u);
}

TEST(Solver, BudgetCutsAnUnknownThatIsNotCached) {
  z3::context C;
  WorkMeter W(2000, &C); // far too little for the factoring
  SolverOptions O;
  O.Cache = true;
  O.Work = &W;
  auto S = makeSolver(C, O);
  z3::expr Q = factors(C, 64, Semiprime);
  EXPECT_EQ(checkAlone(*S, Q), Answer::Unknown);
  EXPECT_TRUE(S->lastWasCut());
  EXPECT_TRUE(W.exhausted());
  EXPECT_EQ(checkAlone(*S, Q), Answer::Unknown);
  EXPECT_EQ(S->stats().Solved, 2u); // asked again: a cut answer is no answer
  EXPECT_EQ(S->stats().CacheHits, 0u);
}

TEST(Solver, PerQueryLimitGivesAnUnknownThatIsCached) {
  z3::context C;
  WorkMeter W(0, &C); // no budget: only the per-query cap
  SolverOptions O;
  O.Cache = true;
  O.Work = &W;
  O.PerQueryUnits = 2000;
  auto S = makeSolver(C, O);
  z3::expr Q = factors(C, 64, Semiprime);
  EXPECT_EQ(checkAlone(*S, Q), Answer::Unknown);
  EXPECT_FALSE(S->lastWasCut());
  EXPECT_FALSE(S->reasonUnknown().empty());
  EXPECT_EQ(checkAlone(*S, Q), Answer::Unknown);
  EXPECT_EQ(S->stats().Solved, 1u);
  EXPECT_EQ(S->stats().CacheHits, 1u);
}

TEST(Solver, CancelledBeforeAndDuring) {
  z3::context C;
  std::atomic<bool> Cancel{true};
  SolverOptions O;
  O.Cancel = &Cancel;
  auto S = makeSolver(C, O);
  EXPECT_EQ(checkAlone(*S, C.bool_val(true)), Answer::Unknown);
  EXPECT_EQ(S->reasonUnknown(), "cancelled");
  EXPECT_TRUE(S->lastWasCut());
  // Set while Z3 works on a query it would take long on: the watcher
  // interrupts it.
  Cancel = false;
  std::thread Setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    Cancel = true;
  });
  Answer A = checkAlone(*S, factors(C, 128, Semiprime128));
  Setter.join();
  EXPECT_EQ(A, Answer::Unknown);
  EXPECT_EQ(S->reasonUnknown(), "cancelled");
  EXPECT_TRUE(S->lastWasCut());
}

TEST(Solver, InterrupterDeadline) {
  z3::context C;
  Interrupter Watch(C, nullptr, std::chrono::steady_clock::now(), 0.1);
  auto S = makeSolver(C, SolverOptions());
  Answer A = checkAlone(*S, factors(C, 128, Semiprime128));
  EXPECT_EQ(A, Answer::Unknown);
  EXPECT_TRUE(Watch.Stop);
  EXPECT_TRUE(Watch.DeadlinePassed);
}

TEST(Solver, QueryLogWritesReplayableScripts) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("crace-smt-log", Dir));
  z3::context C;
  SolverOptions O;
  O.Stage = "logtest";
  O.LogDir = std::string(Dir);
  O.Cache = true;
  auto S = makeSolver(C, O);
  z3::expr X = C.bv_const("x", 8), B = C.bool_const("b");
  S->add(z3::ugt(X, C.bv_val(10, 8)));
  S->add(z3::implies(B, X == C.bv_val(3, 8)));
  EXPECT_EQ(S->check({B}), Answer::Unsat);
  EXPECT_EQ(S->check(), Answer::Sat);
  EXPECT_EQ(S->check(), Answer::Sat); // from the cache, logged as such
  std::string Want[] = {"unsat", "sat", "sat (from the cache)"};
  for (unsigned N = 1; N <= 3; ++N) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, "logtest-00000" + std::to_string(N) + ".smt2");
    auto Buf = llvm::MemoryBuffer::getFile(P);
    ASSERT_TRUE(bool(Buf)) << P.str().str();
    std::string Text = (*Buf)->getBuffer().str();
    EXPECT_NE(Text.find("(check-sat)"), std::string::npos);
    EXPECT_NE(Text.find("; answer: " + Want[N - 1] + "\n"), std::string::npos)
        << Text;
    // The file asks the question again: a fresh context gives the same
    // answer.
    z3::context C2;
    z3::solver S2(C2);
    S2.from_string(Text.c_str());
    EXPECT_EQ(S2.check(), N == 1 ? z3::unsat : z3::sat);
  }
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
