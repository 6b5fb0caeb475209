//===- HtmlReport.cpp - one self-contained HTML page (docs/output.md) -----===//
//
// No scripts and nothing loaded from elsewhere: a summary table, then per
// finding the source around both accesses with their lines marked, the
// locks each holds, and the interleaving as swim lanes (a column per
// thread, a row per step in the order they ran, the racing steps marked);
// then the verdict's assumptions or reasons. Possible races on one
// variable are one entry (--group=variable): its first pair in full, the
// others in a folded table. Class names are the page's interface to tests
// (test/regression/html/).
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"
#include "report/SourceText.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace crace {

namespace {

std::string esc(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  printHTMLEscaped(S, OS);
  return Out;
}

const char *Style = R"css(
body { font-family: system-ui, sans-serif; margin: 2em; color: #1b1b1b; }
h1 { font-size: 1.4em; }
.verdict { display: inline-block; padding: .2em .6em; border-radius: .3em;
  font-weight: bold; color: white; }
.verdict.race { background: #b00020; }
.verdict.possible-race { background: #c77700; }
.verdict.unknown { background: #5f6368; }
.verdict.race-free { background: #1e7e34; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: left;
  vertical-align: top; }
th { background: #f1f3f4; }
.finding { border-top: 2px solid #ddd; margin-top: 2em; padding-top: .5em; }
.accesses { display: flex; gap: 1.5em; flex-wrap: wrap; }
.access { flex: 1 1 28em; min-width: 20em; }
pre.source { background: #f8f9fa; border: 1px solid #e0e0e0; padding: .4em;
  overflow-x: auto; margin: .3em 0; }
pre.source .line { display: block; }
pre.source .line.hl { background: #ffe08a; font-weight: bold; }
pre.source .no { color: #888; display: inline-block; width: 4em; }
table.lanes td.step { background: #e8f0fe; }
table.lanes td.step.racing { background: #fce8e6; border: 2px solid #b00020;
  font-weight: bold; }
table.lanes td.order { color: #888; }
details.group-rest { margin: .8em 0; }
details.group-rest summary { cursor: pointer; font-weight: bold; }
.where { color: #555; font-size: .9em; }
ul.notes li { margin: .2em 0; }
)css";

std::string shortFile(const std::string &F) {
  return sys::path::filename(F).str();
}

class HtmlWriter {
public:
  HtmlWriter(const Result &R, raw_ostream &OS, bool Group)
      : R(R), OS(OS), Group(Group) {}
  void write();

private:
  const Result &R;
  raw_ostream &OS;
  bool Group;
  SourceCache Sources;
  /// The entries of the page: each a list of findings, the first shown in
  /// full (one finding, or the possible races on one variable).
  std::vector<std::vector<const Finding *>> Entries;

  void group();
  void source(const SourceLoc &L);
  void access(const AccessInfo &A, const char *Role);
  void lanes(const Finding &F);
  void rest(ArrayRef<const Finding *> Rest);
  void entry(ArrayRef<const Finding *> E, size_t N);
};

const char *kindName(const Finding &F) {
  switch (F.Category) {
  case FindingCategory::Deadlock:
    return "deadlock";
  case FindingCategory::AssertionFailure:
    return "assertion failure";
  case FindingCategory::DataRace:
    break;
  }
  return F.Kind == Verdict::Race ? "data race" : "possible data race";
}

void HtmlWriter::source(const SourceLoc &L) {
  if (!L.valid())
    return;
  OS << "<pre class=\"source\">";
  unsigned From = L.Line > 2 ? L.Line - 2 : 1;
  for (unsigned N = From; N <= L.Line + 2; ++N) {
    auto Text = Sources.line(L.File, N);
    if (!Text)
      break;
    OS << "<span class=\"line" << (N == L.Line ? " hl" : "")
       << "\"><span class=\"no\">" << N << "</span>" << esc(*Text) << "</span>";
  }
  OS << "</pre>";
}

void HtmlWriter::access(const AccessInfo &A, const char *Role) {
  OS << "<div class=\"access " << Role << "\">";
  OS << "<h3>" << (A.Atomic ? "atomic " : "")
     << (A.Kind == AccessKind::Write ? "write" : "read") << " by thread "
     << esc(A.Thread) << "</h3>";
  OS << "<div class=\"where\">" << esc(shortPath(A.Loc.File)) << ":"
     << A.Loc.Line << ":" << A.Loc.Column;
  if (!A.Loc.Function.empty())
    OS << " in <code>" << esc(A.Loc.Function) << "</code>";
  OS << "</div>";
  source(A.Loc);
  OS << "<div class=\"locks\">locks held: "
     << (A.Locks.empty() ? "none" : esc(join(A.Locks, ", "))) << "</div>";
  OS << "</div>";
}

void HtmlWriter::lanes(const Finding &F) {
  if (F.Trace.empty())
    return;
  std::vector<unsigned> Order;
  DenseMap<unsigned, unsigned> Column;
  DenseMap<unsigned, std::string> Names;
  for (const TraceStep &S : F.Trace)
    if (Column.try_emplace(S.ThreadId, Order.size()).second) {
      Order.push_back(S.ThreadId);
      Names[S.ThreadId] = S.Thread;
    }
  std::vector<bool> Racing = racingSteps(F);
  OS << "<h3>Interleaving</h3><table class=\"lanes\"><thead><tr><th>#</th>";
  for (unsigned T : Order)
    OS << "<th class=\"lane\">" << esc(Names[T]) << "</th>";
  OS << "</tr></thead><tbody>";
  for (size_t I = 0; I < F.Trace.size(); ++I) {
    const TraceStep &S = F.Trace[I];
    OS << "<tr><td class=\"order\">" << I + 1 << "</td>";
    for (size_t C = 0; C < Order.size(); ++C) {
      if (C != Column[S.ThreadId]) {
        OS << "<td></td>";
        continue;
      }
      OS << "<td class=\"step" << (Racing[I] ? " racing" : "") << "\">"
         << esc(S.Action) << "<div class=\"where\">"
         << esc(shortFile(S.Loc.File)) << ":" << S.Loc.Line << "</div></td>";
    }
    OS << "</tr>";
  }
  OS << "</tbody></table>";
}

void HtmlWriter::group() {
  std::vector<unsigned> Ids = findingGroups(R);
  std::vector<int> EntryOf(R.Findings.size() + 1, -1);
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const Finding &F = R.Findings[I];
    bool Grouped = Group && F.Kind == Verdict::PossibleRace &&
                   F.Category == FindingCategory::DataRace;
    if (Grouped && EntryOf[Ids[I]] >= 0) {
      Entries[EntryOf[Ids[I]]].push_back(&F);
      continue;
    }
    if (Grouped)
      EntryOf[Ids[I]] = Entries.size();
    Entries.push_back({&F});
  }
}

std::string where(const AccessInfo &A) {
  if (!A.Loc.valid())
    return "&mdash;";
  return esc(shortFile(A.Loc.File)) + ":" + std::to_string(A.Loc.Line);
}

/// The other pairs of an entry, folded: one row per pair.
void HtmlWriter::rest(ArrayRef<const Finding *> Rest) {
  OS << "<details class=\"group-rest\"><summary>" << Rest.size() << " more pair"
     << (Rest.size() == 1 ? "" : "s") << " of accesses on <code>"
     << esc(Rest.front()->First.Variable)
     << "</code> may race</summary><table class=\"pairs\"><thead><tr>"
        "<th>first access</th><th>thread</th><th>locks</th>"
        "<th>second access</th><th>thread</th><th>locks</th></tr></thead>"
        "<tbody>";
  auto Side = [&](const AccessInfo &A) {
    OS << "<td>" << where(A) << " "
       << (A.Kind == AccessKind::Write ? "write" : "read") << "</td><td>"
       << esc(A.Thread) << "</td><td>"
       << (A.Locks.empty() ? "none" : esc(join(A.Locks, ", "))) << "</td>";
  };
  for (const Finding *F : Rest) {
    OS << "<tr>";
    Side(F->First);
    Side(F->Second);
    OS << "</tr>";
  }
  OS << "</tbody></table></details>";
}

void HtmlWriter::entry(ArrayRef<const Finding *> E, size_t N) {
  const Finding &F = *E.front();
  OS << "<section class=\"finding\" id=\"finding-" << N << "\"><h2>" << N
     << ". " << kindName(F);
  if (!F.First.Variable.empty())
    OS << " on <code>" << esc(F.First.Variable) << "</code>";
  if (E.size() > 1)
    OS << " (" << E.size() << " pairs)";
  OS << "</h2><div class=\"where\">engine " << esc(F.Engine);
  if (!F.Program.empty())
    OS << ", program " << esc(F.Program);
  OS << "</div><div class=\"accesses\">";
  access(F.First, "first");
  if (F.Category != FindingCategory::AssertionFailure)
    access(F.Second, "second");
  OS << "</div>";
  lanes(F);
  if (E.size() > 1)
    rest(E.drop_front());
  OS << "</section>\n";
}

void HtmlWriter::write() {
  StringRef V = verdictName(R.Program);
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>crace report: " << V << "</title><style>" << Style
     << "</style></head><body>\n";
  OS << "<h1>crace report <span class=\"verdict " << V << "\" id=\"verdict\">"
     << V << "</span></h1>";
  OS << "<p>" << R.Findings.size() << " finding"
     << (R.Findings.size() == 1 ? "" : "s") << ", engine " << esc(R.Engine)
     << ", crace " CRACE_VERSION "</p>\n";
  if (!R.Programs.empty()) {
    OS << "<table class=\"programs\"><thead><tr><th>program</th><th>main</th>"
          "<th>verdict</th><th>findings</th></tr></thead><tbody>";
    for (const ProgramSummary &P : R.Programs)
      OS << "<tr><td>" << esc(P.Name) << "</td><td>" << esc(P.Main)
         << "</td><td>" << esc(P.Verdict) << "</td><td>" << P.Findings
         << "</td></tr>";
    OS << "</tbody></table>\n";
  }
  group();
  if (!Entries.empty()) {
    OS << "<table class=\"summary\"><thead><tr><th>#</th><th>kind</th>"
          "<th>variable</th><th>first access</th><th>second access</th>"
          "<th>pairs</th><th>engine</th></tr></thead><tbody>";
    for (size_t I = 0; I < Entries.size(); ++I) {
      const Finding &F = *Entries[I].front();
      OS << "<tr><td><a href=\"#finding-" << I + 1 << "\">" << I + 1
         << "</a></td><td>" << kindName(F) << "</td><td><code>"
         << esc(F.First.Variable) << "</code></td><td>" << where(F.First)
         << "</td><td>" << where(F.Second) << "</td><td class=\"pairs\">"
         << Entries[I].size() << "</td><td>" << esc(F.Engine) << "</td></tr>";
    }
    OS << "</tbody></table>\n";
  }
  for (size_t I = 0; I < Entries.size(); ++I)
    entry(Entries[I], I + 1);
  auto Notes = [&](const char *Title, const char *Class,
                   const std::vector<std::string> &L) {
    if (L.empty())
      return;
    OS << "<h2>" << Title << "</h2><ul class=\"notes " << Class << "\">";
    for (const std::string &S : L)
      OS << "<li>" << esc(S) << "</li>";
    OS << "</ul>\n";
  };
  Notes("How the program was made", "harness",
        R.Harness.empty()
            ? std::vector<std::string>{}
            : std::vector<std::string>{"checked as a " + R.Harness});
  Notes("Proved race-free under these assumptions", "assumptions",
        R.Assumptions);
  Notes("Not proved race-free because", "reasons", R.reasonTexts());
  OS << "</body></html>\n";
}

} // namespace

void writeHtml(const Result &R, raw_ostream &OS, bool Group) {
  HtmlWriter(R, OS, Group).write();
}

} // namespace crace
