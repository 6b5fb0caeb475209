//===- DataModel.h - does the program fit the data model it was compiled for?
//
// Programs preprocessed for a 32-bit target (CIL-combined benchmarks declare
// `typedef unsigned int size_t;` and their own `malloc(size_t)`) compile
// without complaint for LP64, but then pass 32-bit sizes to the C library's
// 64-bit allocation functions: the calls do not match crace's models, are
// not inlined, and every allocation becomes one heap object.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace crace {

/// On a 64-bit module: the first call of an allocation function (malloc,
/// calloc, realloc, ...) that passes a 32-bit size where the function takes
/// a 64-bit one, described with its location ("'malloc' is called with a
/// 32-bit size at f.c:12"); nullopt when there is none or the module is
/// not 64-bit.
std::optional<std::string> thirtyTwoBitSizeEvidence(const llvm::Module &M);

/// The same evidence seen while clang parses, so that a compile for a
/// 64-bit target stops at the first such call instead of going on to make
/// a module that is thrown away: the program's own declaration of an
/// allocation function with a 32-bit integer size parameter, then a call
/// of it in a function body. On the first call found, Evidence is set
/// ("'malloc' is called with a 32-bit size at f.c:12", the location as the
/// debug info would name it) and the consumer stops the parse. What the
/// parse does not show (a unit reused from a cache; a call through a cast
/// of the function) is left to thirtyTwoBitSizeEvidence on the module. A
/// declaration without prototype is clang's builtin, with a 64-bit size.
/// Nothing is done on a 32-bit target.
std::unique_ptr<clang::ASTConsumer>
makeThirtyTwoBitSizeSpotter(clang::CompilerInstance &CI, std::string &Evidence);

} // namespace crace
