//===- Z3Reaper.h - free Z3 contexts off the engines' clock ---------------===//
//
// Deleting a large Z3 context (Z3_del_context) takes seconds, on the
// programs of goblint-bench tens of seconds (measured: 24 s after a 7 s
// kiss run), time that would count against an engine's share of the
// budget and overrun --timeout. Contexts are therefore handed to one
// background thread that deletes them; Z3 contexts are independent, so this
// is safe while the engines go on with others. Work still pending at normal
// process exit is finished then; the crace tool leaves with _exit once its
// report is written, so it never waits for it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <z3++.h>

namespace crace {

/// Deletes Ctx on the background thread. Every object referring to it
/// (expressions, solvers, models) must be gone already.
void deleteInBackground(std::unique_ptr<z3::context> Ctx);

/// Owns a context for a scope and hands it to the background thread at the
/// end of it; declare it before every object that refers to the context.
class ReapedContext {
public:
  ReapedContext() : Ctx(std::make_unique<z3::context>()) {}
  ReapedContext(const ReapedContext &) = delete;
  ReapedContext &operator=(const ReapedContext &) = delete;
  ~ReapedContext() { deleteInBackground(std::move(Ctx)); }
  z3::context &get() { return *Ctx; }
  /// Takes the context away (its owner then deletes it in the background).
  std::unique_ptr<z3::context> release() { return std::move(Ctx); }

private:
  std::unique_ptr<z3::context> Ctx;
};

} // namespace crace
