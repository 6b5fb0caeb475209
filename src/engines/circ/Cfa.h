//===- Cfa.h - a thread as a control flow automaton (CIRC's thread) -------===//
//
// CIRC (Henzinger, Jhala, Majumdar, PLDI'04) abstracts each thread as a
// control flow automaton: locations, and edges labelled with guarded
// parallel assignments over integer variables. This file builds one per
// thread template from the LLVM IR, calls inlined (a location is an
// instruction in a call context). The variables:
// - globals: integer global variables the program accesses only as a whole
//   and by name (or through pointers points-to resolves), and one variable
//   per lock object (0 free, 1 held);
// - locals: the template's SSA values that are not pure functions of
//   others (loads, phis, call results, parameters, what cannot be
//   expressed), per call context.
// Everything else is abstracted soundly: a load of untracked memory or an
// unsupported operation yields an arbitrary value, a store that may hit a
// tracked global through a pointer makes it arbitrary, an unlock of a lock
// not known makes every lock free. Accesses the race check needs (the
// candidate pairs' instructions) label the edges that perform them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/PointsTo.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <z3++.h>

namespace llvm {
class Function;
class Instruction;
class GlobalVariable;
} // namespace llvm

namespace crace {
class ProgramModel;
} // namespace crace

namespace crace::circ {

using VarId = unsigned;

struct Var {
  std::string Name;
  unsigned Width = 32;
  bool Global = false;
};

/// The variables of every template's CFA (globals shared, locals per
/// template and call context) and their Z3 constants: Cur (value before an
/// edge) and Next (after it).
struct Vars {
  explicit Vars(z3::context &C) : Ctx(C) {}
  z3::context &Ctx;
  std::vector<Var> List;
  std::vector<z3::expr> Cur, Next;
  /// A local loaded from a global: that global's id (else -1).
  std::vector<int> LoadedFrom;
  /// Every integer comparison the CFAs compute (Boolean terms over Cur):
  /// the raw material of seedPredicates.
  std::vector<z3::expr> Comparisons;
  /// Per variable: its value when the program starts (globals' and
  /// locks' initial values), if known.
  std::vector<std::optional<z3::expr>> Init;
  /// The tracked globals and the lock variables (filled by buildCfa).
  std::map<const llvm::GlobalVariable *, VarId> Globals;
  std::map<Loc, VarId> Locks;
  /// The candidate accesses met while building, numbered in that order:
  /// abstract edges carry these numbers, not addresses, so that every
  /// order circ explores in is the same from run to run.
  std::vector<const llvm::Instruction *> AccessList;
  llvm::DenseMap<const llvm::Instruction *, unsigned> AccessId;
  VarId add(std::string Name, unsigned Width, bool Global);
};

struct Edge {
  unsigned From = 0, To = 0;
  /// All must hold before the edge (Boolean terms over Cur).
  std::vector<z3::expr> Guards;
  /// Parallel assignment: Var := term over Cur.
  std::vector<std::pair<VarId, z3::expr>> Assigns;
  /// Variables given an arbitrary value.
  std::vector<VarId> Havocs;
  /// Instructions among the candidate pairs' this edge executes.
  std::vector<const llvm::Instruction *> Accesses;
  /// Source instruction (for traces), or null.
  const llvm::Instruction *Inst = nullptr;
};

struct Cfa {
  unsigned Template = 0;
  unsigned Entry = 0;
  /// Per location: inside an atomic section (no other thread moves).
  std::vector<bool> Atomic;
  /// Per location: before the thread created any thread (main only): no
  /// other thread exists yet.
  std::vector<bool> Alone;
  std::vector<Edge> Edges;
  std::vector<std::vector<unsigned>> Out;
  /// Why the template cannot be modelled (empty: it can).
  std::string Unsupported;
  [[nodiscard]] unsigned size() const { return Atomic.size(); }
};

/// Builds the CFA of template T of PM. Wanted: the instructions whose
/// accesses label edges.
Cfa buildCfa(const ProgramModel &PM, unsigned T, Vars &V,
             const llvm::DenseSet<const llvm::Instruction *> &Wanted);

/// The globals written by an edge (assigned or havocked).
std::vector<VarId> writtenGlobals(const Edge &E, const Vars &V);

/// Candidate predicates from the CFAs (predicate seeding): every guard's
/// comparison, over locals and with each local loaded from a global
/// replaced by that global, and "g == c" for every constant c stored to a
/// global g. At most Max, in a fixed order.
std::vector<z3::expr> seedPredicates(const std::vector<Cfa> &Cfas,
                                     const Vars &V, unsigned Max);

} // namespace crace::circ
