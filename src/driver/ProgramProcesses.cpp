//===- ProgramProcesses.cpp - a database's programs, --jobs at a time -----===//
#include "driver/ProgramProcesses.h"
#include "driver/Driver.h"
#include "report/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <future>

using namespace llvm;

namespace crace {

namespace {

/// "program 'x' was not analysed (WHY)" -> WHY.
std::string notAnalysedWhy(StringRef Text) {
  size_t Open = Text.find(" was not analysed (");
  if (Open == StringRef::npos || !Text.ends_with(")"))
    return Text.str();
  return Text.drop_front(Open + strlen(" was not analysed ("))
      .drop_back()
      .str();
}

/// Program I's analysis by its own crace process.
ProgramProcess analyseOne(const DriverOptions &Opts,
                          const std::vector<std::string> &Names, size_t I,
                          unsigned TimeoutEach, StringRef Dir) {
  ProgramProcess P;
  SmallString<128> Json(Dir), Err(Dir);
  sys::path::append(Json, "program-" + std::to_string(I) + ".json");
  sys::path::append(Err, "program-" + std::to_string(I) + ".err");
  // The run's own options, then this process's (a later occurrence
  // wins), all before the compiler flags after `--`.
  std::vector<std::string> Extra{"--shard=" + std::to_string(I + 1) + "/" +
                                     std::to_string(Names.size()),
                                 "--format=json",
                                 "-o",
                                 Json.str().str(),
                                 "--jobs=1",
                                 "--progress=false"};
  if (TimeoutEach)
    Extra.push_back("--timeout=" + std::to_string(TimeoutEach));
  std::vector<std::string> Args{Opts.SelfExe};
  auto DashDash = llvm::find(Opts.SelfArgs, "--");
  Args.insert(Args.end(), Opts.SelfArgs.begin(), DashDash);
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  Args.insert(Args.end(), DashDash, Opts.SelfArgs.end());
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(""),
                                          StringRef(Err)};
  std::string ExecError;
  int Code = sys::ExecuteAndWait(Opts.SelfExe, Refs, std::nullopt, Redirects, 0,
                                 0, &ExecError);
  if (auto Buf = MemoryBuffer::getFile(Err))
    P.Stderr = (*Buf)->getBuffer().str();
  auto Fail = [&](const Twine &Why) {
    P.R.reset();
    P.NotAnalysed = Why.str();
    return P;
  };
  auto Buf = MemoryBuffer::getFile(Json);
  if (!Buf)
    return Fail("its crace process ended with exit code " +
                std::to_string(Code) + " and no report" +
                (ExecError.empty() ? "" : ": " + ExecError));
  Expected<Result> Shard = readJson((*Buf)->getBuffer());
  if (!Shard)
    return Fail("its crace process wrote no readable report (" +
                toString(Shard.takeError()) + ")");
  for (ProgramRun &Run : splitPrograms(*Shard)) {
    if (Run.Name != Names[I])
      continue;
    if (Run.R)
      P.R = std::move(Run.R);
    else
      P.NotAnalysed = notAnalysedWhy(Run.NotAnalysed);
    return P;
  }
  return Fail("its crace process's report does not name it");
}

} // namespace

void analyseInProcesses(
    const DriverOptions &Opts, const std::vector<std::string> &Names,
    unsigned TimeoutEach,
    llvm::function_ref<void(size_t, ProgramProcess &)> Done) {
  SmallString<128> Dir;
  std::error_code EC = sys::fs::createUniqueDirectory("crace-programs", Dir);
  std::vector<ProgramProcess> Out(Names.size());
  if (EC) {
    for (size_t I = 0; I < Names.size(); ++I) {
      Out[I].NotAnalysed =
          "no temporary directory for its crace process: " + EC.message();
      Done(I, Out[I]);
    }
    return;
  }
  {
    DefaultThreadPool Pool(hardware_concurrency(Opts.DatabaseJobs));
    std::vector<std::shared_future<void>> Futures;
    for (size_t I = 0; I < Names.size(); ++I)
      Futures.push_back(Pool.async(
          [&, I] { Out[I] = analyseOne(Opts, Names, I, TimeoutEach, Dir); }));
    for (size_t I = 0; I < Names.size(); ++I) {
      Futures[I].wait();
      Done(I, Out[I]);
    }
  }
  sys::fs::remove_directories(Dir);
}

} // namespace crace
