//===- PointsToDump.cpp - points-to sets as text, for debugging ----------===//
//
// CRACE_DUMP_PTS=f,g prints, after the analysis, what every value of the
// functions f and g points to and what the objects they reach hold, field
// by field. For whoever chases an imprecise set back to where it grew.
//
//===----------------------------------------------------------------------===//

#include "model/PointsTo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crace {

namespace {

std::string siteName(const AbsObject &O) {
  std::string S;
  raw_string_ostream OS(S);
  static const char *Kinds[] = {"unknown", "global", "tls",
                                "stack",   "heap",   "function"};
  OS << Kinds[unsigned(O.Kind)];
  if (!O.Site)
    return S;
  if (auto *I = dyn_cast<Instruction>(O.Site)) {
    OS << " in " << I->getFunction()->getName();
    if (const DebugLoc &DLoc = I->getDebugLoc())
      OS << " line " << DLoc.getLine();
    if (!I->getName().empty())
      OS << " %" << I->getName();
  } else {
    OS << " " << O.Site->getName();
  }
  return S;
}

} // namespace

void PointsTo::dump(raw_ostream &OS, StringRef Functions) const {
  SmallVector<StringRef, 4> Names;
  Functions.split(Names, ',', -1, false);
  std::set<uint32_t> Reached;
  auto Print = [&](const PtsSet &S, bool Collect) {
    OS << "{";
    ListSeparator Sep(", ");
    for (const Loc &L : S) {
      OS << Sep << "#" << L.Obj;
      if (L.anywhere())
        OS << "+?";
      else
        OS << "+" << L.Off;
      if (L.Stride)
        OS << "(" << L.Stride << "x" << L.Count << ")";
      if (Collect)
        Reached.insert(L.Obj);
    }
    OS << "}";
  };
  for (StringRef Name : Names) {
    const Function *F = M.getFunction(Name);
    if (!F || F->isDeclaration()) {
      OS << "pts: no function " << Name << "\n";
      continue;
    }
    OS << "pts: function " << Name << "\n";
    auto Value = [&](const llvm::Value &V) {
      const PtsSet &S = pointsTo(&V);
      if (S.empty())
        return;
      OS << "  ";
      V.printAsOperand(OS, false);
      if (auto *I = dyn_cast<Instruction>(&V))
        if (const DebugLoc &DLoc = I->getDebugLoc())
          OS << " (line " << DLoc.getLine() << ")";
      OS << " -> ";
      Print(S, true);
      OS << "\n";
    };
    for (const Argument &A : F->args())
      Value(A);
    for (const Instruction &I : instructions(*F))
      Value(I);
  }
  for (uint32_t Obj : Reached) {
    OS << "pts: object #" << Obj << " " << siteName(Objects[Obj]) << "\n";
    auto Lo = Contents.lower_bound({Obj, INT64_MIN});
    auto Hi = Contents.lower_bound({Obj + 1, INT64_MIN});
    for (auto It = Lo; It != Hi; ++It) {
      if (It->second.empty())
        continue;
      OS << "    field "
         << (It->first.anywhere() ? std::string("?") : itostr(It->first.Off))
         << " holds ";
      if (It->second.size() > 24) {
        OS << It->second.size() << " locations\n";
        continue;
      }
      // The objects printed here are not followed further.
      Print(It->second, false);
      OS << "\n";
    }
  }
}

} // namespace crace
