//===- MHP.cpp - may-happen-in-parallel -----------------------------------===//
#include "analysis/MHP.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace crace {

static bool mainOrderedWith(const ProgramModel &PM, const ThreadTemplate &T,
                            const llvm::Instruction *Pos) {
  if (!Pos)
    return false;
  bool AfterSomeSpawn = false;
  for (const llvm::Instruction *S : PM.spawnPointsInMain())
    if (PM.mayReachInMain(S, Pos)) {
      AfterSomeSpawn = true;
      break;
    }
  if (!AfterSomeSpawn)
    return true; // no thread exists yet
  if (T.AllJoinedAt && PM.dominatesInMain(T.AllJoinedAt, Pos))
    return true; // after a loop joined every instance
  // No instance of T exists before main executes one of T's creators (its
  // create site, or a call that may lead to it, or to a thread that may
  // create it), wherever in the program the create site is.
  if (T.CreatorsKnown &&
      llvm::none_of(T.CreatorsInMain, [&](const llvm::Instruction *C) {
        return PM.mayReachInMain(C, Pos);
      }))
    return true; // before T is created
  // (main must not be called again, by itself or by a thread.)
  if (!T.CreatedInMain || !PM.mainFunction()->use_empty())
    return false;
  // Every instance of T is created at its one site in main's body (in a
  // loop too), so before that site no instance exists. This also holds
  // when an earlier call of main may create other threads (an unresolved
  // indirect call makes that call a spawn point).
  if (!PM.mayReachInMain(T.CreateSite, Pos))
    return true; // before T is created
  if (T.Multi)
    return false;
  for (const llvm::CallBase *J : T.Joins)
    if (PM.dominatesInMain(J, Pos))
      return true; // after T was joined
  return false;
}

static bool joinedBeforeCreate(const ProgramModel &PM, const ThreadTemplate &A,
                               const ThreadTemplate &B) {
  // Every instance of B is created by one of B's creators in main (its
  // site in main, or a call leading to it), so it is enough that A has
  // terminated whenever one of them runs.
  // (Called for every pair of accesses: the creators are not copied.)
  const llvm::Instruction *Own[] = {B.CreateSite};
  llvm::ArrayRef<const llvm::Instruction *> Sites;
  if (B.CreatorsKnown)
    Sites = B.CreatorsInMain;
  else if (B.CreatedInMain)
    Sites = Own;
  else
    return false;
  auto Terminated = [&](const llvm::Instruction *At) {
    if (A.AllJoinedAt && PM.dominatesInMain(A.AllJoinedAt, At))
      return true;
    if (A.Multi || !A.CreatedInMain)
      return false;
    return llvm::any_of(A.Joins, [&](const llvm::CallBase *J) {
      return PM.dominatesInMain(J, At);
    });
  };
  return llvm::all_of(Sites, Terminated);
}

/// No run of main executes a creator of A and a creator of B: every one of
/// A's creators and every one of B's lie on paths of main that exclude
/// each other (the two branches of an if/else, not inside a loop around
/// both). A thread exists only after main ran one of its creators, so A's
/// and B's instances never exist in one run.
static bool createdApart(const ProgramModel &PM, const ThreadTemplate &A,
                         const ThreadTemplate &B) {
  if (!A.CreatorsKnown || !B.CreatorsKnown)
    return false;
  return llvm::all_of(A.CreatorsInMain, [&](const llvm::Instruction *CA) {
    return llvm::none_of(B.CreatorsInMain, [&](const llvm::Instruction *CB) {
      return PM.mayReachInMain(CA, CB) || PM.mayReachInMain(CB, CA);
    });
  });
}

bool mayHappenInParallel(const ProgramModel &PM, ThreadPoint A, ThreadPoint B) {
  if (A.Process.apart(B.Process))
    return false;
  const auto &Threads = PM.threads();
  const ThreadTemplate &TA = Threads[A.Thread];
  const ThreadTemplate &TB = Threads[B.Thread];
  if (A.Thread == B.Thread)
    return TA.Multi;
  if (A.Thread == 0)
    return !mainOrderedWith(PM, TB, A.MainPos);
  if (B.Thread == 0)
    return !mainOrderedWith(PM, TA, B.MainPos);
  return !joinedBeforeCreate(PM, TA, TB) && !joinedBeforeCreate(PM, TB, TA) &&
         !createdApart(PM, TA, TB);
}

std::string whyParallel(const ProgramModel &PM, unsigned A, unsigned B) {
  const auto &Ts = PM.threads();
  auto Harness = [&](const ThreadTemplate &T) {
    return T.CreateSite && llvm::StringRef(PM.location(T.CreateSite).File)
                               .starts_with("/crace-harness");
  };
  auto At = [&](const ThreadTemplate &T) -> std::string {
    SourceLoc L = T.CreateSite ? PM.location(T.CreateSite) : SourceLoc();
    return L.valid() ? " at " + L.str() : "";
  };
  auto Created = [&](const ThreadTemplate &T) -> std::string {
    if (!T.CreateSite)
      return "";
    if (T.SignalHandler)
      return " (installed" + At(T) +
             ": it may interrupt its thread at any point)";
    return " (created" + At(T) + ")";
  };
  if (A > B)
    std::swap(A, B);
  if (A != 0 && Harness(Ts[A]) && Harness(Ts[B]))
    return A == B ? "the harness calls '" + Ts[A].Name +
                        "' from several threads at once"
                  : "the harness calls '" + Ts[A].Name + "' and '" +
                        Ts[B].Name + "' concurrently";
  if (A == B) {
    const ThreadTemplate &T = Ts[A];
    if (T.CreateSite && PM.inCycle(T.CreateSite->getParent()))
      return "'" + T.Name +
             "' runs as several threads at once: it is "
             "created in a loop" +
             At(T);
    return "'" + T.Name +
           "' runs as several threads at once: the code that "
           "creates it" +
           At(T) + " may run more than once";
  }
  if (A == 0)
    return "main's access may run while '" + Ts[B].Name + "' runs" +
           Created(Ts[B]) +
           ": crace sees no join of it before the access, or the access is "
           "not before its creation";
  return "'" + Ts[A].Name + "'" + Created(Ts[A]) + " and '" + Ts[B].Name + "'" +
         Created(Ts[B]) +
         " may run at the same time: crace sees neither joined before the "
         "other is created";
}

} // namespace crace
