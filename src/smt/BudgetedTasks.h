//===- BudgetedTasks.h - tasks sharing one work budget, on several cores --===//
//
// A stage that checks independent things one after the other under one
// work budget (WorkMeter.h) gives each a budget that depends on what its
// predecessors used: whoop's template pairs get all that is left, and the
// first that spends it ends the stage (or they get an equal share of what
// is left each; or, as circ's locations, a fixed share of the whole).
// runBudgetedTasks gives exactly the answer of that sequence on up to Jobs
// threads: the report does not depend on --jobs.
//
// Task I runs on a worker with a budget that is at least what the
// sequential run would have given it (computed from what the committed
// tasks before it used: the budget only shrinks as predecessors use more)
// and tells what it used and whether the budget cut it. Tasks are
// committed in order. Task I's exact budget B is known once tasks 0..I-1
// are committed; a task
// still running then has its budget lowered to B (its WorkMeter follows
// it). Task I is committed when its run is the one budget B gives:
//   - it ran uncut with fewer than B units (a budget only cuts: below it
//     nothing depends on it), or
//   - it ran with B from the start, or was lowered to B before it had
//     used B (its WorkMeter says when that was too late).
// Otherwise it runs again with B: only a task that met the end of the
// budget, at most one per run.
// After the first task the budget cuts (or a stop), the later tasks are
// not run; running ones are stopped and their results dropped.
//
// Every task needs its own solver context, made fresh in Prepare, so that
// a task's Z3 work counts the same whichever thread runs it and whatever
// ran before (Z3's counts depend on a context's history).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace crace {

/// What a task reports when it ends.
struct TaskRun {
  /// Units of work it used (its own WorkMeter's used()).
  uint64_t Used = 0;
  /// Its budget ran out before it was done.
  bool Cut = false;
  /// It stopped early for another reason (cancellation, a wall-clock
  /// limit): committed as it is, and no later task runs.
  bool Stopped = false;
  /// Its budget when it ended, and whether it was lowered to that only
  /// after it had used as much (WorkMeter::loweredLate).
  uint64_t Limit = 0;
  bool LoweredLate = false;
  /// Not run: its budget was 0 (TaskScheduleOptions::EqualShares).
  bool Skipped = false;
};

/// The work of one task, run on a worker thread with its budget; it
/// stores its result where the caller finds it by the task's index.
using TaskWork = std::function<TaskRun()>;

/// Prepare(I, Budget, Stop): runs on the calling thread; returns task I's
/// work, to run with Budget units (0: no budget; its WorkMeter's LimitFeed:
/// it may be lowered while the task runs) and to end early when Stop is
/// set. Called again for a task that must run again with a smaller budget
/// (its earlier result is then dropped: the new run overwrites it).
using PrepareTask =
    llvm::function_ref<TaskWork(size_t I, const std::atomic<uint64_t> &Budget,
                                const std::atomic<bool> &Stop)>;

/// Commit(I, Run): on the calling thread, in the order 0, 1, ..., for each
/// task whose result is the sequential run's.
using CommitTask = llvm::function_ref<void(size_t I, const TaskRun &Run)>;

struct TaskSchedule {
  /// Tasks committed (the first Committed ones; the rest did not run).
  size_t Committed = 0;
  /// Units the committed tasks used.
  uint64_t Used = 0;
  /// Runs done again with their exact budget, and runs dropped (started
  /// after the budget's end): the price of running ahead.
  unsigned Reruns = 0, Dropped = 0;
};

struct TaskScheduleOptions {
  /// Units for all the tasks (0: no limit).
  uint64_t Limit = 0;
  /// Threads (the calling thread alone when <= 1).
  unsigned Jobs = 1;
  /// Stops the tasks running and starts no other (may be null).
  const std::atomic<bool> *Cancel = nullptr;
  /// Task I of N gets (what is left) / (N - I), and a task its share cut
  /// does not end the others (a task whose share is 0 is committed as
  /// Skipped without running); else it gets all that is left, and the
  /// first task cut ends the sequence.
  bool EqualShares = false;
  /// Every task gets Limit / N, whatever the others use (what one leaves
  /// is not passed on), and a task cut does not end the others: every
  /// budget is known in advance, so no task runs ahead of its exact one
  /// (with EqualShares, tasks that use their whole share, as circ's often
  /// do, would run past it and again).
  bool FixedShares = false;
};

/// Runs tasks 0..N-1 as O says, with exactly the results of running them
/// one after the other.
TaskSchedule runBudgetedTasks(size_t N, const TaskScheduleOptions &O,
                              PrepareTask Prepare, CommitTask Commit);

} // namespace crace
