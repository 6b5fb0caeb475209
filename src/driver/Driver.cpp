//===- Driver.cpp - one crace run -----------------------------------------===//
#include "driver/Driver.h"
#include "engines/Engine.h"
#include "engines/WorkBudget.h"
#include "frontend/DataModel.h"
#include "model/ProgramModel.h"
#include "report/Report.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <map>
#include <set>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <limits>
#include <mutex>
#include <new>
#include <thread>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;

namespace crace {

namespace {

// Driver mode (kernel modules): docs/usage.md, "Drivers".
cl::OptionCategory DriverModeCat("driver mode options");
cl::opt<bool> DriverModeOpt(
    "driver",
    cl::desc("The input is a Linux driver: link the kernel models, find its "
             "entry points and run each pair of them concurrently"),
    cl::cat(DriverModeCat));
cl::list<std::string> EntryOpt(
    "entry",
    cl::desc("Driver mode with these entry points (comma-separated) instead "
             "of the ones found in ops structures"),
    cl::value_desc("f,g,..."), cl::CommaSeparated, cl::cat(DriverModeCat));
cl::opt<bool> NoInitExitOrderOpt(
    "no-init-exit-order",
    cl::desc("Driver mode: init/probe and exit/remove may run concurrently "
             "with the other entry points"),
    cl::cat(DriverModeCat));
cl::opt<bool> NoRtnlOpt(
    "no-rtnl",
    cl::desc("Driver mode: RTNL-held callbacks are not serialised"),
    cl::cat(DriverModeCat));
cl::opt<bool> NoIrqLockOpt(
    "no-irq-lock",
    cl::desc("Driver mode: local_irq_disable() sections do not exclude each "
             "other (no uniprocessor assumption)"),
    cl::cat(DriverModeCat));
cl::opt<unsigned> EntryInstancesOpt(
    "entry-instances",
    cl::desc("Driver mode: threads per entry point (at least 2)"),
    cl::init(2), cl::cat(DriverModeCat), cl::Hidden);
cl::opt<bool> ListEntryPointsOpt(
    "list-entry-points",
    cl::desc("Driver mode: print the entry points and the harness, then stop"),
    cl::cat(DriverModeCat));
cl::list<std::string> NotConcurrentOpt(
    "not-concurrent",
    cl::desc("Driver mode: these pairs of entry points never run "
             "concurrently (f:g; f:f makes f non-reentrant)"),
    cl::value_desc("f:g,..."), cl::CommaSeparated, cl::cat(DriverModeCat));
cl::opt<std::string> HarnessConfigOpt(
    "harness-config",
    cl::desc("Driver mode: read entry points and harness constraints from "
             "FILE (docs/usage.md, \"Drivers\")"),
    cl::value_desc("FILE"), cl::cat(DriverModeCat));
cl::opt<std::string> HarnessFormOpt(
    "harness",
    cl::desc("Driver mode: 'threads' (threads per entry point), 'dispatch' "
             "(the KISS paper's: threads that each call one entry point "
             "chosen nondeterministically) or 'auto' (dispatch for kiss, "
             "threads otherwise)"),
    cl::init("auto"), cl::cat(DriverModeCat));
cl::opt<bool> DistinctParamsOpt(
    "distinct-params",
    cl::desc("Driver mode: WHOOP's non-aliasing assumption, each entry-point "
             "call gets its own kernel objects behind its pointer parameters "
             "(not sound in general; printed)"),
    cl::cat(DriverModeCat));

/// Adds a --not-concurrent pair "f:g" (or "f g" from a config file).
Error addNotConcurrent(DriverHarnessOptions &D, StringRef A, StringRef B,
                       StringRef Where) {
  A = A.trim();
  B = B.trim();
  if (A.empty() || B.empty() || A.contains(' ') || B.contains(' '))
    return createStringError(inconvertibleErrorCode(),
                             Where + ": expected two entry points, e.g. f:g");
  D.NotConcurrent.push_back({A.str(), B.str()});
  return Error::success();
}

/// --harness-config FILE: one directive per line, '#' starts a comment.
///   entry f g ...          like --entry=f,g,...
///   not-concurrent f g     like --not-concurrent=f:g
///   harness threads|dispatch
///   no-init-exit-order | no-rtnl | no-irq-lock | distinct-params
Error readHarnessConfig(StringRef Path, DriverHarnessOptions &D,
                        std::string &Form) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read harness config '" + Path +
                                 "': " + Buf.getError().message());
  SmallVector<StringRef, 32> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (size_t N = 0; N < Lines.size(); ++N) {
    std::string Where = formatv("{0}:{1}", Path, N + 1);
    StringRef L = Lines[N].split('#').first.trim();
    if (L.empty())
      continue;
    SmallVector<StringRef, 8> W;
    L.split(W, ' ', -1, false);
    StringRef Key = W[0];
    size_t Args = W.size() - 1;
    if (Key == "entry" && Args >= 1) {
      for (size_t I = 1; I < W.size(); ++I)
        D.Entries.push_back(W[I].trim().str());
    } else if (Key == "not-concurrent" && Args == 2) {
      if (Error E = addNotConcurrent(D, W[1], W[2], Where))
        return E;
    } else if (Key == "harness" && Args == 1 &&
               (W[1] == "threads" || W[1] == "dispatch")) {
      Form = W[1].str();
    } else if (Key == "no-init-exit-order" && Args == 0) {
      D.InitExitOrder = false;
    } else if (Key == "no-rtnl" && Args == 0) {
      D.RtnlSerialised = false;
    } else if (Key == "no-irq-lock" && Args == 0) {
      D.IrqLock = false;
    } else if (Key == "distinct-params" && Args == 0) {
      D.DistinctParams = true;
    } else {
      return createStringError(
          inconvertibleErrorCode(),
          Where + ": cannot read '" + L +
              "' (expected 'entry f ...', 'not-concurrent f g', 'harness "
              "threads|dispatch', 'no-init-exit-order', 'no-rtnl', "
              "'no-irq-lock' or 'distinct-params')");
    }
  }
  return Error::success();
}

/// The driver-mode options above, applied to the front end's options.
Expected<FrontendOptions> withDriverMode(const FrontendOptions &In,
                                         StringRef Engine) {
  FrontendOptions Out = In;
  DriverHarnessOptions &D = Out.Driver;
  D.Enabled = D.Enabled || DriverModeOpt || !EntryOpt.empty() ||
              ListEntryPointsOpt || !HarnessConfigOpt.empty() ||
              !NotConcurrentOpt.empty();
  std::string Form = HarnessFormOpt;
  if (!HarnessConfigOpt.empty())
    if (Error E = readHarnessConfig(HarnessConfigOpt, D, Form))
      return std::move(E);
  if (HarnessFormOpt.getNumOccurrences())
    Form = HarnessFormOpt; // the command line wins over the file
  for (const std::string &E : EntryOpt)
    if (!E.empty())
      D.Entries.push_back(E);
  for (const std::string &P : NotConcurrentOpt) {
    auto [A, B] = StringRef(P).split(':');
    if (Error E = addNotConcurrent(D, A, B, "--not-concurrent=" + P))
      return std::move(E);
  }
  if (Form != "auto" && Form != "threads" && Form != "dispatch")
    return createStringError(inconvertibleErrorCode(),
                             "unknown --harness '" + Form +
                                 "' (expected auto, threads or dispatch)");
  D.Dispatch = Form == "dispatch" || (Form == "auto" && Engine == "kiss");
  D.InitExitOrder = D.InitExitOrder && !NoInitExitOrderOpt;
  D.RtnlSerialised = D.RtnlSerialised && !NoRtnlOpt;
  D.IrqLock = D.IrqLock && !NoIrqLockOpt;
  D.DistinctParams = D.DistinctParams || DistinctParamsOpt;
  D.Instances = std::max(2u, EntryInstancesOpt.getValue());
  return Out;
}

std::atomic<const char *> Phase{"starting"};
std::string HardStopFormat = "text";
bool HardStopSvComp = false;
/// The SV-COMP answer printed last in --svcomp mode.
const char *SvCompAnswer = "UNKNOWN";

/// Prints an honest verdict and leaves at once: used when a budget is
/// exceeded where crace cannot stop gracefully (inside clang, out of memory).
[[noreturn]] void hardStop(const char *Why) {
  std::string Msg;
  if (HardStopFormat == "json")
    Msg = std::string("{\"verdict\": \"unknown\", \"engine\": \"none\", "
                      "\"findings\": [], \"assumptions\": [], \"reasons\": [\"") +
          Why + "\"], \"stats\": {}}\n";
  else
    Msg = std::string("crace: verdict: unknown (") + Why + ")\n";
  if (HardStopSvComp)
    Msg += "UNKNOWN\n";
  ssize_t Ignored = ::write(1, Msg.data(), Msg.size());
  (void)Ignored;
  ::_exit(ExitPossibleOrUnknown);
}

void outOfMemory() { hardStop("memory exhausted"); }

void badAlloc(void *, const char *, bool) { hardStop("memory exhausted"); }

uint64_t residentMB() {
  std::ifstream In("/proc/self/statm");
  uint64_t Size = 0, Resident = 0;
  In >> Size >> Resident;
  return Resident * uint64_t(::sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

/// Enforces --timeout and --memlimit, divides the time among the
/// portfolio's stages, and shows progress on a terminal.
///
/// Two flags: Cancel (the whole run: its time or memory limit) and
/// StageCancel, which the engines poll: set with Cancel, or when the
/// current stage's share of the budget runs out (beginStage).
class Watchdog {
public:
  using Clock = std::chrono::steady_clock;
  Watchdog(const DriverOptions &Opts, unsigned TimeoutSeconds,
           std::atomic<bool> &Cancel)
      : Opts(Opts), TimeoutSeconds(TimeoutSeconds), Cancel(Cancel),
        Start(Clock::now()),
        Progress(sys::Process::StandardErrIsDisplayed()),
        Thread([this] { loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> G(M);
      Done = true;
    }
    CV.notify_all();
    Thread.join();
    if (Shown)
      errs() << "\r\033[K";
  }
  /// Why Cancel was set (the run's limit).
  std::string Reason;
  /// What the engines poll (EngineOptions::Cancelled).
  std::atomic<bool> StageCancel{false};

  /// Starts a stage that may run for at most Seconds (0: until the run's
  /// own limit).
  void beginStage(double Seconds) {
    std::lock_guard<std::mutex> G(M);
    StageRanOut = false;
    StageCancel = Cancel.load();
    StageDeadline = Seconds > 0
                        ? Clock::now() + std::chrono::duration_cast<
                                             Clock::duration>(
                                             std::chrono::duration<double>(
                                                 Seconds))
                        : Clock::time_point::max();
  }
  /// The current stage was stopped by its own share (not the run's limit).
  bool stageRanOut() const { return StageRanOut; }
  /// The run's time limit in seconds (0: none), as configured.
  unsigned limitSeconds() const { return TimeoutSeconds; }
  /// Seconds left of the run's time limit (infinity without one).
  double remaining() const {
    if (!TimeoutSeconds)
      return std::numeric_limits<double>::infinity();
    double Used = std::chrono::duration<double>(Clock::now() - Start).count();
    return std::max(0.0, TimeoutSeconds - Used);
  }
  /// The analysis is over: the report is written whatever the clock says.
  void reporting() { Reporting = true; }

private:
  void loop() {
    using namespace std::chrono;
    std::unique_lock<std::mutex> L(M);
    while (!CV.wait_for(L, milliseconds(100), [&] { return Done; })) {
      double Secs = duration<double>(Clock::now() - Start).count();
      if (TimeoutSeconds && Secs > TimeoutSeconds && !Cancel) {
        Reason = "time limit of " + std::to_string(TimeoutSeconds) +
                 " s reached";
        Cancel = true;
      }
      if (Opts.MemLimitMB && !Cancel && residentMB() > Opts.MemLimitMB) {
        Reason = "memory limit of " + std::to_string(Opts.MemLimitMB) +
                 " MB reached";
        Cancel = true;
      }
      if (Cancel)
        StageCancel = true;
      else if (!StageCancel && Clock::now() > StageDeadline) {
        StageRanOut = true;
        StageCancel = true;
      }
      // Every stage polls the flags; the front end (clang) cannot, and gets
      // a short grace period, the engines a longer one (a Z3 call returns
      // after its interruption, its context takes a while to free).
      double Grace = StringRef(Phase.load()) == "compiling" ? 2.0 : 10.0;
      if (Cancel && TimeoutSeconds && !Reporting &&
          Secs > TimeoutSeconds + Grace)
        hardStop(Reason.c_str());
      if (Cancel && Opts.MemLimitMB && residentMB() > Opts.MemLimitMB * 5 / 4 + 64)
        hardStop(Reason.c_str());
      if (Progress && Secs > 1.0) {
        errs() << "\r\033[Kcrace: " << Phase.load() << " ("
               << unsigned(Secs) << " s)";
        Shown = true;
      }
    }
  }
  const DriverOptions &Opts;
  unsigned TimeoutSeconds;
  std::atomic<bool> &Cancel;
  Clock::time_point Start;
  Clock::time_point StageDeadline = Clock::time_point::max();
  std::atomic<bool> StageRanOut{false};
  std::atomic<bool> Reporting{false};
  bool Progress;
  bool Shown = false;
  bool Done = false;
  std::mutex M;
  std::condition_variable CV;
  std::thread Thread;
};

int finish(const DriverOptions &Opts, const Result &R) {
  if (Opts.Verify) {
    std::string Diff;
    raw_string_ostream OS(Diff);
    bool Ok = verifyExpectations(R, Opts.Frontend.Files, OS);
    if (!Ok) {
      errs() << Diff;
      errs() << "crace --verify: FAILED; crace's report was:\n";
      writeText(R, errs(), false, false);
      return ExitVerifyFailed;
    }
    outs() << "crace --verify: OK (" << verdictName(R.Program) << ", "
           << R.Findings.size() << " finding"
           << (R.Findings.size() == 1 ? "" : "s") << ")\n";
    return 0;
  }
  std::error_code EC;
  ToolOutputFile Out(Opts.OutputFile, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "crace")
        << "cannot write '" << Opts.OutputFile << "': " << EC.message() << "\n";
    return ExitUsage;
  }
  if (Opts.Format == "json")
    writeJson(R, Out.os());
  else if (Opts.Format == "whoop")
    writeWhoop(R, Out.os(), Opts.Stats);
  else
    writeText(R, Out.os(), Opts.Color && Opts.OutputFile == "-", Opts.Stats);
  Out.keep();
  if (!Opts.TraceOut.empty()) {
    const Finding *F = nullptr;
    for (const Finding &C : R.Findings)
      if (C.Kind == Verdict::Race && C.Category == FindingCategory::DataRace &&
          !C.Schedule.empty()) {
        F = &C;
        break;
      }
    if (!F) {
      WithColor::warning(errs(), "crace")
          << "no confirmed race with a schedule: nothing written to '"
          << Opts.TraceOut << "'\n";
    } else {
      std::error_code TEC;
      raw_fd_ostream T(Opts.TraceOut, TEC, sys::fs::OF_Text);
      if (TEC) {
        WithColor::error(errs(), "crace") << "cannot write '" << Opts.TraceOut
                                          << "': " << TEC.message() << "\n";
        return ExitUsage;
      }
      auto Sched = json::parse(F->Schedule);
      json::Array Files;
      for (const std::string &File : Opts.Frontend.Files)
        Files.push_back(File);
      json::Object Doc{{"crace_trace", 1},
                       {"engine", F->Engine},
                       {"files", std::move(Files)},
                       {"data_model", Opts.Frontend.DataModel},
                       {"race", F->First.Variable + " at " +
                                    F->First.Loc.str() + " / " +
                                    F->Second.Loc.str()}};
      if (Sched)
        Doc["schedule"] = std::move(*Sched);
      else
        consumeError(Sched.takeError());
      T << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
    }
  }
  if (Opts.SvComp) {
    // TRUE only for a proof, FALSE only for a confirmed race.
    if (R.Program == Verdict::RaceFree)
      SvCompAnswer = "TRUE";
    else if (R.Program == Verdict::Race)
      SvCompAnswer = "FALSE";
    if (R.Program == Verdict::Race && !Opts.WitnessFile.empty()) {
      std::error_code WEC;
      raw_fd_ostream W(Opts.WitnessFile, WEC, sys::fs::OF_Text);
      if (WEC) {
        WithColor::error(errs(), "crace") << "cannot write '"
                                          << Opts.WitnessFile
                                          << "': " << WEC.message() << "\n";
        SvCompAnswer = "UNKNOWN";
        return ExitUsage;
      }
      writeSvCompWitness(R, Opts.Frontend.Files, Opts.Frontend.DataModel, W);
    }
  }
  switch (R.Program) {
  case Verdict::RaceFree:
    return ExitRaceFree;
  case Verdict::Race:
    return ExitRace;
  default:
    return ExitPossibleOrUnknown;
  }
}

Result runEngine(EngineKind K, const ProgramModel &PM, const EngineOptions &EO) {
  static std::map<EngineKind, std::string> Phases;
  std::string &Text = Phases[K];
  if (Text.empty())
    for (const EngineInfo &I : allEngines())
      if (I.Kind == K)
        Text = "running the " + I.Name.str() + " engine";
  Phase = Text.c_str();
  return createEngine(K)->run(PM, EO);
}

/// Shares of the time budget in --engine=auto (docs/usage.md, "Time
/// budget"): whoop gets the work of at most WhoopShareCap seconds and of
/// WhoopShare of the run's limit (a deterministic work budget at the
/// calibrated rate, WorkMeter.h; its wall clock is only a safety net of
/// WallSafety times that), explore ExploreShare of what is left then, kiss
/// the work of at most KissCap seconds and of KissWorkShare of the run's
/// limit (its wall clock, KissShare of what is left after explore, is the
/// safety net) (kiss
/// encodes the whole sequentialised program before its first query, which
/// on a large program takes long and rarely pays). Whatever a stage leaves
/// unused goes to the next.
constexpr double WhoopShare = 0.1, WhoopShareCap = 10, WallSafety = 3;
constexpr uint64_t AutoMaxTransitions = 4'000'000;
/// And of executed instructions, replays included: on a big program
/// (automount_incl_lib) a scheduling point costs thousands of instructions
/// and 4000000 of them took minutes (about 14 million instructions a
/// second on the 2-core machine, loaded).
constexpr uint64_t AutoMaxInstructions = 300'000'000;
constexpr double MoreRacesShare = 0.25;
constexpr double ExploreShare = 0.8, KissShare = 0.5, KissCap = 15,
                 KissWorkShare = 0.25;

/// A portfolio stage's work budget in units: the user's --X-work when
/// given, else the work of at most Cap seconds, of Share of the run's
/// limit and of the user's --X-budget seconds, at the calibrated rate.
uint64_t stageWork(const Watchdog &Dog, double Cap, double Share,
                   unsigned BudgetSecs, uint64_t Work) {
  if (Work)
    return Work;
  double Secs = Cap;
  if (Dog.limitSeconds())
    Secs = std::min(Secs, Dog.limitSeconds() * Share);
  if (BudgetSecs)
    Secs = std::min(Secs, double(BudgetSecs));
  return std::max<uint64_t>(1, unitsForSeconds(Secs));
}

bool hasDataRace(const Result &R) {
  for (const Finding &F : R.Findings)
    if (F.Category == FindingCategory::DataRace)
      return true;
  return false;
}

/// kiss gives one reason per target ("kiss (x): WHY"); on a large program
/// hundreds of targets fail for one cause. One line per cause, naming the
/// first targets, in the order the causes first appear.
std::vector<std::string> groupKissReasons(const std::vector<std::string> &In) {
  std::vector<std::string> Order, Out;
  std::map<std::string, std::vector<std::string>> Targets;
  for (const std::string &R : In) {
    StringRef S(R);
    size_t Close = S.find("): ");
    if (!S.starts_with("kiss (") || Close == StringRef::npos) {
      Order.push_back("\x01" + R); // kept as it is
      continue;
    }
    std::string Why = S.substr(Close + 3).str();
    std::string Target = S.substr(6, Close - 6).str();
    auto &L = Targets[Why];
    if (L.empty())
      Order.push_back(Why);
    L.push_back(Target);
  }
  for (const std::string &K : Order) {
    if (StringRef(K).starts_with("\x01")) {
      Out.push_back(K.substr(1));
      continue;
    }
    const auto &L = Targets[K];
    std::string Names;
    for (size_t I = 0; I < L.size() && I < 3; ++I)
      Names += (I ? ", " : "") + L[I];
    if (L.size() > 3)
      Names += formatv(" and {0} more targets", L.size() - 3).str();
    Out.push_back("kiss (" + Names + "): " + K);
  }
  return Out;
}

/// A confirming engine's result, followed by the static stage's possible
/// races on other pairs of source lines (a confirmed race does not settle
/// them: the user still needs to see them, unless the confirming search
/// was complete), at most Max findings in all (0: no limit).
Result withRemainingPossibleRaces(Result Confirmed, const Result &Static,
                                  unsigned Max) {
  // An explore search over every schedule and input reported every race.
  if (Confirmed.SearchComplete)
    return Confirmed;
  auto Key = [](const Finding &F) {
    auto A = std::make_tuple(F.First.Loc.File, F.First.Loc.Line);
    auto B = std::make_tuple(F.Second.Loc.File, F.Second.Loc.Line);
    return A < B ? std::make_pair(A, B) : std::make_pair(B, A);
  };
  std::set<decltype(Key(std::declval<const Finding &>()))> Seen;
  for (const Finding &F : Confirmed.Findings)
    if (F.Category == FindingCategory::DataRace)
      Seen.insert(Key(F));
  for (const Finding &F : Static.Findings) {
    if (Max && Confirmed.Findings.size() >= Max)
      break;
    if (F.Category == FindingCategory::DataRace &&
        Seen.insert(Key(F)).second)
      Confirmed.Findings.push_back(F);
  }
  return Confirmed;
}

/// --engine=auto (DESIGN.md's portfolio, as far as the engines exist):
/// 1. the lockset engine refined by whoop; race-free is the answer;
/// 2. explore on what they cannot prove: a confirmed race or an
///    exhaustive proof of race freedom is the answer;
/// 3. kiss, when possible races remain and explore did not decide (it
///    sampled inputs, or hit a bound): a race it confirms is the answer
///    (kiss never proves race freedom);
/// otherwise the lockset/whoop possible races stand, with every engine's
/// reasons. The reported engine is the one whose verdict is given. Each
/// stage gets a share of the remaining time budget (above); when the run's
/// limit cuts a stage, what the stages found so far is returned.
Result runPortfolio(const ProgramModel &PM, const EngineOptions &EO,
                    Watchdog &Dog, const std::atomic<bool> &Cancel) {
  auto Merge = [](Result &Into, const Result &From) {
    Into.Stats.insert(Into.Stats.end(), From.Stats.begin(), From.Stats.end());
  };
  // Stage 1, static: whoop (it runs the lockset engine first and refines
  // its pairs; the candidate pairs PDP uses are the lockset engine's).
  EngineOptions StaticOpts = EO;
  StaticOpts.Cancelled = &Dog.StageCancel;
  // From the configured limit, not the time left after the front end: the
  // budget, hence the report, must not depend on how long parsing took.
  StaticOpts.WhoopWork = stageWork(Dog, WhoopShareCap, WhoopShare,
                                   EO.WhoopBudget, EO.WhoopWork);
  StaticOpts.WhoopWallLimit =
      WallSafety * double(StaticOpts.WhoopWork) / double(UnitsPerSecond);
  Dog.beginStage(0);
  Result Static = runEngine(EngineKind::Whoop, PM, StaticOpts);
  if (Static.Program == Verdict::RaceFree || Cancel)
    return Static;

  // Stage 2, explore.
  EngineOptions DynOpts = EO;
  DynOpts.Static = &Static;
  DynOpts.Cancelled = &Dog.StageCancel;
  // explore's deterministic budget is its scheduling points; the
  // standalone default (20000000) took 133 s on goblint-bench's
  // pfscan_comb (PDP checks at every point), over the 60 s a default run
  // may take, so the portfolio bounds it lower unless it was given.
  if (!EO.MaxInstructionsGiven)
    DynOpts.MaxInstructions = AutoMaxInstructions;
  if (!EO.MaxTransitionsGiven)
    DynOpts.MaxTransitions =
        EO.MaxTransitions ? std::min(EO.MaxTransitions, AutoMaxTransitions)
                          : AutoMaxTransitions;
  // After a first race, more are looked for with a quarter of the budget
  // (the remaining static possible races are reported either way).
  DynOpts.MoreRacesShare = MoreRacesShare;
  double Remaining = Dog.remaining();
  double ExploreSecs = std::isinf(Remaining) ? 0 : Remaining * ExploreShare;
  Dog.beginStage(ExploreSecs);
  Result Dynamic = runEngine(EngineKind::Explore, PM, DynOpts);
  bool ExploreRanOut = Dog.stageRanOut();
  if (Dynamic.Program == Verdict::RaceFree) {
    Dynamic.Stats.insert(Dynamic.Stats.begin(), Static.Stats.begin(),
                         Static.Stats.end());
    return Dynamic;
  }
  if (Dynamic.Program == Verdict::Race) {
    Dynamic.Stats.insert(Dynamic.Stats.begin(), Static.Stats.begin(),
                         Static.Stats.end());
    return withRemainingPossibleRaces(std::move(Dynamic), Static,
                                      EO.MaxFindings);
  }
  // (The share's length is not printed: it depends on the time the
  // earlier stages took, and the report must not change between runs.)
  if (ExploreRanOut)
    Static.Reasons.push_back(formatv("explore: its share of the time budget "
                                     "({0} % of the time left) ran out",
                                     unsigned(ExploreShare * 100)));
  for (const std::string &Why : Dynamic.Reasons)
    Static.Reasons.push_back("explore: " + Why);
  // Deadlocks found on the way are still worth reporting.
  for (Finding &F : Dynamic.Findings)
    if (F.Category != FindingCategory::DataRace)
      Static.Findings.push_back(std::move(F));
  Merge(Static, Dynamic);
  if (Cancel || !hasDataRace(Static))
    return Static;

  // Stage 3, kiss: a bounded model checker over the sequentialised
  // program tries every input value, where explore sampled them.
  EngineOptions KissOpts = EO;
  KissOpts.Cancelled = &Dog.StageCancel;
  // A work budget (deterministic) of at most KissCap seconds and of
  // KissWorkShare of the run's limit, at the calibrated rate; the wall
  // clock (KissShare of the time left, at most WallSafety times those
  // seconds) is the safety net.
  KissOpts.KissWork =
      stageWork(Dog, KissCap, KissWorkShare, EO.KissBudget, EO.KissWork);
  Remaining = Dog.remaining();
  double KissWall = WallSafety * double(KissOpts.KissWork) / double(UnitsPerSecond);
  if (!std::isinf(Remaining))
    KissWall = std::min(KissWall, Remaining * KissShare);
  Dog.beginStage(KissWall);
  Result Kiss = runEngine(EngineKind::Kiss, PM, KissOpts);
  bool KissRanOut = Dog.stageRanOut();
  if (Kiss.Program == Verdict::Race && hasDataRace(Kiss)) {
    // Confirmed: kiss's findings (trace and input values) are the answer.
    Kiss.Stats.insert(Kiss.Stats.begin(), Static.Stats.begin(),
                      Static.Stats.end());
    return withRemainingPossibleRaces(std::move(Kiss), Static,
                                      EO.MaxFindings);
  }
  // Only a safety net now: kiss's work budget ends it first on a machine
  // like the calibrated one, loaded or not (and says so, deterministically).
  if (KissRanOut)
    Static.Reasons.push_back(formatv("kiss: its wall-clock safety limit "
                                     "({0} % of the time left, at most {1} "
                                     "times its work budget's seconds) ran "
                                     "out before its work budget",
                                     unsigned(KissShare * 100),
                                     unsigned(WallSafety)));
  for (const std::string &Why : groupKissReasons(Kiss.Reasons)) {
    // Where the share cut kiss (transform, encoding, which target) depends
    // on the machine's speed: the line above says it.
    if (KissRanOut && StringRef(Why).ends_with("cancelled"))
      continue;
    Static.Reasons.push_back(StringRef(Why).starts_with("kiss")
                                 ? Why
                                 : "kiss: " + Why);
  }
  // Assertion failures kiss confirmed are reported alongside.
  for (Finding &F : Kiss.Findings)
    if (F.Category != FindingCategory::DataRace)
      Static.Findings.push_back(std::move(F));
  Merge(Static, Kiss);
  return Static;
}

/// Checks that the SV-COMP property file names a property crace checks.
bool checkProperty(const std::string &File) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf) {
    WithColor::error(errs(), "crace") << "cannot read property file '" << File
                                      << "': " << Buf.getError().message()
                                      << "\n";
    return false;
  }
  StringRef Text = (*Buf)->getBuffer().trim();
  if (!Text.contains("data-race")) {
    WithColor::error(errs(), "crace")
        << "unsupported property in '" << File << "': '" << Text
        << "'; crace checks only no-data-race (CHECK( init(main()), LTL(G ! "
           "data-race) ))\n";
    return false;
  }
  return true;
}

int runCraceOnce(const DriverOptions &Opts);

} // namespace

int runCrace(const DriverOptions &Opts) {
  HardStopSvComp = Opts.SvComp;
  if (Opts.SvComp && Opts.Verify) {
    WithColor::error(errs(), "crace") << "--svcomp and --verify exclude each other\n";
    return ExitUsage;
  }
  if (Opts.SvComp && Opts.PropertyFile.empty()) {
    WithColor::error(errs(), "crace") << "--svcomp needs --property FILE.prp\n";
    outs() << "UNKNOWN\n";
    return ExitUsage;
  }
  if (!Opts.SvComp && (!Opts.PropertyFile.empty() || !Opts.WitnessFile.empty())) {
    WithColor::error(errs(), "crace") << "--property and --witness need --svcomp\n";
    return ExitUsage;
  }
  if (Opts.SvComp && !checkProperty(Opts.PropertyFile)) {
    outs() << "UNKNOWN\n";
    return ExitUsage;
  }
  int Code = runCraceOnce(Opts);
  if (Opts.SvComp) {
    outs().flush();
    outs() << SvCompAnswer << "\n";
  }
  return Code;
}

namespace {

int runCraceOnce(const DriverOptions &Opts) {
  if (Opts.Format != "text" && Opts.Format != "json" &&
      Opts.Format != "whoop") {
    WithColor::error(errs(), "crace")
        << "unknown --format '" << Opts.Format
        << "' (expected text, json or whoop)\n";
    return ExitUsage;
  }
  std::string EngineName = Opts.Engine == "auto" ? "lockset" : Opts.Engine;
  std::string ReplayText;
  if (!Opts.ReplayFile.empty()) {
    auto Buf = MemoryBuffer::getFile(Opts.ReplayFile);
    if (!Buf) {
      WithColor::error(errs(), "crace") << "cannot read trace '"
                                        << Opts.ReplayFile << "': "
                                        << Buf.getError().message() << "\n";
      return ExitUsage;
    }
    auto Doc = json::parse((*Buf)->getBuffer());
    const json::Object *O = Doc ? Doc->getAsObject() : nullptr;
    const json::Value *Sched = O ? O->get("schedule") : nullptr;
    if (!Doc || !O || !Sched || O->getInteger("crace_trace") != 1) {
      if (!Doc)
        consumeError(Doc.takeError());
      WithColor::error(errs(), "crace")
          << "'" << Opts.ReplayFile
          << "' is not a trace written by crace --trace-out\n";
      return ExitUsage;
    }
    raw_string_ostream OS(ReplayText);
    OS << *Sched;
    if (Opts.Engine != "auto" && Opts.Engine != "explore") {
      WithColor::error(errs(), "crace")
          << "--replay needs the explore engine\n";
      return ExitUsage;
    }
    EngineName = "explore";
  }
  auto Kind = engineByName(EngineName);
  bool Portfolio = Opts.Engine == "auto" && ReplayText.empty();
  if (!Kind) {
    WithColor::error(errs(), "crace")
        << "unknown engine '" << Opts.Engine << "'; available: auto";
    for (const EngineInfo &I : allEngines())
      errs() << ", " << I.Name;
    errs() << "\n";
    return ExitUsage;
  }
  HardStopFormat = Opts.Verify ? "text" : Opts.Format;
  std::set_new_handler(outOfMemory);
  install_bad_alloc_error_handler(badAlloc);

  std::atomic<bool> Cancel{false};
  unsigned Timeout = Opts.TimeoutGiven ? Opts.TimeoutSeconds
                     : Portfolio       ? DefaultPortfolioTimeout
                                       : 0;
  Watchdog Dog(Opts, Timeout, Cancel);
  auto Started = std::chrono::steady_clock::now();

  Phase = "compiling";
  LLVMContext Ctx;
  auto FrontOptsOr = withDriverMode(Opts.Frontend, Opts.Engine);
  if (!FrontOptsOr) {
    WithColor::error(errs(), "crace") << toString(FrontOptsOr.takeError())
                                      << "\n";
    return ExitUsage;
  }
  FrontendOptions FrontOpts = std::move(*FrontOptsOr);
  auto ModOrErr = buildModule(FrontOpts, Ctx);
  // A program written for a 32-bit target (CIL-combined benchmarks:
  // `typedef unsigned int size_t;`) compiled for the default LP64 would
  // pass 32-bit sizes to the 64-bit allocation models, which then merge
  // every allocation into one heap object: it is compiled again as ILP32.
  // An explicit --data-model=LP64 is kept, with a warning.
  if (ModOrErr && !Cancel)
    if (auto Why = thirtyTwoBitSizeEvidence(**ModOrErr)) {
      if (FrontOpts.DataModel.empty()) {
        WithColor::warning(errs(), "crace")
            << *Why
            << ": the program was written for a 32-bit target; analysing "
               "it as ILP32 (give --data-model=ILP32 to say so, or "
               "--data-model=LP64 to keep 64 bits)\n";
        FrontOpts.DataModel = "ILP32";
        ModOrErr->reset();
        ModOrErr = buildModule(FrontOpts, Ctx);
      } else {
        WithColor::warning(errs(), "crace")
            << *Why
            << ": the program was written for a 32-bit target, but is "
               "analysed as LP64 (--data-model): its allocations are not "
               "told apart\n";
      }
    }
  if (!ModOrErr) {
    int Code = ExitUsage;
    handleAllErrors(
        ModOrErr.takeError(),
        [&](const CompileError &E) {
          WithColor::error(errs(), "crace") << E.message() << "\n";
          Code = ExitCompile;
        },
        [&](const ErrorInfoBase &E) {
          WithColor::error(errs(), "crace") << E.message() << "\n";
          Code = StringRef(E.message()).starts_with("internal error")
                     ? ExitInternal
                     : ExitUsage;
        });
    return Code;
  }
  std::unique_ptr<Module> M = std::move(*ModOrErr);
  if (ListEntryPointsOpt) {
    if (const NamedMDNode *N = M->getNamedMetadata("crace.harness"))
      for (const MDNode *Op : N->operands())
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          outs() << S->getString() << "\n";
    if (const NamedMDNode *N = M->getNamedMetadata("crace.assumptions"))
      for (const MDNode *Op : N->operands())
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          outs() << "assumption: " << S->getString() << "\n";
    return 0;
  }
  if (!Opts.EmitLLVM.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.EmitLLVM, EC);
    if (EC) {
      WithColor::error(errs(), "crace")
          << "cannot write '" << Opts.EmitLLVM << "': " << EC.message() << "\n";
      return ExitUsage;
    }
    M->print(OS, nullptr);
  }
  auto FrontendDone = std::chrono::steady_clock::now();

  Result R;
  R.Engine = EngineName.c_str();
  double ModelSeconds = 0;
  if (!Cancel) {
    Phase = "building the program model";
    auto ModelStart = std::chrono::steady_clock::now();
    auto PM = ProgramModel::build(*M, &Cancel);
    ModelSeconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - ModelStart)
                       .count();
    if (PM && !Cancel) {
      EngineOptions EO = Opts.EngineOpts;
      EO.Replay = ReplayText;
      Dog.beginStage(0);
      EO.Cancelled = &Dog.StageCancel;
      EO.MaxFindings = Opts.MaxFindings;
      if (Opts.SvComp)
        EO.StopAtFirstRace = true;
      if (Portfolio) {
        R = runPortfolio(*PM, EO, Dog, Cancel);
      } else if (*Kind == EngineKind::Explore && EO.Pdp && EO.Replay.empty()) {
        // Property-driven pruning needs the static candidate pairs.
        Result Static = runEngine(EngineKind::Lockset, *PM, EO);
        EO.Static = &Static;
        R = runEngine(*Kind, *PM, EO);
        R.Stats.insert(R.Stats.begin(), Static.Stats.begin(),
                       Static.Stats.end());
      } else {
        R = runEngine(*Kind, *PM, EO);
      }
    }
  }
  Dog.reporting();
  if (Cancel) {
    // The run's limit stopped it: what was found so far is reported. A
    // confirmed race stays confirmed; possible races found by a sound
    // stage stay possible races; nothing else is claimed (no race-free).
    bool Confirmed = R.Program == Verdict::Race;
    for (const Finding &F : R.Findings)
      Confirmed |= F.Category == FindingCategory::DataRace &&
                   F.Kind == Verdict::Race;
    R.Program = Confirmed              ? Verdict::Race
                : hasDataRace(R)       ? Verdict::PossibleRace
                                       : Verdict::Unknown;
    R.Assumptions.clear();
    R.Reasons.insert(R.Reasons.begin(),
                     {Dog.Reason,
                      std::string("the run stopped while ") + Phase.load() +
                          (R.Findings.empty()
                               ? ""
                               : "; the findings made until then are "
                                 "reported")});
  }
  using Secs = std::chrono::duration<double>;
  R.Stats.insert(R.Stats.begin(),
                 {"frontend_seconds", Secs(FrontendDone - Started).count()});
  R.Stats.insert(R.Stats.begin() + 1, {"model_seconds", ModelSeconds});
  R.stat("total_seconds",
         Secs(std::chrono::steady_clock::now() - Started).count());
  struct rusage Usage;
  ::getrusage(RUSAGE_SELF, &Usage);
  R.stat("peak_rss_mb", double(Usage.ru_maxrss) / 1024.0);
  return finish(Opts, R);
}

} // namespace

} // namespace crace
