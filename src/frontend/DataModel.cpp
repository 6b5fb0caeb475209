//===- DataModel.cpp - does the program fit the data model? ---------------===//
#include "frontend/DataModel.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace crace {

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
      // The size parameters of the C library's allocation functions.
      bool IsAlloc = StringSwitch<bool>(Callee->getName())
                         .Cases("malloc", "calloc", "realloc", "valloc",
                                "aligned_alloc", "memalign", true)
                         .Default(false);
      if (!IsAlloc)
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
