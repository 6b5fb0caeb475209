//===- Report.cpp - from a report format to its writer --------------------===//
#include "report/Report.h"

namespace crace {

void writeReport(const Result &R, llvm::raw_ostream &OS, ReportFormat F,
                 const TextStyle &S) {
  switch (F) {
  case ReportFormat::Text:
    writeText(R, OS, S);
    return;
  case ReportFormat::Json:
    writeJson(R, OS);
    return;
  case ReportFormat::Sarif:
    writeSarif(R, OS);
    return;
  case ReportFormat::Html:
    writeHtml(R, OS, S.Group);
    return;
  case ReportFormat::Whoop:
    writeWhoop(R, OS, S.Stats);
    return;
  }
}

} // namespace crace
