//===- Errors.h - the error types crace's libraries return ----------------===//
//
// Errors a caller tells apart by type, never by their message's wording:
// CompileError (the input does not compile or link; the tool's exit code
// 4) and InternalError (crace's own fault; exit code 5). Any other error
// (a StringError) is a problem with the user's input or options. Header
// only, so every layer may include it (model/ is the lowest).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace crace {

/// The sources did not compile; clang has printed its diagnostics.
class CompileError : public llvm::ErrorInfo<CompileError> {
public:
  static inline char ID = 0;
  explicit CompileError(std::string Msg) : Msg(std::move(Msg)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Msg;
};

/// A unit compiled for a 64-bit target was written for a 32-bit one
/// (frontend/DataModel.h): its compile was stopped so that the caller
/// compiles the program again as ILP32. The message is the evidence.
class ThirtyTwoBitProgram : public llvm::ErrorInfo<ThirtyTwoBitProgram> {
public:
  static inline char ID = 0;
  explicit ThirtyTwoBitProgram(std::string Why) : Why(std::move(Why)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Why; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Why;
};

/// A fault of crace itself, not of the input (clang crashed, a module
/// crace made is invalid, an embedded model does not compile). Its message
/// is "internal error: " and what went wrong.
class InternalError : public llvm::ErrorInfo<InternalError> {
public:
  static inline char ID = 0;
  /// What went wrong, without the "internal error: " prefix.
  explicit InternalError(std::string What) : What(std::move(What)) {}
  void log(llvm::raw_ostream &OS) const override {
    OS << "internal error: " << What;
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string What;
};

} // namespace crace
