//===- Solver.cpp - the Z3 core, query cache and query log ----------------===//
#include "smt/Solver.h"
#include "smt/WorkMeter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <map>
#include <optional>
#include <vector>

using namespace llvm;

namespace crace::smt {

StringRef answerName(Answer A) {
  switch (A) {
  case Answer::Sat:
    return "sat";
  case Answer::Unsat:
    return "unsat";
  case Answer::Unknown:
    return "unknown";
  }
  return "unknown";
}

Solver::~Solver() = default;

Answer checkAlone(Solver &S, const z3::expr &E) {
  S.push();
  S.add(E);
  Answer A = S.check();
  S.pop();
  return A;
}

//===----------------------------------------------------------------------===//
// Interrupter
//===----------------------------------------------------------------------===//

std::atomic<unsigned> &wallClockCuts() {
  static std::atomic<unsigned> Cuts{0};
  return Cuts;
}

Interrupter::Interrupter(z3::context &Ctx, const std::atomic<bool> *Cancelled,
                         std::chrono::steady_clock::time_point Start,
                         double Seconds)
    : Ctx(Ctx), Cancelled(Cancelled), Start(Start), Seconds(Seconds),
      Thread([this] { loop(); }) {}

Interrupter::~Interrupter() {
  {
    std::lock_guard<std::mutex> G(M);
    Done = true;
  }
  CV.notify_all();
  Thread.join();
}

void Interrupter::loop() {
  std::unique_lock<std::mutex> L(M);
  while (!CV.wait_for(L, std::chrono::milliseconds(20), [&] { return Done; })) {
    bool Cancel = Cancelled && Cancelled->load();
    bool Over = Seconds > 0 && std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - Start)
                                       .count() > Seconds;
    if (Cancel || Over) {
      if (!Stop) {
        DeadlinePassed = !Cancel;
        if (!Cancel)
          ++wallClockCuts();
      }
      Stop = true;
      Ctx.interrupt();
    }
  }
}

namespace {

//===----------------------------------------------------------------------===//
// The Z3 core
//===----------------------------------------------------------------------===//

class Z3Core final : public Solver {
public:
  Z3Core(z3::context &Ctx, SolverOptions O)
      : Ctx(Ctx), O(std::move(O)),
        OwnScopes(this->O.FreshPerCheck && !this->O.KeepInZ3) {
    // Only when it holds the assertions: making a Z3 solver costs work
    // units.
    if (!OwnScopes)
      Main.emplace(Ctx);
  }

  z3::context &context() override { return Ctx; }
  void add(const z3::expr &E) override {
    if (OwnScopes)
      Scopes.back().push_back(E);
    else
      Main->add(E);
  }
  void push() override {
    if (OwnScopes)
      Scopes.emplace_back();
    else
      Main->push();
  }
  /// The last check's model and fresh solver go before the scope: Z3
  /// reuses the ids of the terms they free and orders terms by id, so
  /// freeing them elsewhere changes later checks' speed (a bmc query took
  /// 30 s instead of 1 s when they went right after the check).
  void pop() override {
    Model.reset();
    Checked = nullptr;
    LastFresh.reset();
    if (OwnScopes)
      Scopes.pop_back();
    else
      Main->pop();
  }
  z3::expr_vector assertions() override {
    if (!OwnScopes)
      return Main->assertions();
    z3::expr_vector V(Ctx);
    for (const std::vector<z3::expr> &S : Scopes)
      for (const z3::expr &E : S)
        V.push_back(E);
    return V;
  }
  /// Fetched when asked for: Z3 charges work for a model (its model
  /// converters), and most checks need none.
  z3::model model() override {
    assert(Checked && "model() needs the last check to be Sat, unpopped");
    if (!Model)
      Model = Checked->get_model();
    return *Model;
  }
  std::string reasonUnknown() override { return Reason; }
  bool lastWasCut() override { return Cut; }
  SolverStats stats() const override { return St; }

  Answer check(ArrayRef<z3::expr> Assumptions) override {
    ++St.Checks;
    ++St.Solved;
    Model.reset();
    Checked = nullptr;
    LastFresh.reset();
    Reason.clear();
    Cut = false;
    auto T0 = std::chrono::steady_clock::now();
    Answer A = Answer::Unknown;
    if (O.Cancel && O.Cancel->load()) {
      Reason = "cancelled"; // no check at all
    } else {
      // Z3 cannot poll the flag: a watcher interrupts it while it works.
      std::optional<Interrupter> Watch;
      if (O.Cancel)
        Watch.emplace(Ctx, O.Cancel);
      A = run(Assumptions);
    }
    St.Seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
            .count();
    // The meter rereads Z3's count after every check: an Unknown is the
    // budget's when it is spent now.
    bool Spent = O.Work && O.Work->poll();
    if (A == Answer::Unknown) {
      bool Cancelled = O.Cancel && O.Cancel->load();
      Cut = Spent || Cancelled;
      if (Cancelled)
        Reason = "cancelled";
    }
    ++(A == Answer::Sat ? St.Sat : A == Answer::Unsat ? St.Unsat : St.Unknown);
    return A;
  }

private:
  Answer run(ArrayRef<z3::expr> Assumptions) {
    try {
      z3::params P(Ctx);
      bool Limited = false;
      if (O.TimeoutMs) {
        P.set("timeout", O.TimeoutMs);
        Limited = true;
      }
      if (O.Work) {
        P.set("rlimit", O.Work->queryLimit(O.PerQueryUnits));
        Limited = true;
      }
      z3::expr_vector As(Ctx);
      for (const z3::expr &E : Assumptions)
        As.push_back(E);
      auto Solve = [&](z3::solver &S) {
        z3::check_result R = As.empty() ? S.check() : S.check(As);
        if (R == z3::sat)
          Checked = &S;
        else if (R == z3::unknown)
          Reason = S.reason_unknown();
        return R == z3::sat     ? Answer::Sat
               : R == z3::unsat ? Answer::Unsat
                                : Answer::Unknown;
      };
      if (!O.FreshPerCheck) {
        if (Limited)
          Main->set(P);
        return Solve(*Main);
      }
      // The parameters before the assertions: Z3 sets a solver up when it
      // gets its first assertion, and parameters given later do not take
      // the same effect (a bmc query took 30 s instead of 1 s).
      z3::solver &Fresh = LastFresh.emplace(Ctx);
      if (Limited)
        Fresh.set(P);
      z3::expr_vector Base = assertions();
      for (unsigned K = 0; K < Base.size(); ++K)
        Fresh.add(Base[K]);
      return Solve(Fresh);
    } catch (const z3::exception &X) {
      Reason = X.msg();
      return Answer::Unknown;
    }
  }

  z3::context &Ctx;
  SolverOptions O;
  /// FreshPerCheck without KeepInZ3: the assertions are kept per scope
  /// here, else in Main, which checks them unless FreshPerCheck.
  bool OwnScopes;
  std::optional<z3::solver> Main;
  std::vector<std::vector<z3::expr>> Scopes{1};
  /// The fresh solver of the last check, kept until the next check or pop.
  std::optional<z3::solver> LastFresh;
  /// The solver that answered Sat last, and its model once fetched.
  z3::solver *Checked = nullptr;
  std::optional<z3::model> Model;
  std::string Reason;
  bool Cut = false;
  SolverStats St;
};

//===----------------------------------------------------------------------===//
// Decorators
//===----------------------------------------------------------------------===//

/// Forwards everything to the solver it wraps.
class Decorator : public Solver {
public:
  explicit Decorator(std::unique_ptr<Solver> In) : In(std::move(In)) {}
  z3::context &context() override { return In->context(); }
  void add(const z3::expr &E) override { In->add(E); }
  void push() override { In->push(); }
  void pop() override { In->pop(); }
  z3::expr_vector assertions() override { return In->assertions(); }
  Answer check(ArrayRef<z3::expr> As) override { return In->check(As); }
  z3::model model() override { return In->model(); }
  std::string reasonUnknown() override { return In->reasonUnknown(); }
  bool lastWasCut() override { return In->lastWasCut(); }
  SolverStats stats() const override { return In->stats(); }

protected:
  std::unique_ptr<Solver> In;
};

/// Answers a check whose terms equal an earlier check's from memory. Keys
/// are Z3's term ids, which are unique among live terms; every entry keeps
/// its terms alive, so an id is never reused for another term meanwhile.
class QueryCache final : public Decorator {
public:
  using Decorator::Decorator;

  void add(const z3::expr &E) override {
    Scopes.back().push_back(E);
    In->add(E);
  }
  void push() override {
    Scopes.emplace_back();
    In->push();
  }
  void pop() override {
    Scopes.pop_back();
    In->pop();
  }

  Answer check(ArrayRef<z3::expr> As) override {
    std::vector<unsigned> Key;
    std::vector<z3::expr> Terms;
    for (const std::vector<z3::expr> &S : Scopes)
      for (const z3::expr &E : S) {
        Key.push_back(E.id());
        Terms.push_back(E);
      }
    Key.push_back(~0u); // assertions | assumptions
    for (const z3::expr &E : As) {
      Key.push_back(E.id());
      Terms.push_back(E);
    }
    LastAssumptions.assign(As.begin(), As.end());
    auto It = Memo.find(Key);
    if (It != Memo.end()) {
      ++Hits;
      Last = &It->second;
      LastFromInner = false;
      return Last->A;
    }
    Answer A = In->check(As);
    Last = nullptr;
    if (In->lastWasCut())
      return A;
    Entry E{A, std::nullopt, "", std::move(Terms)};
    if (A == Answer::Unknown)
      E.Reason = In->reasonUnknown();
    Last = &Memo.emplace(std::move(Key), std::move(E)).first->second;
    LastFromInner = true;
    return A;
  }
  /// A model is kept once asked for; a cached Sat answer whose model was
  /// never asked for is checked again to get one.
  z3::model model() override {
    if (!Last)
      return In->model();
    if (!Last->Model) {
      if (!LastFromInner) {
        In->check(LastAssumptions);
        LastFromInner = true;
      }
      Last->Model = In->model();
    }
    return *Last->Model;
  }
  std::string reasonUnknown() override {
    return Last ? Last->Reason : In->reasonUnknown();
  }
  bool lastWasCut() override { return Last ? false : In->lastWasCut(); }
  SolverStats stats() const override {
    SolverStats S = In->stats();
    S.Checks += Hits;
    S.CacheHits += Hits;
    return S;
  }

private:
  struct Entry {
    Answer A;
    std::optional<z3::model> Model;
    std::string Reason;
    std::vector<z3::expr> Terms;
  };
  std::vector<std::vector<z3::expr>> Scopes{1};
  std::map<std::vector<unsigned>, Entry> Memo;
  Entry *Last = nullptr;
  /// Last is the entry of the inner solver's last check.
  bool LastFromInner = false;
  std::vector<z3::expr> LastAssumptions;
  unsigned Hits = 0;
};

/// The next number of a stage's log file: numbers are per process and
/// stage, so the files of one run sort in the order of its checks.
unsigned nextLogNumber(StringRef Stage) {
  static std::mutex M;
  static StringMap<unsigned> Next;
  std::lock_guard<std::mutex> G(M);
  return ++Next[Stage];
}

/// Writes every check as an SMT-LIB 2 file before it runs, and its answer
/// after.
class QueryLog final : public Decorator {
public:
  QueryLog(std::unique_ptr<Solver> In, std::string Dir, std::string Stage)
      : Decorator(std::move(In)), Dir(std::move(Dir)), Stage(std::move(Stage)) {
  }

  Answer check(ArrayRef<z3::expr> As) override {
    unsigned N = nextLogNumber(Stage);
    SmallString<128> Path(Dir);
    sys::path::append(Path, formatv("{0}-{1:D6}.smt2", Stage, N).str());
    unsigned HitsBefore = In->stats().CacheHits;
    {
      // The check's assumptions are asserted after its assertions: the
      // file asks the same question as a script. Printed without making a
      // Z3 solver or term: the log must not change the work Z3 counts (a
      // solver made here changed whoop's work units, and with them which
      // checks ran within the budget).
      z3::expr_vector Base = In->assertions();
      std::vector<Z3_ast> Fmls;
      for (unsigned K = 0; K < Base.size(); ++K)
        Fmls.push_back(Base[K]);
      for (const z3::expr &E : As)
        Fmls.push_back(E);
      std::string Text = "(check-sat)\n";
      if (!Fmls.empty()) {
        Z3_ast Last = Fmls.back();
        Fmls.pop_back();
        Text = Z3_benchmark_to_smtlib_string(context(), "", "", "unknown", "",
                                             unsigned(Fmls.size()), Fmls.data(),
                                             Last);
      }
      std::error_code EC;
      raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
      if (!EC)
        OS << "; crace " << Stage << " check " << N << ": " << Base.size()
           << " assertions, " << As.size() << " assumptions (asserted last)\n"
           << Text;
    }
    Answer A = In->check(As);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Append | sys::fs::OF_Text);
    if (!EC) {
      OS << "; answer: " << answerName(A);
      if (A == Answer::Unknown)
        OS << " (" << In->reasonUnknown() << ")";
      if (In->stats().CacheHits != HitsBefore)
        OS << " (from the cache)";
      OS << "\n";
    }
    return A;
  }

private:
  std::string Dir, Stage;
};

} // namespace

std::unique_ptr<Solver> makeSolver(z3::context &Ctx, SolverOptions O) {
  std::string Dir = O.LogDir, Stage = O.Stage;
  bool Cache = O.Cache;
  std::unique_ptr<Solver> S = std::make_unique<Z3Core>(Ctx, std::move(O));
  if (Cache)
    S = std::make_unique<QueryCache>(std::move(S));
  if (!Dir.empty())
    S = std::make_unique<QueryLog>(std::move(S), std::move(Dir),
                                   std::move(Stage));
  return S;
}

} // namespace crace::smt
