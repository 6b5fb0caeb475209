//===- PassContext.h - the analysis managers an LLVM pipeline needs ------===//
//
// The frontend's cleanup, the bmc's loop normalisation and the kiss
// runtime's simplification each run new-pass-manager passes on a module;
// this holds the four analysis managers and the PassBuilder, registered and
// cross-registered, once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Passes/PassBuilder.h"

namespace crace {

struct PassContext {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB;
  PassContext() {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

} // namespace crace
