//===- WhoopEncoder.cpp - whoop's symbolic encoder of a thread template --===//
//
// The methods of class Encoder (WhoopEncoder.h).
//
//===----------------------------------------------------------------------===//
#include "engines/whoop/WhoopEncoder.h"

namespace crace::whoop {

std::optional<std::string> Encoder::encode(const Function &Entry) {
  for (unsigned Round = 0; Round < MaxHoudiniRounds; ++Round) {
    ++Rounds;
    Recs.clear();
    Act = 0;
    Fresh = 0;
    Encoded = 0;
    OffCache.clear();
    PtsCache.clear();
    NewDrops = false;
    Stack.clear();
    try {
      Flow In{Ctx.bool_val(true), LockState()};
      std::vector<std::optional<z3::expr>> IntArgs(Entry.arg_size());
      std::vector<std::optional<PtrVal>> PtrArgs(Entry.arg_size());
      Ret R = call(Entry, IntArgs, PtrArgs, In, 0);
      (void)R;
    } catch (const EncodeFailure &E) {
      return E.Why;
    } catch (const z3::exception &E) {
      return std::string("Z3: ") + E.msg();
    }
    if (!NewDrops)
      return std::nullopt;
  }
  return std::string("Houdini did not reach a fixpoint");
}

Encoder::Encoder(const ProgramModel &PM, z3::context &Ctx, LockTable &Locks,
                 std::map<const Function *, std::unique_ptr<FnInfo>> &Infos,
                 unsigned Copy, const std::atomic<bool> *Stop, WorkMeter &Work,
                 const std::string &SmtLogDir)
    : PM(PM), PTA(PM.pointsTo()), DL(PM.module().getDataLayout()), Ctx(Ctx),
      Locks(Locks), Infos(Infos), Copy(Copy), Stop(Stop), Work(Work) {
  smt::SolverOptions SO;
  SO.Stage = "whoop-houdini";
  SO.FreshPerCheck = true;
  SO.Work = &Work;
  SO.PerQueryUnits = QueryUnits;
  SO.LogDir = SmtLogDir;
  Houdini = smt::makeSolver(Ctx, std::move(SO));
}

z3::expr Encoder::freshBv(unsigned W) {
  return Ctx.bv_const(formatv("w{0}_{1}", Copy, Fresh++).str().c_str(), W);
}

z3::expr Encoder::freshBool() {
  return Ctx.bool_const(formatv("w{0}_{1}", Copy, Fresh++).str().c_str());
}

z3::expr Encoder::bit(const std::vector<z3::expr> &V, size_t I) {
  return I < V.size() ? V[I] : Ctx.bool_val(false);
}

void Encoder::setLock(LockState &L, uint32_t Id, z3::expr H, z3::expr E) {
  while (L.Held.size() <= Id) {
    L.Held.push_back(Ctx.bool_val(false));
    L.Excl.push_back(Ctx.bool_val(false));
  }
  L.Held[Id] = H;
  L.Excl[Id] = E;
}

LockState Encoder::mergeLocks(const std::vector<Flow> &Fs) {
  LockState Out;
  size_t N = 0;
  for (const Flow &F : Fs)
    N = std::max(N, F.L.Held.size());
  for (size_t I = 0; I < N; ++I) {
    z3::expr H = heldOf(Fs.back().L, I), E = exclOf(Fs.back().L, I);
    for (size_t K = Fs.size() - 1; K-- > 0;) {
      z3::expr HK = heldOf(Fs[K].L, I), EK = exclOf(Fs[K].L, I);
      H = z3::eq(HK, H) ? H : z3::ite(Fs[K].Guard, HK, H);
      E = z3::eq(EK, E) ? E : z3::ite(Fs[K].Guard, EK, E);
    }
    Out.Held.push_back(H);
    Out.Excl.push_back(E);
  }
  return Out;
}

z3::expr Encoder::anyOf(const std::vector<Flow> &Fs) {
  z3::expr_vector V(Ctx);
  for (const Flow &F : Fs)
    V.push_back(F.Guard);
  return V.size() == 1 ? V[0] : z3::mk_or(V);
}

unsigned Encoder::widthOf(Type *T) {
  if (auto *IT = dyn_cast<IntegerType>(T))
    return IT->getBitWidth();
  return 0;
}

z3::expr Encoder::intVal(Frame &Fr, const Value *V) {
  unsigned W = widthOf(V->getType());
  if (auto *CI = dyn_cast<ConstantInt>(V)) {
    const APInt &A = CI->getValue();
    if (W <= 64)
      return Ctx.bv_val(uint64_t(A.getZExtValue()), W);
    return Ctx.bv_val(llvm::toString(A, 10, false).c_str(), W);
  }
  auto It = Fr.Ints.find(V);
  if (It != Fr.Ints.end())
    return It->second;
  if (!W)
    fail("a non-integer value used as an integer");
  z3::expr E = freshBv(W);
  Fr.Ints.insert({V, E});
  return E;
}

z3::expr Encoder::boolVal(Frame &Fr, const Value *V) {
  return intVal(Fr, V) == Ctx.bv_val(1, 1);
}

void Encoder::setInt(Frame &Fr, const Value *V, z3::expr E) {
  auto It = Fr.Ints.find(V);
  if (It != Fr.Ints.end())
    It->second = E;
  else
    Fr.Ints.insert({V, E});
}

void Encoder::setPtr(Frame &Fr, const Value *V, PtrVal P) {
  auto It = Fr.Ptrs.find(V);
  if (It != Fr.Ptrs.end())
    It->second = P;
  else
    Fr.Ptrs.insert({V, P});
}

PtrVal Encoder::ptrVal(Frame &Fr, const Value *V) {
  auto It = Fr.Ptrs.find(V);
  if (It != Fr.Ptrs.end())
    return It->second;
  return PtrVal{V, isa<Constant>(V) ? 0u : Fr.Act, Ctx.bv_val(0, 64)};
}

void Encoder::havoc(Frame &Fr, const Instruction &I) {
  if (unsigned W = widthOf(I.getType()))
    setInt(Fr, &I, freshBv(W));
  else if (I.getType()->isPointerTy())
    setPtr(Fr, &I, PtrVal{&I, Fr.Act, Ctx.bv_val(0, 64)});
}

void Encoder::targets(const PtrVal &P, AccRec &R) {
  const PtsSet &S = PTA.pointsTo(P.Root);
  std::map<uint32_t, std::vector<int64_t>> ByObj;
  for (Loc L : S)
    ByObj[L.Obj].push_back(L.exact() ? L.Off : UnknownOffset);
  for (auto &[Obj, Offs] : ByObj) {
    if ((Stop && Stop->load(std::memory_order_relaxed)) || Work.step())
      fail("stopped");
    const AbsObject &O = PTA.object(Obj);
    if (Obj == PointsTo::UnknownObj) {
      R.UnknownTarget = true;
      continue;
    }
    if (!O.Shared || O.Kind == ObjKind::Function)
      continue;
    auto Key = std::make_tuple(P.Root, P.RootAct, Obj);
    z3::expr Base = Ctx.bv_val(0, 64);
    bool Free = false;
    if (Offs.size() == 1 && Offs[0] != UnknownOffset) {
      Base = Ctx.bv_val(uint64_t(Offs[0]), 64);
    } else {
      auto It = OffCache.find(Key);
      if (It == OffCache.end())
        It = OffCache.insert({Key, freshBv(64)}).first;
      Base = It->second;
      Free = true;
    }
    z3::expr Pts = Ctx.bool_val(true);
    if (ByObj.size() > 1) {
      auto It = PtsCache.find(Key);
      if (It == PtsCache.end())
        It = PtsCache.insert({Key, freshBool()}).first;
      Pts = It->second;
    }
    R.Targets.push_back({Obj, Pts, (Base + P.Delta).simplify(), Free});
  }
}

void Encoder::log(Frame &Fr, const Instruction &I, const Flow &Cur) {
  for (const MemAccess &A : PM.accessesOf(I)) {
    if (PM.isThreadPrivateAccess(A.Ptr))
      continue;
    AccRec R{&I,
             A.Kind,
             A.Size,
             Cur.Guard,
             A.Atomic ? Ctx.bool_val(true) : heldOf(Cur.L, AtomicSectionLock),
             {},
             false,
             Cur.L};
    if (!A.Ptr || !A.Ptr->getType()->isPointerTy())
      R.UnknownTarget = true;
    else
      targets(ptrVal(Fr, A.Ptr), R);
    if (R.Targets.empty() && !R.UnknownTarget)
      continue;
    Recs.push_back(std::move(R));
  }
}

z3::expr Encoder::gepOffset(Frame &Fr, const GEPOperator &G) {
  z3::expr Off = Ctx.bv_val(0, 64);
  for (gep_type_iterator GTI = gep_type_begin(&G), E = gep_type_end(&G);
       GTI != E; ++GTI) {
    const Value *Idx = GTI.getOperand();
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      unsigned F = unsigned(cast<ConstantInt>(Idx)->getZExtValue());
      Off =
          Off +
          Ctx.bv_val(uint64_t(DL.getStructLayout(ST)->getElementOffset(F)), 64);
      continue;
    }
    uint64_t Size = GTI.getSequentialElementStride(DL);
    if (!widthOf(Idx->getType()))
      fail("a vector index in address arithmetic");
    z3::expr I = resizeTerm(intVal(Fr, Idx), 64, true);
    Off = Off + I * Ctx.bv_val(Size, 64);
  }
  return Off;
}

void Encoder::lockOp(Frame &Fr, const CallBase &CB, Intrinsic K, Flow &Cur) {
  switch (K) {
  case Intrinsic::Lock:
  case Intrinsic::RdLock:
    if (auto Id = Locks.lockOf(CB.getArgOperand(0)))
      setLock(Cur.L, *Id, Ctx.bool_val(true),
              K == Intrinsic::Lock ? Ctx.bool_val(true) : exclOf(Cur.L, *Id));
    return;
  case Intrinsic::TryLock:
  case Intrinsic::TryRdLock: {
    z3::expr R = freshBv(std::max(1u, widthOf(CB.getType())));
    if (widthOf(CB.getType()))
      setInt(Fr, &CB, R);
    if (auto Id = Locks.lockOf(CB.getArgOperand(0))) {
      z3::expr Ok = R == Ctx.bv_val(0, R.get_sort().bv_size());
      setLock(Cur.L, *Id, z3::ite(Ok, Ctx.bool_val(true), heldOf(Cur.L, *Id)),
              K == Intrinsic::TryLock
                  ? z3::ite(Ok, Ctx.bool_val(true), exclOf(Cur.L, *Id))
                  : exclOf(Cur.L, *Id));
    }
    return;
  }
  case Intrinsic::Unlock: {
    const Value *P = CB.getArgOperand(0);
    if (auto Id = Locks.lockOf(P)) {
      setLock(Cur.L, *Id, Ctx.bool_val(false), Ctx.bool_val(false));
      return;
    }
    // Unknown identity: every lock it may be is released.
    for (uint32_t Id = 1; Id < Cur.L.Held.size(); ++Id)
      if (Locks.mayRelease(P, Id))
        setLock(Cur.L, Id, Ctx.bool_val(false), Ctx.bool_val(false));
    return;
  }
  case Intrinsic::AtomicBegin:
    setLock(Cur.L, AtomicSectionLock, Ctx.bool_val(true), Ctx.bool_val(true));
    return;
  case Intrinsic::AtomicEnd:
    setLock(Cur.L, AtomicSectionLock, Ctx.bool_val(false), Ctx.bool_val(false));
    return;
  default:
    return;
  }
}

void Encoder::callInst(Frame &Fr, const CallBase &CB, Flow &Cur,
                       unsigned Depth) {
  if (CB.isInlineAsm()) {
    havoc(Fr, CB);
    return;
  }
  if (auto K = callIntrinsic(CB)) {
    switch (*K) {
    case Intrinsic::Lock:
    case Intrinsic::RdLock:
    case Intrinsic::TryLock:
    case Intrinsic::TryRdLock:
    case Intrinsic::Unlock:
    case Intrinsic::AtomicBegin:
    case Intrinsic::AtomicEnd:
      lockOp(Fr, CB, *K, Cur);
      if (*K != Intrinsic::TryLock && *K != Intrinsic::TryRdLock)
        havoc(Fr, CB);
      return;
    case Intrinsic::Assume:
      if (CB.arg_size() && widthOf(CB.getArgOperand(0)->getType())) {
        z3::expr C = intVal(Fr, CB.getArgOperand(0));
        Cur.Guard = Cur.Guard && C != Ctx.bv_val(0, C.get_sort().bv_size());
      }
      return;
    case Intrinsic::Exit:
    case Intrinsic::Error:
    case Intrinsic::ThreadExit:
      Cur.Guard = Ctx.bool_val(false);
      return;
    default:
      havoc(Fr, CB);
      return;
    }
  }
  std::vector<const Function *> Defined;
  bool External = false;
  for (const Function *C : PM.callees(CB)) {
    if (C->isDeclaration())
      External = true;
    else
      Defined.push_back(C);
  }
  if (Defined.empty()) {
    havoc(Fr, CB);
    return;
  }
  auto Args = [&](const Function &C) {
    std::vector<std::optional<z3::expr>> Ints(C.arg_size());
    std::vector<std::optional<PtrVal>> Ptrs(C.arg_size());
    for (unsigned I = 0; I < C.arg_size() && I < CB.arg_size(); ++I) {
      const Value *A = CB.getArgOperand(I);
      Type *PT = C.getArg(I)->getType();
      if (widthOf(PT) && widthOf(A->getType()))
        Ints[I] = resizeTerm(intVal(Fr, A), widthOf(PT), false);
      else if (PT->isPointerTy() && A->getType()->isPointerTy())
        Ptrs[I] = ptrVal(Fr, A);
    }
    return std::make_pair(Ints, Ptrs);
  };
  if (Defined.size() == 1 && !External) {
    auto [Ints, Ptrs] = Args(*Defined[0]);
    Ret R = call(*Defined[0], Ints, Ptrs, Cur, Depth + 1);
    bindResult(Fr, CB, R);
    return;
  }
  // Several possible callees: one branch each, chosen by a fresh selector.
  z3::expr Sel = freshBv(16);
  std::vector<Flow> Outs;
  std::vector<Ret> Rets;
  unsigned K = 0;
  for (const Function *C : Defined) {
    Flow F{Cur.Guard && Sel == Ctx.bv_val(K++, 16), Cur.L};
    auto [Ints, Ptrs] = Args(*C);
    Rets.push_back(call(*C, Ints, Ptrs, F, Depth + 1));
    Outs.push_back(F);
  }
  if (External) {
    Outs.push_back({Cur.Guard && Sel == Ctx.bv_val(K, 16), Cur.L});
    Rets.push_back({});
  }
  Cur.Guard = anyOf(Outs);
  Cur.L = mergeLocks(Outs);
  havoc(Fr, CB); // the merged result is not tracked
}

void Encoder::bindResult(Frame &Fr, const CallBase &CB, const Ret &R) {
  if (widthOf(CB.getType()) && R.Int &&
      R.Int->get_sort().bv_size() == widthOf(CB.getType()))
    setInt(Fr, &CB, *R.Int);
  else if (CB.getType()->isPointerTy() && R.Ptr)
    setPtr(Fr, &CB, *R.Ptr);
  else
    havoc(Fr, CB);
}

void Encoder::inst(Frame &Fr, const Instruction &I, Flow &Cur, unsigned Depth) {
  if (++Encoded > MaxEncodedInsts)
    fail(formatv("the encoding exceeds {0} instructions", MaxEncodedInsts));
  // Stop is set by run()'s watcher (driver cancellation or whoop's
  // budget); one instruction may cost many Z3 simplifications (a pointer
  // with hundreds of targets), so it is polled at every one.
  // The work budget counts every instruction (and every points-to target
  // in log()), so where it stops does not depend on the machine.
  if ((Stop && Stop->load(std::memory_order_relaxed)) || Work.step())
    fail("stopped");
  log(Fr, I, Cur);
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    unsigned W = widthOf(I.getType());
    if (!W) {
      havoc(Fr, I);
      return;
    }
    z3::expr A = intVal(Fr, BO->getOperand(0)),
             B = intVal(Fr, BO->getOperand(1));
    // An undefined result (division by zero, an oversized shift) is any
    // value. The terms are made in the order they were before IRTerms.h
    // was shared (a shift's condition first, a division's last): Z3
    // orders terms by creation, which changes the work its checks take.
    unsigned Op = BO->getOpcode();
    std::optional<z3::expr> U;
    if (BO->isShift())
      U = undefinedTerm(Op, A, B);
    std::optional<z3::expr> V = binaryTerm(Op, A, B);
    if (!V) {
      havoc(Fr, I);
      return;
    }
    if (U) {
      V = z3::ite(*U, freshBv(W), *V);
    } else if (BO->isIntDivRem()) {
      z3::expr Any = freshBv(W);
      V = z3::ite(*undefinedTerm(Op, A, B), Any, *V);
    }
    setInt(Fr, &I, *V);
    return;
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(&I)) {
    if (!widthOf(Cmp->getOperand(0)->getType())) {
      havoc(Fr, I); // pointer comparisons are not tracked
      return;
    }
    z3::expr A = intVal(Fr, Cmp->getOperand(0)),
             B = intVal(Fr, Cmp->getOperand(1));
    std::optional<z3::expr> C = icmpTerm(Cmp->getPredicate(), A, B);
    if (!C) {
      havoc(Fr, I);
      return;
    }
    setInt(Fr, &I, z3::ite(*C, Ctx.bv_val(1, 1), Ctx.bv_val(0, 1)));
    return;
  }
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    const Value *Op = Cast->getOperand(0);
    unsigned W = widthOf(I.getType());
    switch (Cast->getOpcode()) {
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
      if (W && widthOf(Op->getType())) {
        setInt(Fr, &I,
               resizeTerm(intVal(Fr, Op), W,
                          Cast->getOpcode() == Instruction::SExt));
        return;
      }
      break;
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      if (I.getType()->isPointerTy() && Op->getType()->isPointerTy()) {
        setPtr(Fr, &I, ptrVal(Fr, Op));
        return;
      }
      break;
    default:
      break;
    }
    havoc(Fr, I);
    return;
  }
  if (auto *G = dyn_cast<GetElementPtrInst>(&I)) {
    if (!I.getType()->isPointerTy()) {
      havoc(Fr, I);
      return;
    }
    PtrVal Base = ptrVal(Fr, G->getPointerOperand());
    setPtr(Fr, &I,
           PtrVal{Base.Root, Base.RootAct,
                  (Base.Delta + gepOffset(Fr, *cast<GEPOperator>(G)))});
    return;
  }
  if (auto *S = dyn_cast<SelectInst>(&I)) {
    if (unsigned W = widthOf(I.getType())) {
      (void)W;
      setInt(Fr, &I,
             z3::ite(boolVal(Fr, S->getCondition()),
                     intVal(Fr, S->getTrueValue()),
                     intVal(Fr, S->getFalseValue())));
      return;
    }
    if (I.getType()->isPointerTy()) {
      PtrVal A = ptrVal(Fr, S->getTrueValue()),
             B = ptrVal(Fr, S->getFalseValue());
      if (A.Root == B.Root && A.RootAct == B.RootAct) {
        setPtr(
            Fr, &I,
            PtrVal{A.Root, A.RootAct,
                   z3::ite(boolVal(Fr, S->getCondition()), A.Delta, B.Delta)});
        return;
      }
    }
    havoc(Fr, I);
    return;
  }
  if (auto *Fz = dyn_cast<FreezeInst>(&I)) {
    const Value *Op = Fz->getOperand(0);
    if (widthOf(I.getType()))
      setInt(Fr, &I, intVal(Fr, Op));
    else if (I.getType()->isPointerTy())
      setPtr(Fr, &I, ptrVal(Fr, Op));
    return;
  }
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    callInst(Fr, *CB, Cur, Depth);
    return;
  }
  // Loads (havocked: another entry point may have written), allocas,
  // atomics, and everything else: a fresh value.
  havoc(Fr, I);
}

Encoder::Ret Encoder::call(const Function &F,
                           const std::vector<std::optional<z3::expr>> &Ints,
                           const std::vector<std::optional<PtrVal>> &Ptrs,
                           Flow &Cur, unsigned Depth) {
  if (Depth > MaxInlineDepth)
    fail(formatv("calls nest deeper than {0}", MaxInlineDepth));
  if (std::find(Stack.begin(), Stack.end(), &F) != Stack.end())
    fail(formatv("'{0}' is recursive", F.getName()));
  Stack.push_back(&F);
  auto &Info = Infos[&F];
  if (!Info)
    Info = std::make_unique<FnInfo>(const_cast<Function &>(F));
  FnInfo &FI = *Info;
  Frame Fr{++Act, {}, {}};
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    if (I < Ints.size() && Ints[I])
      Fr.Ints.insert({F.getArg(I), *Ints[I]});
    else if (I < Ptrs.size() && Ptrs[I])
      Fr.Ptrs.insert({F.getArg(I), *Ptrs[I]});
  }
  struct Edge {
    Flow F;
    const BasicBlock *From;
  };
  // By block (reverse post-order index), not by address (see Frame).
  std::vector<std::vector<Edge>> In(FI.Order.size());
  std::vector<std::optional<Flow>> LoopEntry(FI.Order.size());
  std::vector<Flow> Exits;
  std::vector<Ret> ExitVals;
  In[FI.Index.lookup(&F.getEntryBlock())].push_back({Cur, nullptr});
  unsigned MyAct = Fr.Act;

  for (const BasicBlock *BB : FI.Order) {
    unsigned BBIndex = FI.Index.lookup(BB);
    if (In[BBIndex].empty())
      continue;
    std::vector<Edge> Edges = std::move(In[BBIndex]);
    In[BBIndex].clear();
    std::vector<Flow> Fs;
    for (Edge &E : Edges)
      Fs.push_back(E.F);
    Flow Here{anyOf(Fs), mergeLocks(Fs)};
    const Loop *L = FI.LI.getLoopFor(BB);
    bool Header = L && L->getHeader() == BB;
    // Phis: merged values on ordinary blocks; havocked at loop headers.
    for (const PHINode &Phi : BB->phis()) {
      if (Header) {
        havoc(Fr, Phi);
        continue;
      }
      if (unsigned W = widthOf(Phi.getType())) {
        (void)W;
        z3::expr V =
            intVal(Fr, Phi.getIncomingValueForBlock(Edges.back().From));
        for (size_t K = Edges.size() - 1; K-- > 0;) {
          z3::expr VK = intVal(Fr, Phi.getIncomingValueForBlock(Edges[K].From));
          V = z3::eq(VK, V) ? V : z3::ite(Edges[K].F.Guard, VK, V);
        }
        setInt(Fr, &Phi, V);
      } else if (Phi.getType()->isPointerTy()) {
        PtrVal P = ptrVal(Fr, Phi.getIncomingValueForBlock(Edges.back().From));
        bool Same = true;
        z3::expr D = P.Delta;
        for (size_t K = Edges.size() - 1; K-- > 0;) {
          PtrVal PK = ptrVal(Fr, Phi.getIncomingValueForBlock(Edges[K].From));
          if (PK.Root != P.Root || PK.RootAct != P.RootAct)
            Same = false;
          else
            D = z3::ite(Edges[K].F.Guard, PK.Delta, D);
        }
        if (Same)
          setPtr(Fr, &Phi, PtrVal{P.Root, P.RootAct, D});
        else
          havoc(Fr, Phi);
      }
    }
    if (Header) {
      // Houdini: each lock keeps its loop-entry value unless dropped.
      LoopEntry[BBIndex].emplace(Here);
      auto &Dropped = Drops[{MyAct, BB}];
      for (uint32_t Id : Dropped)
        setLock(Here.L, Id, freshBool(), freshBool());
      // Exclusive implies held, also for havocked locks.
      for (uint32_t Id : Dropped)
        Here.L.Excl[Id] = Here.L.Excl[Id] && Here.L.Held[Id];
    }
    for (const Instruction &I : *BB) {
      if (isa<PHINode>(I))
        continue;
      if (I.isTerminator())
        break;
      inst(Fr, I, Here, Depth);
    }
    const Instruction *T = BB->getTerminator();
    auto Go = [&](const BasicBlock *S, z3::expr G) {
      unsigned From = FI.Index.lookup(BB), To = FI.Index.lookup(S);
      if (To > From) {
        In[To].push_back({Flow{G, Here.L}, BB});
        return;
      }
      const Loop *SL = FI.LI.getLoopFor(S);
      if (!SL || SL->getHeader() != S || !SL->contains(BB))
        fail("irreducible control flow");
      if (!LoopEntry[To])
        fail("a loop entered other than through its header");
      latch(S, MyAct, Flow{G, Here.L}, *LoopEntry[To]);
    };
    if (auto *Br = dyn_cast<BranchInst>(T)) {
      if (Br->isUnconditional()) {
        Go(Br->getSuccessor(0), Here.Guard);
      } else {
        z3::expr C = boolVal(Fr, Br->getCondition());
        Go(Br->getSuccessor(0), Here.Guard && C);
        Go(Br->getSuccessor(1), Here.Guard && !C);
      }
    } else if (auto *Sw = dyn_cast<SwitchInst>(T)) {
      z3::expr V = intVal(Fr, Sw->getCondition());
      z3::expr Other = Here.Guard;
      for (auto Case : Sw->cases()) {
        z3::expr C = V == intVal(Fr, Case.getCaseValue());
        Go(Case.getCaseSuccessor(), Here.Guard && C);
        Other = Other && !C;
      }
      Go(Sw->getDefaultDest(), Other);
    } else if (auto *R = dyn_cast<ReturnInst>(T)) {
      Ret RV;
      if (const Value *V = R->getReturnValue()) {
        if (widthOf(V->getType()))
          RV.Int = intVal(Fr, V);
        else if (V->getType()->isPointerTy())
          RV.Ptr = ptrVal(Fr, V);
      }
      Exits.push_back(Here);
      ExitVals.push_back(RV);
    } else if (isa<UnreachableInst>(T)) {
      // the path ends
    } else {
      fail(formatv("unsupported terminator '{0}'", T->getOpcodeName()));
    }
  }
  Stack.pop_back();
  Ret Out;
  if (Exits.empty()) {
    Cur.Guard = Ctx.bool_val(false);
    return Out;
  }
  Cur.Guard = anyOf(Exits);
  Cur.L = mergeLocks(Exits);
  // The return value, when every exit returns the same kind.
  bool AllInt = true, AllPtr = true;
  for (const Ret &R : ExitVals) {
    AllInt &= R.Int.has_value();
    AllPtr &= R.Ptr.has_value();
  }
  if (AllInt) {
    z3::expr V = *ExitVals.back().Int;
    for (size_t K = ExitVals.size() - 1; K-- > 0;)
      V = z3::ite(Exits[K].Guard, *ExitVals[K].Int, V);
    Out.Int = V;
  } else if (AllPtr) {
    PtrVal P = *ExitVals.back().Ptr;
    bool Same = true;
    z3::expr D = P.Delta;
    for (size_t K = ExitVals.size() - 1; K-- > 0;) {
      if (ExitVals[K].Ptr->Root != P.Root ||
          ExitVals[K].Ptr->RootAct != P.RootAct)
        Same = false;
      else
        D = z3::ite(Exits[K].Guard, ExitVals[K].Ptr->Delta, D);
    }
    if (Same)
      Out.Ptr = PtrVal{P.Root, P.RootAct, D};
  }
  return Out;
}

void Encoder::latch(const BasicBlock *Header, unsigned MyAct, const Flow &Back,
                    const Flow &Entry) {
  auto &Dropped = Drops[{MyAct, Header}];
  size_t N = std::max(Back.L.Held.size(), Entry.L.Held.size());
  for (uint32_t Id = 0; Id < N; ++Id) {
    if (Dropped.count(Id))
      continue;
    z3::expr HB = heldOf(Back.L, Id), HE = heldOf(Entry.L, Id);
    z3::expr EB = exclOf(Back.L, Id), EE = exclOf(Entry.L, Id);
    if (z3::eq(HB, HE) && z3::eq(EB, EE))
      continue;
    ++HoudiniQueries;
    auto T0 = std::chrono::steady_clock::now();
    smt::Answer CR =
        smt::checkAlone(*Houdini, Back.Guard && (HB != HE || EB != EE));
    HoudiniSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
            .count();
    // Out of work budget (not the query's own limit): the encoding stops
    // here, the invariant is not dropped on a guess.
    if (CR == smt::Answer::Unknown && Houdini->lastWasCut())
      fail("stopped");
    if (CR != smt::Answer::Unsat) {
      Dropped.insert(Id);
      NewDrops = true;
      ++DroppedCandidates;
    }
  }
}

} // namespace crace::whoop
