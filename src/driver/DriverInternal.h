//===- DriverInternal.h - the driver's pieces, shared by its files --------===//
//
// Driver.cpp runs one program (runOneProgram) and writes its report
// (finishRun); Database.cpp runs a compilation database's programs
// (runDatabase), in this process or a process each (ProgramProcesses.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Driver.h"

namespace crace::driver {

/// Writes R as Opts say (format, file, shard, SV-COMP answer) and returns
/// the run's outcome.
RunOutcome finishRun(const DriverOptions &Opts, const Result &R);

/// Compiles, models and analyses one program; with Collect, hands its
/// result there instead of writing the report.
RunOutcome runOneProgram(const DriverOptions &Opts, Result *Collect);

/// The report of a shard that holds no program.
RunOutcome reportEmptyShard(const DriverOptions &Opts);

/// -p without files: every program of the database.
RunOutcome runDatabase(const DriverOptions &Given);

} // namespace crace::driver
