//===- Merge.cpp - crace merge: the shards' reports as one ----------------===//
//
// `crace merge A.json B.json ...` reads the JSON reports of the shards of
// one run (--shard=K/N), checks that they are shards 1..N of it, splits
// each back into its programs and combines them with combinePrograms, the
// code that combines a database's programs in an unsharded run: the merged
// report is the one that run writes (its timing statistics aside).
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>

using namespace llvm;

namespace crace {

std::optional<MergeOptions> parseMergeArgs(ArrayRef<const char *> Args,
                                           raw_ostream &OS) {
  MergeOptions Opts;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-o" || A == "--output") {
      if (I + 1 == Args.size()) {
        WithColor::error(OS, "crace") << "merge: " << A << " needs a file\n";
        return std::nullopt;
      }
      Opts.OutputFile = Args[++I];
    } else if (A.consume_front("-o=") || A.consume_front("--output=")) {
      Opts.OutputFile = A.str();
    } else if (A.consume_front("--format=") || A.consume_front("-format=")) {
      if (A == "json")
        Opts.Format = ReportFormat::Json;
      else if (A == "sarif")
        Opts.Format = ReportFormat::Sarif;
      else if (A == "text")
        Opts.Format = ReportFormat::Text;
      else {
        WithColor::error(OS, "crace")
            << "merge: --format must be json, sarif or text, not '" << A
            << "'\n";
        return std::nullopt;
      }
    } else if (A.starts_with("-") && A != "-") {
      WithColor::error(OS, "crace")
          << "merge: unknown option '" << A
          << "' (usage: crace merge SHARD.json... [-o FILE] "
             "[--format=json|sarif|text])\n";
      return std::nullopt;
    } else {
      Opts.Inputs.push_back(A.str());
    }
  }
  if (Opts.Inputs.empty()) {
    WithColor::error(OS, "crace")
        << "merge: no reports (usage: crace merge SHARD.json... [-o FILE] "
           "[--format=json|sarif|text])\n";
    return std::nullopt;
  }
  return Opts;
}

std::vector<ProgramRun> splitPrograms(Result &Shard) {
  std::vector<ProgramRun> Out;
  for (const ProgramSummary &S : Shard.Programs) {
    ProgramRun P{S.Name, S.Main, std::nullopt, ""};
    if (S.Verdict == "not analysed") {
      std::string Prefix = "program '" + S.Name + "' was not analysed (";
      for (const Reason &W : Shard.Reasons)
        if (StringRef(W.Text).starts_with(Prefix))
          P.NotAnalysed = W.Text;
      Out.push_back(std::move(P));
      continue;
    }
    Result R;
    R.Program = parseVerdict(S.Verdict).value_or(Verdict::Unknown);
    R.Engine = S.Engine.empty() ? Shard.Engine : S.Engine;
    for (Finding &F : Shard.Findings)
      if (F.Program == S.Name)
        R.Findings.push_back(F);
    std::string Colon = S.Name + ": ", Dot = S.Name + ".";
    for (const std::string &A : Shard.Assumptions)
      if (StringRef(A).starts_with(Colon))
        R.Assumptions.push_back(A.substr(Colon.size()));
    for (const Reason &W : Shard.Reasons)
      if (StringRef(W.Text).starts_with(Colon))
        R.reason(W.Kind, W.Text.substr(Colon.size()));
    for (const auto &[K, V] : Shard.Stats)
      if (StringRef(K).starts_with(Dot))
        R.stat(K.substr(Dot.size()), V);
    for (const Counter &C : Shard.Counters)
      if (StringRef(C.Group).starts_with(Dot))
        R.Counters.push_back(
            {C.Group.substr(Dot.size()), C.Name, C.Desc, C.Value});
    P.R = std::move(R);
    Out.push_back(std::move(P));
  }
  return Out;
}

namespace {

std::string shardName(const ShardInfo &S) {
  return std::to_string(S.Index) + "/" + std::to_string(S.Count);
}

RunOutcome mergeError(const Twine &Msg) {
  WithColor::error(errs(), "crace") << "merge: " << Msg << "\n";
  return RunStatus::Usage;
}

} // namespace

RunOutcome runMerge(const MergeOptions &Opts) {
  std::vector<Result> Shards;
  for (const std::string &File : Opts.Inputs) {
    auto Buf = MemoryBuffer::getFileOrSTDIN(File);
    if (!Buf)
      return mergeError("cannot read '" + File +
                        "': " + Buf.getError().message());
    Expected<Result> R = readJson((*Buf)->getBuffer());
    if (!R)
      return mergeError("'" + File + "': " + toString(R.takeError()));
    if (!R->Shard.Count)
      return mergeError("'" + File +
                        "' is not the report of a shard (run crace with "
                        "--shard=K/N --format=json)");
    Shards.push_back(std::move(*R));
  }
  // Shards 1..N of one run, each once.
  const ShardInfo &First = Shards.front().Shard;
  std::vector<int> Given(First.Count, -1);
  for (size_t I = 0; I < Shards.size(); ++I) {
    const ShardInfo &S = Shards[I].Shard;
    // The engine of a report over several programs is the one chosen
    // (--engine); a report of one program names the engine that decided.
    bool OtherEngine =
        First.Programs.size() > 1 && Shards[I].Engine != Shards.front().Engine;
    if (S.Count != First.Count || S.Programs != First.Programs || OtherEngine)
      return mergeError("'" + Opts.Inputs[I] + "' (shard " + shardName(S) +
                        ") and '" + Opts.Inputs.front() + "' (shard " +
                        shardName(First) +
                        ") are shards of different runs (their shard counts, "
                        "programs or engines differ)");
    if (S.Index < 1 || S.Index > S.Count)
      return mergeError("'" + Opts.Inputs[I] + "' names shard " + shardName(S) +
                        ", which does not exist");
    if (Given[S.Index - 1] >= 0)
      return mergeError("shard " + shardName(S) + " is given twice ('" +
                        Opts.Inputs[Given[S.Index - 1]] + "' and '" +
                        Opts.Inputs[I] + "')");
    Given[S.Index - 1] = int(I);
  }
  for (unsigned K = 0; K < First.Count; ++K)
    if (Given[K] < 0)
      return mergeError("shard " + std::to_string(K + 1) + "/" +
                        std::to_string(First.Count) +
                        " is missing: the merged report would not cover "
                        "every program");
  Result Merged;
  bool Database =
      llvm::any_of(Shards, [](const Result &R) { return !R.Programs.empty(); });
  if (!Database) {
    // One program (no database, or one program in it): shard 1 analysed
    // it, and its report is the run's.
    Merged = std::move(Shards[Given[0]]);
    Merged.Shard = ShardInfo();
  } else {
    // Every program back in the database's order, then combined as one
    // run combines them.
    std::vector<std::optional<ProgramRun>> Runs(First.Programs.size());
    std::vector<std::string> Covered;
    double CompileSeconds = -1;
    size_t Omitted = 0;
    for (Result &S : Shards) {
      Omitted += S.Omitted;
      for (const auto &[K, V] : S.Stats)
        if (K == "database_compile_seconds")
          CompileSeconds = std::max(CompileSeconds, V);
      for (ProgramRun &P : splitPrograms(S)) {
        auto It = llvm::find(First.Programs, P.Name);
        if (It == First.Programs.end() || Runs[It - First.Programs.begin()])
          return mergeError("program '" + P.Name +
                            "' is not in the run's list or is in two shards");
        Runs[It - First.Programs.begin()] = std::move(P);
      }
    }
    std::vector<ProgramRun> InOrder;
    for (size_t I = 0; I < Runs.size(); ++I) {
      if (!Runs[I])
        return mergeError("no shard reports program '" + First.Programs[I] +
                          "'");
      InOrder.push_back(std::move(*Runs[I]));
    }
    Merged = combinePrograms(std::move(InOrder), Shards.front().Engine);
    Merged.Omitted = Omitted;
    if (CompileSeconds >= 0)
      Merged.Stats.insert(Merged.Stats.begin(),
                          {"database_compile_seconds", CompileSeconds});
  }
  std::error_code EC;
  ToolOutputFile Out(Opts.OutputFile, EC, sys::fs::OF_Text);
  if (EC)
    return mergeError("cannot write '" + Opts.OutputFile +
                      "': " + EC.message());
  writeReport(Merged, Out.os(), Opts.Format, TextStyle{});
  Out.keep();
  return RunOutcome(Merged.Program);
}

} // namespace crace
