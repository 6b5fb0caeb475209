//===- Counters.h - crace's STATISTIC counters, as --stats prints them ----===//
//
// Every layer counts its work with LLVM's statistics (llvm/ADT/Statistic.h)
// under a DEBUG_TYPE of its own ("crace-frontend", "crace-model",
// "crace-analysis", "crace-explore", "crace-lockset"), declared with
// CRACE_STATISTIC so that the driver can list them with their group, name
// and description (LLVM's own list gives names and values only). They are
// ALWAYS_ENABLED_STATISTICs: they count in every build type. (A plain
// STATISTIC is a no-op under NDEBUG unless LLVM_FORCE_ENABLE_STATS is set,
// and Debian's llvm/Config/llvm-config.h defines that to 0 itself, over any
// -D on the command line.) A counter must only count deterministic work
// (no watchdog, no thread timing): --stats prints them, and a report must
// not change between runs. Header only, so every layer may include it
// (model/ is the lowest).
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_MODEL_COUNTERS_H
#define CRACE_MODEL_COUNTERS_H

#include "llvm/ADT/Statistic.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace crace {

/// One counter, as --stats prints it.
struct Counter {
  std::string Group; ///< its DEBUG_TYPE: "crace-model"
  std::string Name;  ///< "NumPasses"
  std::string Desc;
  uint64_t Value = 0;
};

/// Every counter CRACE_STATISTIC declared (static initialisation).
inline std::vector<llvm::TrackingStatistic *> &counterRegistry() {
  static std::vector<llvm::TrackingStatistic *> All;
  return All;
}

struct CounterRegistration {
  explicit CounterRegistration(llvm::TrackingStatistic &S) {
    counterRegistry().push_back(&S);
  }
};

/// The counters that counted since the last call, sorted by group, then
/// name (as LLVM prints them), and sets them to 0 again (each program of
/// a compilation database gets its own).
inline std::vector<Counter> takeCounters() {
  std::vector<Counter> Out;
  for (llvm::TrackingStatistic *S : counterRegistry()) {
    if (uint64_t V = S->getValue()) {
      Out.push_back({S->getDebugType(), S->getName(), S->getDesc(), V});
      *S = 0;
    }
  }
  std::sort(Out.begin(), Out.end(), [](const Counter &A, const Counter &B) {
    return std::tie(A.Group, A.Name) < std::tie(B.Group, B.Name);
  });
  return Out;
}

} // namespace crace

/// STATISTIC(VARNAME, DESC) that counts in every build type and that
/// takeCounters() lists.
#define CRACE_STATISTIC(VARNAME, DESC)                                         \
  ALWAYS_ENABLED_STATISTIC(VARNAME, DESC);                                     \
  static const ::crace::CounterRegistration VARNAME##Registration(VARNAME)

#endif // CRACE_MODEL_COUNTERS_H
