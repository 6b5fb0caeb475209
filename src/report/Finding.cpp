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

} // namespace crace
