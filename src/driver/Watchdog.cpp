//===- Watchdog.cpp - the limits, stage shares and progress of one run ---===//
#include "driver/Watchdog.h"
#include "report/Report.h"
#include "smt/Solver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace llvm;

namespace crace {

namespace {
/// How a hard stop ends the process: the tool's handler (setHardStopExit).
std::atomic<void (*)(RunOutcome)> HardStopExit{nullptr};
} // namespace

void setHardStopExit(void (*Exit)(RunOutcome)) { HardStopExit = Exit; }

} // namespace crace

namespace crace::driver {

std::atomic<const char *> Phase{"starting"};
std::atomic<ReportFormat> HardStopFormat{ReportFormat::Text};
bool HardStopSvComp = false;

/// Ends the process with O's exit code (the tool's handler).
[[noreturn]] static void hardExit(RunOutcome O) {
  if (void (*Exit)(RunOutcome) = HardStopExit.load())
    Exit(O);
  std::abort(); // no handler, or it returned
}

/// Prints an honest verdict and leaves at once: used when a budget is
/// exceeded where crace cannot stop gracefully (inside clang, out of memory).
[[noreturn]] void hardStop(const char *Why) {
  std::string Msg;
  ReportFormat F = HardStopFormat;
  if (F == ReportFormat::Json || F == ReportFormat::Sarif ||
      F == ReportFormat::Html) {
    Result R;
    R.Program = Verdict::Unknown;
    R.Engine = "none";
    R.reason(ReasonKind::Budget, Why);
    raw_string_ostream OS(Msg);
    writeReport(R, OS, F, TextStyle{});
  } else {
    Msg = std::string("crace: verdict: unknown (") + Why + ")\n";
  }
  if (HardStopSvComp)
    Msg += "UNKNOWN\n";
  ssize_t Ignored = ::write(1, Msg.data(), Msg.size());
  (void)Ignored;
  hardExit(RunOutcome(Verdict::Unknown));
}

void outOfMemory() { hardStop("memory exhausted"); }

void badAlloc(void *, const char *, bool) { hardStop("memory exhausted"); }

namespace {

uint64_t residentMB() {
  std::ifstream In("/proc/self/statm");
  uint64_t Size = 0, Resident = 0;
  In >> Size >> Resident;
  return Resident * uint64_t(::sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

} // namespace

/// 8.2 M, 512 k, 37.
static std::string human(uint64_t N) {
  if (N >= 1'000'000'000)
    return formatv("{0:F1} G", N / 1e9).str();
  if (N >= 1'000'000)
    return formatv("{0:F1} M", N / 1e6).str();
  if (N >= 10'000)
    return formatv("{0} k", N / 1000).str();
  return std::to_string(N);
}

std::string Watchdog::counts() const {
  StringRef Unit = Counts.Unit.load();
  if (Unit.empty())
    return "";
  std::string S = ", " + human(Counts.Done.load());
  if (uint64_t T = Counts.Total.load())
    S += " / " + human(T);
  return S + " " + Unit.str();
}

void Watchdog::loop() {
  using namespace std::chrono;
  std::unique_lock<std::mutex> L(M);
  while (!CV.wait_for(L, milliseconds(100), [&] { return Done; })) {
    double Secs = duration<double>(Clock::now() - Start).count();
    if (TimeoutSeconds && Secs > TimeoutSeconds && !Cancel) {
      Reason = "time limit of " + std::to_string(TimeoutSeconds) + " s reached";
      Cancel = true;
    }
    if (Opts.MemLimitMB && !Cancel && residentMB() > Opts.MemLimitMB) {
      Reason =
          "memory limit of " + std::to_string(Opts.MemLimitMB) + " MB reached";
      Cancel = true;
    }
    if (Cancel)
      StageCancel = true;
    else if (!StageCancel && Clock::now() > StageDeadline) {
      StageRanOut = true;
      StageCancel = true;
      ++smt::wallClockCuts();
    }
    // Every stage polls the flags; the front end (clang) cannot, and gets
    // a short grace period, the engines a longer one (a Z3 call returns
    // after its interruption, its context takes a while to free), an
    // eighth of the limit from 1 to 10 s: a run limited to 8 s (the
    // SV-COMP harness's, for 10 s of CPU) ends by 9 s. Some Z3 queries
    // of kiss go on for seconds after their interruption.
    double Grace = StringRef(Phase.load()) == "compiling"
                       ? 2.0
                       : std::clamp(TimeoutSeconds / 8.0, 1.0, 10.0);
    if (Cancel && TimeoutSeconds && Secs > TimeoutSeconds + Grace &&
        claimReport()) {
      // What the stages before the one that does not stop found stays
      // reported (as the run's own end would report it).
      HardStopReportFn Report;
      {
        std::lock_guard<std::mutex> G(PublishedM);
        Report = HardStopReport;
      }
      std::optional<RunOutcome> O;
      if (Report)
        O = Report(Reason);
      if (O) {
        outs().flush();
        errs().flush();
        hardExit(*O);
      }
      hardStop(Reason.c_str());
    }
    if (Cancel && Opts.MemLimitMB &&
        residentMB() > Opts.MemLimitMB * 5 / 4 + 64)
      hardStop(Reason.c_str());
    if (Progress && Secs > 1.0) {
      errs() << "\r\033[Kcrace: " << Phase.load() << " (" << unsigned(Secs)
             << " s" << counts() << ")";
      Shown = true;
    }
    if (Lines && Secs > 1.0 &&
        (Phase.load() != LastPhase || Secs >= LastLine + 10)) {
      errs() << "crace: [" << unsigned(Secs) << " s] " << Phase.load()
             << counts() << "\n";
      LastPhase = Phase.load();
      LastLine = Secs;
    }
  }
}

} // namespace crace::driver
