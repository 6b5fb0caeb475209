//===- BudgetedTasksTest.cpp - unit tests of runBudgetedTasks ------------===//
//
// Tasks that spend units item by item on a WorkMeter (no Z3), some cheap,
// some that meet the end of the budget, each sleeping a little so that the
// threads finish in varying orders: whatever --jobs, the committed results
// must be those of running the tasks one after the other, under both of
// the budget rules (all that is left, equal shares).
//
//===----------------------------------------------------------------------===//
#include "smt/BudgetedTasks.h"
#include "smt/WorkMeter.h"
#include "gtest/gtest.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace crace;

namespace {

/// Task I's items cost Cost[I][K] units each.
using Profile = std::vector<std::vector<uint64_t>>;

struct Outcome {
  size_t Task;
  unsigned Items;
  uint64_t Used;
  bool Cut, Skipped;
  bool operator==(const Outcome &O) const {
    return Task == O.Task && Items == O.Items && Used == O.Used &&
           Cut == O.Cut && Skipped == O.Skipped;
  }
};

std::string show(const std::vector<Outcome> &V) {
  std::string S;
  for (const Outcome &O : V)
    S += "[" + std::to_string(O.Task) + ": " + std::to_string(O.Items) +
         " items, " + std::to_string(O.Used) + " units" +
         (O.Cut ? ", cut" : "") + (O.Skipped ? ", skipped" : "") + "] ";
  return S;
}

std::vector<Outcome> run(const Profile &P, const TaskScheduleOptions &O,
                         TaskSchedule *Sched = nullptr) {
  std::vector<unsigned> Items(P.size());
  std::vector<Outcome> Out;
  TaskSchedule S = runBudgetedTasks(
      P.size(), O,
      [&](size_t I, const std::atomic<uint64_t> &Budget,
          const std::atomic<bool> &Stop) -> TaskWork {
        Items[I] = 0;
        return [&, I, Budget = &Budget, Stop = &Stop] {
          WorkMeter W(Budget->load(), nullptr, 1);
          W.LimitFeed = Budget;
          unsigned K = 0;
          for (uint64_t C : P[I]) {
            if (*Stop || W.charge(C))
              break;
            ++K;
            // Uneven durations: later tasks often end first.
            std::this_thread::sleep_for(
                std::chrono::microseconds(((I * 7 + K * 13) % 5) * 200));
          }
          Items[I] = K;
          TaskRun R;
          W.poll();
          R.Used = W.used();
          R.Cut = W.exhausted();
          R.Limit = W.limit();
          R.LoweredLate = W.loweredLate();
          R.Stopped = *Stop;
          return R;
        };
      },
      [&](size_t I, const TaskRun &R) {
        Out.push_back({I, R.Skipped ? 0 : Items[I], R.Used, R.Cut, R.Skipped});
      });
  if (Sched)
    *Sched = S;
  return Out;
}

Profile profile() {
  // Cheap tasks around two heavy ones: task 2 spends 60, task 5 250.
  Profile P(9);
  for (size_t I = 0; I < P.size(); ++I)
    P[I] = std::vector<uint64_t>(4 + I % 3, 3);
  P[2] = std::vector<uint64_t>(30, 2);
  P[5] = std::vector<uint64_t>(50, 5);
  return P;
}

TEST(BudgetedTasksTest, SameResultsWhateverTheJobs) {
  Profile P = profile();
  for (int Rule : {0, 1, 2})
    for (uint64_t Limit : {0, 40, 90, 150, 260, 400, 1000}) {
      TaskScheduleOptions O;
      O.Limit = Limit;
      O.EqualShares = Rule == 1;
      O.FixedShares = Rule == 2;
      std::vector<Outcome> One = run(P, O);
      for (unsigned Jobs : {2, 3, 8}) {
        O.Jobs = Jobs;
        for (int Round = 0; Round < 3; ++Round)
          EXPECT_EQ(show(run(P, O)), show(One))
              << "limit " << Limit << " rule " << Rule << ", jobs " << Jobs;
      }
    }
}

TEST(BudgetedTasksTest, TheSequentialRules) {
  Profile P = profile();
  TaskScheduleOptions O;
  O.Jobs = 1;
  // No limit: every task runs to its end.
  std::vector<Outcome> All = run(P, O);
  ASSERT_EQ(All.size(), P.size());
  for (const Outcome &X : All)
    EXPECT_EQ(X.Items, P[X.Task].size());
  // All that is left: the first cut task (the heavy task 5, left 36 units
  // by the 114 of tasks 0..4) ends the sequence.
  O.Limit = 150;
  std::vector<Outcome> Left = run(P, O);
  uint64_t Before = 0;
  for (size_t I = 0; I < 5; ++I) {
    EXPECT_FALSE(Left[I].Cut);
    Before += Left[I].Used;
  }
  ASSERT_EQ(Left.size(), 6u) << show(Left);
  EXPECT_TRUE(Left[5].Cut);
  EXPECT_EQ(Left[5].Items, (150 - Before - 1) / 5) << show(Left);
  // Equal shares: the heavy task is cut at its share, and the tasks after
  // it still run.
  O.EqualShares = true;
  std::vector<Outcome> Shares = run(P, O);
  ASSERT_EQ(Shares.size(), P.size()) << show(Shares);
  EXPECT_TRUE(Shares[5].Cut);
  EXPECT_FALSE(Shares[8].Cut);
  EXPECT_EQ(Shares[8].Items, P[8].size());
  // Fixed shares: 150 / 9 = 16 units each; task 2 (60) and task 5 are
  // cut, the cheap tasks (at most 18 units) that fit are not, and nothing
  // a task leaves goes to another.
  O.EqualShares = false;
  O.FixedShares = true;
  TaskSchedule S;
  std::vector<Outcome> Fixed = run(P, O, &S);
  ASSERT_EQ(Fixed.size(), P.size()) << show(Fixed);
  EXPECT_TRUE(Fixed[2].Cut);
  EXPECT_TRUE(Fixed[5].Cut);
  EXPECT_FALSE(Fixed[0].Cut);
  EXPECT_EQ(Fixed[2].Items, (150 / 9 - 1) / 2);
  // Run ahead with their exact budgets: never again.
  O.Jobs = 3;
  run(P, O, &S);
  EXPECT_EQ(S.Reruns, 0u);
}

TEST(BudgetedTasksTest, AMeterFollowsItsLoweredBudget) {
  // A task started ahead has its budget lowered to the exact one while it
  // runs: lowered before it has used that much, it runs as if it had had
  // it from the start (cut where that run is cut)...
  std::atomic<uint64_t> Feed{100};
  WorkMeter W(Feed, nullptr, 1);
  W.LimitFeed = &Feed;
  EXPECT_FALSE(W.charge(30));
  Feed = 50;
  EXPECT_FALSE(W.charge(19));
  EXPECT_TRUE(W.charge(1));
  EXPECT_EQ(W.limit(), 50u);
  EXPECT_FALSE(W.loweredLate());
  // ... lowered after, it says so: its decisions so far were taken under
  // the larger budget, and the scheduler runs it again.
  std::atomic<uint64_t> Feed2{100};
  WorkMeter W2(Feed2, nullptr, 1);
  W2.LimitFeed = &Feed2;
  EXPECT_FALSE(W2.charge(60));
  Feed2 = 50;
  EXPECT_TRUE(W2.charge(1));
  EXPECT_TRUE(W2.loweredLate());
}

TEST(BudgetedTasksTest, StopsWhenCancelled) {
  Profile P = profile();
  std::atomic<bool> Cancel{true};
  TaskScheduleOptions O;
  O.Cancel = &Cancel;
  for (unsigned Jobs : {1, 2}) {
    O.Jobs = Jobs;
    EXPECT_TRUE(run(P, O).empty());
  }
}

} // namespace
