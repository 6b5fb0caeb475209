//===- EmbeddedC.cpp - the C crace carries, compiled for the program ------===//
//
// The environment models (models/*.c, models/linux/*) and the engines' C
// (kiss's runtime, handed in through EngineOptions::CompileC), embedded in
// the binary by cmake/EmbedModels.cmake and compiled here, one unit each,
// for the program's target.
//
//===----------------------------------------------------------------------===//
#include "frontend/EmbeddedC.h"
#include "frontend/Frontend.h"
#include "model/Errors.h"

#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace {

namespace {

const ModelSource ModelSources[] = {
#include "frontend/ModelSources.inc"
};
/// models/linux/: linked in driver mode only.
const ModelSource LinuxModelSources[] = {
#include "frontend/LinuxModelSources.inc"
};

/// crace_intrinsics.h, the header every model includes.
StringRef intrinsicsHeader() {
  for (const ModelSource &S : ModelSources)
    if (StringRef(S.Name).ends_with(".h"))
      return S.Text;
  return "";
}

/// Compiles Code, as one unit named FileName for Triple, the way crace's
/// own C is compiled (-O0 without optnone, no debug info, freestanding),
/// then ExtraArgs. What names the sources in the error.
Expected<std::unique_ptr<Module>> compileOwnC(LLVMContext &Ctx,
                                              StringRef Triple, StringRef Code,
                                              StringRef FileName,
                                              ArrayRef<std::string> ExtraArgs,
                                              StringRef What) {
  std::vector<std::unique_ptr<Module>> Out;
  // No -g: inlined model code then carries the user's call location.
  std::vector<std::string> Args = {"-O0",
                                   "-Xclang",
                                   "-disable-O0-optnone",
                                   "-w",
                                   "-target",
                                   Triple.str(),
                                   "-resource-dir=" CRACE_CLANG_RESOURCE_DIR,
                                   "-fno-builtin",
                                   "-ffreestanding"};
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  clang::tooling::FileContentMappings Mapped = {
      {"crace_intrinsics.h", intrinsicsHeader().str()}};
  bool Ok = clang::tooling::runToolOnCodeWithArgs(
      captureModuleAction(Ctx, Out), Code, Args, FileName, "crace",
      std::make_shared<clang::PCHContainerOperations>(), Mapped);
  if (!Ok || Out.empty())
    return make_error<InternalError>(
        (What + " do not compile for target " + Triple).str());
  return std::move(Out.front());
}

/// Compiles the C sources (not headers) of Sources, under Dir in #line
/// directives and after Prelude, as one unit named FileName for Triple.
/// What names them in the error.
Expected<std::unique_ptr<Module>>
compileModelUnit(LLVMContext &Ctx, StringRef Triple,
                 ArrayRef<ModelSource> Sources, StringRef Dir,
                 StringRef Prelude, StringRef FileName,
                 ArrayRef<std::string> ExtraArgs, StringRef What) {
  std::string Code = Prelude.str();
  for (const ModelSource &S : Sources) {
    if (StringRef(S.Name).ends_with(".h"))
      continue;
    Code += "#line 1 \"" + Dir.str() + S.Name + "\"\n";
    Code += S.Text;
    Code += "\n";
  }
  return compileOwnC(Ctx, Triple, Code, FileName, ExtraArgs, What);
}

} // namespace

ArrayRef<ModelSource> linuxModelSources() { return LinuxModelSources; }

/// Compiles the embedded models for Triple.
Expected<std::unique_ptr<Module>>
compileModels(LLVMContext &Ctx, StringRef Triple, StringRef Prelude) {
  return compileModelUnit(Ctx, Triple, ModelSources, "models/", Prelude,
                          ModelFileName, {}, "the environment models");
}

/// Compiles the embedded Linux kernel models for Triple (driver mode).
Expected<std::unique_ptr<Module>>
compileLinuxModels(LLVMContext &Ctx, StringRef Triple, bool IrqLock) {
  std::vector<std::string> Extra;
  if (!IrqLock)
    Extra.push_back("-DCRACE_LINUX_NO_IRQ_LOCK");
  return compileModelUnit(Ctx, Triple, LinuxModelSources, "models/linux/", "",
                          LinuxModelFileName, Extra, "the Linux models");
}

Expected<std::unique_ptr<Module>> compileEmbeddedC(StringRef Name,
                                                   StringRef Source,
                                                   ArrayRef<std::string> Args,
                                                   const Module &Like) {
  auto M = compileOwnC(Like.getContext(), Like.getTargetTriple(), Source, Name,
                       Args, "the sources of " + Name.str());
  if (!M)
    return M.takeError();
  // As for the models: the program's data layout.
  (*M)->setDataLayout(Like.getDataLayout());
  return M;
}

} // namespace crace
