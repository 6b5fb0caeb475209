//===- Encoder.cpp - bounded symbolic execution of LLVM IR into Z3 --------===//
//
// Values, pure instructions, control flow (blocks, loops, merges, frames)
// and the entry. The memory model is in EncoderMemory.cpp, calls in
// EncoderCalls.cpp; Encoder.h describes the encoding.
//
//===----------------------------------------------------------------------===//
#include "engines/bmc/Encoder.h"
#include "engines/WorkBudget.h"
#include "engines/bmc/WorkMeter.h"
#include "engines/bmc/Z3Ops.h"
#include "model/SyncAPI.h"

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

namespace {

std::string locationOf(const Loop *L) {
  if (DebugLoc D = L->getStartLoc())
    return (D->getFilename() + ":" + Twine(D.getLine())).str();
  return location(L->getHeader()->getTerminator());
}

bool isNumeral(const z3::expr &E) { return E.is_numeral(); }

} // namespace

Encoder::Encoder(z3::context &Z, z3::solver &S, const Module &M,
                 const Options &O)
    : Z(Z), Solver(S), M(M), DL(M.getDataLayout()), O(O),
      PtrBits(DL.getPointerSizeInBits(0)), ObjBits(PtrBits >= 64 ? 16 : 10),
      OffBits(PtrBits - ObjBits), ObjSort(Z.bv_sort(ObjBits)),
      OffSort(Z.bv_sort(OffBits)), ByteSort(Z.bv_sort(8)),
      SizeFn(Z.function("objsize", ObjSort, OffSort)),
      HeapFn(Z.function("isheap", ObjSort, Z.bool_sort())), Mem0(Z),
      Alive0(Z) {}

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
  unsigned W = E.get_sort().bv_size();
  if (W == Bits)
    return E;
  z3::expr R = W < Bits ? z3::zext(E, Bits - W) : E.extract(Bits - 1, 0);
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
  if (E.is_app() && E.decl().decl_kind() == Z3_OP_ITE && E.arg(1).is_numeral() &&
      E.arg(2).is_numeral() && E.get_sort().bv_size() == 1 &&
      E.arg(1).get_numeral_uint64() == 1 && E.arg(2).get_numeral_uint64() == 0)
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
  std::stable_sort(Keep.begin(), Keep.end(),
                   [](const z3::expr &A, const z3::expr &B) {
                     return Z3_get_ast_id(A.ctx(), A) >
                            Z3_get_ast_id(B.ctx(), B);
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

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

z3::expr Encoder::val(Frame *Fr, const Value *V) {
  if (const auto *C = dyn_cast<Constant>(V))
    return constVal(C);
  if (Fr) {
    auto It = Fr->Vals.find(V);
    if (It != Fr->Vals.end())
      return It->second;
  }
  // A value with no definition on any encoded path (the defining
  // instruction sits after a point where every path was cut). Any use is
  // under a false guard, so its value does not matter.
  unsigned Bits = regBits(V->getType());
  return fresh(Bits ? Bits : 8, "dead");
}

/// The value of V where it leaves the function's SSA values (stored,
/// passed, returned): an address-derived integer then loses track of being
/// an address, and its numeric value (our bit pattern, not a real address)
/// would be read as a number later. It becomes an arbitrary value instead.
z3::expr Encoder::escape(Frame &Fr, const Value *V, State &S,
                         const Instruction &At) {
  if (!Fr.FI->AddressDerived.count(V))
    return val(&Fr, V);
  return havoc(S, regBits(V->getType()),
               "address used as an integer at " + location(&At));
}

z3::expr Encoder::constVal(const Constant *C) {
  auto It = ConstCache.find(C);
  if (It != ConstCache.end())
    return It->second;
  Type *T = C->getType();
  std::optional<z3::expr> R;
  if (const auto *CI = dyn_cast<ConstantInt>(C)) {
    const APInt &A = CI->getValue();
    R = A.getBitWidth() <= 64
            ? Z.bv_val(A.getZExtValue(), A.getBitWidth())
            : Z.bv_val(llvm::toString(A, 10, false).c_str(), A.getBitWidth());
  } else if (isa<ConstantPointerNull>(C)) {
    R = bv(0, PtrBits);
  } else if (const auto *GA = dyn_cast<GlobalAlias>(C)) {
    R = constVal(GA->getAliasee());
  } else if (const auto *GV = dyn_cast<GlobalValue>(C)) {
    auto G = GlobalIds.find(GV);
    if (G == GlobalIds.end())
      throw EncodingAborted{("unsupported global '" + GV->getName() + "'").str()};
    R = address(G->second);
  } else if (isa<UndefValue>(C)) {
    // Undefined (uninitialised) values are arbitrary; not cached, so each
    // use is independent.
    unsigned Bits = regBits(T);
    return fresh(Bits ? Bits : 8, "undef");
  } else if (const auto *CF = dyn_cast<ConstantFP>(C)) {
    APInt A = CF->getValueAPF().bitcastToAPInt();
    R = Z.bv_val(llvm::toString(A, 10, false).c_str(), A.getBitWidth());
  } else if (const auto *CE = dyn_cast<ConstantExpr>(C)) {
    Instruction *I = CE->getAsInstruction();
    std::optional<z3::expr> V = pureOp(nullptr, *I);
    I->deleteValue();
    if (!V)
      throw EncodingAborted{
          ("unsupported constant expression '" + Twine(CE->getOpcodeName()) + "'")
              .str()};
    R = *V;
  } else if (T->isStructTy() || T->isArrayTy()) {
    uint64_t N = memBytes(T);
    std::vector<z3::expr> Bytes(N, bv(0, 8));
    constBytes(C, 0, [&](uint64_t Off, z3::expr B) {
      if (Off < N)
        Bytes[Off] = B;
    });
    z3::expr E = Bytes[N - 1];
    for (uint64_t I = N - 1; I-- > 0;)
      E = z3::concat(E, Bytes[I]);
    R = resize(E, regBits(T));
  } else {
    throw EncodingAborted{"unsupported constant of type " +
                          [&] {
                            std::string S;
                            raw_string_ostream OS(S);
                            T->print(OS);
                            return S;
                          }()};
  }
  ConstCache.emplace(C, *R);
  return *R;
}

/// Calls Byte(offset, value) for every non-zero byte of constant C placed at
/// Off (zero bytes are skipped: callers start from zeroed memory).
void Encoder::constBytes(const Constant *C, uint64_t Off,
                         const std::function<void(uint64_t, z3::expr)> &Byte) {
  Type *T = C->getType();
  if (isa<ConstantAggregateZero>(C) || isa<ConstantPointerNull>(C) ||
      isa<UndefValue>(C))
    return;
  auto FromAPInt = [&](APInt A) {
    uint64_t N = memBytes(T);
    A = A.zextOrTrunc(unsigned(N * 8));
    for (uint64_t I = 0; I < N; ++I) {
      uint64_t B = A.extractBitsAsZExtValue(8, unsigned(8 * I));
      if (B)
        Byte(Off + I, bv(B, 8));
    }
  };
  if (const auto *CI = dyn_cast<ConstantInt>(C))
    return FromAPInt(CI->getValue());
  if (const auto *CF = dyn_cast<ConstantFP>(C))
    return FromAPInt(CF->getValueAPF().bitcastToAPInt());
  if (const auto *CDS = dyn_cast<ConstantDataSequential>(C)) {
    uint64_t ES = DL.getTypeAllocSize(CDS->getElementType()).getFixedValue();
    for (unsigned I = 0, E = CDS->getNumElements(); I < E; ++I)
      constBytes(CDS->getElementAsConstant(I), Off + I * ES, Byte);
    return;
  }
  if (const auto *CS = dyn_cast<ConstantStruct>(C)) {
    const StructLayout *SL = DL.getStructLayout(CS->getType());
    for (unsigned I = 0, E = CS->getNumOperands(); I < E; ++I)
      constBytes(CS->getOperand(I), Off + SL->getElementOffset(I), Byte);
    return;
  }
  if (const auto *CA = dyn_cast<ConstantArray>(C)) {
    uint64_t ES =
        DL.getTypeAllocSize(CA->getType()->getElementType()).getFixedValue();
    for (unsigned I = 0, E = CA->getNumOperands(); I < E; ++I)
      constBytes(CA->getOperand(I), Off + I * ES, Byte);
    return;
  }
  if (T->isVectorTy())
    throw EncodingAborted{"unsupported vector constant"};
  // Pointers (globals, functions, constant expressions).
  z3::expr E = constVal(C);
  uint64_t N = memBytes(T);
  E = resize(E, unsigned(N * 8));
  for (uint64_t I = 0; I < N; ++I)
    Byte(Off + I, E.extract(unsigned(8 * I + 7), unsigned(8 * I)).simplify());
}

//===----------------------------------------------------------------------===//
// Pure instructions (also used for constant expressions, with Fr == null)
//===----------------------------------------------------------------------===//

std::optional<z3::expr> Encoder::pureOp(Frame *Fr, const Instruction &I) {
  for (const Use &U : I.operands())
    if (U->getType()->isVectorTy())
      return std::nullopt;
  if (I.getType()->isVectorTy())
    return std::nullopt;
  bool AllConst = true;
  auto V = [&](unsigned K) {
    z3::expr E = val(Fr, I.getOperand(K));
    AllConst &= isNumeral(E);
    return E;
  };
  std::optional<z3::expr> R;
  switch (I.getOpcode()) {
  case Instruction::Add: R = V(0) + V(1); break;
  case Instruction::Sub: R = V(0) - V(1); break;
  case Instruction::Mul: R = V(0) * V(1); break;
  case Instruction::And: R = V(0) & V(1); break;
  case Instruction::Or: R = V(0) | V(1); break;
  case Instruction::Xor: R = V(0) ^ V(1); break;
  case Instruction::ICmp: {
    z3::expr A = V(0), B = V(1);
    std::optional<z3::expr> Cmp =
        icmpTerm(cast<ICmpInst>(I).getPredicate(), A, B);
    if (!Cmp)
      return std::nullopt;
    z3::expr C = *Cmp;
    if (AllConst)
      C = C.simplify();
    return fromBool(C);
  }
  case Instruction::Select: {
    z3::expr C = toBool(V(0)), A = V(1), B = V(2);
    if (C.is_true())
      return A;
    if (C.is_false())
      return B;
    return z3::ite(C, A, B);
  }
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::AddrSpaceCast:
    R = resize(V(0), regBits(I.getType()));
    break;
  case Instruction::SExt: {
    z3::expr A = V(0);
    R = z3::sext(A, regBits(I.getType()) - A.get_sort().bv_size());
    break;
  }
  case Instruction::BitCast: {
    unsigned To = regBits(I.getType());
    z3::expr A = V(0);
    if (!To || A.get_sort().bv_size() != To)
      return std::nullopt;
    return A;
  }
  case Instruction::Freeze:
    return V(0);
  case Instruction::GetElementPtr: {
    const auto &G = cast<GetElementPtrInst>(I);
    z3::expr P = V(0);
    uint64_t ConstOff = 0;
    std::optional<z3::expr> Dyn;
    unsigned K = 1;
    for (gep_type_iterator GI = gep_type_begin(G), GE = gep_type_end(G);
         GI != GE; ++GI, ++K) {
      if (StructType *ST = GI.getStructTypeOrNull()) {
        unsigned F = unsigned(cast<ConstantInt>(GI.getOperand())->getZExtValue());
        ConstOff += DL.getStructLayout(ST)->getElementOffset(F);
        continue;
      }
      uint64_t Size = GI.getSequentialElementStride(DL).getFixedValue();
      if (const auto *CI = dyn_cast<ConstantInt>(GI.getOperand())) {
        ConstOff += uint64_t(CI->getSExtValue()) * Size;
        continue;
      }
      z3::expr Idx = V(K);
      unsigned W = Idx.get_sort().bv_size();
      Idx = W < PtrBits ? z3::sext(Idx, PtrBits - W) : resize(Idx, PtrBits);
      z3::expr Term = Idx * bv(Size, PtrBits);
      Dyn = Dyn ? *Dyn + Term : Term;
    }
    z3::expr Res = P;
    if (ConstOff)
      Res = Res + bv(ConstOff, PtrBits);
    if (Dyn)
      Res = Res + *Dyn;
    if (Fr && (Dyn || (isConcatPointer(P) && int64_t(ConstOff) >= 0))) {
      // Variable indexing is checked to stay in its object (see exec), so
      // the result keeps the base's object id syntactically.
      LastGepNatural = AllConst ? Res.simplify() : Res;
      z3::expr Delta = bv(ConstOff, OffBits);
      if (Dyn)
        Delta = Delta + resize(*Dyn, OffBits);
      z3::expr Off = offOf(P) + Delta;
      z3::expr Ob = objOf(P);
      if (Ob.is_numeral() && AllConst)
        return z3::concat(Ob, Off).simplify();
      return z3::concat(Ob, Off);
    }
    R = Res;
    break;
  }
  case Instruction::ExtractValue:
  case Instruction::InsertValue: {
    ArrayRef<unsigned> Idx = isa<ExtractValueInst>(I)
                                 ? cast<ExtractValueInst>(I).getIndices()
                                 : cast<InsertValueInst>(I).getIndices();
    Type *T = I.getOperand(0)->getType();
    uint64_t Off = 0;
    for (unsigned X : Idx) {
      if (auto *ST = dyn_cast<StructType>(T)) {
        Off += DL.getStructLayout(ST)->getElementOffset(X);
        T = ST->getElementType(X);
      } else {
        T = cast<ArrayType>(T)->getElementType();
        Off += X * DL.getTypeAllocSize(T).getFixedValue();
      }
    }
    z3::expr Agg = V(0);
    unsigned Lo = unsigned(Off * 8);
    if (isa<ExtractValueInst>(I)) {
      R = Agg.extract(Lo + regBits(T) - 1, Lo);
    } else {
      unsigned W = unsigned(memBytes(T) * 8), Total = Agg.get_sort().bv_size();
      z3::expr Elem = resize(V(1), W);
      z3::expr Res = Elem;
      if (Lo > 0)
        Res = z3::concat(Res, Agg.extract(Lo - 1, 0));
      if (Lo + W < Total)
        Res = z3::concat(Agg.extract(Total - 1, Lo + W), Res);
      R = Res;
    }
    break;
  }
  default:
    return std::nullopt;
  }
  if (AllConst)
    R = R->simplify();
  return R;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

Encoder::FunctionInfo &Encoder::info(const Function &F) {
  auto &Slot = Infos[&F];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionInfo>();
  FunctionInfo &FI = *Slot;
  auto &NF = const_cast<Function &>(F);
  FI.DT = std::make_unique<DominatorTree>(NF);
  FI.LI = std::make_unique<LoopInfo>(*FI.DT);
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  DenseMap<const BasicBlock *, unsigned> Index;
  for (const BasicBlock *BB : RPOT)
    Index[BB] = Index.size();
  for (const BasicBlock *BB : RPOT) {
    const Loop *L = FI.LI->getLoopFor(BB);
    if (L && L->getHeader() == BB)
      FI.Nodes[L->getParentLoop()].push_back(BB);
    FI.Nodes[L].push_back(BB);
    // A retreating edge that is not the back edge of a natural loop makes
    // the control flow irreducible.
    for (const BasicBlock *S : successors(BB)) {
      if (Index[S] > Index[BB])
        continue;
      const Loop *SL = FI.LI->getLoopFor(S);
      if (!SL || SL->getHeader() != S || !SL->contains(BB))
        FI.Irreducible = true;
    }
  }
  // Address-derived integers (fixpoint: phis may close cycles). A
  // difference of two addresses and a small alignment mask are
  // meaningful numbers again.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        if (!I.getType()->isIntegerTy() || FI.AddressDerived.count(&I))
          continue;
        bool D = isa<PtrToIntInst>(I);
        if (!D && (isa<BinaryOperator>(I) || isa<CastInst>(I) ||
                   isa<SelectInst>(I) || isa<PHINode>(I) || isa<FreezeInst>(I))) {
          unsigned First = isa<SelectInst>(I) ? 1 : 0, Tainted = 0;
          for (unsigned K = First; K < I.getNumOperands(); ++K)
            Tainted += FI.AddressDerived.count(I.getOperand(K));
          D = Tainted > 0;
          if (D && I.getOpcode() == Instruction::Sub && Tainted == 2)
            D = false;
          if (D && I.getOpcode() == Instruction::And)
            for (const Use &U : I.operands())
              if (const auto *C = dyn_cast<ConstantInt>(U))
                if (C->getValue().ule(15))
                  D = false;
        }
        if (D) {
          FI.AddressDerived.insert(&I);
          Changed = true;
        }
      }
  }
  return FI;
}

/// Comparisons whose outcome depends on where objects lie in memory: our
/// object ids order objects arbitrarily and real addresses differ from our
/// bit patterns, so such an outcome is over-approximated by an arbitrary
/// value (with the havoc flag). Only equality of two addresses (or with
/// null) and ordering within one object are exact. True when handled.
bool Encoder::addressCompare(Frame &Fr, const ICmpInst &I, State &S) {
  const Value *A = I.getOperand(0), *B = I.getOperand(1);
  auto IsAddr = [&](const Value *V) {
    return V->getType()->isPointerTy() || Fr.FI->AddressDerived.count(V);
  };
  auto IsNull = [](const Value *V) {
    if (isa<ConstantPointerNull>(V))
      return true;
    const auto *C = dyn_cast<ConstantInt>(V);
    return C && C->isZero();
  };
  bool AA = IsAddr(A), BA = IsAddr(B);
  if (!AA && !BA)
    return false;
  bool Both = (AA || IsNull(A)) && (BA || IsNull(B));
  if (I.isEquality() && Both)
    return false; // exact
  z3::expr X = val(&Fr, A), Y = val(&Fr, B);
  bool FullWidth = X.get_sort().bv_size() == PtrBits;
  std::optional<z3::expr> Exact = pureOp(&Fr, I);
  z3::expr Any = fresh(1, "addrcmp");
  z3::expr Inexact = Z.bool_val(true);
  if (AA && BA && FullWidth && Exact) {
    Inexact = objOf(X) != objOf(Y);
    Fr.Vals.insert_or_assign(&I, z3::ite(Inexact, Any, *Exact));
  } else {
    Fr.Vals.insert_or_assign(&I, Any);
  }
  // The path is over-approximated only where the outcome was arbitrary.
  Havocs.push_back({mkAnd(S.Guard, Inexact),
                    "comparison of addresses at " + location(&I)});
  S.Havoc = mkOr(S.Havoc, Inexact);
  return true;
}

std::optional<Encoder::State>
Encoder::callFunction(const Function &F, const CallBase *Site,
                      const std::vector<z3::expr> &Args, const State &In,
                      z3::expr *RetOut) {
  FunctionInfo &FI = info(F);
  if (FI.Irreducible) {
    event(EventKind::Unsupported, In, Z.bool_val(true),
          &F.getEntryBlock().front(),
          ("irreducible control flow in '" + F.getName() + "'").str());
    return std::nullopt;
  }
  Frame Fr;
  Fr.F = &F;
  Fr.FI = &FI;
  Fr.Site = Site;
  unsigned K = 0;
  for (const Argument &A : F.args()) {
    unsigned Bits = regBits(A.getType());
    Fr.Vals.insert_or_assign(&A, K < Args.size()
                                     ? resize(Args[K], Bits ? Bits : 8)
                                     : fresh(Bits, "arg"));
    ++K;
  }
  Frames.push_back(&Fr);
  Fr.Pending[&F.getEntryBlock()].push_back({In, {}});
  runRegion(Fr, nullptr);
  Frames.pop_back();
  if (Fr.Returns.empty())
    return std::nullopt;
  std::vector<Incoming> Rets;
  for (size_t I = 0; I < Fr.Returns.size(); ++I) {
    Rets.push_back({Fr.Returns[I], {}});
    if (!F.getReturnType()->isVoidTy())
      Rets.back().Phis.push_back(Fr.RetVals[I]);
  }
  Incoming Out = merge(Rets);
  // The frame's stack objects die.
  for (unsigned Id : Fr.Allocas)
    Out.S.Alive = z3::store(Out.S.Alive, bv(Id, ObjBits), Z.bool_val(false));
  if (RetOut && !Out.Phis.empty())
    *RetOut = Out.Phis[0];
  return Out.S;
}

void Encoder::runRegion(Frame &Fr, const Loop *L) {
  // Copy: running a block may add entries for other regions.
  std::vector<const BasicBlock *> Nodes = Fr.FI->Nodes[L];
  for (const BasicBlock *BB : Nodes) {
    const Loop *BL = Fr.FI->LI->getLoopFor(BB);
    if (BL != L)
      runLoop(Fr, BL);
    else
      runBlock(Fr, BB);
  }
}

void Encoder::runLoop(Frame &Fr, const Loop *L) {
  const BasicBlock *H = L->getHeader();
  for (unsigned K = 0;; ++K) {
    if (!Fr.Pending.count(H))
      return;
    runRegion(Fr, L);
    auto It = Fr.Back.find(L);
    if (It == Fr.Back.end())
      return;
    std::vector<Incoming> Back = std::move(It->second);
    Fr.Back.erase(It);
    if (Back.empty())
      return;
    if (K + 1 > O.Unwind) {
      // The (Unwind+1)-th back edge: the unwinding check.
      Incoming Mg = merge(Back);
      event(EventKind::Unwinding, Mg.S, Z.bool_val(true), H->getTerminator(),
            "unwinding bound " + std::to_string(O.Unwind) + " reached at " +
                locationOf(L));
      return;
    }
    Fr.Pending[H] = std::move(Back);
  }
}

Encoder::Incoming Encoder::merge(std::vector<Incoming> &Ins) {
  assert(!Ins.empty() && "merging nothing");
  if (Ins.size() == 1) {
    Incoming R = Ins[0];
    R.S.Guard = name(R.S.Guard);
    return R;
  }
  z3::expr G = Z.bool_val(false);
  for (const Incoming &I : Ins)
    G = mkOr(G, I.S.Guard);
  auto Chain = [&](auto Get) {
    z3::expr R = Get(Ins.back());
    for (size_t I = Ins.size() - 1; I-- > 0;) {
      z3::expr E = Get(Ins[I]);
      if (!z3::eq(E, R))
        R = z3::ite(Ins[I].S.Guard, E, R);
    }
    return R;
  };
  Incoming R{{name(G), Chain([](const Incoming &I) { return I.S.Mem; }),
              Chain([](const Incoming &I) { return I.S.Alive; }),
              Chain([](const Incoming &I) { return I.S.Havoc; })},
             {}};
  for (size_t P = 0; P < Ins[0].Phis.size(); ++P)
    R.Phis.push_back(Chain([P](const Incoming &I) { return I.Phis[P]; }));
  return R;
}

void Encoder::addEdge(Frame &Fr, const BasicBlock *From, const BasicBlock *To,
                      State S) {
  if (S.Guard.is_false())
    return;
  Incoming In{S, {}};
  for (const PHINode &P : To->phis())
    In.Phis.push_back(val(&Fr, P.getIncomingValueForBlock(From)));
  const Loop *TL = Fr.FI->LI->getLoopFor(To);
  if (TL && TL->getHeader() == To && TL->contains(From))
    Fr.Back[TL].push_back(std::move(In));
  else
    Fr.Pending[To].push_back(std::move(In));
}

void Encoder::runBlock(Frame &Fr, const BasicBlock *BB) {
  auto It = Fr.Pending.find(BB);
  if (It == Fr.Pending.end())
    return;
  std::vector<Incoming> Ins = std::move(It->second);
  Fr.Pending.erase(It);
  if (Ins.empty())
    return;
  poll();
  Incoming In = merge(Ins);
  if (In.S.Guard.is_false())
    return;
  unsigned K = 0;
  for (const PHINode &P : BB->phis())
    Fr.Vals.insert_or_assign(&P, In.Phis[K++]);
  State S = In.S;
  Visits.push_back({S.Guard, BB, stack()});
  for (const Instruction &I : *BB) {
    if (isa<PHINode>(I))
      continue;
    if (I.isTerminator()) {
      terminate(Fr, I, S);
      return;
    }
    // The work budget counts instructions encoded, not time, so the
    // encoding stops at the same instruction on every run.
    if (O.Work && O.Work->step())
      throw EncodingAborted{WorkBudgetRanOut};
    exec(Fr, I, S);
    if (S.Guard.is_false())
      return;
  }
}

void Encoder::terminate(Frame &Fr, const Instruction &I, State &S) {
  const BasicBlock *BB = I.getParent();
  if (const auto *Br = dyn_cast<BranchInst>(&I)) {
    if (Br->isUnconditional()) {
      addEdge(Fr, BB, Br->getSuccessor(0), S);
      return;
    }
    z3::expr C = toBool(val(&Fr, Br->getCondition()));
    State T = S, F = S;
    T.Guard = mkAnd(S.Guard, C);
    F.Guard = mkAnd(S.Guard, C.is_true() ? Z.bool_val(false)
                                         : C.is_false() ? Z.bool_val(true) : !C);
    addEdge(Fr, BB, Br->getSuccessor(0), T);
    addEdge(Fr, BB, Br->getSuccessor(1), F);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchInst>(&I)) {
    z3::expr V = escape(Fr, Sw->getCondition(), S, I);
    z3::expr Default = S.Guard;
    for (const auto &Case : Sw->cases()) {
      z3::expr C = V == constVal(Case.getCaseValue());
      if (isNumeral(V))
        C = C.simplify();
      State T = S;
      T.Guard = mkAnd(S.Guard, C);
      addEdge(Fr, BB, Case.getCaseSuccessor(), T);
      Default = mkAnd(Default, C.is_true()    ? Z.bool_val(false)
                               : C.is_false() ? Z.bool_val(true)
                                              : !C);
    }
    State D = S;
    D.Guard = Default;
    addEdge(Fr, BB, Sw->getDefaultDest(), D);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnInst>(&I)) {
    Fr.Returns.push_back(S);
    if (const Value *RV = Ret->getReturnValue())
      Fr.RetVals.push_back(escape(Fr, RV, S, I));
    else
      Fr.RetVals.push_back(bv(0, 1));
    return;
  }
  if (isa<UnreachableInst>(I)) {
    event(EventKind::UndefinedBehavior, S, Z.bool_val(true), &I,
          "'unreachable' reached at " + location(&I));
    return;
  }
  event(EventKind::Unsupported, S, Z.bool_val(true), &I,
        std::string("unsupported terminator '") + I.getOpcodeName() + "' at " +
            location(&I));
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
          Bad = Bad.simplify();
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
  case Instruction::SRem: {
    z3::expr A = val(&Fr, I.getOperand(0)), B = val(&Fr, I.getOperand(1));
    unsigned W = A.get_sort().bv_size();
    bool Signed = I.getOpcode() == Instruction::SDiv ||
                  I.getOpcode() == Instruction::SRem;
    z3::expr Bad = B == bv(0, W);
    if (Signed)
      Bad = Bad || (A == Z.bv_val(llvm::toString(APInt::getSignedMinValue(W), 10,
                                           false).c_str(), W) &&
                    B == Z.bv_val(llvm::toString(APInt::getAllOnes(W), 10, false)
                                      .c_str(), W));
    if (isNumeral(B))
      Bad = Bad.simplify();
    cutIf(S, Bad, EventKind::UndefinedBehavior, &I,
          std::string(Signed ? "possible division by zero or overflow"
                             : "possible division by zero") +
              " at " + location(&I));
    z3::expr R(Z);
    switch (I.getOpcode()) {
    case Instruction::UDiv: R = z3::udiv(A, B); break;
    case Instruction::SDiv: R = A / B; break;
    case Instruction::URem: R = z3::urem(A, B); break;
    default: R = z3::srem(A, B); break;
    }
    if (isNumeral(A) && isNumeral(B))
      R = R.simplify();
    Fr.Vals.insert_or_assign(&I, R);
    return;
  }
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr: {
    z3::expr A = val(&Fr, I.getOperand(0)), B = val(&Fr, I.getOperand(1));
    unsigned W = A.get_sort().bv_size();
    z3::expr Bad = z3::uge(B, bv(W, W));
    if (isNumeral(B))
      Bad = Bad.simplify();
    cutIf(S, Bad, EventKind::UndefinedBehavior, &I,
          "possible shift by the operand width or more at " + location(&I));
    z3::expr R = I.getOpcode() == Instruction::Shl    ? z3::shl(A, B)
                 : I.getOpcode() == Instruction::LShr ? z3::lshr(A, B)
                                                      : z3::ashr(A, B);
    if (isNumeral(A) && isNumeral(B))
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
    z3::expr Size = isNumeral(N) ? (N * bv(ES, OffBits)).simplify()
                                 : N * bv(ES, OffBits);
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
    case AtomicRMWInst::Xchg: New = X; break;
    case AtomicRMWInst::Add: New = Old + X; break;
    case AtomicRMWInst::Sub: New = Old - X; break;
    case AtomicRMWInst::And: New = Old & X; break;
    case AtomicRMWInst::Nand: New = ~(Old & X); break;
    case AtomicRMWInst::Or: New = Old | X; break;
    case AtomicRMWInst::Xor: New = Old ^ X; break;
    case AtomicRMWInst::Max: New = z3::ite(Old > X, Old, X); break;
    case AtomicRMWInst::Min: New = z3::ite(Old < X, Old, X); break;
    case AtomicRMWInst::UMax: New = z3::ite(z3::ugt(Old, X), Old, X); break;
    case AtomicRMWInst::UMin: New = z3::ite(z3::ult(Old, X), Old, X); break;
    default: return Unsupported("unsupported atomicrmw operation");
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
    Nondets.push_back({Z.bool_val(true), V, nullptr,
                       "argument " + std::to_string(K++)});
    Args.push_back(V);
  }
  z3::expr Ret(Z);
  callFunction(Entry, nullptr, Args, S, &Ret);
}

} // namespace crace::bmc
