//===- SarifReport.cpp - SARIF 2.1.0 output (docs/output.md) -------------===//
//
// One run of one tool. Each finding is a result: the first access is its
// location, the second its related location, and an interleaving (when the
// finding has one) a code flow with one thread flow per thread, the steps
// numbered in the global order they ran (executionOrder). Verdict
// `unknown` and its reasons are tool execution notifications.
//
// partialFingerprints stay the same when lines move: they hash the rule,
// the variable, and for each access its file, kind and the text of its
// source line, not line numbers.
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"
#include "report/SourceText.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace crace {

namespace {

struct Rule {
  const char *Id, *Name, *Level, *Short, *Full;
};

/// tool.driver.rules; a result's ruleIndex indexes this table.
const Rule Rules[] = {
    {"race", "DataRace", "error", "Data race (confirmed)",
     "Two threads access the same memory location, at least one writes, "
     "the accesses are not both atomic, and nothing orders them: crace "
     "found an execution that reaches both at once (the code flow shows "
     "it)."},
    {"possible-race", "PossibleDataRace", "warning", "Possible data race",
     "crace could not rule out that two threads access the same memory "
     "location without ordering, nor confirm it with an execution. The "
     "locks held at each access and the assumptions are in the result's "
     "properties."},
    {"deadlock", "Deadlock", "error", "Deadlock (confirmed)",
     "An execution in which threads wait for each other forever."},
    {"assertion-failure", "AssertionFailure", "error",
     "Assertion failure (confirmed)",
     "An execution in which an assertion of the program fails."},
};

/// tool.driver.notifications.
const Rule UnknownNotification = {
    "unknown", "Unknown", "warning", "Not analysed completely",
    "crace could neither prove the program race-free nor find a race; the "
    "notification says why (a budget, or code crace cannot analyse)."};

unsigned ruleIndex(const Finding &F) {
  switch (F.Category) {
  case FindingCategory::Deadlock:
    return 2;
  case FindingCategory::AssertionFailure:
    return 3;
  case FindingCategory::DataRace:
    break;
  }
  return F.Kind == Verdict::Race ? 0 : 1;
}

json::Object descriptor(const Rule &R) {
  return json::Object{
      {"id", R.Id},
      {"name", R.Name},
      {"shortDescription", json::Object{{"text", R.Short}}},
      {"fullDescription", json::Object{{"text", R.Full}}},
      {"help", json::Object{{"text", R.Full}}},
      {"defaultConfiguration", json::Object{{"level", R.Level}}},
      {"properties",
       json::Object{{"tags", json::Array{"concurrency", "correctness"}}}}};
}

/// A file path as a URI reference: absolute paths as file:// URIs,
/// relative ones as they are (relative to %SRCROOT%, the working
/// directory).
std::string uriOf(StringRef Path) {
  std::string Out;
  if (sys::path::is_absolute(Path))
    Out = "file://";
  for (char C : Path) {
    if (isAlnum(C) || StringRef("/-._~").contains(C))
      Out += C;
    else
      Out += "%" + utohexstr(uint8_t(C), /*LowerCase=*/false, 2);
  }
  return Out;
}

class SarifWriter {
public:
  explicit SarifWriter(const Result &R) : R(R) {
    if (sys::fs::current_path(Cwd))
      Cwd.clear();
  }
  json::Value document();

private:
  const Result &R;
  SmallString<256> Cwd;
  SourceCache Sources;

  json::Object physical(const SourceLoc &Loc);
  json::Object location(const SourceLoc &Loc, std::string Message);
  std::string accessMessage(const AccessInfo &A);
  json::Object result(const Finding &F, unsigned Group);
  std::optional<json::Object> codeFlow(const Finding &F);
};

json::Object SarifWriter::physical(const SourceLoc &Loc) {
  // Files under the working directory relative to it (%SRCROOT%), as code
  // scanning wants paths relative to the checkout; others as file:// URIs.
  StringRef Path = Loc.File;
  bool Relative = !sys::path::is_absolute(Path);
  if (!Relative && !Cwd.empty() && Path.starts_with(Cwd) &&
      Path.size() > Cwd.size() && Path[Cwd.size()] == '/') {
    Path = Path.drop_front(Cwd.size() + 1);
    Relative = true;
  }
  json::Object Art{{"uri", uriOf(Path)}};
  if (Relative)
    Art["uriBaseId"] = "%SRCROOT%";
  json::Object P{{"artifactLocation", std::move(Art)}};
  if (Loc.valid()) {
    json::Object Region{{"startLine", int64_t(Loc.Line)}};
    if (Loc.Column)
      Region["startColumn"] = int64_t(Loc.Column);
    P["region"] = std::move(Region);
  }
  return P;
}

json::Object SarifWriter::location(const SourceLoc &Loc, std::string Message) {
  json::Object L;
  // A location without a line is code without debug information (a model
  // function such as memcmp, called from several places): its function is
  // a logical location, and a file is named only when it is one.
  if (Loc.hasFile())
    L["physicalLocation"] = physical(Loc);
  if (!Loc.valid() && !Loc.Function.empty())
    L["logicalLocations"] =
        json::Array{json::Object{{"name", Loc.Function}, {"kind", "function"}}};
  L["message"] = json::Object{{"text", std::move(Message)}};
  return L;
}

std::string SarifWriter::accessMessage(const AccessInfo &A) {
  std::string S = (A.Atomic ? "atomic " : "") +
                  std::string(A.Kind == AccessKind::Write ? "write" : "read");
  if (!A.Variable.empty())
    S += " of '" + A.Variable + "'";
  if (!A.Thread.empty())
    S += " by thread " + A.Thread;
  S += A.Locks.empty() ? ", no lock held" : ", holding " + join(A.Locks, ", ");
  return S;
}

std::optional<json::Object> SarifWriter::codeFlow(const Finding &F) {
  if (F.Trace.empty())
    return std::nullopt;
  // One thread flow per thread, in the order threads first appear.
  std::vector<unsigned> Order;
  DenseMap<unsigned, json::Array> Steps;
  DenseMap<unsigned, std::string> Names;
  std::vector<bool> RacingStep = racingSteps(F);
  for (size_t I = 0; I < F.Trace.size(); ++I) {
    const TraceStep &S = F.Trace[I];
    if (!Steps.count(S.ThreadId)) {
      Order.push_back(S.ThreadId);
      Names[S.ThreadId] = S.Thread;
    }
    bool Racing = RacingStep[I];
    Steps[S.ThreadId].push_back(
        json::Object{{"location", location(S.Loc, S.Action)},
                     {"executionOrder", int64_t(I + 1)},
                     {"importance", Racing ? "essential" : "important"}});
  }
  json::Array Flows;
  for (unsigned T : Order)
    Flows.push_back(json::Object{
        {"id", Names[T].empty() ? "thread " + std::to_string(T) : Names[T]},
        {"message", json::Object{{"text", "thread " + Names[T]}}},
        {"locations", std::move(Steps[T])}});
  return json::Object{
      {"message",
       json::Object{{"text", "an interleaving that reaches the finding"}}},
      {"threadFlows", std::move(Flows)}};
}

json::Object SarifWriter::result(const Finding &F, unsigned Group) {
  unsigned RI = ruleIndex(F);
  std::string Text;
  switch (F.Category) {
  case FindingCategory::DataRace:
    Text = std::string(F.Kind == Verdict::Race ? "Data race"
                                               : "Possible data race") +
           (F.First.Variable.empty() ? "" : " on '" + F.First.Variable + "'") +
           ": " + accessMessage(F.First) + " and " + accessMessage(F.Second);
    break;
  case FindingCategory::Deadlock:
    Text = "Deadlock: thread " + F.First.Thread + " waits for " +
           F.First.Variable + ", thread " + F.Second.Thread + " for " +
           F.Second.Variable;
    break;
  case FindingCategory::AssertionFailure:
    Text = "Assertion failure in thread " + F.First.Thread;
    break;
  }
  Text += ".";
  if (!F.Concurrency.empty())
    Text += " Concurrent because " + F.Concurrency + ".";
  // Code scanning shows a result at its first location, which needs a
  // line: the access that has one comes first.
  const AccessInfo *Primary = &F.First, *Related = &F.Second;
  if (F.Category != FindingCategory::AssertionFailure && !F.First.Loc.valid() &&
      F.Second.Loc.valid())
    std::swap(Primary, Related);
  json::Object Res{
      {"ruleId", Rules[RI].Id},
      {"ruleIndex", int64_t(RI)},
      {"level", Rules[RI].Level},
      {"message", json::Object{{"text", Text}}},
      {"locations", json::Array{location(Primary->Loc,
                                         F.Category == FindingCategory::DataRace
                                             ? accessMessage(*Primary)
                                             : "thread " + Primary->Thread)}},
      {"partialFingerprints",
       json::Object{{"craceFinding/v1", fingerprint(F, Sources)}}}};
  if (F.Category != FindingCategory::AssertionFailure) {
    json::Object Rel =
        location(Related->Loc, F.Category == FindingCategory::DataRace
                                   ? accessMessage(*Related)
                                   : "thread " + Related->Thread);
    Rel["id"] = 1;
    Res["relatedLocations"] = json::Array{std::move(Rel)};
  }
  if (auto Flow = codeFlow(F))
    Res["codeFlows"] = json::Array{std::move(*Flow)};
  auto Locks = [](const AccessInfo &A) {
    json::Array L;
    for (const std::string &S : A.Locks)
      L.push_back(S);
    return L;
  };
  json::Object Props{
      {"engine", F.Engine},           {"verdict", verdictName(F.Kind)},
      {"variable", F.First.Variable}, {"group", int64_t(Group)},
      {"firstLocks", Locks(F.First)}, {"secondLocks", Locks(F.Second)}};
  if (!F.Program.empty())
    Props["program"] = F.Program;
  if (F.Kind != Verdict::Race && !R.Assumptions.empty()) {
    json::Array A;
    for (const std::string &S : R.Assumptions)
      A.push_back(S);
    Props["assumptions"] = std::move(A);
  }
  Res["properties"] = std::move(Props);
  return Res;
}

json::Value SarifWriter::document() {
  json::Array RuleArray;
  for (const Rule &Ru : Rules)
    RuleArray.push_back(descriptor(Ru));
  json::Object Driver{
      {"name", "crace"},
      {"fullName", "crace data-race checker for multithreaded C"},
      {"version", CRACE_VERSION},
      {"semanticVersion", CRACE_VERSION},
      {"rules", std::move(RuleArray)},
      {"notifications", json::Array{descriptor(UnknownNotification)}}};
  json::Array Results;
  std::vector<unsigned> Groups = findingGroups(R);
  for (size_t I = 0; I < R.Findings.size(); ++I)
    Results.push_back(result(R.Findings[I], Groups[I]));
  json::Array Notes;
  if (R.Program == Verdict::Unknown)
    for (const std::string &Why : R.Reasons.empty()
                                      ? std::vector<std::string>{"unknown"}
                                      : R.reasonTexts())
      Notes.push_back(json::Object{
          {"level", "warning"},
          {"message", json::Object{{"text", Why}}},
          {"descriptor", json::Object{{"id", "unknown"}, {"index", 0}}}});
  json::Array Assumptions, Reasons;
  for (const std::string &S : R.Assumptions)
    Assumptions.push_back(S);
  for (const Reason &S : R.Reasons)
    Reasons.push_back(S.Text);
  json::Array Programs;
  for (const ProgramSummary &P : R.Programs)
    Programs.push_back(json::Object{{"name", P.Name},
                                    {"main", P.Main},
                                    {"verdict", P.Verdict},
                                    {"findings", int64_t(P.Findings)}});
  json::Object Invocation{
      {"executionSuccessful", true},
      {"properties", json::Object{{"verdict", verdictName(R.Program)},
                                  {"engine", R.Engine},
                                  {"assumptions", std::move(Assumptions)},
                                  {"reasons", std::move(Reasons)}}}};
  if (!Programs.empty())
    Invocation.getObject("properties")
        ->try_emplace("programs", std::move(Programs));
  if (!R.Harness.empty())
    Invocation.getObject("properties")->try_emplace("harness", R.Harness);
  if (!Notes.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notes);
  std::string Root = Cwd.empty() ? "file:///" : uriOf(Cwd) + "/";
  json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"invocations", json::Array{std::move(Invocation)}},
                   {"originalUriBaseIds",
                    json::Object{{"%SRCROOT%", json::Object{{"uri", Root}}}}},
                   {"results", std::move(Results)}};
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};
}

} // namespace

void writeSarif(const Result &R, raw_ostream &OS) {
  OS << formatv("{0:2}", SarifWriter(R).document()) << "\n";
}

} // namespace crace
