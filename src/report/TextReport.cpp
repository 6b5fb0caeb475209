//===- TextReport.cpp - compiler-style text output ------------------------===//
#include "report/Report.h"
#include "report/SourceText.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace crace {

namespace {

std::string where(const SourceLoc &L) {
  SourceLoc S = L;
  S.File = shortPath(L.File);
  return S.str();
}

std::string kindName(const AccessInfo &A) {
  std::string S = A.Atomic ? "atomic " : "";
  S += A.Kind == AccessKind::Write ? "write" : "read";
  return S;
}

std::string lockList(const AccessInfo &A) {
  if (A.Locks.empty())
    return "no locks";
  std::string S = "locks {";
  for (size_t I = 0; I < A.Locks.size(); ++I)
    S += (I ? ", " : "") + A.Locks[I];
  return S + "}";
}

void snippet(SourceCache &Src, const SourceLoc &L, raw_ostream &OS) {
  auto Text = Src.line(L.File, L.Line);
  if (!Text)
    return;
  OS << formatv("{0,5} | {1}\n", L.Line, *Text);
  OS << "      | ";
  for (unsigned I = 1; I < L.Column && I <= Text->size(); ++I)
    OS << ((*Text)[I - 1] == '\t' ? '\t' : ' ');
  OS << "^\n";
}

} // namespace

/// The interleaving, one numbered step per line; very long traces keep
/// their start and their end.
static void writeTrace(const Finding &F, raw_ostream &OS) {
  if (F.Trace.empty())
    return;
  constexpr size_t Head = 40, Tail = 160;
  OS << "note: interleaving (" << F.Trace.size() << " steps):";
  for (size_t I = 0; I < F.Trace.size(); ++I) {
    if (F.Trace.size() > Head + Tail && I == Head) {
      OS << formatv("\n       ... {0} steps omitted (all are in the JSON "
                    "report) ...",
                    F.Trace.size() - Head - Tail);
      I = F.Trace.size() - Tail;
    }
    OS << formatv("\n  {0,3}. [{1}] {2}: {3}", I + 1, F.Trace[I].Thread,
                  where(F.Trace[I].Loc), F.Trace[I].Action);
  }
  OS << "\n";
}

/// The other pairs of F's group, one line each, under its diagnostic.
static void writeGroupRest(ArrayRef<const Finding *> Rest, raw_ostream &OS) {
  OS << formatv("note: {0} more pair{1} of accesses on '{2}' may race:\n",
                Rest.size(), Rest.size() == 1 ? "" : "s",
                Rest.front()->First.Variable);
  for (const Finding *F : Rest) {
    const AccessInfo &A = F->First, &B = F->Second;
    OS << formatv("  {0} {1} by '{2}' ({3}) / {4} {5} by '{6}' ({7})\n",
                  where(A.Loc), kindName(A), A.Thread, lockList(A),
                  where(B.Loc), kindName(B), B.Thread, lockList(B));
  }
}

void writeText(const Result &R, raw_ostream &OS, const TextStyle &Style) {
  SourceCache Src;
  bool Color = Style.Color;
  // Possible races on one variable: printed with the group's first one.
  std::vector<unsigned> Group = findingGroups(R);
  std::vector<std::vector<const Finding *>> Members;
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    if (Group[I] >= Members.size())
      Members.resize(Group[I] + 1);
    Members[Group[I]].push_back(&R.Findings[I]);
  }
  auto Grouped = [&](const Finding &F) {
    return Style.Group && F.Kind == Verdict::PossibleRace &&
           F.Category == FindingCategory::DataRace;
  };
  auto Bold = [&](raw_ostream::Colors C) {
    if (Color)
      OS.changeColor(C, true);
  };
  auto Reset = [&] {
    if (Color)
      OS.resetColor();
  };
  // "file:line:col: error: " in the compiler's colours, then bold white.
  auto ErrorHead = [&](const SourceLoc &L) {
    Bold(raw_ostream::WHITE);
    OS << where(L) << ": ";
    Bold(raw_ostream::RED);
    OS << "error: ";
    Reset();
    Bold(raw_ostream::WHITE);
  };
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    const std::vector<const Finding *> &Mates = Members[Group[I]];
    if (Grouped(F) && Mates.front() != &F)
      continue;
    const AccessInfo &A = F.First, &B = F.Second;
    if (F.Category == FindingCategory::AssertionFailure) {
      ErrorHead(A.Loc);
      OS << formatv("assertion fails in thread '{0}' [assertion]\n", A.Thread);
      Reset();
      snippet(Src, A.Loc, OS);
      writeTrace(F, OS);
      continue;
    }
    if (F.Category == FindingCategory::Deadlock) {
      ErrorHead(A.Loc);
      OS << formatv("deadlock: thread '{0}' blocked ({1})", A.Thread,
                    A.Variable);
      if (!B.Thread.empty())
        OS << formatv(", thread '{0}' blocked ({1}) at {2}", B.Thread,
                      B.Variable, where(B.Loc));
      OS << " [deadlock]\n";
      Reset();
      snippet(Src, A.Loc, OS);
      writeTrace(F, OS);
      continue;
    }
    Bold(raw_ostream::WHITE);
    OS << where(A.Loc) << ": ";
    Bold(F.Kind == Verdict::Race ? raw_ostream::RED : raw_ostream::MAGENTA);
    OS << (F.Kind == Verdict::Race ? "error: " : "warning: ");
    Reset();
    Bold(raw_ostream::WHITE);
    std::string What =
        F.Kind == Verdict::Race ? "data race" : "possible data race";
    OS << formatv("{0} on '{1}' ({2} by thread '{3}' / {4} by thread '{5}') "
                  "[{6}]\n",
                  What, A.Variable, kindName(A), A.Thread, kindName(B),
                  B.Thread, verdictName(F.Kind));
    Reset();
    snippet(Src, A.Loc, OS);
    OS << where(B.Loc) << ": note: conflicting " << kindName(B);
    if (B.Variable != A.Variable)
      OS << " of '" << B.Variable << "'";
    OS << " here\n";
    snippet(Src, B.Loc, OS);
    OS << formatv("note: '{0}' holds {1}; '{2}' holds {3}\n", A.Thread,
                  lockList(A), B.Thread, lockList(B));
    if (!F.Concurrency.empty())
      OS << "note: concurrent because " << F.Concurrency << "\n";
    writeTrace(F, OS);
    if (Grouped(F) && Mates.size() > 1)
      writeGroupRest(ArrayRef(Mates).drop_front(), OS);
  }
  writeVerdict(R, OS, Color, Style.Stats);
}

void writeWhoop(const Result &R, raw_ostream &OS, bool ShowStats) {
  // WHOOP's report: "driver.c: error: potential read-write race: read by
  // entry point X, driver.c:12:5 / write by entry point Y, driver.c:30:7".
  auto Who = [](const AccessInfo &A) {
    return StringRef(A.Thread).starts_with("entry point ")
               ? A.Thread
               : "thread '" + A.Thread + "'";
  };
  for (const Finding &F : R.Findings) {
    if (F.Category != FindingCategory::DataRace)
      continue;
    const AccessInfo &A = F.First, &B = F.Second;
    OS << formatv("{0}: error: {1} {2}-{3} race on '{4}': {2} by {5}, {6} / "
                  "{3} by {7}, {8}\n",
                  shortPath(A.Loc.File),
                  F.Kind == Verdict::Race ? "confirmed" : "potential",
                  kindName(A), kindName(B), A.Variable, Who(A), where(A.Loc),
                  Who(B), where(B.Loc));
  }
  writeVerdict(R, OS, false, ShowStats);
}

void writeVerdict(const Result &R, raw_ostream &OS, bool Color,
                  bool ShowStats) {
  if (Color)
    OS.changeColor(raw_ostream::WHITE, true);
  OS << "crace: verdict: " << verdictName(R.Program);
  if (Color)
    OS.resetColor();
  if (R.Omitted)
    OS << formatv(" (showing {0} of {1} findings, engine '{2}'; "
                  "--max-findings=0 shows every one)\n",
                  R.Findings.size(), R.Findings.size() + R.Omitted, R.Engine);
  else
    OS << formatv(" ({0} finding{1}, engine '{2}')\n", R.Findings.size(),
                  R.Findings.size() == 1 ? "" : "s", R.Engine);
  if (!R.Harness.empty())
    OS << "crace: checked as a " << R.Harness << "\n";
  if (R.Program == Verdict::RaceFree) {
    OS << "crace: proved race-free under these assumptions:\n";
    for (const std::string &A : R.Assumptions)
      OS << "  - " << A << "\n";
  }
  if (!R.Reasons.empty()) {
    bool Definite =
        R.Program == Verdict::RaceFree || R.Program == Verdict::Race;
    OS << (Definite ? "crace: notes:\n"
                    : "crace: not proved race-free because:\n");
    constexpr size_t Shown = 12;
    for (size_t I = 0; I < R.Reasons.size() && I < Shown; ++I)
      OS << "  - " << R.Reasons[I].Text << "\n";
    if (R.Reasons.size() > Shown)
      OS << "  - ... and " << R.Reasons.size() - Shown
         << " more (all of them are in the JSON report)\n";
  }
  if (ShowStats) {
    OS << "crace: statistics:\n";
    for (const auto &[Name, V] : R.Stats)
      OS << formatv("  {0,-28} {1}\n", Name, V);
    if (!R.Counters.empty())
      OS << "crace: counters:\n";
    for (const Counter &C : R.Counters)
      OS << formatv("  {0,-44} {1,9}  {2}\n", C.Group + "." + C.Name, C.Value,
                    C.Desc);
  }
}

} // namespace crace
