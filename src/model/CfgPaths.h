//===- CfgPaths.h - paths through one function's control flow -------------===//
//
// Questions about the paths of one function that several recognisers ask
// (instance memory, counter joins, reader/writer locks).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class BasicBlock;
class Instruction;
} // namespace llvm

namespace crace {

/// Some path runs from just after From to just before To without executing
/// an instruction of block Avoid (From's and To's own blocks may be Avoid:
/// only blocks entered on the way count; null avoids nothing). With From ==
/// To: From's block lies on a cycle that avoids Avoid.
[[nodiscard]] bool reachesAvoiding(const llvm::Instruction *From,
                                   const llvm::Instruction *To,
                                   const llvm::BasicBlock *Avoid);

} // namespace crace
