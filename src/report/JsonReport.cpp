//===- JsonReport.cpp - JSON output (schema: docs/output.md) --------------===//
#include "report/Report.h"
#include "report/SourceText.h"

#include "llvm/Support/JSON.h"

using namespace llvm;

namespace crace {

static void writeAccess(json::OStream &J, const AccessInfo &A) {
  J.object([&] {
    J.attribute("file", A.Loc.File);
    J.attribute("line", int64_t(A.Loc.Line));
    J.attribute("column", int64_t(A.Loc.Column));
    J.attribute("kind", A.Kind == AccessKind::Write ? "write" : "read");
    J.attribute("atomic", A.Atomic);
    J.attribute("size", int64_t(A.Size));
    J.attribute("thread", A.Thread);
    J.attribute("variable", A.Variable);
    J.attributeArray("locks", [&] {
      for (const std::string &L : A.Locks)
        J.value(L);
    });
  });
}

void writeJson(const Result &R, raw_ostream &OS) {
  SourceCache Sources;
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("crace_version", CRACE_VERSION);
    J.attribute("schema_version", int64_t(JsonSchemaVersion));
    J.attribute("verdict", verdictName(R.Program));
    J.attribute("engine", R.Engine);
    J.attribute("findings_omitted", int64_t(R.Omitted));
    std::vector<unsigned> Groups = findingGroups(R);
    J.attributeArray("findings", [&] {
      for (size_t I = 0; I < R.Findings.size(); ++I)
        J.object([&, &F = R.Findings[I]] {
          J.attribute("verdict", verdictName(F.Kind));
          J.attribute("kind", F.Category == FindingCategory::Deadlock
                                  ? "deadlock"
                              : F.Category == FindingCategory::AssertionFailure
                                  ? "assertion-failure"
                                  : "data-race");
          J.attribute("engine", F.Engine);
          J.attribute("fingerprint", fingerprint(F, Sources));
          if (!F.Program.empty())
            J.attribute("program", F.Program);
          J.attribute("variable", F.First.Variable);
          J.attribute("group", int64_t(Groups[I]));
          if (!F.Concurrency.empty())
            J.attribute("concurrency", F.Concurrency);
          J.attributeArray("accesses", [&] {
            writeAccess(J, F.First);
            writeAccess(J, F.Second);
          });
          J.attributeArray("trace", [&] {
            for (const TraceStep &S : F.Trace)
              J.object([&] {
                J.attribute("thread", S.Thread);
                J.attribute("thread_id", int64_t(S.ThreadId));
                J.attribute("file", S.Loc.File);
                J.attribute("line", int64_t(S.Loc.Line));
                J.attribute("column", int64_t(S.Loc.Column));
                J.attribute("action", S.Action);
              });
          });
        });
    });
    if (!R.Programs.empty())
      J.attributeArray("programs", [&] {
        for (const ProgramSummary &P : R.Programs)
          J.object([&] {
            J.attribute("name", P.Name);
            J.attribute("main", P.Main);
            J.attribute("verdict", P.Verdict);
            J.attribute("findings", int64_t(P.Findings));
            if (!P.Engine.empty())
              J.attribute("engine", P.Engine);
          });
      });
    if (R.Shard.Count)
      J.attributeObject("shard", [&] {
        J.attribute("index", int64_t(R.Shard.Index));
        J.attribute("count", int64_t(R.Shard.Count));
        J.attributeArray("programs", [&] {
          for (const std::string &P : R.Shard.Programs)
            J.value(P);
        });
      });
    if (!R.Harness.empty())
      J.attribute("harness", R.Harness);
    J.attributeArray("assumptions", [&] {
      for (const std::string &A : R.Assumptions)
        J.value(A);
    });
    J.attributeArray("reasons", [&] {
      for (const Reason &A : R.Reasons)
        J.value(A.Text);
    });
    J.attributeObject("stats", [&] {
      for (const auto &[Name, V] : R.Stats)
        J.attribute(Name, V);
      if (!R.Counters.empty())
        J.attributeObject("counters", [&] {
          for (const Counter &C : R.Counters)
            J.attribute(C.Group + "." + C.Name, int64_t(C.Value));
        });
    });
  });
  OS << "\n";
}

} // namespace crace
