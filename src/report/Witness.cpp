//===- Witness.cpp - SV-COMP violation witness (YAML 2.0) -----------------===//
//
// One violation_sequence: one segment per thread creation of the race's
// interleaving (a `function_enter` waypoint at the create call), each
// waypoint with the thread_id of the format-2.2 concurrency extension; the
// last segment targets the second racing access. The full interleaving is
// in crace's own trace (--trace-out). Validators replay such a witness by
// forcing the schedule; crace's own replay reads its trace files instead.
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <ctime>
#include <random>

using namespace llvm;

namespace crace {

static std::string yamlQuote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

static std::string fileHash(const std::string &File) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf)
    return std::string(64, '0');
  auto Digest = SHA256::hash(arrayRefFromStringRef((*Buf)->getBuffer()));
  return toHex(Digest, /*LowerCase=*/true);
}

static std::string uuid4() {
  std::random_device RD;
  std::mt19937_64 G(RD());
  uint64_t A = G(), B = G();
  A = (A & ~0xF000ULL) | 0x4000ULL;
  B = (B & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
  std::string H = utohexstr(A, true, 16) + utohexstr(B, true, 16);
  return H.substr(0, 8) + "-" + H.substr(8, 4) + "-" + H.substr(12, 4) + "-" +
         H.substr(16, 4) + "-" + H.substr(20, 12);
}

static void waypoint(raw_ostream &OS, StringRef Type, StringRef Action,
                     const SourceLoc &L, unsigned Thread) {
  OS << "        - waypoint:\n"
     << "            type: " << Type << "\n"
     << "            action: " << Action << "\n"
     << "            location:\n"
     << "              file_name: " << yamlQuote(L.File) << "\n"
     << "              line: " << L.Line << "\n";
  if (L.Column)
    OS << "              column: " << L.Column << "\n";
  OS << "            thread_id: " << Thread << "\n";
}

void writeSvCompWitness(const Result &R, const std::vector<std::string> &Files,
                        StringRef DataModel, raw_ostream &OS) {
  const Finding *Race = nullptr;
  for (const Finding &F : R.Findings)
    if (F.Kind == Verdict::Race && F.Category == FindingCategory::DataRace) {
      Race = &F;
      break;
    }
  if (!Race)
    return;
  std::time_t Now = std::time(nullptr);
  char Stamp[32];
  std::strftime(Stamp, sizeof Stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&Now));
  OS << "- entry_type: violation_sequence\n"
     << "  metadata:\n"
     << "    format_version: \"2.0\"\n"
     << "    uuid: " << yamlQuote(uuid4()) << "\n"
     << "    creation_time: " << yamlQuote(Stamp) << "\n"
     << "    producer:\n"
     << "      name: crace\n"
     << "      version: " << yamlQuote(CRACE_VERSION) << "\n"
     << "    task:\n"
     << "      input_files:\n";
  for (const std::string &F : Files)
    OS << "        - " << yamlQuote(F) << "\n";
  OS << "      input_file_hashes:\n";
  for (const std::string &F : Files)
    OS << "        " << yamlQuote(F) << ": " << yamlQuote(fileHash(F)) << "\n";
  OS << "      specification: \"CHECK( init(main()), LTL(G ! data-race) )\"\n"
     << "      data_model: "
     << (DataModel.empty() ? StringRef("LP64") : DataModel) << "\n"
     << "      language: C\n"
     << "  content:\n";
  // Steps without a location in the sources (model code) cannot be waypoints.
  std::vector<const TraceStep *> Steps;
  // Thread creations are the waypoints the format can express honestly
  // (a call entering the start routine); the data accesses in between are
  // not branching or function events.
  for (const TraceStep &S : Race->Trace)
    if (S.Loc.valid() && StringRef(S.Action).starts_with("create thread"))
      Steps.push_back(&S);
  for (const TraceStep *S : Steps) {
    OS << "    - segment:\n";
    waypoint(OS, "function_enter", "follow", S->Loc, S->ThreadId);
  }
  OS << "    - segment:\n";
  const AccessInfo &A = Race->Second;
  unsigned TargetThread = 0;
  if (!Race->Trace.empty())
    TargetThread = Race->Trace.back().ThreadId;
  waypoint(OS, "target", "follow", A.Loc, TargetThread);
}

} // namespace crace
