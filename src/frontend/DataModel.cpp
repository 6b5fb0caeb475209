//===- DataModel.cpp - does the program fit the data model? ---------------===//
#include "frontend/DataModel.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace crace {

namespace {

/// The size parameters of the C library's allocation functions.
bool isAllocationFunction(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("malloc", "calloc", "realloc", "valloc", "aligned_alloc",
             "memalign", true)
      .Default(false);
}

class ThirtyTwoBitSizeSpotter
    : public clang::ASTConsumer,
      public clang::RecursiveASTVisitor<ThirtyTwoBitSizeSpotter> {
public:
  ThirtyTwoBitSizeSpotter(clang::CompilerInstance &CI, std::string &Evidence)
      : CI(CI), Evidence(Evidence) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef G) override {
    if (!Evidence.empty())
      return false;
    if (CI.getTarget().getPointerWidth(clang::LangAS::Default) != 64)
      return true;
    for (clang::Decl *D : G) {
      auto *FD = dyn_cast<clang::FunctionDecl>(D);
      if (!FD)
        continue;
      if (FD->getDeclName().isIdentifier() &&
          isAllocationFunction(FD->getName()) && takesThirtyTwoBits(FD))
        Narrow.insert(FD->getCanonicalDecl());
      if (!Narrow.empty() && FD->doesThisDeclarationHaveABody())
        TraverseStmt(FD->getBody());
      if (!Evidence.empty())
        return false; // stops the parse: the unit is compiled again
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr *C) {
    const clang::FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || !Narrow.contains(Callee->getCanonicalDecl()))
      return true;
    std::string Where;
    clang::PresumedLoc P =
        CI.getSourceManager().getPresumedLoc(C->getBeginLoc());
    if (P.isValid())
      Where = formatv(" at {0}:{1}", P.getFilename(), P.getLine()).str();
    Evidence = formatv("'{0}' is called with a 32-bit size{1}",
                       Callee->getName(), Where)
                   .str();
    return false;
  }

private:
  bool takesThirtyTwoBits(const clang::FunctionDecl *FD) const {
    for (const clang::ParmVarDecl *P : FD->parameters()) {
      clang::QualType T = P->getType();
      if (T->isIntegerType() && CI.getASTContext().getTypeSize(T) == 32)
        return true;
    }
    return false;
  }

  clang::CompilerInstance &CI;
  std::string &Evidence;
  SmallPtrSet<const clang::Decl *, 4> Narrow;
};

} // namespace

std::unique_ptr<clang::ASTConsumer>
makeThirtyTwoBitSizeSpotter(clang::CompilerInstance &CI,
                            std::string &Evidence) {
  return std::make_unique<ThirtyTwoBitSizeSpotter>(CI, Evidence);
}

std::optional<std::string> thirtyTwoBitSizeEvidence(const Module &M) {
  if (M.getDataLayout().getPointerSizeInBits() != 64)
    return std::nullopt;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      const Function *Callee =
          CB ? dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts())
             : nullptr;
      if (!Callee)
        continue;
      if (!isAllocationFunction(Callee->getName()))
        continue;
      FunctionType *Called = CB->getFunctionType();
      FunctionType *Declared = Callee->getFunctionType();
      for (unsigned A = 0;
           A < Called->getNumParams() && A < Declared->getNumParams(); ++A) {
        Type *Passed = Called->getParamType(A),
             *Takes = Declared->getParamType(A);
        if (!Passed->isIntegerTy(32) || !Takes->isIntegerTy(64))
          continue;
        std::string Where;
        if (const DILocation *L = I.getDebugLoc().get())
          Where = formatv(" at {0}:{1}", L->getFilename(), L->getLine()).str();
        return formatv("'{0}' is called with a 32-bit size{1}",
                       Callee->getName(), Where)
            .str();
      }
    }
  return std::nullopt;
}

} // namespace crace
