//===- ResultCache.cpp - a program's analysis result, cached --------------===//
#include "driver/ResultCache.h"
#include "driver/Portfolio.h"
#include "frontend/DiskCache.h"
#include "smt/Solver.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crace::driver {

namespace {

/// A stream that hashes what is written to it.
class HashingStream : public raw_ostream {
public:
  explicit HashingStream(SHA256 &H) : H(H) { SetUnbuffered(); }

private:
  void write_impl(const char *Ptr, size_t Size) override {
    H.update(StringRef(Ptr, Size));
    Pos += Size;
  }
  uint64_t current_pos() const override { return Pos; }
  SHA256 &H;
  uint64_t Pos = 0;
};

/// A file's contents in the key ("" when it is not given or unreadable:
/// the run then fails before any result is kept).
void addFile(CacheKey &K, const std::string &Path) {
  K.add(Path);
  if (Path.empty())
    return;
  auto Buf = MemoryBuffer::getFile(Path);
  K.add(Buf ? (*Buf)->getBuffer() : StringRef("<unreadable>"));
}

json::Value loc(const SourceLoc &L) {
  return json::Array{L.File, int64_t(L.Line), int64_t(L.Column), L.Function};
}

json::Value access(const AccessInfo &A) {
  json::Array Locks;
  for (const std::string &L : A.Locks)
    Locks.push_back(L);
  return json::Object{{"thread", A.Thread},       {"kind", int64_t(A.Kind)},
                      {"atomic", A.Atomic},       {"size", int64_t(A.Size)},
                      {"loc", loc(A.Loc)},        {"variable", A.Variable},
                      {"locks", std::move(Locks)}};
}

std::string str(const json::Value *V) {
  if (V)
    if (auto S = V->getAsString())
      return S->str();
  return "";
}

int64_t num(const json::Value *V) {
  if (V)
    if (auto N = V->getAsInteger())
      return *N;
  return 0;
}

SourceLoc readLoc(const json::Value *V) {
  SourceLoc L;
  if (const json::Array *A = V ? V->getAsArray() : nullptr;
      A && A->size() == 4) {
    L.File = str(&(*A)[0]);
    L.Line = unsigned(num(&(*A)[1]));
    L.Column = unsigned(num(&(*A)[2]));
    L.Function = str(&(*A)[3]);
  }
  return L;
}

std::vector<std::string> strings(const json::Value *V) {
  std::vector<std::string> Out;
  if (const json::Array *A = V ? V->getAsArray() : nullptr)
    for (const json::Value &E : *A)
      Out.push_back(str(&E));
  return Out;
}

AccessInfo readAccess(const json::Value *V) {
  AccessInfo A;
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return A;
  A.Thread = str(O->get("thread"));
  A.Kind = AccessKind(num(O->get("kind")));
  A.Atomic = O->getBoolean("atomic").value_or(false);
  A.Size = uint64_t(num(O->get("size")));
  A.Loc = readLoc(O->get("loc"));
  A.Variable = str(O->get("variable"));
  A.Locks = strings(O->get("locks"));
  return A;
}

} // namespace

std::string resultKey(const Module &M, const DriverOptions &Opts,
                      std::optional<EngineKind> Engine, StringRef Budgets) {
  const EngineOptions &E = Opts.EngineOpts;
  // Options that write files of their own, replay a trace, or bound the
  // solver by the clock: the analysis runs.
  if (!Opts.ReplayFile.empty() || !E.EmitSequential.empty() ||
      !E.SmtLogDir.empty() || E.KissQueryTimeout)
    return "";
  CacheKey K;
  K.add("result").add(DiskCache::buildIdentity());
  {
    HashingStream OS(K.hasher());
    WriteBitcodeToFile(M, OS, /*ShouldPreserveUseListOrder=*/true);
  }
  K.add(Engine ? engineName(*Engine) : StringRef("auto")).add(Budgets);
  // Every engine option (Engine.h), whether it matters to the engine that
  // runs or not.
  for (uint64_t N : {uint64_t(E.MaxPairs),
                     E.Seed,
                     uint64_t(E.MaxThreads),
                     uint64_t(E.MaxDepth),
                     E.MaxExecutions,
                     E.MaxTransitions,
                     uint64_t(E.MaxTransitionsGiven),
                     E.MaxInstructions,
                     uint64_t(E.MaxInstructionsGiven),
                     uint64_t(E.InputRounds),
                     uint64_t(E.EnumerateInputBits),
                     uint64_t(E.Pdp),
                     uint64_t(E.KissMax),
                     uint64_t(E.KissMaxGiven),
                     uint64_t(E.Unwind),
                     uint64_t(E.WhoopBudget),
                     E.WhoopWork,
                     E.KissWork,
                     uint64_t(E.KissBudget),
                     uint64_t(E.KissRounds),
                     uint64_t(E.KissYields),
                     uint64_t(E.StopAtFirstRace)})
    K.add(N);
  K.add(E.KissTarget).add(std::to_string(E.MoreRacesShare));
  K.add(std::to_string(E.WhoopWallLimit));
  // What the driver does with the result before it is kept.
  K.add(Opts.MaxFindings).add(Opts.SvComp).add(Opts.Stats);
  addFile(K, Opts.SuppressionsFile);
  addFile(K, Opts.BaselineFile);
  // Driver mode (the harness is in the module; the rest to be safe).
  const DriverModeOptions &D = Opts.DriverMode;
  K.add(D.Driver).add(D.Library).add(D.NoInitExitOrder).add(D.NoRtnl);
  K.add(D.NoIrqLock).add(D.EntryInstances).add(D.HarnessForm);
  K.add(D.HarnessFormGiven).add(D.DistinctParams).add(D.HarnessConfig);
  for (const auto *L : {&D.Entries, &D.NotConcurrent}) {
    K.add(L->size());
    for (const std::string &S : *L)
      K.add(S);
  }
  // main's inputs and the data model (also in the module).
  const ProgramInputOptions &In = Opts.Frontend.Inputs;
  K.add(In.FixedArgs).add(In.FixedEnv).add(Opts.Frontend.DataModel);
  for (const auto *L : {&In.Args, &In.Env}) {
    K.add(L->size());
    for (const std::string &S : *L)
      K.add(S);
  }
  return K.hex();
}

std::string saveResult(const Result &R) {
  json::Array Findings;
  for (const Finding &F : R.Findings) {
    json::Array Trace;
    for (const TraceStep &S : F.Trace)
      Trace.push_back(
          json::Array{S.Thread, int64_t(S.ThreadId), loc(S.Loc), S.Action});
    Findings.push_back(json::Object{{"kind", int64_t(F.Kind)},
                                    {"category", int64_t(F.Category)},
                                    {"first", access(F.First)},
                                    {"second", access(F.Second)},
                                    {"trace", std::move(Trace)},
                                    {"engine", F.Engine},
                                    {"schedule", F.Schedule},
                                    {"program", F.Program},
                                    {"concurrency", F.Concurrency}});
  }
  json::Array Reasons, Stats, Counters, Assumptions;
  for (const Reason &W : R.Reasons)
    Reasons.push_back(json::Array{int64_t(W.Kind), W.Text});
  for (const auto &[Name, V] : R.Stats)
    Stats.push_back(json::Array{Name, V});
  for (const Counter &C : R.Counters)
    Counters.push_back(json::Array{C.Group, C.Name, C.Desc, int64_t(C.Value)});
  for (const std::string &A : R.Assumptions)
    Assumptions.push_back(A);
  json::Object Doc{{"program", int64_t(R.Program)},
                   {"engine", R.Engine},
                   {"findings", std::move(Findings)},
                   {"omitted", int64_t(R.Omitted)},
                   {"assumptions", std::move(Assumptions)},
                   {"reasons", std::move(Reasons)},
                   {"harness", R.Harness},
                   {"candidates_complete", R.CandidatesComplete},
                   {"search_complete", R.SearchComplete},
                   {"stats", std::move(Stats)},
                   {"counters", std::move(Counters)}};
  std::string Out;
  raw_string_ostream OS(Out);
  OS << json::Value(std::move(Doc));
  return Out;
}

std::optional<Result> loadResult(StringRef Text) {
  auto Doc = json::parse(Text);
  if (!Doc) {
    consumeError(Doc.takeError());
    return std::nullopt;
  }
  const json::Object *O = Doc->getAsObject();
  if (!O || !O->getArray("findings") || !O->getArray("stats"))
    return std::nullopt;
  Result R;
  int64_t V = num(O->get("program"));
  if (V < 0 || V > int64_t(Verdict::Unknown))
    return std::nullopt;
  R.Program = Verdict(V);
  R.Engine = str(O->get("engine"));
  for (const json::Value &FV : *O->getArray("findings")) {
    const json::Object *FO = FV.getAsObject();
    if (!FO)
      return std::nullopt;
    Finding F;
    F.Kind = Verdict(num(FO->get("kind")));
    F.Category = FindingCategory(num(FO->get("category")));
    F.First = readAccess(FO->get("first"));
    F.Second = readAccess(FO->get("second"));
    if (const json::Array *T = FO->getArray("trace"))
      for (const json::Value &SV : *T) {
        const json::Array *S = SV.getAsArray();
        if (!S || S->size() != 4)
          return std::nullopt;
        F.Trace.push_back({str(&(*S)[0]), unsigned(num(&(*S)[1])),
                           readLoc(&(*S)[2]), str(&(*S)[3])});
      }
    F.Engine = str(FO->get("engine"));
    F.Schedule = str(FO->get("schedule"));
    F.Program = str(FO->get("program"));
    F.Concurrency = str(FO->get("concurrency"));
    R.Findings.push_back(std::move(F));
  }
  R.Omitted = size_t(num(O->get("omitted")));
  R.Assumptions = strings(O->get("assumptions"));
  if (const json::Array *A = O->getArray("reasons"))
    for (const json::Value &W : *A)
      if (const json::Array *P = W.getAsArray(); P && P->size() == 2)
        R.reason(ReasonKind(num(&(*P)[0])), str(&(*P)[1]));
  R.Harness = str(O->get("harness"));
  R.CandidatesComplete = O->getBoolean("candidates_complete").value_or(false);
  R.SearchComplete = O->getBoolean("search_complete").value_or(false);
  for (const json::Value &S : *O->getArray("stats"))
    if (const json::Array *P = S.getAsArray(); P && P->size() == 2)
      R.stat(str(&(*P)[0]), (*P)[1].getAsNumber().value_or(0));
  if (const json::Array *A = O->getArray("counters"))
    for (const json::Value &C : *A)
      if (const json::Array *P = C.getAsArray(); P && P->size() == 4)
        R.Counters.push_back({str(&(*P)[0]), str(&(*P)[1]), str(&(*P)[2]),
                              uint64_t(num(&(*P)[3]))});
  return R;
}

ResultCacheRun::ResultCacheRun(const DriverOptions &Opts, const Module &M,
                               std::optional<EngineKind> Engine,
                               const Watchdog &Dog)
    : Opts(Opts) {
  const DiskCache *Disk = Opts.Frontend.Disk;
  if (!Disk)
    return;
  Key = resultKey(M, Opts, Engine,
                  Engine ? "" : portfolioWorkBudgets(Dog, Opts.EngineOpts));
  if (Key.empty())
    return;
  if (std::optional<std::string> Entry = Disk->get("results", Key))
    Reused = loadResult(*Entry);
  if (Reused)
    ++Disk->ResultsReused;
}

void ResultCacheRun::beginAnalysis() {
  CutsBefore = smt::wallClockCuts().load();
  if (Opts.Stats)
    FrontCounters = takeCounters();
}

void ResultCacheRun::endAnalysis(Result &R, bool Cancelled) {
  if (Opts.Stats)
    R.Counters = takeCounters();
  const DiskCache *Disk = Opts.Frontend.Disk;
  if (!Disk)
    return;
  ++Disk->ResultsAnalysed;
  // A result a clock cut short could be better with more time.
  if (Key.empty() || Cancelled || smt::wallClockCuts().load() != CutsBefore)
    return;
  Disk->put("results", Key, saveResult(R));
}

void ResultCacheRun::finish(Result &R, bool Units) {
  if (Opts.Stats) {
    // The front end's, the analysis's (maybe reused) and the report's,
    // sorted as takeCounters sorts them, a counter in several summed.
    std::vector<Counter> All = std::move(FrontCounters);
    for (const std::vector<Counter> &More : {R.Counters, takeCounters()})
      All.insert(All.end(), More.begin(), More.end());
    llvm::stable_sort(All, [](const Counter &A, const Counter &B) {
      return std::tie(A.Group, A.Name) < std::tie(B.Group, B.Name);
    });
    R.Counters.clear();
    for (Counter &C : All)
      if (!R.Counters.empty() && R.Counters.back().Group == C.Group &&
          R.Counters.back().Name == C.Name)
        R.Counters.back().Value += C.Value;
      else
        R.Counters.push_back(std::move(C));
  }
  const DiskCache *Disk = Opts.Frontend.Disk;
  if (!Disk)
    return;
  if (Units) {
    R.stat("cache_units_reused", Disk->UnitsReused.load());
    R.stat("cache_units_compiled", Disk->UnitsCompiled.load());
  }
  R.stat("cache_result_reused", Reused ? 1 : 0);
}

std::string cacheNote(const DiskCache &Disk) {
  unsigned Reused = Disk.UnitsReused, Units = Reused + Disk.UnitsCompiled;
  unsigned Results = Disk.ResultsReused,
           Programs = Results + Disk.ResultsAnalysed;
  std::string Note = formatv("crace: cache: {0} of {1} unit{2} reused", Reused,
                             Units, Units == 1 ? "" : "s");
  if (Programs == 1)
    Note += Results ? ", analysis result reused"
                    : ", analysis result not "
                      "reused";
  else if (Programs > 1)
    Note += formatv(", {0} of {1} analysis results reused", Results, Programs)
                .str();
  return Note + "\n";
}

} // namespace crace::driver
