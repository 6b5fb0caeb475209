//===- Suppressions.cpp - findings the user marked as intended races ------===//
#include "report/Suppressions.h"
#include "report/SourceText.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>

using namespace llvm;

namespace crace {

namespace {

/// "s" of "s.f[2]", "p" of "p->next".
StringRef rootName(StringRef Var) {
  return Var.take_until(
      [](char C) { return C == '.' || C == '-' || C == '['; });
}

/// "f" of "s.f[2]" and of "p->f"; "" when the variable has no field.
StringRef lastField(StringRef Var) {
  size_t Dot = Var.rfind('.'), Arrow = Var.rfind("->");
  size_t At = StringRef::npos;
  if (Dot != StringRef::npos)
    At = Dot + 1;
  if (Arrow != StringRef::npos && (At == StringRef::npos || Arrow + 2 > At))
    At = Arrow + 2;
  if (At == StringRef::npos)
    return "";
  return Var.drop_front(At).take_until([](char C) { return C == '['; });
}

/// Why the list suppresses F, or "".
std::string byList(const Finding &F, const SuppressionSources &S) {
  if (!S.List)
    return "";
  const SpecialCaseList &L = *S.List;
  auto In = [&](StringRef Prefix, StringRef Query) {
    return !Query.empty() && L.inSection("crace", Prefix, Query);
  };
  StringRef Var = F.First.Variable;
  for (const AccessInfo *A : {&F.First, &F.Second}) {
    for (StringRef P : {"race", "fun"})
      if (In(P, A->Loc.Function))
        return (P + ":" + A->Loc.Function).str();
    if (In("src", A->Loc.File))
      return "src:" + A->Loc.File;
  }
  if (In("race", rootName(Var)))
    return ("race:" + rootName(Var)).str();
  if (In("global", rootName(Var)))
    return ("global:" + rootName(Var)).str();
  if (In("field", lastField(Var)))
    return ("field:" + lastField(Var)).str();
  return "";
}

constexpr StringLiteral BenignMarker = "crace: benign-race";
/// The Linux kernel's (and KCSAN's) mark of an intended race.
constexpr StringLiteral DataRaceMarker = "data_race(";

} // namespace

Expected<std::unique_ptr<SpecialCaseList>>
loadSuppressions(const std::string &File) {
  std::string Error;
  auto L = SpecialCaseList::create({File}, *vfs::getRealFileSystem(), Error);
  if (!L)
    return createStringError(inconvertibleErrorCode(),
                             "--suppressions: " + Error);
  return std::move(L);
}

void applySuppressions(Result &R, const SuppressionSources &S,
                       unsigned MaxFindings,
                       const std::vector<std::string> &Assumptions) {
  SourceCache Sources;
  std::map<std::string, unsigned> ByWhat;
  size_t Before = R.Findings.size(), Suppressed = 0;
  std::vector<bool> Drop(R.Findings.size());
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    std::string Why;
    if (F.Category == FindingCategory::DataRace) {
      for (const AccessInfo *A : {&F.First, &F.Second}) {
        if (!Why.empty())
          break;
        if (S.NoSanitizeThread.count(A->Loc.Function))
          Why = "no_sanitize(\"thread\") on '" + A->Loc.Function + "'";
        for (unsigned Line : {A->Loc.Line, A->Loc.Line - 1}) {
          if (!Why.empty() || Line == 0)
            continue;
          std::string Text = Sources.line(A->Loc.File, Line).value_or("");
          if (StringRef(Text).contains(BenignMarker))
            Why = "the benign-race comment at " + A->Loc.File + ":" +
                  std::to_string(Line);
          else if (Line == A->Loc.Line &&
                   StringRef(Text).contains(DataRaceMarker))
            Why = "data_race() at " + A->Loc.File + ":" + std::to_string(Line);
        }
      }
      if (Why.empty()) {
        std::string Rule = byList(F, S);
        if (!Rule.empty())
          Why = "'" + Rule + "' in " + S.ListFile;
      }
    }
    if (Why.empty())
      continue;
    Drop[I] = true;
    ++Suppressed;
    ++ByWhat[Why];
  }
  if (!Suppressed)
    return;
  std::vector<Finding> Kept;
  for (size_t I = 0; I < R.Findings.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(R.Findings[I]));
  R.Findings = std::move(Kept);
  R.stat("suppressed_findings", double(Suppressed));
  std::string Note =
      std::to_string(Suppressed) +
      (Suppressed == 1 ? " finding was suppressed as an intended race:"
                       : " findings were suppressed as intended races:");
  bool FirstWhy = true;
  for (const auto &[Why, N] : ByWhat) {
    Note += (FirstWhy ? " " : "; ") + std::to_string(N) + " by " + Why;
    FirstWhy = false;
  }
  bool Confirmed = false, Possible = false;
  for (const Finding &F : R.Findings)
    if (F.Category == FindingCategory::DataRace) {
      Confirmed |= F.Kind == Verdict::Race;
      Possible = true;
    }
  if (R.Program == Verdict::Unknown || R.Program == Verdict::RaceFree) {
    R.reason(ReasonKind::Note, Note);
    return;
  }
  if (Confirmed || Possible) {
    R.Program = Confirmed ? Verdict::Race : Verdict::PossibleRace;
    R.reason(ReasonKind::Note, Note);
    return;
  }
  bool Complete =
      R.CandidatesComplete && (!MaxFindings || Before < MaxFindings);
  if (Complete) {
    R.Program = Verdict::RaceFree;
    // The pairs the engine could not confirm are all suppressed.
    llvm::erase_if(R.Reasons, [](const Reason &W) {
      return W.Kind == ReasonKind::Overapproximation;
    });
    R.Assumptions = Assumptions;
    R.Assumptions.push_back("the suppressed pairs race as intended (" + Note +
                            ")");
  } else {
    R.Program = Verdict::Unknown;
    R.reason(ReasonKind::Incomplete,
             Note + "; every finding was suppressed, but the search that "
                    "found them was not complete, so the rest of the "
                    "program is not proved race-free");
  }
}

Expected<std::set<std::string>> loadBaseline(const std::string &File) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "--baseline: '" + File + "' " + Why);
  };
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf)
    return Fail("cannot be read: " + Buf.getError().message());
  auto Doc = json::parse((*Buf)->getBuffer());
  if (!Doc)
    return Fail("is not JSON: " + toString(Doc.takeError()));
  const json::Object *O = Doc->getAsObject();
  std::set<std::string> Out;
  bool Missing = false;
  auto Take = [&](const json::Object *F, bool Sarif) {
    std::optional<StringRef> FP;
    if (!F)
      return;
    if (Sarif) {
      if (const json::Object *P = F->getObject("partialFingerprints"))
        FP = P->getString("craceFinding/v1");
    } else {
      FP = F->getString("fingerprint");
    }
    if (FP)
      Out.insert(FP->str());
    else
      Missing = true;
  };
  if (const json::Array *Runs = O ? O->getArray("runs") : nullptr) {
    for (const json::Value &Run : *Runs)
      if (const json::Object *RO = Run.getAsObject())
        if (const json::Array *Res = RO->getArray("results"))
          for (const json::Value &V : *Res)
            Take(V.getAsObject(), true);
  } else if (const json::Array *Fs = O ? O->getArray("findings") : nullptr) {
    for (const json::Value &V : *Fs)
      Take(V.getAsObject(), false);
  } else {
    return Fail("is not a report of crace (--format=json or sarif)");
  }
  if (Missing)
    return Fail("has findings without fingerprints (written by an older "
                "crace); write it again");
  return Out;
}

void applyBaseline(Result &R, const std::set<std::string> &Baseline,
                   const std::string &File) {
  SourceCache Sources;
  std::vector<Finding> New;
  size_t Known = 0;
  for (Finding &F : R.Findings) {
    if (Baseline.count(fingerprint(F, Sources)))
      ++Known;
    else
      New.push_back(std::move(F));
  }
  R.Findings = std::move(New);
  if (!Known)
    return;
  R.stat("baseline_findings", double(Known));
  std::string Note = std::to_string(Known) +
                     (Known == 1 ? " finding is" : " findings are") +
                     " in the baseline '" + File + "' and not reported";
  bool Confirmed = false, Possible = false;
  for (const Finding &F : R.Findings)
    if (F.Category == FindingCategory::DataRace) {
      Confirmed |= F.Kind == Verdict::Race;
      Possible = true;
    }
  if (Confirmed || Possible)
    R.Program = Confirmed ? Verdict::Race : Verdict::PossibleRace;
  else if (R.Program != Verdict::RaceFree) {
    R.Program = Verdict::Unknown;
    Note += "; there is no new one, but the program is not proved "
            "race-free while they remain";
  }
  if (R.Program != Verdict::RaceFree)
    R.Assumptions.clear();
  R.reason(ReasonKind::Note, Note);
}

} // namespace crace
