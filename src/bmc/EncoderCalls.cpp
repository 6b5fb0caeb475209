//===- EncoderCalls.cpp - calls in the bmc encoding -----------------------===//
//
// Direct and indirect calls (inlined), failure / nondet / assume / exit /
// allocation functions and crace's model intrinsics, LLVM intrinsics, and
// external library functions (see Encoder.h).
//
//===----------------------------------------------------------------------===//
#include "bmc/Encoder.h"
#include "model/SyncAPI.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace crace::bmc {

void Encoder::execCall(Frame &Fr, const CallBase &CB, State &S) {
  if (CB.isInlineAsm()) {
    cutIf(S, Z.bool_val(true), EventKind::Unsupported, &CB,
          "inline assembly at " + location(&CB));
    return;
  }
  const Function *F = CB.getCalledFunction();
  if (!F)
    F = dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!F)
    return execIndirectCall(Fr, CB, S);
  if (F->isIntrinsic()) {
    if (!execLLVMIntrinsic(Fr, CB, *F, S))
      cutIf(S, Z.bool_val(true), EventKind::Unsupported, &CB,
            ("unsupported intrinsic '" + F->getName() + "' at " + location(&CB))
                .str());
    return;
  }
  if (execBuiltin(Fr, CB, *F, S))
    return;
  if (!F->isDeclaration())
    return execDefinedCall(Fr, CB, *F, S);
  if (auto Eff = lookupExternal(F->getName());
      Eff &&
      (*Eff == ExternalEffect::Pure || *Eff == ExternalEffect::ReadsArgs)) {
    // A library function that writes no program memory: its result is
    // over-approximated by an arbitrary value, unless nothing uses it
    // (printk's count): then no path depends on it.
    if (unsigned Bits = regBits(CB.getType()))
      Fr.Vals.insert_or_assign(&CB, CB.use_empty()
                                        ? fresh(Bits, "unused")
                                        : havoc(S, Bits,
                                                ("result of '" + F->getName() +
                                                 "' at " + location(&CB))
                                                    .str()));
    return;
  }
  if (F->getName().starts_with("__crace_"))
    cutIf(S, Z.bool_val(true), EventKind::Unsupported, &CB,
          ("crace intrinsic '" + F->getName() + "' at " + location(&CB) +
           " (threads and synchronisation are not supported: the bmc checks "
           "sequential programs)")
              .str());
  else
    cutIf(S, Z.bool_val(true), EventKind::Unsupported, &CB,
          ("call to external function '" + F->getName() +
           "' without a body at " + location(&CB))
              .str());
}

/// Functions with a meaning of their own (failures, nondet, assume, exit,
/// allocation, crace's model intrinsics). False when F is none of them.
bool Encoder::execBuiltin(Frame &Fr, const CallBase &CB, const Function &F,
                          State &S) {
  StringRef N = F.getName();
  // crace's intrinsics by meaning (SyncAPI.def); other names are the C
  // library's and SV-COMP's.
  std::optional<Intrinsic> I = lookupIntrinsic(N);
  auto Is = [&](Intrinsic K) { return I == K; };
  auto Arg = [&](unsigned K) { return escape(Fr, CB.getArgOperand(K), S, CB); };
  auto SetResult = [&](const z3::expr &E) {
    if (unsigned Bits = regBits(CB.getType()))
      Fr.Vals.insert_or_assign(&CB, resize(E, Bits));
  };
  if (O.FailureFunctions.count(N.str())) {
    if (Is(Intrinsic::Assert) && CB.arg_size() >= 1) {
      z3::expr C = toBool(Arg(0));
      event(EventKind::Failure, S, C.is_true() ? Z.bool_val(false) : !C, &CB,
            "assertion failure at " + location(&CB));
      S.Guard = mkAnd(S.Guard, C);
      return true;
    }
    event(EventKind::Failure, S, Z.bool_val(true), &CB,
          ("call to '" + N + "' at " + location(&CB)).str());
    // The C library's and SV-COMP's failure functions never return; other
    // failure functions (__crace_bmc_fail, configured ones) do, so that a
    // query for one site sees the paths that pass through another.
    if (F.doesNotReturn() || N == "reach_error" || N == "__VERIFIER_error" ||
        Is(Intrinsic::Error) || N == "__assert_fail" || N == "__assert" ||
        N == "__assert_perror_fail")
      S.Guard = Z.bool_val(false);
    return true;
  }
  if (N.starts_with("__VERIFIER_nondet_") || (I && isNondet(*I)) ||
      (O.IsNondet && O.IsNondet(N))) {
    if (unsigned Bits = regBits(CB.getType())) {
      z3::expr V = fresh(Bits, "nondet");
      // __crace_nondet_bits(K): a value of K bits, as explore draws it.
      if (Is(Intrinsic::NondetBits) && CB.arg_size() == 1)
        if (auto *K = dyn_cast<ConstantInt>(CB.getArgOperand(0)))
          if (K->getZExtValue() > 0 && K->getZExtValue() < Bits) {
            unsigned KB = unsigned(K->getZExtValue());
            V = z3::zext(fresh(KB, "nondet"), Bits - KB);
          }
      Nondets.push_back({S.Guard, V, &CB, N.str()});
      Fr.Vals.insert_or_assign(&CB, V);
    }
    return true;
  }
  if (Is(Intrinsic::BmcSameObject) && CB.arg_size() == 2) {
    // i1 (ptr, ptr): do the two addresses lie in one object (equal object
    // ids)? Exact; the KISS transform guards ordering comparisons with it.
    SetResult(fromBool(objOf(Arg(0)) == objOf(Arg(1))));
    return true;
  }
  if (I && isUnknownResult(*I)) {
    if (unsigned Bits = regBits(CB.getType()))
      Fr.Vals.insert_or_assign(
          &CB, havoc(S, Bits, "library result at " + location(&CB)));
    return true;
  }
  if (N == "__VERIFIER_assume" || Is(Intrinsic::Assume)) {
    S.Guard = mkAnd(S.Guard, toBool(Arg(0)));
    return true;
  }
  if (N == "abort" || N == "exit" || N == "_Exit" || Is(Intrinsic::Exit) ||
      Is(Intrinsic::Error) || N == "__VERIFIER_error" || N == "reach_error" ||
      N == "__assert_fail") {
    // Ends the program (failure functions not selected as the property).
    if (F.isDeclaration() || I || N == "abort" || N == "exit" || N == "_Exit") {
      S.Guard = Z.bool_val(false);
      return true;
    }
    return false;
  }
  bool Decl = F.isDeclaration();
  if (Is(Intrinsic::Alloc) || (Decl && (N == "malloc" || N == "calloc"))) {
    z3::expr Size = resize(Arg(0), OffBits);
    if (N == "calloc")
      Size = Size * resize(Arg(1), OffBits);
    unsigned Id = newObject(Size, true);
    S.Alive = z3::store(S.Alive, bv(Id, ObjBits), Z.bool_val(true));
    if (N == "calloc")
      setBytes(S, address(Id), bv(0, 8), Size);
    SetResult(address(Id));
    return true;
  }
  if (Is(Intrinsic::Free) || (Decl && N == "free")) {
    z3::expr P = Arg(0);
    z3::expr Null = P == bv(0, PtrBits);
    z3::expr Ob = objOf(P);
    z3::expr Ok = Null || (z3::select(S.Alive, Ob) &&
                           offOf(P) == bv(0, OffBits) && HeapFn(Ob));
    cutIf(S, !Ok, EventKind::MemoryError, &CB,
          "possible invalid free (not a live heap object) at " + location(&CB));
    if (!S.Guard.is_false())
      S.Alive = z3::store(S.Alive, Ob, Z.bool_val(false));
    return true;
  }
  if (Is(Intrinsic::ObjectSize)) {
    SetResult(SizeFn(objOf(Arg(0))));
    return true;
  }
  if (Is(Intrinsic::Read))
    return true; // a library read: no effect on the state
  if (Is(Intrinsic::Write)) {
    z3::expr P = Arg(0), Len = resize(Arg(1), OffBits);
    // calloc's model: p = __crace_alloc(n * m); __crace_write(p, n * m)
    // writes zeros over the whole fresh object.
    const Value *Size = CB.getArgOperand(1);
    if (const auto *Alloc = dyn_cast<CallBase>(CB.getArgOperand(0)))
      if (const Function *AF = Alloc->getCalledFunction())
        if (lookupIntrinsic(AF->getName()) == Intrinsic::Alloc) {
          const Value *ASize = Alloc->getArgOperand(0);
          const auto *I1 = dyn_cast<Instruction>(Size);
          const auto *I2 = dyn_cast<Instruction>(ASize);
          if (Size == ASize || (I1 && I2 && I1->isIdenticalTo(I2))) {
            setBytes(S, P, bv(0, 8), Len);
            return true;
          }
        }
    // Otherwise the library wrote something: those bytes (the whole object
    // when the length is unknown, 0) become arbitrary.
    z3::expr Ob = objOf(P);
    z3::expr Junk = Z.constant(("junk!" + std::to_string(NextName++)).c_str(),
                               Z.array_sort(OffSort, ByteSort));
    Havocs.push_back(
        {S.Guard, "memory written by a library function at " + location(&CB)});
    S.Havoc = Z.bool_val(true);
    uint64_t LV = 1;
    if (Len.is_numeral_u64(LV) && LV == 0) {
      S.Mem = z3::store(S.Mem, Ob, Junk);
    } else {
      z3::expr X =
          Z.constant(("i!" + std::to_string(NextName++)).c_str(), OffSort);
      z3::expr Old = z3::select(S.Mem, Ob);
      z3::expr In = z3::uge(X, offOf(P)) && z3::ult(X - offOf(P), Len);
      S.Mem = z3::store(
          S.Mem, Ob,
          lambdaOf(X, z3::ite(In, z3::select(Junk, X), z3::select(Old, X))));
    }
    return true;
  }
  return false;
}

bool Encoder::execLLVMIntrinsic(Frame &Fr, const CallBase &CB,
                                const Function &F, State &S) {
  auto Arg = [&](unsigned K) { return escape(Fr, CB.getArgOperand(K), S, CB); };
  auto Set = [&](const z3::expr &E) { Fr.Vals.insert_or_assign(&CB, E); };
  unsigned Bits = regBits(CB.getType());
  if (isNoEffectLLVMIntrinsic(F.getIntrinsicID()))
    return true;
  switch (F.getIntrinsicID()) {
  case llvm::Intrinsic::invariant_start:
  case llvm::Intrinsic::stacksave:
    if (Bits)
      Set(bv(0, Bits));
    return true;
  case llvm::Intrinsic::assume:
    S.Guard = mkAnd(S.Guard, toBool(Arg(0)));
    return true;
  case llvm::Intrinsic::expect:
  case llvm::Intrinsic::expect_with_probability:
    Set(Arg(0));
    return true;
  case llvm::Intrinsic::is_constant:
    Set(bv(0, 1)); // "not known to be constant" is always a valid answer
    return true;
  case llvm::Intrinsic::trap:
  case llvm::Intrinsic::debugtrap:
  case llvm::Intrinsic::ubsantrap:
    S.Guard = Z.bool_val(false); // the program stops
    return true;
  case llvm::Intrinsic::memcpy:
  case llvm::Intrinsic::memcpy_inline:
  case llvm::Intrinsic::memmove: {
    z3::expr D = Arg(0), Src = Arg(1), N = resize(Arg(2), OffBits);
    uint64_t NV = 1;
    if (N.is_numeral_u64(NV) && NV == 0)
      return true;
    if (!checkAccess(Fr, CB, S, D, N, "write (memcpy destination)") ||
        !checkAccess(Fr, CB, S, Src, N, "read (memcpy source)"))
      return true;
    copyBytes(S, D, Src, N);
    return true;
  }
  case llvm::Intrinsic::memset:
  case llvm::Intrinsic::memset_inline: {
    z3::expr D = Arg(0), B = resize(Arg(1), 8), N = resize(Arg(2), OffBits);
    uint64_t NV = 1;
    if (N.is_numeral_u64(NV) && NV == 0)
      return true;
    if (!checkAccess(Fr, CB, S, D, N, "write (memset)"))
      return true;
    setBytes(S, D, B, N);
    return true;
  }
  case llvm::Intrinsic::smax:
    Set(z3::ite(Arg(0) > Arg(1), Arg(0), Arg(1)));
    return true;
  case llvm::Intrinsic::smin:
    Set(z3::ite(Arg(0) < Arg(1), Arg(0), Arg(1)));
    return true;
  case llvm::Intrinsic::umax:
    Set(z3::ite(z3::ugt(Arg(0), Arg(1)), Arg(0), Arg(1)));
    return true;
  case llvm::Intrinsic::umin:
    Set(z3::ite(z3::ult(Arg(0), Arg(1)), Arg(0), Arg(1)));
    return true;
  case llvm::Intrinsic::abs: {
    z3::expr A = Arg(0);
    Set(z3::ite(A < bv(0, Bits), -A, A));
    return true;
  }
  case llvm::Intrinsic::ctpop: {
    z3::expr A = Arg(0), R = bv(0, Bits);
    for (unsigned I = 0; I < Bits; ++I)
      R = R + z3::zext(A.extract(I, I), Bits - 1);
    Set(R);
    return true;
  }
  case llvm::Intrinsic::ctlz:
  case llvm::Intrinsic::cttz: {
    // Count from the far end: the last matching position wins.
    z3::expr A = Arg(0), R = bv(Bits, Bits);
    bool Lz = F.getIntrinsicID() == llvm::Intrinsic::ctlz;
    for (unsigned I = 0; I < Bits; ++I) {
      unsigned Bit = Lz ? I : Bits - 1 - I;
      unsigned Count = Lz ? Bits - 1 - I : Bits - 1 - I;
      R = z3::ite(A.extract(Bit, Bit) == bv(1, 1), bv(Count, Bits), R);
    }
    Set(R);
    return true;
  }
  case llvm::Intrinsic::bswap: {
    z3::expr A = Arg(0);
    z3::expr R = A.extract(7, 0);
    for (unsigned I = 1; I < Bits / 8; ++I)
      R = z3::concat(R, A.extract(8 * I + 7, 8 * I));
    Set(R);
    return true;
  }
  case llvm::Intrinsic::fshl:
  case llvm::Intrinsic::fshr: {
    z3::expr A = Arg(0), B = Arg(1), C = z3::urem(Arg(2), bv(Bits, Bits));
    z3::expr Wide = z3::concat(A, B), Amt = z3::zext(C, Bits);
    if (F.getIntrinsicID() == llvm::Intrinsic::fshl)
      Set(z3::shl(Wide, Amt).extract(2 * Bits - 1, Bits));
    else
      Set(z3::lshr(Wide, Amt).extract(Bits - 1, 0));
    return true;
  }
  case llvm::Intrinsic::sadd_with_overflow:
  case llvm::Intrinsic::uadd_with_overflow:
  case llvm::Intrinsic::ssub_with_overflow:
  case llvm::Intrinsic::usub_with_overflow:
  case llvm::Intrinsic::smul_with_overflow:
  case llvm::Intrinsic::umul_with_overflow: {
    auto *ST = cast<StructType>(CB.getType());
    z3::expr A = Arg(0), B = Arg(1);
    unsigned W = A.get_sort().bv_size();
    llvm::Intrinsic::ID ID = F.getIntrinsicID();
    bool Signed = ID == llvm::Intrinsic::sadd_with_overflow ||
                  ID == llvm::Intrinsic::ssub_with_overflow ||
                  ID == llvm::Intrinsic::smul_with_overflow;
    bool Mul = ID == llvm::Intrinsic::smul_with_overflow ||
               ID == llvm::Intrinsic::umul_with_overflow;
    bool Sub = ID == llvm::Intrinsic::ssub_with_overflow ||
               ID == llvm::Intrinsic::usub_with_overflow;
    unsigned Extra = Mul ? W : 1;
    auto Ext = [&](const z3::expr &E) {
      return Signed ? z3::sext(E, Extra) : z3::zext(E, Extra);
    };
    z3::expr Wide = Mul   ? Ext(A) * Ext(B)
                    : Sub ? Ext(A) - Ext(B)
                          : Ext(A) + Ext(B);
    z3::expr Res = Wide.extract(W - 1, 0);
    z3::expr Ovf = Ext(Res) != Wide;
    const StructLayout *SL = DL.getStructLayout(ST);
    unsigned FlagAt = unsigned(SL->getElementOffset(1) * 8);
    z3::expr Agg = z3::concat(resize(fromBool(Ovf), regBits(ST) - FlagAt),
                              resize(Res, FlagAt));
    Set(Agg);
    return true;
  }
  default:
    // Any other intrinsic that touches no memory (llvm.fabs, llvm.fmuladd,
    // ...): its result is over-approximated by an arbitrary value.
    if (F.doesNotAccessMemory() && !CB.getType()->isVectorTy()) {
      if (Bits)
        Set(havoc(
            S, Bits,
            ("result of '" + F.getName() + "' at " + location(&CB)).str()));
      return true;
    }
    return false;
  }
}

void Encoder::execDefinedCall(Frame &Fr, const CallBase &CB, const Function &F,
                              State &S) {
  unsigned Active = 0;
  for (const Frame *X : Frames)
    Active += X->F == &F;
  if (Active > O.RecursionBound) {
    cutIf(S, Z.bool_val(true), EventKind::Unwinding, &CB,
          "recursion bound " + std::to_string(O.RecursionBound) +
              " reached in '" + F.getName().str() + "' at " + location(&CB));
    return;
  }
  std::vector<z3::expr> Args;
  std::vector<unsigned> Copies;
  for (unsigned K = 0; K < CB.arg_size() && K < F.arg_size(); ++K) {
    z3::expr A = escape(Fr, CB.getArgOperand(K), S, CB);
    if (Type *BT = CB.getParamByValType(K)) {
      // byval: the callee gets its own copy of the pointee.
      uint64_t Size = DL.getTypeAllocSize(BT).getFixedValue();
      z3::expr N = bv(Size, OffBits);
      if (!checkAccess(Fr, CB, S, A, N, "read (by-value argument)"))
        return;
      unsigned Id = newObject(N, false);
      S.Alive = z3::store(S.Alive, bv(Id, ObjBits), Z.bool_val(true));
      copyBytes(S, address(Id), A, N);
      Copies.push_back(Id);
      A = address(Id);
    } else if (CB.paramHasAttr(K, Attribute::InAlloca) ||
               CB.paramHasAttr(K, Attribute::Preallocated)) {
      cutIf(S, Z.bool_val(true), EventKind::Unsupported, &CB,
            "inalloca/preallocated argument at " + location(&CB));
      return;
    }
    Args.push_back(A);
  }
  z3::expr Ret(Z);
  std::optional<State> Out = callFunction(F, &CB, Args, S, &Ret);
  if (!Out) {
    S.Guard = Z.bool_val(false);
    return;
  }
  S = *Out;
  for (unsigned Id : Copies)
    S.Alive = z3::store(S.Alive, bv(Id, ObjBits), Z.bool_val(false));
  if (unsigned Bits = regBits(CB.getType()))
    Fr.Vals.insert_or_assign(&CB, bool(Ret) ? resize(Ret, Bits)
                                            : fresh(Bits, "ret"));
}

/// A call through a pointer: one case per address-taken function whose
/// signature fits, and a memory error when the pointer is none of them.
void Encoder::execIndirectCall(Frame &Fr, const CallBase &CB, State &S) {
  z3::expr P = val(&Fr, CB.getCalledOperand());
  unsigned Bits = regBits(CB.getType());
  std::vector<Incoming> Outs;
  z3::expr NoneMatches = Z.bool_val(true);
  for (const auto &[Id, G] : FunctionIds) {
    if (!G->hasAddressTaken() ||
        G->getFunctionType()->getNumParams() != CB.arg_size() ||
        regBits(G->getReturnType()) != Bits ||
        G->getReturnType()->isVoidTy() != CB.getType()->isVoidTy())
      continue;
    z3::expr Is = P == address(Id);
    NoneMatches = mkAnd(NoneMatches, !Is);
    State T = S;
    T.Guard = mkAnd(S.Guard, Is);
    if (T.Guard.is_false())
      continue;
    T.Guard = name(T.Guard);
    Fr.Vals.erase(&CB);
    // Same dispatch as a direct call to G.
    if (G->isIntrinsic())
      cutIf(T, Z.bool_val(true), EventKind::Unsupported, &CB,
            "indirect call of an intrinsic at " + location(&CB));
    else if (!execBuiltin(Fr, CB, *G, T)) {
      if (!G->isDeclaration())
        execDefinedCall(Fr, CB, *G, T);
      else
        cutIf(T, Z.bool_val(true), EventKind::Unsupported, &CB,
              ("call to external function '" + G->getName() +
               "' without a body at " + location(&CB))
                  .str());
    }
    if (T.Guard.is_false())
      continue;
    Incoming Out{T, {}};
    if (Bits) {
      auto It = Fr.Vals.find(&CB);
      Out.Phis.push_back(It != Fr.Vals.end() ? It->second : fresh(Bits, "ret"));
    }
    Outs.push_back(std::move(Out));
  }
  cutIf(S, NoneMatches, EventKind::MemoryError, &CB,
        "possible call through an invalid function pointer at " +
            location(&CB));
  if (Outs.empty()) {
    S.Guard = Z.bool_val(false);
    return;
  }
  Incoming Mg = merge(Outs);
  S = Mg.S;
  if (Bits)
    Fr.Vals.insert_or_assign(&CB, Mg.Phis[0]);
}

} // namespace crace::bmc
