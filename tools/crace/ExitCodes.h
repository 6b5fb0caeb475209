//===- ExitCodes.h - crace's exit codes, and how a run's outcome maps -----===//
//
// The only place that knows the numbers (docs/usage.md, "Verdicts and exit
// codes"): the driver returns a RunOutcome, and the tool ends the process
// with the code this maps it to, also after a hard stop (the handler the
// tool installs with setHardStopExit).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Driver.h"

#include <unistd.h>

namespace crace {

enum ExitCode : int {
  ExitRaceFree = 0,
  ExitRace = 1,
  ExitPossibleRace = 2,
  ExitUsage = 3,
  ExitCompile = 4,
  ExitInternal = 5,
  /// A budget ran out or crace met what it cannot analyse, and nothing
  /// was found: the reasons are printed.
  ExitUnknown = 6,
  // --verify: 0 when every expectation holds, else:
  ExitVerifyFailed = 1,
};

/// The documented exit code of a run's outcome.
inline int exitCodeOf(RunOutcome O) {
  switch (O.Status) {
  case RunStatus::Verdict:
    switch (O.V) {
    case Verdict::RaceFree:
      return ExitRaceFree;
    case Verdict::Race:
      return ExitRace;
    case Verdict::PossibleRace:
      return ExitPossibleRace;
    case Verdict::Unknown:
      return ExitUnknown;
    }
    break;
  case RunStatus::Usage:
    return ExitUsage;
  case RunStatus::Compile:
    return ExitCompile;
  case RunStatus::Internal:
    return ExitInternal;
  case RunStatus::VerifyPassed:
  case RunStatus::Listed:
    return 0;
  case RunStatus::VerifyFailed:
    return ExitVerifyFailed;
  }
  return ExitInternal;
}

/// Leaves at once with O's exit code (no destructors, no exit handlers):
/// the hard stop's handler (setHardStopExit).
[[noreturn]] inline void exitNow(RunOutcome O) { ::_exit(exitCodeOf(O)); }

} // namespace crace
