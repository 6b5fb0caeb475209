//===- Finding.cpp --------------------------------------------------------===//
#include "report/Finding.h"

#include <map>
#include <tuple>

namespace crace {

llvm::StringRef verdictName(Verdict V) {
  switch (V) {
  case Verdict::RaceFree:
    return "race-free";
  case Verdict::Race:
    return "race";
  case Verdict::PossibleRace:
    return "possible-race";
  case Verdict::Unknown:
    return "unknown";
  }
  return "unknown";
}

std::optional<Verdict> parseVerdict(llvm::StringRef S) {
  S = S.trim();
  if (S == "race-free")
    return Verdict::RaceFree;
  if (S == "race")
    return Verdict::Race;
  if (S == "possible-race")
    return Verdict::PossibleRace;
  if (S == "unknown")
    return Verdict::Unknown;
  return std::nullopt;
}

std::vector<Reason> reasonsOf(ReasonKind K,
                              const std::vector<std::string> &Texts) {
  std::vector<Reason> Out;
  for (const std::string &T : Texts)
    Out.push_back({K, T});
  return Out;
}

std::vector<std::string> Result::reasonTexts() const {
  std::vector<std::string> Out;
  for (const Reason &W : Reasons)
    Out.push_back(W.Text);
  return Out;
}

std::vector<bool> racingSteps(const Finding &F) {
  std::vector<bool> Out(F.Trace.size());
  if (F.Category != FindingCategory::DataRace)
    return Out;
  auto At = [](const SourceLoc &S, const SourceLoc &A) {
    return S.Line == A.Line && S.File == A.File;
  };
  for (size_t I = 0; I < F.Trace.size(); ++I) {
    const TraceStep &S = F.Trace[I];
    bool Last = true;
    for (size_t J = I + 1; J < F.Trace.size() && Last; ++J)
      Last = F.Trace[J].ThreadId != S.ThreadId;
    Out[I] = Last && (At(S.Loc, F.First.Loc) || At(S.Loc, F.Second.Loc));
  }
  return Out;
}

std::vector<unsigned> findingGroups(const Result &R) {
  std::map<std::tuple<std::string, int, int, std::string>, unsigned> Ids;
  std::vector<unsigned> Out;
  Out.reserve(R.Findings.size());
  for (const Finding &F : R.Findings) {
    auto Key = std::make_tuple(F.Program, int(F.Category), int(F.Kind),
                               F.First.Variable);
    Out.push_back(Ids.try_emplace(Key, unsigned(Ids.size())).first->second);
  }
  return Out;
}

Verdict worstOf(Verdict A, Verdict B) {
  auto Rank = [](Verdict V) {
    switch (V) {
    case Verdict::Race:
      return 3;
    case Verdict::PossibleRace:
      return 2;
    case Verdict::Unknown:
      return 1;
    case Verdict::RaceFree:
      return 0;
    }
    return 1;
  };
  return Rank(A) >= Rank(B) ? A : B;
}

Verdict programsVerdict(const std::vector<ProgramRun> &Runs) {
  Verdict V = Verdict::RaceFree;
  bool First = true;
  for (const ProgramRun &P : Runs)
    if (P.R) {
      V = First ? P.R->Program : worstOf(V, P.R->Program);
      First = false;
    }
  for (const ProgramRun &P : Runs)
    if (!P.R)
      V = worstOf(V, Verdict::Unknown);
  return V;
}

Result combinePrograms(std::vector<ProgramRun> Runs, std::string Engine) {
  Result All;
  All.Program = programsVerdict(Runs);
  All.Engine = std::move(Engine);
  for (const ProgramRun &P : Runs)
    if (!P.R)
      All.reason(ReasonKind::Failure, P.NotAnalysed);
  for (ProgramRun &P : Runs) {
    if (!P.R)
      continue;
    Result &R = *P.R;
    All.Programs.push_back({P.Name, P.Main, verdictName(R.Program).str(),
                            R.Findings.size(), R.Engine});
    for (Finding &F : R.Findings) {
      F.Program = P.Name;
      All.Findings.push_back(std::move(F));
    }
    for (const std::string &A : R.Assumptions)
      All.Assumptions.push_back(P.Name + ": " + A);
    for (const Reason &W : R.Reasons)
      All.reason(W.Kind, P.Name + ": " + W.Text);
    for (auto &[K, V] : R.Stats)
      All.Stats.push_back({P.Name + "." + K, V});
    for (Counter &C : R.Counters)
      All.Counters.push_back({P.Name + "." + C.Group, C.Name, C.Desc, C.Value});
  }
  for (const ProgramRun &P : Runs)
    if (!P.R)
      All.Programs.push_back({P.Name, P.Main, "not analysed", 0, ""});
  if (All.Program != Verdict::RaceFree)
    All.Assumptions.clear();
  return All;
}

void cutFindings(Result &R, unsigned Max) {
  if (!Max || R.Findings.size() <= Max)
    return;
  std::vector<unsigned> Group = findingGroups(R);
  std::vector<bool> Keep(R.Findings.size());
  unsigned Kept = 0;
  for (size_t I = 0; I < R.Findings.size() && Kept < Max; ++I)
    if (R.Findings[I].Kind == Verdict::Race) {
      Keep[I] = true;
      ++Kept;
    }
  // Round robin over the groups: each round keeps the next finding of
  // every group that has one left.
  unsigned NumGroups = 0;
  for (unsigned G : Group)
    NumGroups = std::max(NumGroups, G + 1);
  std::vector<std::vector<size_t>> Members(NumGroups);
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (!Keep[I])
      Members[Group[I]].push_back(I);
  for (size_t Round = 0; Kept < Max; ++Round) {
    bool Any = false;
    for (const std::vector<size_t> &M : Members)
      if (Round < M.size() && Kept < Max) {
        Keep[M[Round]] = true;
        ++Kept;
        Any = true;
      }
    if (!Any)
      break;
  }
  std::vector<Finding> Out;
  Out.reserve(Kept);
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (Keep[I])
      Out.push_back(std::move(R.Findings[I]));
  R.Omitted += R.Findings.size() - Out.size();
  R.Findings = std::move(Out);
}

} // namespace crace
