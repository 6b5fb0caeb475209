//===- EngineFlags.h - kiss, whoop and circ options -----------------------===//
#ifndef CRACE_TOOLS_ENGINEFLAGS_H
#define CRACE_TOOLS_ENGINEFLAGS_H

#include "engines/Engine.h"

#include "llvm/Support/CommandLine.h"

/// --help's categories of these options.
extern llvm::cl::OptionCategory KissCat, WhoopCat;

/// Copies the parsed kiss, whoop and circ options into E.
void readSymbolicEngineFlags(crace::EngineOptions &E);

#endif
