//===- WorkBudget.h - the calibrated rate of deterministic work budgets ---===//
//
// Stages that can be cut (whoop, kiss) count their work in machine-
// independent units (smt/WorkMeter.h); a budget given in seconds
// becomes units at this fixed rate. Kept free of Z3 so the driver and the
// tool can use it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace crace {

/// The calibrated rate: work units a budget gives per second. Measured on
/// the 2-core CI machine, whoop spends about 3000000 a second (20000000
/// units: 6.1-6.6 s on goblint-bench's automount_incl_lib, steps and Z3
/// about half each); 2000000 leaves room for a loaded machine, so the work
/// budget runs out before the seconds it stands for.
constexpr uint64_t UnitsPerSecond = 2'000'000;
/// What one encoding step is worth, in Z3 resource units (a step of
/// whoop's encoder costs 10-80 us, while Z3 spends 3000000 units a second).
constexpr uint64_t StepCost = 50;
/// What one step of kiss (an instruction instrumented, cloned or encoded
/// by the bmc) is worth: about 5 us (goblint-bench's automount_incl_lib:
/// 4.4 million steps in 22 s, with few Z3 units).
constexpr uint64_t KissStepCost = 15;
/// Nodes of a Z3 term the bmc's encoder hands to Z3's simplifier or lambda
/// abstraction (which visit the whole term each time) per work unit:
/// drivers/prim_usb_control.c at ts size 1, whose library writes make
/// nested lambdas, spends 20000000 units (nearly all term nodes) in 6.5 s
/// of CPU, about the 3000000 a second whoop's units cost.
constexpr uint64_t TermNodesPerUnit = 4;

/// The reason an engine's inner layers (bmc, kiss transform) give when the
/// stage's work budget is spent; the engine replaces it by one line naming
/// the budget.
inline constexpr const char *WorkBudgetRanOut = "its work budget ran out";

/// The work budget a stage gets for Seconds at the calibrated rate.
inline uint64_t unitsForSeconds(double Seconds) {
  return Seconds <= 0 ? 0 : uint64_t(Seconds * double(UnitsPerSecond));
}

} // namespace crace
