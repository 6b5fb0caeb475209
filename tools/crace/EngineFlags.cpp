//===- EngineFlags.cpp - kiss, whoop and circ options ---------------------===//
//
// Their llvm::cl options, in --help's categories 6 and 7, and their copy
// into EngineOptions (docs/usage.md, "kiss", "whoop", "circ").
//
//===----------------------------------------------------------------------===//
#include "EngineFlags.h"

using namespace llvm;

cl::OptionCategory KissCat("6. kiss engine options");
cl::OptionCategory WhoopCat("7. whoop and circ engine options");

static cl::opt<unsigned>
    KissMaxOpt("kiss-max",
               cl::desc("KISS: forked threads that may wait to be scheduled (a "
                        "creation beyond them runs the thread at once)"),
               cl::init(0), cl::cat(KissCat));
static cl::opt<unsigned> UnwindOpt(
    "unwind",
    cl::desc("kiss: loop unwinding bound of the bounded model checker"),
    cl::init(8), cl::cat(KissCat));
static cl::opt<unsigned> KissQueryTimeoutOpt(
    "kiss-query-timeout",
    cl::desc("kiss: seconds per target query of the bounded model checker; a "
             "query past it answers unknown for its target (0: no limit)"),
    cl::value_desc("SECONDS"), cl::init(0), cl::cat(KissCat));
static cl::opt<std::string> KissTargetOpt(
    "kiss-target",
    cl::desc("kiss: check races on this target only: a global variable, or a "
             "heap or stack object as --stats names it (default: every "
             "shared written object)"),
    cl::value_desc("NAME"), cl::init(""), cl::cat(KissCat));
static cl::opt<std::string> EmitSequentialOpt(
    "emit-sequential",
    cl::desc("kiss: write the sequential (KISS-transformed) module to FILE "
             "('-': standard output)"),
    cl::value_desc("FILE.ll"), cl::init(""), cl::cat(KissCat));
static cl::opt<unsigned> KissRoundsOpt(
    "rounds",
    cl::desc("kiss: K-round round-robin executions (Lal-Reps eager "
             "sequentialisation) instead of KISS's balanced ones (0: off)"),
    cl::value_desc("K"), cl::init(0), cl::cat(KissCat));

static cl::opt<crace::EngineOptions::Yields> KissYieldsOpt(
    "kiss-yields",
    cl::desc("kiss: where the sequential program may switch threads "
             "(WHOOP's yield placements)"),
    cl::values(
        clEnumValN(crace::EngineOptions::Yields::All, "all",
                   "before every visible operation (Yield-ALL)"),
        clEnumValN(crace::EngineOptions::Yields::Racy, "racy",
                   "before synchronisation, atomic accesses and the accesses "
                   "the lockset analysis cannot prove race-free (Yield-MR); "
                   "the objects it proves are not checked")),
    cl::init(crace::EngineOptions::Yields::Racy), cl::cat(KissCat));

static cl::opt<unsigned> KissBudgetOpt(
    "kiss-budget",
    cl::desc("kiss: its work budget in seconds at the calibrated rate "
             "(deterministic, see --kiss-work; 0: none, in --engine=auto at "
             "most 15)"),
    cl::value_desc("SECONDS"), cl::init(0), cl::cat(KissCat));
static cl::opt<uint64_t> KissWorkOpt(
    "kiss-work",
    cl::desc("kiss: its work budget in machine-independent units (Z3 "
             "resource units plus transform and encoding steps); overrides "
             "--kiss-budget (0: from --kiss-budget)"),
    cl::value_desc("UNITS"), cl::init(0), cl::cat(KissCat));

static cl::opt<unsigned> WhoopBudgetOpt(
    "whoop-budget",
    cl::desc("whoop: its work budget in seconds at the calibrated rate "
             "(deterministic, see --whoop-work); past it the remaining pairs "
             "keep the lockset result (0: no limit)"),
    cl::value_desc("SECONDS"), cl::init(45), cl::cat(WhoopCat));
static cl::opt<uint64_t> WhoopWorkOpt(
    "whoop-work",
    cl::desc("whoop: its work budget in machine-independent units (Z3 "
             "resource units plus encoding steps); overrides --whoop-budget "
             "(0: from --whoop-budget)"),
    cl::value_desc("UNITS"), cl::init(0), cl::cat(WhoopCat));
static cl::opt<unsigned>
    CircBudgetOpt("circ-budget",
                  cl::desc("circ: work budget in seconds (0: no limit)"),
                  cl::value_desc("SECONDS"), cl::init(10), cl::cat(WhoopCat));
static cl::opt<uint64_t> CircWorkOpt(
    "circ-work",
    cl::desc("circ: its work budget in machine-independent units (Z3 "
             "resource units plus its own steps); overrides --circ-budget "
             "(0: from --circ-budget)"),
    cl::value_desc("UNITS"), cl::init(0), cl::cat(WhoopCat));

void readSymbolicEngineFlags(crace::EngineOptions &E) {
  E.KissMax = KissMaxOpt;
  E.KissMaxGiven = KissMaxOpt.getNumOccurrences() > 0;
  E.Unwind = UnwindOpt;
  E.KissQueryTimeout = KissQueryTimeoutOpt;
  E.KissTarget = KissTargetOpt;
  E.EmitSequential = EmitSequentialOpt;
  E.WhoopBudget = WhoopBudgetOpt;
  E.WhoopWork = WhoopWorkOpt;
  E.CircBudget = CircBudgetOpt;
  E.CircWork = CircWorkOpt;
  E.KissBudget = KissBudgetOpt;
  E.KissWork = KissWorkOpt;
  E.KissRounds = KissRoundsOpt;
  E.KissYields = KissYieldsOpt;
}
