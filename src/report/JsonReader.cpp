//===- JsonReader.cpp - a JSON report back into a Result ------------------===//
//
// The inverse of writeJson (JsonReport.cpp) for what the JSON report keeps:
// `crace merge` reads the shards' reports with it and writes the merged
// report with the usual writers. Not kept, so not read: candidate pairs,
// schedules, the functions of source locations, counter descriptions and
// the kinds of reasons (a program not analysed is a failure, every other
// reason a note: only their texts are printed).
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <algorithm>

using namespace llvm;

namespace crace {

namespace {

Error malformed(const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           "not a crace JSON report: " + What);
}

std::string str(const json::Object &O, StringRef Key) {
  std::optional<StringRef> S = O.getString(Key);
  return S ? S->str() : std::string();
}

uint64_t num(const json::Object &O, StringRef Key) {
  std::optional<int64_t> N = O.getInteger(Key);
  return N && *N > 0 ? uint64_t(*N) : 0;
}

std::vector<std::string> strings(const json::Object &O, StringRef Key) {
  std::vector<std::string> Out;
  if (const json::Array *A = O.getArray(Key))
    for (const json::Value &V : *A)
      if (std::optional<StringRef> S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

SourceLoc location(const json::Object &O) {
  SourceLoc L;
  L.File = str(O, "file");
  L.Line = unsigned(num(O, "line"));
  L.Column = unsigned(num(O, "column"));
  return L;
}

Expected<AccessInfo> access(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return malformed("an access is not an object");
  AccessInfo A;
  A.Loc = location(*O);
  A.Kind = str(*O, "kind") == "write" ? AccessKind::Write : AccessKind::Read;
  A.Atomic = O->getBoolean("atomic").value_or(false);
  A.Size = num(*O, "size");
  A.Thread = str(*O, "thread");
  A.Variable = str(*O, "variable");
  A.Locks = strings(*O, "locks");
  return A;
}

Expected<Finding> finding(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return malformed("a finding is not an object");
  Finding F;
  std::optional<Verdict> K = parseVerdict(str(*O, "verdict"));
  if (!K)
    return malformed("a finding without a verdict");
  F.Kind = *K;
  std::string Kind = str(*O, "kind");
  F.Category = Kind == "deadlock"            ? FindingCategory::Deadlock
               : Kind == "assertion-failure" ? FindingCategory::AssertionFailure
                                             : FindingCategory::DataRace;
  F.Engine = str(*O, "engine");
  F.Program = str(*O, "program");
  F.Concurrency = str(*O, "concurrency");
  const json::Array *Accesses = O->getArray("accesses");
  if (!Accesses || Accesses->size() != 2)
    return malformed("a finding without its two accesses");
  for (AccessInfo *A : {&F.First, &F.Second}) {
    auto Read = access((*Accesses)[A == &F.First ? 0 : 1]);
    if (!Read)
      return Read.takeError();
    *A = std::move(*Read);
  }
  if (const json::Array *Trace = O->getArray("trace"))
    for (const json::Value &S : *Trace) {
      const json::Object *SO = S.getAsObject();
      if (!SO)
        return malformed("a trace step is not an object");
      TraceStep Step;
      Step.Thread = str(*SO, "thread");
      Step.ThreadId = unsigned(num(*SO, "thread_id"));
      Step.Loc = location(*SO);
      Step.Action = str(*SO, "action");
      F.Trace.push_back(std::move(Step));
    }
  return F;
}

/// The keys of O in the order Text writes them: llvm::json::Object does
/// not keep the order, and statistics are printed in theirs. Anchor: where
/// the object starts in Text.
std::vector<StringRef> keysInOrder(const json::Object &O, StringRef Text,
                                   size_t Anchor) {
  std::vector<std::pair<size_t, StringRef>> Keys;
  for (const auto &KV : O) {
    std::string Quoted;
    raw_string_ostream OS(Quoted);
    json::OStream(OS).value(KV.first.str());
    size_t At = Text.find(Quoted + ":", Anchor);
    Keys.push_back({At, StringRef(KV.first)});
  }
  llvm::sort(Keys);
  std::vector<StringRef> Out;
  for (auto &[At, K] : Keys)
    Out.push_back(K);
  return Out;
}

} // namespace

Expected<Result> readJson(StringRef Text) {
  Expected<json::Value> Doc = json::parse(Text);
  if (!Doc)
    return malformed(toString(Doc.takeError()));
  const json::Object *Top = Doc->getAsObject();
  if (!Top || !Top->get("crace_version") || !Top->get("verdict"))
    return malformed("no crace_version or verdict");
  if (std::optional<int64_t> Schema = Top->getInteger("schema_version");
      !Schema || *Schema != JsonSchemaVersion)
    return malformed(formatv("schema_version is not {0}", JsonSchemaVersion));
  Result R;
  std::optional<Verdict> V = parseVerdict(str(*Top, "verdict"));
  if (!V)
    return malformed("unknown verdict '" + str(*Top, "verdict") + "'");
  R.Program = *V;
  R.Engine = str(*Top, "engine");
  R.Omitted = num(*Top, "findings_omitted");
  if (const json::Array *Findings = Top->getArray("findings"))
    for (const json::Value &FV : *Findings) {
      Expected<Finding> F = finding(FV);
      if (!F)
        return F.takeError();
      R.Findings.push_back(std::move(*F));
    }
  if (const json::Array *Programs = Top->getArray("programs"))
    for (const json::Value &PV : *Programs) {
      const json::Object *P = PV.getAsObject();
      if (!P)
        return malformed("a program is not an object");
      R.Programs.push_back({str(*P, "name"), str(*P, "main"),
                            str(*P, "verdict"), size_t(num(*P, "findings")),
                            str(*P, "engine")});
    }
  R.Harness = str(*Top, "harness");
  R.Assumptions = strings(*Top, "assumptions");
  for (std::string &Text : strings(*Top, "reasons")) {
    bool NotAnalysed = StringRef(Text).starts_with("program '") &&
                       StringRef(Text).contains("' was not analysed (");
    R.reason(NotAnalysed ? ReasonKind::Failure : ReasonKind::Note,
             std::move(Text));
  }
  if (const json::Object *Stats = Top->getObject("stats")) {
    size_t Anchor = Text.rfind("\"stats\": {");
    for (StringRef K : keysInOrder(*Stats, Text, Anchor)) {
      if (K == "counters")
        continue;
      if (std::optional<double> N = Stats->getNumber(K))
        R.Stats.push_back({K.str(), *N});
    }
    if (const json::Object *Counters = Stats->getObject("counters")) {
      size_t CAnchor = Text.rfind("\"counters\": {");
      for (StringRef K : keysInOrder(*Counters, Text, CAnchor)) {
        // "group.Name": the name has no dot, the group may (a program's
        // name before it).
        auto [Group, Name] = K.rsplit('.');
        R.Counters.push_back({Group.str(), Name.str(), "", num(*Counters, K)});
      }
    }
  }
  if (const json::Object *Shard = Top->getObject("shard")) {
    R.Shard.Index = unsigned(num(*Shard, "index"));
    R.Shard.Count = unsigned(num(*Shard, "count"));
    R.Shard.Programs = strings(*Shard, "programs");
  }
  return R;
}

} // namespace crace
