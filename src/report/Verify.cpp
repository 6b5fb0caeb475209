//===- Verify.cpp - check a run against expectations in the C source ------===//
//
// Expectations (docs/testing.md), in comments, in the clang -verify style:
//   // expected-verdict: race-free          the program verdict
//   // expected-verdict(lockset): possible-race   ... for one engine only
//   x = 1;  // expected-race                this line is one access of a
//                                           reported race (any engine)
//   x = 1;  // expected-race(explore)       ... for that engine only
//   lock(&b); // expected-deadlock(explore)  a reported deadlock has a
//                                           blocked thread on this line
//   assert(x);  // expected-assertion(explore)  an assertion fails here
// Every reported race must have an access on an expected-race line, and
// every expected-race line must be an access of some reported race.
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>

using namespace llvm;

namespace crace {

namespace {

std::string canonical(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return Real.str().str();
}

/// Parses "NAME(ENGINES)" at the start of S: returns whether the marker
/// applies to Engine, and advances S past it.
bool appliesTo(StringRef &S, StringRef Engine) {
  if (!S.consume_front("("))
    return true;
  auto [List, Rest] = S.split(')');
  S = Rest;
  SmallVector<StringRef, 4> Names;
  List.split(Names, ',');
  for (StringRef N : Names)
    if (N.trim() == Engine)
      return true;
  return false;
}

} // namespace

bool verifyExpectations(const Result &R, const std::vector<std::string> &Files,
                        raw_ostream &OS) {
  std::optional<Verdict> Any, ForEngine;
  std::set<std::pair<std::string, unsigned>> RaceLines, DeadlockLines,
      AssertLines;
  std::map<std::string, std::string> Display;
  bool Ok = true;
  for (const std::string &File : Files) {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      OS << "error: cannot read '" << File << "' for --verify\n";
      return false;
    }
    std::string Canon = canonical(File);
    Display[Canon] = File;
    unsigned LineNo = 0;
    StringRef Text = (*Buf)->getBuffer();
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      Text = Rest;
      ++LineNo;
      for (size_t Pos = Line.find("expected-"); Pos != StringRef::npos;
           Pos = Line.find("expected-", Pos + 1)) {
        StringRef S = Line.substr(Pos);
        if (S.consume_front("expected-verdict")) {
          bool Qualified = S.starts_with("(");
          bool Applies = appliesTo(S, R.Engine);
          S = S.ltrim();
          if (!S.consume_front(":")) {
            OS << formatv("{0}:{1}: error: expected ':' after "
                          "expected-verdict\n",
                          File, LineNo);
            Ok = false;
            continue;
          }
          StringRef Word = S.ltrim().take_while(
              [](char C) { return isAlnum(C) || C == '-'; });
          auto V = parseVerdict(Word);
          if (!V) {
            OS << formatv("{0}:{1}: error: unknown verdict '{2}'\n", File,
                          LineNo, Word);
            Ok = false;
            continue;
          }
          if (Applies)
            (Qualified ? ForEngine : Any) = V;
        } else if (S.consume_front("expected-race")) {
          if (appliesTo(S, R.Engine))
            RaceLines.insert({Canon, LineNo});
        } else if (S.consume_front("expected-deadlock")) {
          if (appliesTo(S, R.Engine))
            DeadlockLines.insert({Canon, LineNo});
        } else if (S.consume_front("expected-assertion")) {
          if (appliesTo(S, R.Engine))
            AssertLines.insert({Canon, LineNo});
        }
      }
    }
  }

  std::optional<Verdict> Expected = ForEngine ? ForEngine : Any;
  if (!Expected) {
    OS << "error: no 'expected-verdict:' annotation for engine '" << R.Engine
       << "' in the sources\n";
    return false;
  }
  if (*Expected != R.Program) {
    OS << formatv("error: expected verdict '{0}' but crace said '{1}'\n",
                  verdictName(*Expected), verdictName(R.Program));
    for (const Reason &Why : R.Reasons)
      OS << "  reason: " << Why.Text << "\n";
    Ok = false;
  }

  bool RacyVerdict =
      *Expected == Verdict::Race || *Expected == Verdict::PossibleRace;
  std::set<std::pair<std::string, unsigned>> Hit;
  std::map<std::string, std::string> CanonCache;
  auto Canon = [&](const std::string &F) -> const std::string & {
    auto It = CanonCache.find(F);
    if (It == CanonCache.end())
      It = CanonCache.insert({F, canonical(F)}).first;
    return It->second;
  };
  std::set<std::pair<std::string, unsigned>> DeadlockHit, AssertHit;
  for (const Finding &F : R.Findings) {
    std::pair<std::string, unsigned> A = {Canon(F.First.Loc.File),
                                          F.First.Loc.Line};
    std::pair<std::string, unsigned> B = {Canon(F.Second.Loc.File),
                                          F.Second.Loc.Line};
    if (F.Category == FindingCategory::AssertionFailure) {
      if (!AssertLines.count(A)) {
        OS << formatv("error: unexpected assertion failure at {0}\n",
                      F.First.Loc.str());
        Ok = false;
      }
      AssertHit.insert(A);
      continue;
    }
    if (F.Category == FindingCategory::Deadlock) {
      bool InA = DeadlockLines.count(A), InB = DeadlockLines.count(B);
      if (InA)
        DeadlockHit.insert(A);
      if (InB)
        DeadlockHit.insert(B);
      if (!InA && !InB) {
        OS << formatv("error: unexpected deadlock: {0} / {1}\n",
                      F.First.Loc.str(), F.Second.Loc.str());
        Ok = false;
      }
      continue;
    }
    bool InA = RaceLines.count(A), InB = RaceLines.count(B);
    if (InA)
      Hit.insert(A);
    if (InB)
      Hit.insert(B);
    if (!InA && !InB) {
      OS << formatv("error: unexpected {0} on '{1}': {2} / {3}\n",
                    verdictName(F.Kind), F.First.Variable, F.First.Loc.str(),
                    F.Second.Loc.str());
      Ok = false;
    }
  }
  if (RacyVerdict || !RaceLines.empty())
    for (const auto &L : RaceLines)
      if (!Hit.count(L)) {
        OS << formatv("error: expected a race at {0}:{1}, none reported\n",
                      Display.count(L.first) ? Display[L.first] : L.first,
                      L.second);
        Ok = false;
      }
  for (const auto &L : AssertLines)
    if (!AssertHit.count(L)) {
      OS << formatv("error: expected an assertion failure at {0}:{1}, none "
                    "reported\n",
                    Display.count(L.first) ? Display[L.first] : L.first,
                    L.second);
      Ok = false;
    }
  for (const auto &L : DeadlockLines)
    if (!DeadlockHit.count(L)) {
      OS << formatv("error: expected a deadlock at {0}:{1}, none reported\n",
                    Display.count(L.first) ? Display[L.first] : L.first,
                    L.second);
      Ok = false;
    }
  return Ok;
}

} // namespace crace
