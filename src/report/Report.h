//===- Report.h - the report writers, --verify checking -------------------===//
#pragma once

#include "report/Finding.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace crace {

/// --format: which writer below writes the report. Here, beside the
/// writers, so the tool's option and the driver's DriverOptions::Format
/// share one type and writeReport is the one mapping to a writer.
enum class ReportFormat { Text, Json, Sarif, Html, Whoop };

/// How the text report looks.
struct TextStyle {
  bool Color = false;
  /// The statistics after the verdict (--stats).
  bool Stats = false;
  /// Possible races on one variable as one diagnostic: the first pair in
  /// full, the others one line each (--group=variable, the default).
  bool Group = true;
};

/// Compiler-style diagnostics: both accesses, their locks, the verdict.
void writeText(const Result &R, llvm::raw_ostream &OS, const TextStyle &S);
/// WHOOP's report style: one line per data race, then the verdict.
void writeWhoop(const Result &R, llvm::raw_ostream &OS, bool ShowStats);
/// The verdict line, the assumptions or reasons, and the statistics.
void writeVerdict(const Result &R, llvm::raw_ostream &OS, bool Color,
                  bool ShowStats);
/// The version of the JSON report's schema (docs/output.md): raised when
/// a key is removed or changes meaning, not when one is added.
constexpr int JsonSchemaVersion = 1;
/// One JSON document (schema in docs/output.md).
void writeJson(const Result &R, llvm::raw_ostream &OS);
/// A report writeJson wrote, read back (JsonReader.cpp says what the JSON
/// does not keep); an error when Text is not one.
llvm::Expected<Result> readJson(llvm::StringRef Text);

/// SARIF 2.1.0 (docs/output.md): one run, a result per finding.
void writeSarif(const Result &R, llvm::raw_ostream &OS);

/// One self-contained HTML page: summary, sources, swim lanes; Group: the
/// possible races on one variable are one entry (--group=variable).
void writeHtml(const Result &R, llvm::raw_ostream &OS, bool Group = true);

/// An SV-COMP violation witness (YAML, format 2.0, thread_id waypoints of
/// the 2.2 concurrency extension) for the first confirmed race of R.
void writeSvCompWitness(const Result &R, const std::vector<std::string> &Files,
                        llvm::StringRef DataModel, llvm::raw_ostream &OS);

/// Writes R in format F: writeText with S, writeWhoop with S.Stats,
/// writeHtml with S.Group, writeJson or writeSarif.
void writeReport(const Result &R, llvm::raw_ostream &OS, ReportFormat F,
                 const TextStyle &S);

/// Checks R against the expectations written in the sources (see
/// docs/testing.md). Writes a readable diff to OS; true when all match.
bool verifyExpectations(const Result &R, const std::vector<std::string> &Files,
                        llvm::raw_ostream &OS);

} // namespace crace
