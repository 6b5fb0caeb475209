//===- ExploreTrace.cpp - interleavings and schedules
//-----------------------===//
//
// What a report shows of a run: each step as an action, the interleaving
// (trace) and the schedule a run can be replayed from (--schedule).
//
//===----------------------------------------------------------------------===//
#include "engines/explore/Explorer.h"

using namespace llvm;

namespace crace::explore {

std::string Explorer::action(const PendingOp &Op, unsigned T) const {
  auto Refs = [&](const char *Verb) {
    std::string S;
    for (const MemRef &R : Op.Refs) {
      if (!S.empty())
        S += ", ";
      S += std::string(R.Free    ? "free"
                       : R.Write ? "write"
                                 : "read") +
           " " + Exec.describe(R.Obj, R.Off, R.Size);
    }
    return S.empty() ? std::string(Verb) : S;
  };
  switch (Op.K) {
  case PendingOp::Memory:
    return Refs("access");
  case PendingOp::Lock:
    return std::string(Op.Try        ? "try-lock "
                       : Op.ReadLock ? "read-lock "
                                     : "lock ") +
           Exec.describeAddress(Op.Sync);
  case PendingOp::Unlock:
    return "unlock " + Exec.describeAddress(Op.Sync);
  case PendingOp::AtomicBegin:
    return "begin atomic section";
  case PendingOp::AtomicEnd:
    return "end atomic section";
  case PendingOp::CondWait:
    return "wait on condition (releases the mutex)";
  case PendingOp::CondWake:
    return "wake up and re-acquire the mutex";
  case PendingOp::CondSignal:
    return Op.Broadcast ? "broadcast" : "signal";
  case PendingOp::BarrierWait:
    return "arrive at barrier";
  case PendingOp::BarrierLeave:
    return "leave barrier";
  case PendingOp::SemWait:
    return "semaphore wait";
  case PendingOp::SemPost:
    return "semaphore post";
  case PendingOp::Create:
    return "create a thread";
  case PendingOp::Join:
    return "join " + (Op.Sync >= 1 && Op.Sync <= Exec.numThreads()
                          ? Exec.threadName(unsigned(Op.Sync - 1))
                      : Exec.parkedHandle(Op.Sync)
                          ? std::string("a thread parked at the thread bound")
                          : std::string("?"));
  case PendingOp::ThreadEnd:
    return "thread ends";
  case PendingOp::ProgramExit:
    return Op.Error ? "assertion fails" : "exit";
  case PendingOp::ForkChild:
    return "fork: the run follows the child process (no other thread is in it)";
  case PendingOp::Blocked:
    return "blocked by a failed assumption";
  case PendingOp::Done:
    return "done";
  }
  return "";
}

std::string Explorer::schedule() const {
  json::Array Steps;
  for (size_t I = 0; I < Stack.size() && I < Events.size(); ++I) {
    json::Array Nd;
    for (Word V : Stack[I].Nondet)
      Nd.push_back(int64_t(V));
    Steps.push_back(json::Object{{"thread", int64_t(Stack[I].Chosen)},
                                 {"inputs", std::move(Nd)}});
  }
  json::Array Init;
  for (Word V : InitNondet)
    Init.push_back(int64_t(V));
  json::Value Doc(json::Object{{"initial_inputs", std::move(Init)},
                               {"steps", std::move(Steps)}});
  std::string Out;
  raw_string_ostream OS(Out);
  OS << Doc;
  return Out;
}

bool Explorer::loadSchedule(StringRef Text) {
  auto Doc = json::parse(Text);
  if (!Doc) {
    note(ReasonKind::Failure,
         "the trace to replay is not valid JSON: " + toString(Doc.takeError()));
    return false;
  }
  const json::Object *O = Doc->getAsObject();
  const json::Array *Init = O ? O->getArray("initial_inputs") : nullptr;
  const json::Array *Steps = O ? O->getArray("steps") : nullptr;
  if (!Init || !Steps) {
    note(ReasonKind::Failure,
         "the trace to replay has no 'initial_inputs'/'steps'");
    return false;
  }
  for (const json::Value &V : *Init) {
    InitNondet.push_back(Word(V.getAsInteger().value_or(0)));
    InitNondetSlots.push_back({64});
  }
  for (const json::Value &S : *Steps) {
    const json::Object *SO = S.getAsObject();
    if (!SO || !SO->getInteger("thread")) {
      note(ReasonKind::Failure, "malformed step in the trace to replay");
      return false;
    }
    Node N;
    N.Chosen = unsigned(*SO->getInteger("thread"));
    if (const json::Array *Nd = SO->getArray("inputs"))
      for (const json::Value &V : *Nd) {
        N.Nondet.push_back(Word(V.getAsInteger().value_or(0)));
        N.NondetSlots.push_back({64});
      }
    Stack.push_back(std::move(N));
  }
  return true;
}

std::vector<TraceStep> Explorer::trace() const {
  std::vector<TraceStep> Steps;
  for (size_t I = 0; I < Events.size(); ++I) {
    const Event &E = Events[I];
    TraceStep S;
    S.Thread = Exec.threadName(E.Tid);
    S.ThreadId = E.Tid;
    S.Loc = PM.location(E.Op.Inst);
    S.Action = action(E.Op, E.Tid);
    if (E.Op.K == PendingOp::Create && E.Child >= 0)
      S.Action = "create thread " + Exec.threadName(unsigned(E.Child));
    // Creations at the thread bound (the step's own, or on the way to the
    // thread's next visible operation).
    unsigned More = E.Parked;
    if (E.Op.K == PendingOp::Create && E.Child < 0 && More) {
      S.Action = formatv("create a thread, parked at the thread bound of {0} "
                         "(not started in this interleaving)",
                         Exec.maxThreads());
      --More;
    }
    if (More)
      S.Action += formatv(", then {0} thread{1} created and parked at the "
                          "thread bound of {2} (not started in this "
                          "interleaving)",
                          More, More == 1 ? "" : "s", Exec.maxThreads())
                      .str();
    // The inputs this thread then reads (before its next visible step);
    // main's first ones come before step 1.
    auto Inputs = [](const std::vector<Word> &V,
                     const std::vector<InputSlot> &B) {
      std::string Out;
      for (size_t J = 0; J < V.size(); ++J) {
        unsigned W = B[J].Bits & ~EnumeratedInput;
        int64_t X = W && W < 64 ? SignExtend64(V[J], W) : int64_t(V[J]);
        if (W == 1) // bool
          X = int64_t(V[J]);
        Out += (J ? ", " : "") + std::to_string(X);
      }
      return Out;
    };
    if (I == 0 && !InitNondet.empty())
      S.Action =
          "(inputs " + Inputs(InitNondet, InitNondetSlots) + ") " + S.Action;
    if (I < Stack.size() && !Stack[I].Nondet.empty())
      S.Action +=
          ", then inputs " + Inputs(Stack[I].Nondet, Stack[I].NondetSlots);
    Steps.push_back(std::move(S));
  }
  return Steps;
}

AccessInfo Explorer::access(unsigned T, const MemRef &Ref, bool Atomic) const {
  AccessInfo A;
  A.Thread = Exec.threadName(T);
  A.Kind = Ref.Write ? AccessKind::Write : AccessKind::Read;
  A.Atomic = Atomic;
  A.Size = Ref.Size;
  A.Loc = PM.location(Exec.pending(T).Inst);
  A.Variable = Exec.describe(Ref.Obj, Ref.Off, Ref.Size);
  A.Locks = Exec.locksHeld(T);
  return A;
}

} // namespace crace::explore
