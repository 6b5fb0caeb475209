//===- Watchdog.h - the limits, stage shares and progress of one run -----===//
//
// Private to driver/. The watchdog thread enforces --timeout and
// --memlimit, ends the portfolio's stages when their share of the time
// runs out, and shows progress on a terminal; hardStop() prints an honest
// verdict and leaves where crace cannot stop gracefully.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Driver.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace crace::driver {

/// What the run is doing now ("compiling", "running the explore engine"),
/// for the progress line and the hard stop's grace period.
extern std::atomic<const char *> Phase;
/// The report format a hard stop writes: a JSON, SARIF or HTML report, or
/// (text, whoop) the verdict line. Set by the run, read by the watchdog.
extern std::atomic<ReportFormat> HardStopFormat;
/// A hard stop also prints the SV-COMP answer (UNKNOWN).
extern bool HardStopSvComp;

/// Prints an honest verdict and leaves at once, through the tool's handler
/// (setHardStopExit in Driver.h; abort without one): used when a budget is
/// exceeded where crace cannot stop gracefully (inside clang, out of memory).
[[noreturn]] void hardStop(const char *Why);
/// The new-handler and LLVM's bad-alloc handler: a hard stop.
void outOfMemory();
void badAlloc(void *, const char *, bool);

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
        Progress(llvm::sys::Process::StandardErrIsDisplayed()),
        Lines(Opts.ProgressLines && !Progress), Thread([this] { loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> G(M);
      Done = true;
    }
    CV.notify_all();
    Thread.join();
    if (Shown)
      llvm::errs() << "\r\033[K";
  }
  /// Why Cancel was set (the run's limit).
  std::string Reason;
  /// What the engines poll (EngineOptions::Cancelled).
  std::atomic<bool> StageCancel{false};
  /// What the engines count (EngineOptions::Progress), shown with the
  /// phase.
  EngineProgress Counts;

  /// Starts a stage that may run for at most Seconds (0: until the run's
  /// own limit).
  void beginStage(double Seconds) {
    std::lock_guard<std::mutex> G(M);
    StageRanOut = false;
    StageCancel = Cancel.load();
    StageDeadline =
        Seconds > 0
            ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(Seconds))
            : Clock::time_point::max();
  }
  /// The current stage was stopped by its own share (not the run's limit).
  bool stageRanOut() const { return StageRanOut; }
  /// The run's time limit in seconds (0: none), as configured.
  unsigned limitSeconds() const { return TimeoutSeconds; }
  /// The seconds the portfolio's stage work budgets derive from: the run's
  /// limit, or for a program of a database its fixed share of the
  /// database's (DriverOptions::WorkBasisSeconds), so that they do not
  /// depend on how long the programs before it ran.
  unsigned budgetBasisSeconds() const {
    return Opts.WorkBasisSeconds ? Opts.WorkBasisSeconds : TimeoutSeconds;
  }
  /// Seconds left of the run's time limit (infinity without one).
  double remaining() const {
    if (!TimeoutSeconds)
      return std::numeric_limits<double>::infinity();
    double Used = std::chrono::duration<double>(Clock::now() - Start).count();
    return std::max(0.0, TimeoutSeconds - Used);
  }
  /// The analysis is over: the report is written whatever the clock says.
  /// False when a hard stop at the time limit claimed the report first:
  /// the caller writes nothing (the hard stop ends the process).
  [[nodiscard]] bool claimReport() { return !Reporting.exchange(true); }

  /// What the run has found so far (the portfolio's merged result before
  /// each stage that may not stop on time): a hard stop at the time limit
  /// reports it (HardStopReport) rather than a bare unknown.
  void publish(const Result &R) {
    std::lock_guard<std::mutex> G(PublishedM);
    Published = R;
  }
  [[nodiscard]] std::optional<Result> published() const {
    std::lock_guard<std::mutex> G(PublishedM);
    return Published;
  }
  /// Set by the driver: writes the report of published() as the run's own
  /// end would with its limit reached, and returns its outcome; nullopt
  /// when nothing was published (the hard stop's unknown then). The
  /// watchdog calls it only once it has claimed the report (claimReport),
  /// so what it refers to lives until the driver claims the report.
  using HardStopReportFn =
      std::function<std::optional<RunOutcome>(const std::string &Why)>;
  void setHardStopReport(HardStopReportFn F) {
    std::lock_guard<std::mutex> G(PublishedM);
    HardStopReport = std::move(F);
  }

private:
  void loop();
  /// ", 8.2 M / 20 M transitions", or "".
  std::string counts() const;
  const DriverOptions &Opts;
  unsigned TimeoutSeconds;
  std::atomic<bool> &Cancel;
  Clock::time_point Start;
  Clock::time_point StageDeadline = Clock::time_point::max();
  std::atomic<bool> StageRanOut{false};
  std::atomic<bool> Reporting{false};
  mutable std::mutex PublishedM;
  std::optional<Result> Published;
  HardStopReportFn HardStopReport;
  /// A status line on a terminal; with --progress elsewhere, a line every
  /// 10 s and at each new phase.
  bool Progress, Lines;
  const char *LastPhase = nullptr;
  double LastLine = 0;
  bool Shown = false;
  bool Done = false;
  std::mutex M;
  std::condition_variable CV;
  std::thread Thread;
};

} // namespace crace::driver
