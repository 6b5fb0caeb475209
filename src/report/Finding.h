//===- Finding.h - the result type every engine returns ------------------===//
//
// One Finding per reported access pair, one Result per run. Engines fill
// these; the writers in this folder print them (text, JSON) and Verify.cpp
// checks them against the expectations written in a test's C source.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Counters.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crace {

/// Ordered from best to worst news for the user's confidence; the program
/// verdict of a run is computed from the findings and what the engine met.
enum class Verdict { RaceFree, Race, PossibleRace, Unknown };

[[nodiscard]] llvm::StringRef verdictName(Verdict V);
[[nodiscard]] std::optional<Verdict> parseVerdict(llvm::StringRef S);

struct AccessInfo {
  std::string Thread;
  AccessKind Kind = AccessKind::Read;
  bool Atomic = false;
  uint64_t Size = 0;
  SourceLoc Loc;
  /// The variable or field as written in C ("counter", "s.f", "a[2]").
  std::string Variable;
  /// Locks held, by name ("m", "atomic section", "rw (read)").
  std::vector<std::string> Locks;
};

struct TraceStep {
  std::string Thread;
  /// 0 for main, then thread instances in creation order.
  unsigned ThreadId = 0;
  SourceLoc Loc;
  std::string Action;
};

/// What a finding reports. Only data races bear on the program verdict;
/// deadlocks are reported alongside (First/Second: two blocked threads,
/// Variable: what each waits for), and so are assertion failures (First:
/// the failing call).
enum class FindingCategory { DataRace, Deadlock, AssertionFailure };

struct Finding {
  Verdict Kind = Verdict::PossibleRace;
  FindingCategory Category = FindingCategory::DataRace;
  AccessInfo First, Second;
  std::vector<TraceStep> Trace;
  std::string Engine;
  /// Engine-specific data that reproduces the trace (explore: the
  /// schedule and input values, as JSON); written by --trace-out.
  std::string Schedule;
  /// Static engines: the entries of Result::Candidates this finding stands
  /// for (one finding may merge several instruction pairs on one line).
  std::vector<unsigned> Candidates;
  /// The program of a compilation database it was found in, when the
  /// report covers several.
  std::string Program;
  /// Static engines: why the two accesses may run at the same time (the
  /// threads' creation sites and what orders them, or does not).
  std::string Concurrency;
};

/// For each step of F's trace: is it one of the two racing accesses (the
/// last step of its thread, at the place of an access of F)?
[[nodiscard]] std::vector<bool> racingSteps(const Finding &F);

/// One program of a report over a compilation database's programs.
struct ProgramSummary {
  std::string Name, Main, Verdict;
  size_t Findings = 0;
  /// The engine whose verdict the program got (empty: not analysed).
  std::string Engine;
};

/// The shard of a run split with --shard=K/N: Index K of Count N, and the
/// names of all the programs the run covers, in the database's order (so
/// that `crace merge` can check it has every shard). Count 0: no shard.
struct ShardInfo {
  unsigned Index = 0, Count = 0;
  std::vector<std::string> Programs;
};

/// One pair of accesses a static engine could not rule out: the two
/// instructions and the thread templates (ThreadTemplate::Id) running them.
struct Candidate {
  const llvm::Instruction *A = nullptr, *B = nullptr;
  unsigned ThreadA = 0, ThreadB = 0;
};

/// What kind of limitation a reason states. Steps that drop or keep
/// reasons test the kind, never the wording (which may change).
enum class ReasonKind {
  /// The engine's abstraction cannot confirm that a reported pair is
  /// reachable (lockset, whoop); a later step that settles the pairs
  /// (whoop's refutation, suppressing every finding) drops it.
  Overapproximation,
  /// A limit ran out: the time or memory limit, a work budget, a search
  /// bound (--max-pairs, --max-depth, --max-threads, ...), a cancellation.
  Budget,
  /// Something crace does not model or cannot execute: an unknown external
  /// function, inline assembly, an unresolved indirect call, a construct
  /// the engine does not support.
  Unmodelled,
  /// The search ended without covering everything it would need for a
  /// proof (inputs sampled, bounded executions, an incomplete list of
  /// candidate pairs) or without settling a question.
  Incomplete,
  /// A step of the run failed: a program of a database not analysed, a
  /// file not written, an option naming nothing, an internal error.
  Failure,
  /// Information about the run that is no limitation of the analysis
  /// (findings suppressed or known from a baseline, a failing assertion).
  Note,
};

struct Reason {
  ReasonKind Kind = ReasonKind::Note;
  /// What the report prints.
  std::string Text;
  bool operator==(const Reason &) const = default;
};

/// Reasons of one kind with the given texts (ProgramModel::unsoundness()).
[[nodiscard]] std::vector<Reason>
reasonsOf(ReasonKind K, const std::vector<std::string> &Texts);

struct Result {
  Verdict Program = Verdict::Unknown;
  std::string Engine;
  std::vector<Finding> Findings;
  /// Findings found but not kept: --max-findings cut them.
  size_t Omitted = 0;
  /// What a race-free verdict rests on (printed with it).
  std::vector<std::string> Assumptions;
  /// Why the verdict is not race-free / not more precise.
  std::vector<Reason> Reasons;
  /// How the program was made when the input has no main of its own
  /// (library mode's harness: "library: entry points f, g called
  /// concurrently, ..."); printed with every verdict; empty otherwise.
  std::string Harness;
  /// Static engines: every instruction pair that may race (one entry per
  /// pair), and whether the list is complete (no limit hit, nothing
  /// unanalysable met). The explore engine's property-driven pruning uses
  /// it.
  std::vector<std::pair<const llvm::Instruction *, const llvm::Instruction *>>
      CandidatePairs;
  bool CandidatesComplete = false;
  /// A dynamic engine searched every schedule of every input (explore,
  /// stat "complete"): a pair it did not report is not a race.
  bool SearchComplete = false;
  /// The same pairs with their thread templates (one entry per instruction
  /// pair and template pair); Finding::Candidates indexes it.
  std::vector<Candidate> Candidates;
  /// Named statistics, in insertion order.
  std::vector<std::pair<std::string, double>> Stats;
  /// With --stats: crace's STATISTIC counters that counted (model/
  /// Counters.h), sorted by group, then name; empty otherwise.
  std::vector<Counter> Counters;
  /// A report over several programs (-p): each program's verdict.
  std::vector<ProgramSummary> Programs;
  /// --shard: which part of the run this report covers.
  ShardInfo Shard;
  void stat(std::string Name, double V) {
    Stats.emplace_back(std::move(Name), V);
  }
  void reason(ReasonKind K, std::string Text) {
    Reasons.push_back({K, std::move(Text)});
  }
  /// The texts of Reasons, in order (what the writers print).
  [[nodiscard]] std::vector<std::string> reasonTexts() const;
};

/// The overall verdict of several programs: a confirmed race anywhere,
/// else a possible one, else unknown, else race-free.
[[nodiscard]] Verdict worstOf(Verdict A, Verdict B);

/// One program of a report over a compilation database's programs: its
/// result, or (no result) the reason it was not analysed.
struct ProgramRun {
  std::string Name, Main;
  std::optional<Result> R;
  std::string NotAnalysed;
};

/// The verdict over the programs: the worst of those analysed, unknown if
/// one was not analysed.
[[nodiscard]] Verdict programsVerdict(const std::vector<ProgramRun> &Runs);

/// One report over several programs (JSON, SARIF, HTML): the findings of
/// every analysed program, each naming its program, in the order given;
/// their assumptions, reasons, statistics and counters prefixed with the
/// program's name; the programs' verdicts (those analysed first); a
/// reason per program not analysed. Used by -p over a database and by
/// `crace merge`, so a merged report is the one an unsharded run writes.
[[nodiscard]] Result combinePrograms(std::vector<ProgramRun> Runs,
                                     std::string Engine);

/// Findings on one variable: the same program, category, verdict and
/// variable (of the first access). Ids count groups in order of their first
/// finding, from 0; the text report prints a group as one diagnostic.
[[nodiscard]] std::vector<unsigned> findingGroups(const Result &R);

/// Keeps at most Max findings of R (0: all), adding the rest to Omitted.
/// Confirmed races go first; the other places are shared among the
/// variables in turn, so a cut report still names every variable it can
/// (a thousand pairs on one array do not hide the one on a counter). The
/// findings kept stay in their order.
void cutFindings(Result &R, unsigned Max);

} // namespace crace
