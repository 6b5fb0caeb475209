//===- Circ.cpp - context inference: ReachAndBuild, Collapse, CheckSim ----===//
#include "engines/circ/Circ.h"

#include "smt/Solver.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "llvm/IR/Instruction.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include <deque>
#include <functional>
#include <map>
#include <numeric>

using namespace llvm;

#define DEBUG_TYPE "circ"

namespace crace::circ {

namespace {

/// A conjunction of predicate literals: per predicate 0 (false), 1 (true)
/// or Unk (not known).
using Cube = std::vector<uint8_t>;
constexpr uint8_t Unk = 2;
/// Counter value "omega": any number of threads.
constexpr uint8_t Omega = 255;

/// An abstract control flow automaton (a strand): a context thread's
/// behaviour, or the reach graph G of ReachAndBuild.
struct Acfa {
  struct Node {
    bool Atomic = false;
    /// The region: a disjunction of cubes over global predicates.
    std::vector<Cube> Label;
  };
  struct AEdge {
    unsigned From = 0, To = 0;
    std::vector<VarId> Y;
    /// The candidate accesses made, by number (Vars::AccessId), sorted.
    std::vector<unsigned> Acc;
    /// The regions (cubes over global predicates) the step was taken
    /// from: a context thread takes it only where one of them holds (the
    /// guard of a lock or of a flag test, which the locations' regions
    /// alone lose when they merge states).
    std::vector<Cube> Pre;
    bool operator<(const AEdge &O) const {
      return std::tie(From, To, Y, Acc) < std::tie(O.From, O.To, O.Y, O.Acc);
    }
    bool sameStep(const AEdge &O) const {
      return std::tie(From, To, Y, Acc) == std::tie(O.From, O.To, O.Y, O.Acc);
    }
  };
  std::vector<Node> Nodes;
  std::vector<AEdge> Edges;
  std::vector<std::vector<unsigned>> Out;
  unsigned Init = 0;
  [[nodiscard]] bool empty() const { return Nodes.empty(); }
  void index() {
    std::stable_sort(Edges.begin(), Edges.end());
    std::vector<AEdge> Merged;
    for (AEdge &E : Edges) {
      if (Merged.empty() || !Merged.back().sameStep(E)) {
        Merged.push_back(std::move(E));
        continue;
      }
      for (Cube &C : E.Pre)
        if (std::find(Merged.back().Pre.begin(), Merged.back().Pre.end(), C) ==
            Merged.back().Pre.end())
          Merged.back().Pre.push_back(std::move(C));
    }
    Edges = std::move(Merged);
    Out.assign(Nodes.size(), {});
    for (unsigned I = 0; I < Edges.size(); ++I)
      Out[Edges[I].From].push_back(I);
  }
};

bool subset(const std::vector<unsigned> &A, const std::vector<unsigned> &B) {
  return std::includes(B.begin(), B.end(), A.begin(), A.end());
}

/// Cube A implies cube B when B's literals are among A's.
bool implies(const Cube &A, const Cube &B) {
  for (size_t I = 0; I < B.size(); ++I)
    if (B[I] != Unk && A[I] != B[I])
      return false;
  return true;
}

/// A region (disjunction of cubes) implies another: each cube implies one
/// of the other's (sufficient).
bool implies(const std::vector<Cube> &A, const std::vector<Cube> &B) {
  for (const Cube &X : A)
    if (std::none_of(B.begin(), B.end(),
                     [&](const Cube &Y) { return implies(X, Y); }))
      return false;
  return true;
}

/// Predicate abstraction: abstract posts of CFA edges (Cartesian), over
/// one solver.
class Abstraction {
public:
  Abstraction(Vars &V, const std::vector<z3::expr> &Preds, smt::Solver &S,
              WorkMeter *Work)
      : V(V), Preds(Preds), S(S), Work(Work) {
    for (VarId X = 0; X < V.List.size(); ++X)
      VarOfAst[V.Cur[X].id()] = X;
    for (const z3::expr &P : Preds) {
      PVars.push_back(varsOf(P));
      bool G = true;
      for (VarId X : PVars.back())
        G &= V.List[X].Global;
      PGlobal.push_back(G);
    }
  }
  size_t Checks = 0;

  size_t size() const { return Preds.size(); }
  const Vars &vars() const { return V; }

  Cube init() {
    z3::expr F = V.Ctx.bool_val(true);
    for (VarId X = 0; X < V.List.size(); ++X)
      if (V.Init[X])
        F = F && V.Cur[X] == *V.Init[X];
    S.push();
    S.add(F);
    Cube C(size(), Unk);
    for (size_t I = 0; I < size(); ++I)
      C[I] = decide(Preds[I]);
    S.pop();
    return C;
  }

  std::optional<Cube> post(const Cube &Pi, const Edge &E) {
    auto Key = std::make_pair(&E, Pi);
    auto It = PostCache.find(Key);
    if (It != PostCache.end())
      return It->second;
    std::optional<Cube> R = computePost(Pi, E);
    PostCache.emplace(std::move(Key), R);
    return R;
  }

  /// exists Y. Pi (Cartesian: literals mentioning Y are dropped).
  Cube project(const Cube &Pi, const std::vector<VarId> &Y) const {
    Cube C = Pi;
    for (size_t I = 0; I < size(); ++I)
      if (C[I] != Unk)
        for (VarId X : PVars[I])
          if (std::binary_search(Y.begin(), Y.end(), X)) {
            C[I] = Unk;
            break;
          }
    return C;
  }
  Cube globalPart(const Cube &Pi) const {
    Cube C = Pi;
    for (size_t I = 0; I < size(); ++I)
      if (!PGlobal[I])
        C[I] = Unk;
    return C;
  }
  std::optional<Cube> meet(const Cube &A, const Cube &B) {
    Cube C = A;
    for (size_t I = 0; I < size(); ++I) {
      if (B[I] == Unk)
        continue;
      if (C[I] != Unk && C[I] != B[I])
        return std::nullopt;
      C[I] = B[I];
    }
    auto [It, New] = Feasible.try_emplace(C, true);
    if (New) {
      It->second = check(literals(C)) != smt::Answer::Unsat;
    }
    if (!It->second)
      return std::nullopt;
    return C;
  }

private:
  Vars &V;
  const std::vector<z3::expr> &Preds;
  smt::Solver &S;
  WorkMeter *Work;
  /// 1 ms at the calibrated rate (fib_safe-6-racy: 868 checks took
  /// 1.2 s where Z3 counted 0.3 s of work).
  static constexpr uint64_t CheckUnits = UnitsPerSecond / 1000;
  std::vector<std::vector<VarId>> PVars;
  std::vector<bool> PGlobal;
  std::map<unsigned, VarId> VarOfAst;
  std::map<std::pair<const Edge *, Cube>, std::optional<Cube>> PostCache;
  std::map<const Edge *, std::vector<VarId>> GuardVars;
  std::map<Cube, bool> Feasible;

  std::vector<VarId> varsOf(const z3::expr &E) {
    std::vector<VarId> Out;
    std::vector<z3::expr> Todo{E};
    std::set<unsigned> Seen;
    while (!Todo.empty()) {
      z3::expr X = Todo.back();
      Todo.pop_back();
      if (!Seen.insert(X.id()).second)
        continue;
      if (X.is_const()) {
        auto It = VarOfAst.find(X.id());
        if (It != VarOfAst.end())
          Out.push_back(It->second);
        continue;
      }
      if (X.is_app())
        for (unsigned I = 0; I < X.num_args(); ++I)
          Todo.push_back(X.arg(I));
    }
    std::sort(Out.begin(), Out.end());
    return Out;
  }

  /// A check, charged to the work budget beyond Z3's own count: a small
  /// check's fixed cost (scopes, assertions) is most of it, measured.
  smt::Answer check(const std::vector<z3::expr> &Assumptions) {
    ++Checks;
    if (Work)
      Work->charge(CheckUnits);
    return S.check(Assumptions);
  }

  std::vector<z3::expr> literals(const Cube &C) const {
    std::vector<z3::expr> L;
    for (size_t I = 0; I < size(); ++I)
      if (C[I] != Unk)
        L.push_back(C[I] ? Preds[I] : !Preds[I]);
    return L;
  }

  /// Under the solver's assertions: P always (1), never (0), or either.
  uint8_t decide(const z3::expr &P) {
    if (check({!P}) == smt::Answer::Unsat)
      return 1;
    if (check({P}) == smt::Answer::Unsat)
      return 0;
    return Unk;
  }

  std::optional<Cube> computePost(const Cube &Pi, const Edge &E) {
    std::vector<VarId> W;
    for (const auto &[X, _] : E.Assigns)
      W.push_back(X);
    W.insert(W.end(), E.Havocs.begin(), E.Havocs.end());
    std::sort(W.begin(), W.end());
    W.erase(std::unique(W.begin(), W.end()), W.end());
    auto GIt = GuardVars.find(&E);
    if (GIt == GuardVars.end()) {
      std::vector<VarId> G;
      for (const z3::expr &Gd : E.Guards) {
        auto Vs = varsOf(Gd);
        G.insert(G.end(), Vs.begin(), Vs.end());
      }
      std::sort(G.begin(), G.end());
      GIt = GuardVars.emplace(&E, std::move(G)).first;
    }
    const std::vector<VarId> &GV = GIt->second;
    auto Touches = [&](size_t I) {
      for (VarId X : PVars[I])
        if (std::binary_search(W.begin(), W.end(), X) ||
            std::binary_search(GV.begin(), GV.end(), X))
          return true;
      return false;
    };
    std::vector<size_t> Affected;
    for (size_t I = 0; I < size(); ++I)
      if (Touches(I))
        Affected.push_back(I);
    if (E.Guards.empty() && Affected.empty())
      return Pi;
    S.push();
    for (const z3::expr &L : literals(Pi))
      S.add(L);
    for (const z3::expr &G : E.Guards)
      S.add(G);
    for (const auto &[X, Tm] : E.Assigns)
      S.add(V.Next[X] == Tm);
    if (!E.Guards.empty() && check({}) == smt::Answer::Unsat) {
      S.pop();
      return std::nullopt;
    }
    z3::expr_vector From(V.Ctx), To(V.Ctx);
    for (VarId X : W) {
      From.push_back(V.Cur[X]);
      To.push_back(V.Next[X]);
    }
    Cube Out = Pi;
    for (size_t I : Affected) {
      z3::expr P = Preds[I];
      Out[I] = decide(W.empty() ? P : P.substitute(From, To));
    }
    S.pop();
    return Out;
  }
};

/// Counter arithmetic with bound K: K + 1 = omega, omega +- 1 = omega.
uint8_t inc(uint8_t C, unsigned K) {
  return C == Omega || C + 1u > K ? Omega : C + 1;
}
uint8_t dec(uint8_t C) { return C == Omega ? Omega : C - 1; }

struct Reacher {
  const std::vector<Cfa> &Cfas;
  const std::vector<TemplateCount> &Counts;
  const std::vector<Acfa> &Ctx;
  Abstraction &Abs;
  const PairSet &Pairs;
  const CircOptions &O;
  std::string Race, Stop;
  bool OutOfWork = false;
  size_t States = 0;

  /// ReachAndBuild for template index TI: the reach graph, or Race/Stop
  /// set.
  Acfa run(size_t TI) {
    const Cfa &C = Cfas[TI];
    unsigned T = Counts[TI].Template;
    std::vector<unsigned> Offset;
    unsigned N = 0;
    for (const Acfa &A : Ctx) {
      Offset.push_back(N);
      N += A.Nodes.size();
    }
    std::vector<uint8_t> Gamma0(N, 0);
    for (size_t U = 0; U < Ctx.size(); ++U) {
      if (Ctx[U].empty())
        continue;
      uint8_t Cnt = Counts[U].Many ? Omega : (U == TI ? 0 : 1);
      Gamma0[Offset[U] + Ctx[U].Init] = Cnt;
    }
    // Where a context node belongs.
    std::vector<std::pair<unsigned, unsigned>> Owner(N);
    for (size_t U = 0; U < Ctx.size(); ++U)
      for (unsigned I = 0; I < Ctx[U].Nodes.size(); ++I)
        Owner[Offset[U] + I] = {U, I};
    // Main's accesses per location.
    std::vector<std::vector<const Instruction *>> MainAcc(C.size());
    for (const Edge &E : C.Edges)
      MainAcc[E.From].insert(MainAcc[E.From].end(), E.Accesses.begin(),
                             E.Accesses.end());

    using State = std::tuple<unsigned, Cube, std::vector<uint8_t>>;
    std::map<State, unsigned> Seen;
    std::deque<State> Work;
    // The reach graph: nodes (location, cube), merged by context moves.
    std::map<std::pair<unsigned, Cube>, unsigned> GId;
    std::vector<std::pair<unsigned, Cube>> GNodes;
    std::vector<unsigned> Parent;
    std::vector<Acfa::AEdge> GEdges;
    auto Node = [&](unsigned Q, const Cube &Pi) {
      auto [It, New] = GId.try_emplace({Q, Pi}, GNodes.size());
      if (New) {
        GNodes.push_back({Q, Pi});
        Parent.push_back(It->second);
      }
      return It->second;
    };
    std::function<unsigned(unsigned)> Find = [&](unsigned X) {
      while (Parent[X] != X)
        X = Parent[X] = Parent[Parent[X]];
      return X;
    };
    // Subsumption: a state is skipped when one with the same thread state
    // and at least as many context threads everywhere (omega counts as
    // most), the same on atomic locations, was seen: whatever the smaller
    // one reaches, the larger one reaches too (the same moves are enabled,
    // and the race check only grows with more threads), so the reach graph
    // and the races found are the same.
    std::vector<bool> AtomicNode(N);
    for (unsigned G = 0; G < N; ++G)
      AtomicNode[G] = Ctx[Owner[G].first].Nodes[Owner[G].second].Atomic;
    auto Covers = [&](const std::vector<uint8_t> &Big,
                      const std::vector<uint8_t> &Small) {
      for (unsigned G = 0; G < N; ++G) {
        if (AtomicNode[G]
                ? Big[G] != Small[G]
                : Big[G] != Omega && (Small[G] == Omega || Small[G] > Big[G]))
          return false;
      }
      return true;
    };
    std::map<std::pair<unsigned, Cube>, std::vector<std::vector<uint8_t>>>
        ByThread;
    size_t Subsumed = 0;
    auto Push = [&](State S) {
      if (Seen.count(S))
        return;
      auto &Known = ByThread[{std::get<0>(S), std::get<1>(S)}];
      for (const auto &K : Known)
        if (Covers(K, std::get<2>(S))) {
          ++Subsumed;
          return;
        }
      Known.push_back(std::get<2>(S));
      Seen.try_emplace(S, Seen.size());
      Work.push_back(std::move(S));
    };
    Cube Init = Abs.init();
    Node(C.Entry, Init);
    Push({C.Entry, Init, Gamma0});
    while (!Work.empty()) {
      auto [Q, Pi, Gamma] = std::move(Work.front());
      Work.pop_front();
      if (++States > O.MaxStates) {
        Stop = formatv("more than {0} abstract states", O.MaxStates);
        return {};
      }
      if (O.Cancelled && *O.Cancelled) {
        Stop = "cancelled";
        return {};
      }
      if (O.Work && O.Work->step()) {
        Stop = "its work budget ran out";
        OutOfWork = true;
        return {};
      }
      if (O.Work && O.StopAtUnits && O.Work->used() >= O.StopAtUnits) {
        Stop = "its share of the work budget ran out";
        OutOfWork = true;
        return {};
      }
      bool Exclusive = C.Atomic[Q] || C.Alone[Q];
      std::vector<unsigned> AtomicCtx;
      for (unsigned G = 0; G < N; ++G) {
        if (!Gamma[G])
          continue;
        auto [U, I] = Owner[G];
        if (Ctx[U].Nodes[I].Atomic)
          AtomicCtx.push_back(G);
        if (C.Alone[Q])
          continue;
        for (unsigned EI : Ctx[U].Out[I])
          for (unsigned BI : Ctx[U].Edges[EI].Acc)
            for (const Instruction *A : MainAcc[Q])
              if (const Instruction *B = Abs.vars().AccessList[BI];
                  Pairs.count({A, T, B, Counts[U].Template})) {
                Race = formatv("an abstract race of {0} and {1}",
                               A->getOpcodeName(), B->getOpcodeName());
                RaceA = A;
                RaceB = B;
                return {};
              }
      }
      bool MainMoves = !Exclusive ? AtomicCtx.empty() : true;
      bool CtxMoves = !Exclusive && AtomicCtx.size() <= 1;
      unsigned From = Node(Q, Pi);
      if (MainMoves)
        for (unsigned EI : C.Out[Q]) {
          const Edge &E = C.Edges[EI];
          auto Next = Abs.post(Pi, E);
          if (!Next)
            continue;
          unsigned To = Node(E.To, *Next);
          Acfa::AEdge GE;
          GE.From = From;
          GE.To = To;
          GE.Y = writtenGlobals(E, Abs.vars());
          for (const Instruction *I : E.Accesses)
            GE.Acc.push_back(Abs.vars().AccessId.lookup(I));
          std::sort(GE.Acc.begin(), GE.Acc.end());
          GE.Pre.push_back(Abs.globalPart(Pi));
          GEdges.push_back(std::move(GE));
          Push({E.To, *Next, Gamma});
        }
      if (CtxMoves)
        for (unsigned G = 0; G < N; ++G) {
          if (!Gamma[G] || (!AtomicCtx.empty() && AtomicCtx[0] != G))
            continue;
          auto [U, I] = Owner[G];
          for (unsigned EI : Ctx[U].Out[I]) {
            const Acfa::AEdge &AE = Ctx[U].Edges[EI];
            std::set<Cube> Posts;
            for (const Cube &P : AE.Pre) {
              auto Before = Abs.meet(Pi, P);
              if (!Before)
                continue;
              Cube Proj = Abs.project(*Before, AE.Y);
              for (const Cube &L : Ctx[U].Nodes[AE.To].Label)
                if (auto M = Abs.meet(Proj, L))
                  Posts.insert(*M);
            }
            for (const Cube &Post : Posts) {
              const std::optional<Cube> M = Post;
              std::vector<uint8_t> G2 = Gamma;
              G2[G] = dec(G2[G]);
              unsigned To = Offset[U] + AE.To;
              G2[To] = inc(G2[To], O.K);
              unsigned Other = Node(Q, *M);
              unsigned RA = Find(From), RB = Find(Other);
              if (RA != RB)
                Parent[std::max(RA, RB)] = std::min(RA, RB);
              Push({Q, *M, std::move(G2)});
            }
          }
        }
    }
    // The reach graph, nodes numbered by their classes' first members.
    Acfa G;
    std::map<unsigned, unsigned> Class;
    for (unsigned X = 0; X < GNodes.size(); ++X) {
      unsigned R = Find(X);
      auto [It, New] = Class.try_emplace(R, G.Nodes.size());
      if (New) {
        Acfa::Node Nd;
        Nd.Atomic = C.Atomic[GNodes[X].first] || C.Alone[GNodes[X].first];
        G.Nodes.push_back(Nd);
      }
      auto &Lab = G.Nodes[It->second].Label;
      Cube GP = Abs.globalPart(GNodes[X].second);
      if (std::find(Lab.begin(), Lab.end(), GP) == Lab.end())
        Lab.push_back(GP);
    }
    for (Acfa::AEdge E : GEdges) {
      E.From = Class[Find(E.From)];
      E.To = Class[Find(E.To)];
      G.Edges.push_back(std::move(E));
    }
    G.Init = Class[Find(0)];
    G.index();
    return G;
  }
  const Instruction *RaceA = nullptr, *RaceB = nullptr;
};

/// Collapse: the quotient of G by partition refinement from the labels
/// (atomicity, region), where a step that writes no global, accesses
/// nothing and stays in its class is a stuttering step (the paper's
/// bisimilarity quotient, up to stuttering). Soundness does not depend on
/// the quotient: CheckSim decides whether a context is sound.
Acfa collapse(const Acfa &G) {
  size_t N = G.Nodes.size();
  std::vector<unsigned> Cls(N);
  {
    std::map<std::pair<bool, std::vector<Cube>>, unsigned> Keys;
    for (size_t I = 0; I < N; ++I) {
      std::vector<Cube> L = G.Nodes[I].Label;
      std::sort(L.begin(), L.end());
      Cls[I] =
          Keys.try_emplace({G.Nodes[I].Atomic, L}, Keys.size()).first->second;
    }
  }
  for (;;) {
    using Sig = std::vector<
        std::tuple<std::vector<VarId>, std::vector<unsigned>, unsigned>>;
    std::map<std::pair<unsigned, Sig>, unsigned> Keys;
    std::vector<unsigned> NewCls(N);
    for (size_t I = 0; I < N; ++I) {
      // The steps of I and of what it reaches by stuttering in its class.
      Sig S;
      std::vector<unsigned> Todo{unsigned(I)};
      std::set<unsigned> Reached{unsigned(I)};
      while (!Todo.empty()) {
        unsigned X = Todo.back();
        Todo.pop_back();
        for (unsigned EI : G.Out[X]) {
          const Acfa::AEdge &E = G.Edges[EI];
          if (E.Y.empty() && E.Acc.empty() && Cls[E.To] == Cls[I]) {
            if (Reached.insert(E.To).second)
              Todo.push_back(E.To);
            continue;
          }
          S.push_back({E.Y, E.Acc, Cls[E.To]});
        }
      }
      std::sort(S.begin(), S.end());
      S.erase(std::unique(S.begin(), S.end()), S.end());
      NewCls[I] =
          Keys.try_emplace({Cls[I], std::move(S)}, Keys.size()).first->second;
    }
    unsigned Before = *std::max_element(Cls.begin(), Cls.end()) + 1;
    Cls = std::move(NewCls);
    if (Keys.size() == Before)
      break;
  }
  Acfa A;
  unsigned M = *std::max_element(Cls.begin(), Cls.end()) + 1;
  A.Nodes.resize(M);
  for (size_t I = 0; I < N; ++I) {
    Acfa::Node &Nd = A.Nodes[Cls[I]];
    Nd.Atomic = G.Nodes[I].Atomic;
    for (const Cube &C : G.Nodes[I].Label)
      if (std::find(Nd.Label.begin(), Nd.Label.end(), C) == Nd.Label.end())
        Nd.Label.push_back(C);
  }
  for (Acfa::AEdge E : G.Edges) {
    E.From = Cls[E.From];
    E.To = Cls[E.To];
    A.Edges.push_back(std::move(E));
  }
  A.Init = Cls[G.Init];
  A.index();
  return A;
}

/// CheckSim: G is strand-simulated by A (G <= A).
bool simulated(const Acfa &G, const Acfa &A) {
  if (G.empty())
    return true;
  if (A.empty())
    return false;
  size_t NG = G.Nodes.size(), NA = A.Nodes.size();
  std::vector<std::vector<bool>> R(NG, std::vector<bool>(NA));
  for (size_t I = 0; I < NG; ++I)
    for (size_t J = 0; J < NA; ++J)
      // A thread of A at an atomic location stops the others, which G's
      // thread may not do; the converse only adds interleavings.
      R[I][J] = (!A.Nodes[J].Atomic || G.Nodes[I].Atomic) &&
                implies(G.Nodes[I].Label, A.Nodes[J].Label);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < NG; ++I)
      for (size_t J = 0; J < NA; ++J) {
        if (!R[I][J])
          continue;
        for (unsigned EI : G.Out[I]) {
          const Acfa::AEdge &E = G.Edges[EI];
          bool Matched = false;
          for (unsigned FI : A.Out[J]) {
            const Acfa::AEdge &F = A.Edges[FI];
            if (R[E.To][F.To] && subset(E.Y, F.Y) && subset(E.Acc, F.Acc) &&
                implies(E.Pre, F.Pre)) {
              Matched = true;
              break;
            }
          }
          if (!Matched) {
            R[I][J] = false;
            Changed = true;
            break;
          }
        }
      }
  }
  return R[G.Init][A.Init];
}

} // namespace

CircOutcome runCirc(const std::vector<Cfa> &Cfas,
                    const std::vector<TemplateCount> &Counts, Vars &V,
                    const std::vector<z3::expr> &Preds, const PairSet &Pairs,
                    smt::Solver &S, const CircOptions &O) {
  CircOutcome Out;
  Out.Predicates = Preds.size();
  Abstraction Abs(V, Preds, S, O.Work);
  LLVM_DEBUG(for (const z3::expr &P : Preds) dbgs()
             << "circ predicate " << P.to_string() << "\n");
  std::vector<Acfa> Ctx(Cfas.size());
  for (unsigned It = 1; It <= O.MaxIterations; ++It) {
    Out.Iterations = It;
    std::vector<Acfa> Gs;
    for (size_t TI = 0; TI < Cfas.size(); ++TI) {
      Reacher R{Cfas, Counts, Ctx, Abs, Pairs, O, {}, {}, false, 0};
      Gs.push_back(R.run(TI));
      Out.States += R.States;
      Out.PostChecks = Abs.Checks;
      if (!R.Race.empty()) {
        Out.K = CircOutcome::AbstractRace;
        Out.Why = R.Race;
        Out.RaceA = R.RaceA;
        Out.RaceB = R.RaceB;
        return Out;
      }
      if (!R.Stop.empty()) {
        Out.K = CircOutcome::GaveUp;
        Out.Why = R.Stop;
        Out.OutOfWork = R.OutOfWork;
        return Out;
      }
    }
    bool Sound = true;
    for (size_t TI = 0; TI < Cfas.size(); ++TI)
      Sound &= simulated(Gs[TI], Ctx[TI]);
    if (Sound) {
      Out.K = CircOutcome::Safe;
      for (const Acfa &A : Ctx)
        Out.ContextSizes.push_back(A.Nodes.size());
      return Out;
    }
    for (size_t TI = 0; TI < Cfas.size(); ++TI) {
      Ctx[TI] = collapse(Gs[TI]);
      LLVM_DEBUG(
          dbgs() << formatv("iteration {0}: template {1}: G {2} nodes {3} "
                            "edges, A {4} nodes {5} edges\n",
                            It, TI, Gs[TI].Nodes.size(), Gs[TI].Edges.size(),
                            Ctx[TI].Nodes.size(), Ctx[TI].Edges.size()));
    }
  }
  Out.Why = formatv("no sound context after {0} iterations", O.MaxIterations);
  return Out;
}

} // namespace crace::circ
