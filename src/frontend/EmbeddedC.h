//===- EmbeddedC.h - the C crace carries, compiled for the program --------===//
//
// Inside the frontend: the environment models compiled for the program's
// target (Frontend.cpp links them in). compileEmbeddedC (Frontend.h)
// compiles an engine's C the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace clang {
class FrontendAction;
} // namespace clang

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace crace {

/// One embedded file: its name and text (cmake/EmbedModels.cmake).
struct ModelSource {
  const char *Name;
  const char *Text;
};

/// models/linux/ (sources and include/ headers), for driver mode.
llvm::ArrayRef<ModelSource> linuxModelSources();

/// Compiles the embedded models for Triple, after Prelude.
llvm::Expected<std::unique_ptr<llvm::Module>>
compileModels(llvm::LLVMContext &Ctx, llvm::StringRef Triple,
              llvm::StringRef Prelude);

/// Compiles the embedded Linux kernel models for Triple (driver mode).
llvm::Expected<std::unique_ptr<llvm::Module>>
compileLinuxModels(llvm::LLVMContext &Ctx, llvm::StringRef Triple,
                   bool IrqLock);

/// Frontend.cpp: the action that compiles one unit and hands its module to
/// Sink, naming the library functions it calls.
std::unique_ptr<clang::FrontendAction>
captureModuleAction(llvm::LLVMContext &Ctx,
                    std::vector<std::unique_ptr<llvm::Module>> &Sink);

} // namespace crace
