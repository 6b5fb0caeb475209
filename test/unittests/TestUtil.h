//===- TestUtil.h - build a ProgramModel from a C string in unit tests ----===//
#pragma once

#include "model/ProgramModel.h"
#include "report/Finding.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include <memory>
#include <string>

namespace crace::test {

/// A compiled C program (written to a temporary file), its module and model.
struct Compiled {
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M;
  std::unique_ptr<ProgramModel> PM;
  std::string Error;
  std::string Path;
};

/// Compiles Code (a C translation unit) and builds its ProgramModel.
Compiled compile(const std::string &Code,
                 const std::vector<std::string> &Flags = {});

/// Runs the lockset engine on Code.
Result lockset(const std::string &Code);

} // namespace crace::test
