//===- ParseErrors.h - llvm::cl's parse errors in crace's form ------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

/// llvm::cl's parse errors (Text), one per line, as "crace: error: ...".
void printParseErrors(llvm::StringRef Text);
