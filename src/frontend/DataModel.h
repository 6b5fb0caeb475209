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

#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

/// On a 64-bit module: the first call of an allocation function (malloc,
/// calloc, realloc, ...) that passes a 32-bit size where the function takes
/// a 64-bit one, described with its location ("'malloc' is called with a
/// 32-bit size at f.c:12"); nullopt when there is none or the module is
/// not 64-bit.
std::optional<std::string> thirtyTwoBitSizeEvidence(const llvm::Module &M);

} // namespace crace
