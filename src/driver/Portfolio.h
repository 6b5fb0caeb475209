//===- Portfolio.h - engine composition (--engine=auto) -------------------===//
//
// Private to driver/: all composition of engines is in Portfolio.cpp, the
// one place that knows which engine runs after which, with what share of
// the budget, and how their results merge into one report.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Watchdog.h"
#include "engines/Engine.h"

#include <atomic>
#include <string>

namespace crace::driver {

/// Runs one engine, naming it in the progress line.
Result runEngine(EngineKind K, const ProgramModel &PM, const EngineOptions &EO);

/// True when R has a data-race finding (not only deadlocks or assertion
/// failures).
bool hasDataRace(const Result &R);

/// --engine=auto: the portfolio (the policy is documented in Portfolio.cpp
/// and docs/usage.md, "Time budget"). Cancel is the run's own limit.
Result runPortfolio(const ProgramModel &PM, const EngineOptions &EO,
                    Watchdog &Dog, const std::atomic<bool> &Cancel);

/// The work budgets the portfolio gives whoop and kiss under Dog's run
/// limit ("whoop W, kiss K" units): with the options, what a portfolio
/// result depends on besides the program (the result cache's key).
std::string portfolioWorkBudgets(const Watchdog &Dog, const EngineOptions &EO);

} // namespace crace::driver
