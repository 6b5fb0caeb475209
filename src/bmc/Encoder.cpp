//===- Encoder.cpp - bounded symbolic execution of LLVM IR into Z3 --------===//
//
// Term helpers, events, frames, the instructions with effects and the
// entry. Values and pure instructions are in EncoderValues.cpp, control
// flow in EncoderControl.cpp, the memory model in EncoderMemory.cpp, calls
// in EncoderCalls.cpp; Encoder.h describes the encoding.
//
//===----------------------------------------------------------------------===//
#include "bmc/Encoder.h"
#include "model/SyncAPI.h"
#include "smt/IRTerms.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace crace::bmc {

std::string location(const Instruction *I) {
  if (!I)
    return "<unknown>";
  if (const DebugLoc &L = I->getDebugLoc())
    return (L->getFilename() + ":" + Twine(L.getLine())).str();
  return ("function '" + I->getFunction()->getName() + "'").str();
}

Encoder::Encoder(z3::context &Z, smt::Solver &S, const Module &M,
                 const Options &O)
    : Z(Z), Solver(S), M(M), DL(M.getDataLayout()), O(O),
      PtrBits(DL.getPointerSizeInBits(0)), ObjBits(PtrBits >= 64 ? 16 : 10),
      OffBits(PtrBits - ObjBits), ObjSort(Z.bv_sort(ObjBits)),
      OffSort(Z.bv_sort(OffBits)), ByteSort(Z.bv_sort(8)),
      SizeFn(Z.function("objsize", ObjSort, OffSort)),
      HeapFn(Z.function("isheap", ObjSort, Z.bool_sort())), Mem0(Z), Alive0(Z) {
}

Encoder::~Encoder() = default;

//===----------------------------------------------------------------------===//
// Small term helpers
//===----------------------------------------------------------------------===//

z3::expr Encoder::bv(uint64_t V, unsigned Bits) { return Z.bv_val(V, Bits); }

z3::expr Encoder::fresh(unsigned Bits, const char *Prefix) {
  std::string N = std::string(Prefix) + "!" + std::to_string(NextName++);
  return Z.bv_const(N.c_str(), Bits ? Bits : 8);
}

z3::expr Encoder::havoc(State &S, unsigned Bits, const std::string &Reason) {
  if (!S.Guard.is_false()) {
    Havocs.push_back({S.Guard, Reason});
    S.Havoc = mkOr(S.Havoc, Z.bool_val(true));
  }
  return fresh(Bits, "havoc");
}

/// Zero-extends or truncates E to Bits.
z3::expr Encoder::resize(const z3::expr &E, unsigned Bits) const {
  if (E.get_sort().bv_size() == Bits)
    return E;
  z3::expr R = resizeTerm(E, Bits, /*Signed=*/false);
  return E.is_numeral() ? R.simplify() : R;
}

z3::expr Encoder::toBool(const z3::expr &E) {
  if (E.is_bool())
    return E;
  if (E.is_numeral()) {
    uint64_t V = 0;
    bool Small = E.is_numeral_u64(V);
    return Z.bool_val(!Small || V != 0);
  }
  // ite(c, 1, 0) is how fromBool built it.
  if (E.is_app() && E.decl().decl_kind() == Z3_OP_ITE &&
      E.arg(1).is_numeral() && E.arg(2).is_numeral() &&
      E.get_sort().bv_size() == 1 && E.arg(1).get_numeral_uint64() == 1 &&
      E.arg(2).get_numeral_uint64() == 0)
    return E.arg(0);
  return E != Z.bv_val(0, E.get_sort().bv_size());
}

z3::expr Encoder::fromBool(const z3::expr &B) {
  if (B.is_true())
    return bv(1, 1);
  if (B.is_false())
    return bv(0, 1);
  return z3::ite(B, bv(1, 1), bv(0, 1));
}

z3::expr Encoder::mkAnd(const z3::expr &A, const z3::expr &B) {
  if (A.is_false() || B.is_false())
    return Z.bool_val(false);
  if (A.is_true())
    return B;
  if (B.is_true())
    return A;
  return A && B;
}

z3::expr Encoder::mkOr(const z3::expr &A, const z3::expr &B) {
  if (A.is_true() || B.is_true())
    return Z.bool_val(true);
  if (A.is_false())
    return B;
  if (B.is_false())
    return A;
  return A || B;
}

/// Names a Boolean term by a fresh constant (defined in the base scope of
/// the solver) so guards stay small when they are combined.
z3::expr Encoder::name(const z3::expr &B) {
  if (B.is_const() || B.is_true() || B.is_false())
    return B;
  std::string N = "g!" + std::to_string(NextName++);
  z3::expr G = Z.bool_const(N.c_str());
  Solver.add(G == B);
  return G;
}

unsigned Encoder::regBits(Type *T) const {
  if (T->isIntegerTy())
    return T->getIntegerBitWidth();
  if (T->isPointerTy())
    return PtrBits;
  if (T->isFloatingPointTy())
    return T->getPrimitiveSizeInBits().getFixedValue();
  if (T->isStructTy() || T->isArrayTy())
    return std::max<uint64_t>(8, DL.getTypeAllocSize(T).getFixedValue() * 8);
  return 0;
}

uint64_t Encoder::memBytes(Type *T) const {
  if (T->isStructTy() || T->isArrayTy())
    return std::max<uint64_t>(1, DL.getTypeAllocSize(T).getFixedValue());
  return DL.getTypeStoreSize(T).getFixedValue();
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

std::vector<const CallBase *> Encoder::stack() const {
  std::vector<const CallBase *> R;
  for (const Frame *F : Frames)
    if (F->Site)
      R.push_back(F->Site);
  return R;
}

void Encoder::event(EventKind K, const State &S, const z3::expr &Cond,
                    const Instruction *At, std::string Reason) {
  z3::expr G = mkAnd(S.Guard, Cond);
  if (G.is_false())
    return;
  Events.push_back({K, name(G), S.Havoc, At, stack(), std::move(Reason)});
}

/// Records the event "Bad happens here" and continues only where it does not.
void Encoder::cutIf(State &S, const z3::expr &Bad, EventKind K,
                    const Instruction *At, std::string Reason) {
  if (Bad.is_false())
    return;
  event(K, S, Bad, At, std::move(Reason));
  S.Guard = mkAnd(S.Guard, Bad.is_true() ? Z.bool_val(false) : !Bad);
}

Encoder::Frame::~Frame() {
  std::vector<z3::expr> Keep;
  auto KeepState = [&](const State &S) {
    Keep.push_back(S.Guard);
    Keep.push_back(S.Mem);
    Keep.push_back(S.Alive);
    Keep.push_back(S.Havoc);
  };
  auto KeepIns = [&](const std::vector<Incoming> &Ins) {
    for (const Incoming &In : Ins) {
      KeepState(In.S);
      Keep.insert(Keep.end(), In.Phis.begin(), In.Phis.end());
    }
  };
  for (auto &KV : Vals)
    Keep.push_back(KV.second);
  for (auto &KV : Pending)
    KeepIns(KV.second);
  for (auto &KV : Back)
    KeepIns(KV.second);
  Vals.clear();
  Pending.clear();
  Back.clear();
  // Highest id first in Keep, so that popping frees the lowest first.
  std::stable_sort(
      Keep.begin(), Keep.end(), [](const z3::expr &A, const z3::expr &B) {
        return Z3_get_ast_id(A.ctx(), A) > Z3_get_ast_id(B.ctx(), B);
      });
  while (!Keep.empty())
    Keep.pop_back();
}

void Encoder::poll() {
  if (O.Cancel && O.Cancel->load(std::memory_order_relaxed))
    throw EncodingAborted{"cancelled"};
  if (++BlockVisits > O.MaxBlockVisits)
    throw EncodingAborted{"encoding limit of " +
                          std::to_string(O.MaxBlockVisits) +
                          " block executions reached (lower the unwinding "
                          "bound or raise the limit)"};
}

void Encoder::meterNodes(uint64_t Nodes) {
  if (!O.Work)
    return;
  MeteredNodes += Nodes;
  uint64_t Units = MeteredNodes / TermNodesPerUnit;
  MeteredNodes %= TermNodesPerUnit;
  if (O.Work->charge(Units))
    throw EncodingAborted{WorkBudgetRanOut};
}

/// The nodes Z3 visits when it abstracts a variable out of E (a lambda) or
/// rewrites E, counted up to Cap: every node of E's DAG once, and the body
/// of every quantifier (the lambdas of earlier memory operations) again
/// from scratch each time, as Z3's abstraction does (a fresh cache per
/// quantifier body), so nested lambdas that share older ones cost what
/// they cost Z3.
static uint64_t termNodes(Z3_context Z, Z3_ast E, uint64_t Cap) {
  uint64_t Nodes = 0;
  llvm::DenseSet<unsigned> Seen;
  std::vector<Z3_ast> Stack{E};
  while (!Stack.empty() && Nodes < Cap) {
    Z3_ast A = Stack.back();
    Stack.pop_back();
    if (!Seen.insert(Z3_get_ast_id(Z, A)).second)
      continue;
    ++Nodes;
    switch (Z3_get_ast_kind(Z, A)) {
    case Z3_APP_AST: {
      Z3_app App = Z3_to_app(Z, A);
      for (unsigned K = 0, N = Z3_get_app_num_args(Z, App); K < N; ++K)
        Stack.push_back(Z3_get_app_arg(Z, App, K));
      break;
    }
    case Z3_QUANTIFIER_AST:
      Nodes += termNodes(Z, Z3_get_quantifier_body(Z, A), Cap - Nodes);
      break;
    default:
      break;
    }
  }
  return Nodes;
}

void Encoder::meterTerm(const z3::expr &E) {
  if (!O.Work || !O.Work->limit())
    return;
  // Counted up to one unit more than the budget has left, in an order that
  // depends on the term only.
  uint64_t Left = O.Work->left();
  uint64_t Cap = Left >= UINT64_MAX / TermNodesPerUnit - 1
                     ? UINT64_MAX
                     : (Left + 1) * TermNodesPerUnit;
  meterNodes(termNodes(Z, E, Cap));
}

bool Encoder::tooLargeToSimplify(const z3::expr &E) {
  if (termNodes(Z, E, SimplifyNodeCap) < SimplifyNodeCap)
    return false;
  meterNodes(SimplifyNodeCap); // the walk that found out
  return true;
}

z3::expr Encoder::simplified(const z3::expr &E) {
  meterTerm(E);
  return E.simplify();
}

z3::expr Encoder::lambdaOf(const z3::expr &X, const z3::expr &Body) {
  meterTerm(Body);
  return z3::lambda(X, Body);
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

void Encoder::exec(Frame &Fr, const Instruction &I, State &S) {
  auto Unsupported = [&](const std::string &What) {
    cutIf(S, Z.bool_val(true), EventKind::Unsupported, &I,
          What + " at " + location(&I));
  };
  if (isa<CallBase>(I)) {
    if (I.getType()->isVectorTy())
      return Unsupported("vector call result");
    return execCall(Fr, cast<CallBase>(I), S);
  }
  if (const auto *C = dyn_cast<ICmpInst>(&I))
    if (!C->getType()->isVectorTy() && addressCompare(Fr, *C, S))
      return;
  if (isa<TruncInst>(I) && Fr.FI->AddressDerived.count(I.getOperand(0))) {
    // The low bits of a real address are not ours.
    Fr.Vals.insert_or_assign(
        &I, havoc(S, regBits(I.getType()),
                  "address truncated to an integer at " + location(&I)));
    return;
  }
  if (std::optional<z3::expr> V = pureOp(&Fr, I)) {
    Fr.Vals.insert_or_assign(&I, *V);
    // Indexing by a variable must not carry the pointer into another
    // object's id bits (C forbids arithmetic outside an object; our
    // pointers would then silently alias a neighbour).
    if (const auto *G = dyn_cast<GetElementPtrInst>(&I))
      if (!G->hasAllConstantIndices() && LastGepNatural) {
        z3::expr Base = val(&Fr, G->getPointerOperand());
        z3::expr Natural = *LastGepNatural;
        z3::expr NatObj = Natural.extract(PtrBits - 1, OffBits);
        z3::expr Bad = NatObj != objOf(Base);
        if (Natural.is_numeral())
          Bad = simplified(Bad);
        cutIf(S, Bad, EventKind::UndefinedBehavior, &I,
              "possible pointer arithmetic out of its object at " +
                  location(&I));
      }
    LastGepNatural.reset();
    return;
  }
  for (const Use &U : I.operands())
    if (U->getType()->isVectorTy())
      return Unsupported("vector operation");
  if (I.getType()->isVectorTy())
    return Unsupported("vector operation");

  switch (I.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr: {
    z3::expr A = val(&Fr, I.getOperand(0)), B = val(&Fr, I.getOperand(1));
    z3::expr Bad = *undefinedTerm(I.getOpcode(), A, B);
    if (B.is_numeral())
      Bad = simplified(Bad);
    bool Shift = I.isShift();
    bool Signed = I.getOpcode() == Instruction::SDiv ||
                  I.getOpcode() == Instruction::SRem;
    cutIf(S, Bad, EventKind::UndefinedBehavior, &I,
          std::string(Shift    ? "possible shift by the operand width or more"
                      : Signed ? "possible division by zero or overflow"
                               : "possible division by zero") +
              " at " + location(&I));
    // The value after the check: terms are created in this order (Z3
    // orders terms by creation, which changes how fast it solves).
    z3::expr R = *binaryTerm(I.getOpcode(), A, B);
    if (A.is_numeral() && B.is_numeral())
      R = R.simplify();
    Fr.Vals.insert_or_assign(&I, R);
    return;
  }
  case Instruction::FNeg:
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::FCmp:
  case Instruction::FPTrunc:
  case Instruction::FPExt:
  case Instruction::FPToUI:
  case Instruction::FPToSI:
  case Instruction::UIToFP:
  case Instruction::SIToFP:
    Fr.Vals.insert_or_assign(
        &I, havoc(S, regBits(I.getType()),
                  "floating-point operation at " + location(&I)));
    return;
  case Instruction::Alloca: {
    const auto &A = cast<AllocaInst>(I);
    uint64_t ES = DL.getTypeAllocSize(A.getAllocatedType()).getFixedValue();
    z3::expr N = resize(val(&Fr, A.getArraySize()), OffBits);
    z3::expr Size =
        N.is_numeral() ? (N * bv(ES, OffBits)).simplify() : N * bv(ES, OffBits);
    unsigned Id = newObject(Size, false);
    S.Alive = z3::store(S.Alive, bv(Id, ObjBits), Z.bool_val(true));
    Fr.Allocas.push_back(Id);
    Fr.Vals.insert_or_assign(&I, address(Id));
    return;
  }
  case Instruction::Load: {
    const auto &L = cast<LoadInst>(I);
    uint64_t N = memBytes(L.getType());
    z3::expr P = val(&Fr, L.getPointerOperand());
    if (!checkAccess(Fr, I, S, P, bv(N, OffBits), "read"))
      return;
    Fr.Vals.insert_or_assign(&I, resize(load(S, P, N), regBits(L.getType())));
    return;
  }
  case Instruction::Store: {
    const auto &St = cast<StoreInst>(I);
    Type *T = St.getValueOperand()->getType();
    uint64_t N = memBytes(T);
    z3::expr P = val(&Fr, St.getPointerOperand());
    if (!checkAccess(Fr, I, S, P, bv(N, OffBits), "write"))
      return;
    store(S, P, escape(Fr, St.getValueOperand(), S, I), N);
    return;
  }
  case Instruction::AtomicRMW: {
    // Sequential semantics: read, compute, write.
    const auto &A = cast<AtomicRMWInst>(I);
    Type *T = A.getValOperand()->getType();
    uint64_t N = memBytes(T);
    z3::expr P = val(&Fr, A.getPointerOperand());
    if (!checkAccess(Fr, I, S, P, bv(N, OffBits), "atomic update"))
      return;
    z3::expr Old = resize(load(S, P, N), regBits(T));
    z3::expr X = val(&Fr, A.getValOperand());
    z3::expr New(Z);
    switch (A.getOperation()) {
    case AtomicRMWInst::Xchg:
      New = X;
      break;
    case AtomicRMWInst::Add:
      New = Old + X;
      break;
    case AtomicRMWInst::Sub:
      New = Old - X;
      break;
    case AtomicRMWInst::And:
      New = Old & X;
      break;
    case AtomicRMWInst::Nand:
      New = ~(Old & X);
      break;
    case AtomicRMWInst::Or:
      New = Old | X;
      break;
    case AtomicRMWInst::Xor:
      New = Old ^ X;
      break;
    case AtomicRMWInst::Max:
      New = z3::ite(Old > X, Old, X);
      break;
    case AtomicRMWInst::Min:
      New = z3::ite(Old < X, Old, X);
      break;
    case AtomicRMWInst::UMax:
      New = z3::ite(z3::ugt(Old, X), Old, X);
      break;
    case AtomicRMWInst::UMin:
      New = z3::ite(z3::ult(Old, X), Old, X);
      break;
    default:
      return Unsupported("unsupported atomicrmw operation");
    }
    store(S, P, New, N);
    Fr.Vals.insert_or_assign(&I, Old);
    return;
  }
  case Instruction::AtomicCmpXchg: {
    const auto &C = cast<AtomicCmpXchgInst>(I);
    Type *T = C.getCompareOperand()->getType();
    uint64_t N = memBytes(T);
    z3::expr P = val(&Fr, C.getPointerOperand());
    if (!checkAccess(Fr, I, S, P, bv(N, OffBits), "compare-and-swap"))
      return;
    z3::expr Old = resize(load(S, P, N), regBits(T));
    z3::expr Eq = Old == val(&Fr, C.getCompareOperand());
    store(S, P, z3::ite(Eq, val(&Fr, C.getNewValOperand()), Old), N);
    // Result { T, i1 } laid out as in memory.
    auto *ST = cast<StructType>(C.getType());
    const StructLayout *SL = DL.getStructLayout(ST);
    unsigned Total = regBits(ST);
    unsigned FlagAt = unsigned(SL->getElementOffset(1) * 8);
    z3::expr Agg = resize(Old, FlagAt);
    Agg = z3::concat(resize(fromBool(Eq), Total - FlagAt), Agg);
    Fr.Vals.insert_or_assign(&I, Agg);
    return;
  }
  case Instruction::Fence:
    return;
  default:
    return Unsupported(std::string("unsupported instruction '") +
                       I.getOpcodeName() + "'");
  }
}

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

void Encoder::run(const Function &Entry) {
  Start = std::chrono::steady_clock::now();
  // Object ids: functions (never alive: calling through them is fine,
  // reading them is not), then globals.
  for (const Function &F : M) {
    unsigned Id = newObject(bv(0, OffBits), false);
    GlobalIds[&F] = Id;
    FunctionIds[Id] = &F;
  }
  z3::sort InnerSort = Z.array_sort(OffSort, ByteSort);
  Mem0 = Z.constant("mem0", Z.array_sort(ObjSort, InnerSort));
  Alive0 = z3::const_array(ObjSort, Z.bool_val(false));
  // Globals no code refers to, directly or through the initialisers of
  // globals it refers to (the C models' tables and buffers whose functions
  // the program does not call), cannot be accessed: they get no object, so
  // their initial bytes do not weigh on every memory query.
  DenseSet<const GlobalVariable *> Live;
  {
    SmallVector<const Constant *, 64> Work;
    auto Visit = [&](const Value *V) {
      if (auto *C = dyn_cast<Constant>(V))
        Work.push_back(C);
    };
    for (const Function &F : M)
      for (const Instruction &I : instructions(F))
        for (const Value *Op : I.operands())
          Visit(Op);
    DenseSet<const Constant *> Seen;
    while (!Work.empty()) {
      const Constant *C = Work.pop_back_val();
      if (!Seen.insert(C).second)
        continue;
      if (auto *G = dyn_cast<GlobalVariable>(C)) {
        Live.insert(G);
        if (G->hasInitializer())
          Work.push_back(G->getInitializer());
        continue;
      }
      if (isa<GlobalValue>(C))
        continue;
      for (const Value *Op : C->operands())
        Visit(Op);
    }
  }
  for (const GlobalVariable &G : M.globals()) {
    if (!Live.count(&G))
      continue;
    uint64_t Size = DL.getTypeAllocSize(G.getValueType()).getFixedValue();
    unsigned Id = newObject(bv(Size, OffBits), false);
    GlobalIds[&G] = Id;
    GlobalSizes[Id] = Size;
    Alive0 = z3::store(Alive0, bv(Id, ObjBits), Z.bool_val(true));
  }
  for (const GlobalVariable &G : M.globals()) {
    if (!Live.count(&G))
      continue;
    z3::expr IdE = bv(GlobalIds[&G], ObjBits);
    if (G.hasInitializer()) {
      z3::expr Inner = z3::const_array(OffSort, bv(0, 8));
      constBytes(G.getInitializer(), 0, [&](uint64_t Off, z3::expr B) {
        Inner = z3::store(Inner, bv(Off, OffBits), B);
      });
      Mem0 = z3::store(Mem0, IdE, Inner);
    } else if (!G.use_empty()) {
      InitialHavocReasons.push_back(
          ("initial value of external variable '" + G.getName() + "'").str());
    }
  }
  for (const GlobalAlias &A : M.aliases())
    if (const auto *GO = dyn_cast<GlobalValue>(A.getAliaseeObject()))
      if (GlobalIds.count(GO))
        GlobalIds[&A] = GlobalIds[GO];

  State S{Z.bool_val(true), Mem0, Alive0,
          Z.bool_val(!InitialHavocReasons.empty())};
  for (const std::string &R : InitialHavocReasons)
    Havocs.push_back({Z.bool_val(true), R});
  std::vector<z3::expr> Args;
  unsigned K = 0;
  for (const Argument &A : Entry.args()) {
    z3::expr V = fresh(regBits(A.getType()), "arg");
    Nondets.push_back(
        {Z.bool_val(true), V, nullptr, "argument " + std::to_string(K++)});
    Args.push_back(V);
  }
  z3::expr Ret(Z);
  callFunction(Entry, nullptr, Args, S, &Ret);
}

} // namespace crace::bmc
