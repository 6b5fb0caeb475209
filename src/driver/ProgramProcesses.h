//===- ProgramProcesses.h - a database's programs, --jobs at a time -------===//
//
// With -p, a database of several programs and --jobs above 1, each program
// is analysed by a crace process of its own, --jobs at a time: the run's
// own command line with --shard=I/N (N the number of programs, so that
// shard I is program I alone), --format=json into a temporary file and
// --jobs=1. A process of its own keeps what is per process in crace apart:
// the LLVM statistics counters each program reports, the memory limit and
// the hard stop of a run that cannot stop gracefully. The units are
// compiled once, by the parent, into the cache the processes read them from
// (without a cache the programs run one after the other, in the parent).
// The processes' reports are read back and split into their programs as
// `crace merge` does, so the report is the one --jobs=1 writes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace crace {

struct DriverOptions;

/// One program's analysis by a crace process.
struct ProgramProcess {
  /// The program's result (when it was analysed).
  std::optional<Result> R;
  /// Why it was not analysed, as the report says it ("it does not compile
  /// or link", "exit code 5", ...).
  std::string NotAnalysed;
  /// What the process printed on stderr.
  std::string Stderr;
};

/// Analyses Names[0..N) (the database's programs in its order, all of the
/// run's) in processes as above, Opts.DatabaseJobs at a time, each
/// within TimeoutEach seconds (0: the run's own options). Done(I, P) is
/// called on the calling thread in the order 0, 1, ... as the processes
/// end.
void analyseInProcesses(
    const DriverOptions &Opts, const std::vector<std::string> &Names,
    unsigned TimeoutEach,
    llvm::function_ref<void(size_t, ProgramProcess &)> Done);

} // namespace crace
