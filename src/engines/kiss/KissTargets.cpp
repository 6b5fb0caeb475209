//===- KissTargets.cpp - the shared objects KISS checks
//---------------------===//
//
// sharedTargets: one race target per shared object the program's threads
// may access, with a readable name.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissTransformImpl.h"

#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "engines/kiss/Rounds.h"
#include "model/PointsTo.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace crace::kiss {

namespace {

/// The file name of a source path (target names stay short and do not
/// depend on where the program lies).
std::string baseName(StringRef Path) {
  size_t Slash = Path.find_last_of('/');
  return (Slash == StringRef::npos ? Path : Path.drop_front(Slash + 1)).str();
}

/// A readable name of a heap or stack object (uniqueness: the caller).
std::string objectName(const ProgramModel &PM, const AbsObject &O) {
  const auto *I = cast<Instruction>(O.Site);
  const Function &F = *I->getFunction();
  if (O.Kind == ObjKind::Heap) {
    SourceLoc SL = PM.location(I);
    StringRef File(SL.File);
    // An object of the entry-point harness, named after its type.
    if (auto H = harnessObjectName(File))
      return *H;
    if (!SL.valid())
      return "heap object allocated in " + F.getName().str() + "()";
    return "heap object allocated at " + baseName(SL.File) + ":" +
           std::to_string(SL.Line);
  }
  auto *A = const_cast<Instruction *>(I);
  const DILocalVariable *Var = nullptr;
  for (DbgVariableRecord *R : findDVRDeclares(A))
    Var = R->getVariable();
  if (!Var)
    for (DbgDeclareInst *D : findDbgDeclares(A))
      Var = D->getVariable();
  if (!Var)
    return "stack object " +
           (I->hasName() ? I->getName().str() + " " : std::string()) + "of " +
           F.getName().str();
  std::string N =
      "local variable " + Var->getName().str() + " of " + F.getName().str();
  if (Var->getLine())
    N += " (" + baseName(Var->getFilename()) + ":" +
         std::to_string(Var->getLine()) + ")";
  return N;
}

/// Objects of crace's own runtime: allocated in a function of it (a model
/// function that was not inlined, or the KISS runtime) rather than in the
/// program or the driver harness (which has debug information).
bool runtimeObject(const AbsObject &O) {
  const Function &F = *cast<Instruction>(O.Site)->getFunction();
  return !F.getSubprogram() && (F.getName().starts_with("__crace") ||
                                F.getName().starts_with("__kiss"));
}

} // namespace

std::vector<Target> sharedTargets(const ProgramModel &PM) {
  const PointsTo &PT = PM.pointsTo();
  std::set<uint32_t> Written;
  for (const Function &F : PM.module()) {
    // Code the program never runs (models of functions it does not call).
    if (!PM.mayRun(F))
      continue;
    for (const Instruction &I : instructions(F))
      for (const MemAccess &A : PM.accessesOf(I))
        if (A.Kind == AccessKind::Write && !A.Library && A.Ptr &&
            !PM.isThreadPrivateAccess(A.Ptr))
          for (const Loc &L : PT.pointsTo(A.Ptr))
            Written.insert(L.Obj);
  }
  std::vector<Target> Out;
  StringSet<> Names;
  for (const GlobalVariable &G : PM.module().globals()) {
    if (G.isDeclaration() || G.isConstant() || G.isThreadLocal() ||
        G.getSection() == ".crace_model" || G.getName().starts_with("llvm.") ||
        G.getName().starts_with("__crace") || G.getName().starts_with("__kiss"))
      continue;
    uint32_t Obj = PT.objectOf(&G);
    if (Obj == PointsTo::UnknownObj || !PT.object(Obj).Shared ||
        !Written.count(Obj))
      continue;
    Out.push_back({Obj, &G, G.getName().str()});
    Names.insert(G.getName());
  }
  // Heap and stack objects, in the analysis's order (the module's).
  for (uint32_t Obj = 1; Obj < PT.numObjects(); ++Obj) {
    const AbsObject &O = PT.object(Obj);
    if ((O.Kind != ObjKind::Heap && O.Kind != ObjKind::Stack) || !O.Shared ||
        !Written.count(Obj) || !isa_and_nonnull<Instruction>(O.Site) ||
        runtimeObject(O))
      continue;
    std::string Base = objectName(PM, O), Name = Base;
    for (unsigned K = 2; !Names.insert(Name).second; ++K)
      Name = Base + " #" + std::to_string(K);
    Out.push_back({Obj, nullptr, Name});
  }
  return Out;
}

} // namespace crace::kiss
