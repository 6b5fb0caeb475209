//===- TestUtil.cpp -------------------------------------------------------===//
#include "TestUtil.h"
#include "engines/Engine.h"
#include "frontend/Frontend.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace crace::test {

Compiled compile(const std::string &Code,
                 const std::vector<std::string> &Flags) {
  Compiled C;
  llvm::SmallString<128> Path;
  int FD;
  if (llvm::sys::fs::createTemporaryFile("crace-unit", "c", FD, Path)) {
    C.Error = "cannot create a temporary file";
    return C;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Code;
  }
  C.Path = Path.str().str();
  clang::tooling::FixedCompilationDatabase DB(".", Flags);
  FrontendOptions Opts;
  Opts.Files = {C.Path};
  Opts.Database = &DB;
  C.Ctx = std::make_unique<llvm::LLVMContext>();
  auto M = buildModule(Opts, *C.Ctx);
  llvm::sys::fs::remove(C.Path);
  if (!M) {
    C.Error = llvm::toString(M.takeError());
    return C;
  }
  C.M = std::move(*M);
  C.PM = ProgramModel::build(*C.M);
  return C;
}

Result lockset(const std::string &Code) {
  Compiled C = compile(Code);
  if (!C.PM) {
    Result R;
    R.reason(ReasonKind::Failure, "compile failed: " + C.Error);
    return R;
  }
  EngineOptions Opts;
  return createEngine(EngineKind::Lockset)->run(*C.PM, Opts);
}

} // namespace crace::test
