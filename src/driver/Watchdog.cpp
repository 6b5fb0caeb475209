//===- Watchdog.cpp - the limits, stage shares and progress of one run ---===//
#include "driver/Watchdog.h"
#include "report/Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <fstream>
#include <unistd.h>

using namespace llvm;

namespace crace::driver {

std::atomic<const char *> Phase{"starting"};
std::string HardStopFormat = "text";
bool HardStopSvComp = false;

/// Prints an honest verdict and leaves at once: used when a budget is
/// exceeded where crace cannot stop gracefully (inside clang, out of memory).
[[noreturn]] void hardStop(const char *Why) {
  std::string Msg;
  if (HardStopFormat == "json" || HardStopFormat == "sarif" ||
      HardStopFormat == "html") {
    Result R;
    R.Program = Verdict::Unknown;
    R.Engine = "none";
    R.Reasons.push_back(Why);
    raw_string_ostream OS(Msg);
    if (HardStopFormat == "json")
      writeJson(R, OS);
    else if (HardStopFormat == "html")
      writeHtml(R, OS);
    else
      writeSarif(R, OS);
  } else {
    Msg = std::string("crace: verdict: unknown (") + Why + ")\n";
  }
  if (HardStopSvComp)
    Msg += "UNKNOWN\n";
  ssize_t Ignored = ::write(1, Msg.data(), Msg.size());
  (void)Ignored;
  ::_exit(ExitUnknown);
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

void Watchdog::loop() {
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

} // namespace crace::driver
