//===- Finding.cpp --------------------------------------------------------===//
#include "report/Finding.h"

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

} // namespace crace
