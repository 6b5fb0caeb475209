//===- ProgramStart.h - the program outside main, and main's inputs -------===//
//
// A C program is more than main: constructors (`__attribute__((constructor))`,
// `.init_array`) run before it in the main thread; exit() and the return
// from main run the exit handlers (atexit, on_exit, __cxa_atexit), newest
// first, then the destructors (`__attribute__((destructor))`,
// `.fini_array`), while threads that were not joined still run; a thread's
// exit runs the destructors of its thread-specific data
// (pthread_key_create). And main's argc, argv and environment are inputs.
//
// The front end makes all of that explicit code of the module, so every
// engine sees it (models/start.c holds the C parts):
//   - before inlining (`addProgramStart`): main computes its inputs with
//     models/start.c (nondeterministic, or the fixed --args/--env ones),
//     calls the constructors, and calls `__crace_run_exit(code)` before each
//     return; `__crace_run_exit` (called by the exit() model too) runs the
//     exit handlers and destructors; `__crace_thread_fini` (called by the
//     pthread_exit model) runs the thread-specific data destructors when the
//     program registers any;
//   - after inlining (`addThreadFini`): threads whose start routine is a
//     known function start in a trampoline that calls
//     `__crace_thread_fini` when the routine returns.
// Module metadata "crace.assumptions"/"crace.reasons" records the input
// bounds and anything not modelled.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

struct ProgramInputOptions {
  /// --args: main runs with exactly these arguments (argv[0] first).
  bool FixedArgs = false;
  std::vector<std::string> Args;
  /// --env: the environment is exactly these NAME=VALUE strings.
  bool FixedEnv = false;
  std::vector<std::string> Env;
};

/// C definitions compiled with the models (the fixed arguments and
/// environment of --args/--env); empty when the inputs are free.
std::string programInputModelText(const ProgramInputOptions &O);

/// Before the models are inlined: main's inputs, constructors, exit
/// handlers, destructors, the thread-specific data hook. Returns the
/// assumptions the rewrite adds to every verdict.
std::vector<std::string> addProgramStart(llvm::Module &M,
                                         const ProgramInputOptions &O);

/// After inlining: start threads in a trampoline that runs the
/// thread-specific data destructors at the start routine's return. Returns
/// reasons an engine may not claim race freedom for.
std::vector<std::string> addThreadFini(llvm::Module &M);

} // namespace crace
