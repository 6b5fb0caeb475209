//===- BudgetedTasks.cpp - tasks sharing one work budget, on several cores ===//
#include "smt/BudgetedTasks.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace crace {

namespace {

/// The sequential rule: what task I of N gets after Used units.
struct Rule {
  size_t N;
  const TaskScheduleOptions &O;
  uint64_t budget(size_t I, uint64_t Used) const {
    if (!O.Limit)
      return 0;
    if (O.FixedShares)
      return O.Limit / N;
    uint64_t Left = O.Limit - std::min(O.Limit, Used);
    return O.EqualShares ? Left / (N - I) : Left;
  }
  /// The task is not run: its budget is spent before it starts.
  bool skipped(size_t I, uint64_t Used) const {
    return O.Limit && !budget(I, Used);
  }
  /// No task after one that ended so runs.
  bool ends(const TaskRun &Run, uint64_t Used) const {
    if (Run.Stopped)
      return true;
    return !O.EqualShares && !O.FixedShares &&
           (Run.Cut || (O.Limit && Used >= O.Limit));
  }
};

TaskRun skippedRun() {
  TaskRun Run;
  Run.Skipped = true;
  return Run;
}

TaskSchedule runInline(size_t N, const Rule &R, PrepareTask Prepare,
                       CommitTask Commit) {
  TaskSchedule S;
  std::atomic<bool> Never{false};
  const std::atomic<bool> &Stop = R.O.Cancel ? *R.O.Cancel : Never;
  for (size_t I = 0; I < N && !Stop; ++I) {
    TaskRun Run = skippedRun();
    if (!R.skipped(I, S.Used)) {
      std::atomic<uint64_t> Budget{R.budget(I, S.Used)};
      Run = Prepare(I, Budget, Stop)();
    }
    Commit(I, Run);
    S.Used += Run.Used;
    S.Committed = I + 1;
    if (R.ends(Run, S.Used))
      break;
  }
  return S;
}

} // namespace

TaskSchedule runBudgetedTasks(size_t N, const TaskScheduleOptions &O,
                              PrepareTask Prepare, CommitTask Commit) {
  Rule R{N, O};
  if (O.Jobs <= 1 || N <= 1)
    return runInline(N, R, Prepare, Commit);

  struct Slot {
    std::atomic<bool> Stop{false};
    std::atomic<uint64_t> Budget{0};
    uint64_t Started = 0;
    bool Done = false;
    TaskRun Run;
  };
  std::vector<std::unique_ptr<Slot>> Slots;
  for (size_t I = 0; I < N; ++I)
    Slots.push_back(std::make_unique<Slot>());
  std::mutex M;
  std::condition_variable CV;
  std::deque<std::pair<size_t, TaskRun>> Finished;
  TaskSchedule S;
  size_t Next = 0;
  unsigned Running = 0;
  bool End = false;
  // Declared last: its destructor waits for the workers, which use the
  // above.
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(O.Jobs));
  auto Launch = [&](size_t I, uint64_t Budget) {
    Slot &Sl = *Slots[I];
    Sl.Budget = Budget;
    Sl.Started = Budget;
    Sl.Done = false;
    Sl.Stop = false;
    TaskWork Work = Prepare(I, Sl.Budget, Sl.Stop);
    ++Running;
    Pool.async([&, I, Work = std::move(Work)] {
      TaskRun Run = Work();
      std::lock_guard<std::mutex> G(M);
      Finished.push_back({I, Run});
      CV.notify_one();
    });
  };
  auto StopAll = [&] {
    for (size_t I = S.Committed; I < Next; ++I)
      Slots[I]->Stop = true;
  };
  while (true) {
    if (O.Cancel && *O.Cancel && !End) {
      End = true;
      StopAll();
    }
    // Start tasks with the budget the committed ones leave: at least their
    // exact one. A task with nothing left even so is skipped.
    while (!End && Running < O.Jobs && Next < N) {
      if (R.skipped(Next, S.Used)) {
        Slots[Next]->Run = skippedRun();
        Slots[Next]->Done = true;
      } else {
        Launch(Next, R.budget(Next, S.Used));
      }
      ++Next;
    }
    if (!Running && (End || S.Committed == Next))
      break;
    if (Running) {
      std::unique_lock<std::mutex> L(M);
      CV.wait_for(L, std::chrono::milliseconds(50),
                  [&] { return !Finished.empty(); });
      for (auto &[I, Run] : Finished) {
        Slots[I]->Run = Run;
        Slots[I]->Done = true;
        --Running;
      }
      Finished.clear();
    }
    // Commit in order what is known to be the sequential run's result.
    while (!End && S.Committed < Next && Slots[S.Committed]->Done) {
      size_t I = S.Committed;
      Slot &Sl = *Slots[I];
      if (R.skipped(I, S.Used) && !Sl.Run.Skipped) {
        // Started ahead with a budget the sequence does not give it.
        ++S.Dropped;
        Sl.Run = skippedRun();
      }
      uint64_t Exact = R.budget(I, S.Used);
      bool Same = Sl.Run.Skipped || !O.Limit || Sl.Started == Exact ||
                  Sl.Run.Stopped || (!Sl.Run.Cut && Sl.Run.Used < Exact) ||
                  (Sl.Run.Limit == Exact && !Sl.Run.LoweredLate);
      if (!Same) {
        ++S.Reruns;
        Launch(I, Exact);
        break;
      }
      Commit(I, Sl.Run);
      S.Used += Sl.Run.Used;
      S.Committed = I + 1;
      if (R.ends(Sl.Run, S.Used)) {
        End = true;
        S.Dropped += unsigned(Next - S.Committed);
        StopAll();
      }
    }
    // The first task not committed knows its exact budget now (none: it
    // is stopped, and skipped when it ends).
    if (!End && O.Limit && S.Committed < Next && !Slots[S.Committed]->Done) {
      if (uint64_t Exact = R.budget(S.Committed, S.Used))
        Slots[S.Committed]->Budget = Exact;
      else
        Slots[S.Committed]->Stop = true;
    }
  }
  return S;
}

} // namespace crace
