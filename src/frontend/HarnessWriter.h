//===- HarnessWriter.h - driver mode: the harness writer (private) --------===//
//
// The seam between driver mode's two halves: EntryPoints.cpp finds the entry
// points of a translation unit, HarnessWriter.cpp writes the harness that
// runs them. Private to frontend/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/EntryPoints.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class RecordDecl;
} // namespace clang

namespace crace::harness {

/// An entry point found in the translation unit, with everywhere it was
/// registered.
struct FoundEntry {
  const clang::FunctionDecl *FD = nullptr;
  EntryRole Role = EntryRole::Entry;
  unsigned Order = 0;
  unsigned Origins = 0, RtnlOrigins = 0;
  std::vector<std::string> Where;
  unsigned Seq = 0;
};

/// The name of a struct or union, else of its typedef, else "".
std::string recordName(const clang::RecordDecl *RD);

/// Appends the harness for Funcs (by name) to Out.Text, and the entry
/// points, listing lines, reasons and assumptions it makes to Out.
/// NotOps: struct types whose function pointers were not taken as entry
/// points (listed as notes).
void writeHarness(clang::ASTContext &Ctx, const DriverHarnessOptions &Opts,
                  const std::map<std::string, FoundEntry> &Funcs,
                  const std::set<std::string> &NotOps, DriverHarness &Out);

} // namespace crace::harness
