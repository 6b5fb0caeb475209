//===- EncoderMemory.cpp - the bmc memory model ---------------------------===//
//
// Pointers, objects, loads, stores, block copies and validity checks (see
// Encoder.h for the model).
//
//===----------------------------------------------------------------------===//
#include "bmc/Encoder.h"

using namespace llvm;

namespace crace::bmc {

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

bool Encoder::isConcatPointer(const z3::expr &P) const {
  return P.is_app() && P.decl().decl_kind() == Z3_OP_CONCAT &&
         P.num_args() == 2 && P.arg(0).get_sort().bv_size() == ObjBits;
}

// Pointers are built either by arithmetic on the whole bit vector or, after
// variable indexing (whose object is checked to stay the same), as
// concat(object, offset); both are taken apart without solver work.
z3::expr Encoder::objOf(const z3::expr &P) {
  uint64_t V = 0;
  if (P.is_numeral_u64(V))
    return bv(V >> OffBits, ObjBits);
  if (isConcatPointer(P))
    return P.arg(0);
  return P.extract(PtrBits - 1, OffBits);
}
z3::expr Encoder::offOf(const z3::expr &P) {
  uint64_t V = 0;
  if (P.is_numeral_u64(V))
    return bv(V & ((uint64_t(1) << OffBits) - 1), OffBits);
  if (isConcatPointer(P))
    return P.arg(1);
  return P.extract(OffBits - 1, 0);
}

std::optional<unsigned> Encoder::objNumeral(const z3::expr &P) {
  uint64_t V = 0;
  if (objOf(P).is_numeral_u64(V))
    return unsigned(V);
  return std::nullopt;
}

z3::expr Encoder::byteIndex(const z3::expr &Off, uint64_t K) {
  uint64_t V = 0;
  if (Off.is_numeral_u64(V))
    return bv(V + K, OffBits);
  return K ? Off + bv(K, OffBits) : Off;
}

/// select(A, I) for a numeral I, looked up through the stores with numeral
/// indices and the if-then-else merges that A is built from, so that
/// accesses at known addresses cost the solver nothing.
z3::expr Encoder::resolve(const z3::expr &A, const z3::expr &I,
                          unsigned Depth) {
  z3::expr Cur = A;
  for (unsigned Steps = 0; Steps < 100000 && Cur.is_app(); ++Steps) {
    // Each node walked is work for the budget (charged with the next
    // instruction or term, Encoder::meterNodes).
    if (O.Work)
      ++MeteredNodes;
    Z3_decl_kind K = Cur.decl().decl_kind();
    if (K == Z3_OP_STORE) {
      z3::expr J = Cur.arg(1);
      if (!J.is_numeral())
        break;
      if (z3::eq(J, I))
        return Cur.arg(2);
      Cur = Cur.arg(0);
      continue;
    }
    if (K == Z3_OP_CONST_ARRAY)
      return Cur.arg(0);
    if (K == Z3_OP_ITE && Depth < 1000) {
      uint64_t Key =
          (uint64_t(Z3_get_ast_id(Z, Cur)) << 32) | Z3_get_ast_id(Z, I);
      auto It = ResolveCache.find(Key);
      if (It != ResolveCache.end())
        return It->second.R;
      z3::expr X = resolve(Cur.arg(1), I, Depth + 1);
      z3::expr Y = resolve(Cur.arg(2), I, Depth + 1);
      z3::expr R = z3::eq(X, Y) ? X : z3::ite(Cur.arg(0), X, Y);
      ResolveCache.emplace(Key, Resolved{Cur, I, R});
      return R;
    }
    break;
  }
  return z3::select(Cur, I);
}

/// The byte array of the object P points into.
z3::expr Encoder::innerOf(const State &S, const z3::expr &P) {
  if (std::optional<unsigned> Ob = objNumeral(P))
    return resolve(S.Mem, bv(*Ob, ObjBits));
  return z3::select(S.Mem, objOf(P));
}

z3::expr Encoder::address(unsigned Obj) {
  return Z.bv_val(uint64_t(Obj) << OffBits, PtrBits);
}

unsigned Encoder::newObject(const z3::expr &Size, bool Heap) {
  unsigned Id = NextObj++;
  if (Id >= (1u << ObjBits) - 1)
    throw EncodingAborted{"more than " + std::to_string((1u << ObjBits) - 2) +
                          " memory objects after unwinding"};
  z3::expr IdE = bv(Id, ObjBits);
  uint64_t SV = 0;
  if (resize(Size, OffBits).is_numeral_u64(SV))
    ConstSizes[Id] = SV;
  Solver.add(SizeFn(IdE) == resize(Size, OffBits));
  Solver.add(HeapFn(IdE) == Z.bool_val(Heap));
  return Id;
}

/// The access [P, P+N) is inside a live object.
z3::expr Encoder::validAccess(const State &S, const z3::expr &P,
                              const z3::expr &N) {
  z3::expr Ob = objOf(P), Off = offOf(P), Len = resize(N, OffBits);
  std::optional<unsigned> ObN = objNumeral(P);
  z3::expr Alive = ObN ? resolve(S.Alive, Ob) : z3::select(S.Alive, Ob);
  if (Alive.is_false())
    return Alive;
  auto CS = ObN ? ConstSizes.find(*ObN) : ConstSizes.end();
  uint64_t OffV = 0, LenV = 0;
  if (CS != ConstSizes.end() && Off.is_numeral_u64(OffV) &&
      Len.is_numeral_u64(LenV)) {
    // Known object, offset and length: decided here.
    if (OffV > CS->second || LenV > CS->second - OffV)
      return Z.bool_val(false);
    return Alive;
  }
  z3::expr Sz = CS != ConstSizes.end() ? bv(CS->second, OffBits) : SizeFn(Ob);
  z3::expr InBounds = z3::ule(Off, Sz) && z3::ule(Len, Sz - Off);
  return Alive.is_true() ? InBounds : Alive && InBounds;
}

bool Encoder::checkAccess(Frame &Fr, const Instruction &I, State &S,
                          const z3::expr &P, const z3::expr &N,
                          const char *What) {
  z3::expr Valid = validAccess(S, P, N);
  if (Valid.is_true())
    return true;
  std::string Reason = std::string("possible invalid ") + What +
                       " (null, out of bounds, freed or dead object) at " +
                       location(&I);
  cutIf(S, Valid.is_false() ? Z.bool_val(true) : !Valid, EventKind::MemoryError,
        &I, Reason);
  return !S.Guard.is_false();
}

z3::expr Encoder::load(const State &S, const z3::expr &P, uint64_t Bytes) {
  if (Bytes == 0)
    return bv(0, 8);
  z3::expr Inner = innerOf(S, P), Off = offOf(P);
  auto Byte = [&](uint64_t K) {
    z3::expr Ix = byteIndex(Off, K);
    return Ix.is_numeral() ? resolve(Inner, Ix) : z3::select(Inner, Ix);
  };
  z3::expr R = Byte(Bytes - 1);
  for (uint64_t I = Bytes - 1; I-- > 0;)
    R = z3::concat(R, Byte(I));
  if (R.is_numeral())
    return R;
  return tooLargeToSimplify(R) ? R : simplified(R);
}

void Encoder::store(State &S, const z3::expr &P, const z3::expr &V,
                    uint64_t Bytes) {
  if (Bytes == 0)
    return;
  z3::expr Ob = objOf(P), Off = offOf(P);
  z3::expr W = resize(V, unsigned(Bytes * 8));
  z3::expr Inner = innerOf(S, P);
  bool Small = W.is_numeral();
  for (uint64_t I = 0; I < Bytes; ++I) {
    z3::expr B = W.extract(unsigned(8 * I + 7), unsigned(8 * I));
    Inner = z3::store(Inner, byteIndex(Off, I), Small ? B.simplify() : B);
  }
  S.Mem = z3::store(S.Mem, Ob, Inner);
}

/// memmove semantics: the bytes are read from the memory before the copy.
void Encoder::copyBytes(State &S, const z3::expr &Dst, const z3::expr &Src,
                        const z3::expr &N) {
  z3::expr DO = objOf(Dst), DOff = offOf(Dst), SOff = offOf(Src);
  z3::expr SInner = innerOf(S, Src), DInner = innerOf(S, Dst);
  z3::expr Len = resize(N, OffBits);
  uint64_t NV = 0;
  if (Len.is_numeral_u64(NV) && NV <= 256) {
    std::vector<z3::expr> Bytes;
    for (uint64_t I = 0; I < NV; ++I) {
      z3::expr Ix = byteIndex(SOff, I);
      Bytes.push_back(Ix.is_numeral() ? resolve(SInner, Ix)
                                      : z3::select(SInner, Ix));
    }
    for (uint64_t I = 0; I < NV; ++I)
      DInner = z3::store(DInner, byteIndex(DOff, I), Bytes[I]);
  } else {
    z3::expr X =
        Z.constant(("i!" + std::to_string(NextName++)).c_str(), OffSort);
    z3::expr In = z3::uge(X, DOff) && z3::ult(X - DOff, Len);
    DInner = lambdaOf(X, z3::ite(In, z3::select(SInner, SOff + (X - DOff)),
                                 z3::select(DInner, X)));
  }
  S.Mem = z3::store(S.Mem, DO, DInner);
}

void Encoder::setBytes(State &S, const z3::expr &Dst, const z3::expr &Byte,
                       const z3::expr &N) {
  z3::expr DO = objOf(Dst), DOff = offOf(Dst);
  z3::expr DInner = innerOf(S, Dst);
  z3::expr Len = resize(N, OffBits);
  uint64_t NV = 0;
  if (Len.is_numeral_u64(NV) && NV <= 256) {
    for (uint64_t I = 0; I < NV; ++I)
      DInner = z3::store(DInner, byteIndex(DOff, I), Byte);
  } else {
    z3::expr X =
        Z.constant(("i!" + std::to_string(NextName++)).c_str(), OffSort);
    z3::expr In = z3::uge(X, DOff) && z3::ult(X - DOff, Len);
    DInner = lambdaOf(X, z3::ite(In, Byte, z3::select(DInner, X)));
  }
  S.Mem = z3::store(S.Mem, DO, DInner);
}

} // namespace crace::bmc
