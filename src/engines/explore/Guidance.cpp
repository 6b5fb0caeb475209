//===- Guidance.cpp - where input bytes went, and what they were compared to
//===//
//
// Comparison-guided inputs (after REDQUEEN's input-to-state
// correspondence): a server that parses a request only goes on when the
// bytes it read spell what it compares them with ("GET", "\r\n", '/').
// Sampled bytes never do. So the executor remembers, for every byte of
// memory an input draw wrote (a model's `p[i] = __crace_nondet_bits(8)`)
// or that a byte copy carried on (strcpy's loop, memcpy), which draw it
// came from; and when such bytes are compared with constant bytes and
// differ — strcmp/strncmp/memcmp, strstr/strchr that find nothing, an
// equality test of one loaded byte against a constant — it records the
// comparison. The engine then edits those draws for a later run
// (ExploreEngine.cpp, guided rounds). The positions are kept when the
// program overwrites the bytes (a parser cutting a line at its "\r\n"):
// they say where in the input a byte was, which is what an edit needs.
//
//===----------------------------------------------------------------------===//

#include "engines/explore/Guidance.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace crace::explore {

namespace {
/// The value V is computed from, looking through integer casts.
const Value *castSource(const Value *V) {
  while (auto *C = dyn_cast<CastInst>(V)) {
    if (!isa<TruncInst, ZExtInst, SExtInst, BitCastInst>(C))
      break;
    V = C->getOperand(0);
  }
  return V;
}
} // namespace

Word Executor::draw(unsigned T, unsigned Bits, bool Count,
                    const CallBase *Site) {
  if (DrawCount.size() <= T)
    DrawCount.resize(T + 1, 0);
  CurDraw = DrawRef{T, DrawCount[T]++, Count, Site};
  return Nondet(Bits);
}

std::optional<DrawRef> Executor::taintAt(Word A) const {
  auto It = Taint.find(A);
  if (It == Taint.end())
    return std::nullopt;
  return It->second.first;
}

void Executor::addInputCmp(unsigned T, InputCmp Cmp, bool Fresh) {
  Cmp.Tid = T;
  Cmp.Next = T < DrawCount.size() ? DrawCount[T] : 0;
  Cmp.Fresh = Fresh;
  Cmps.push_back(std::move(Cmp));
}

void Executor::noteLoad(unsigned T, const LoadInst &LI, Word A) {
  // Taint only grows during a run: while it is empty, no load reads input.
  if (!Taint.empty())
    LoadAddr[{T, &LI}] = A;
}

void Executor::noteStore(unsigned T, const StoreInst &SI, Word A,
                         uint8_t Stored) {
  const Value *V = castSource(SI.getValueOperand());
  if (auto It = CallDraw.find({T, V}); It != CallDraw.end()) {
    Taint[A] = {It->second, Stored};
    return;
  }
  if (auto It = LoadAddr.find({T, V}); It != LoadAddr.end())
    if (auto Ref = taintAt(It->second))
      Taint[A] = {*Ref, Stored};
}

std::optional<std::string> Executor::peek(Word A, uint64_t N) {
  std::string Bytes(N, '\0');
  std::string Saved = Error;
  bool Ok = N == 0 || load(A, N, reinterpret_cast<uint8_t *>(Bytes.data()));
  Error = std::move(Saved);
  if (!Ok)
    return std::nullopt;
  return Bytes;
}

void Executor::noteCopy(Word Dst, Word Src, uint64_t N) {
  if (Taint.empty())
    return;
  // The input bytes among [Src, Src + N): looked up byte by byte, or found
  // among all input bytes when there are fewer of those (collected first:
  // marking the copies changes Taint).
  std::vector<std::pair<uint64_t, DrawRef>> From;
  if (Taint.size() < N) {
    for (const auto &[A, Entry] : Taint)
      if (A >= Src && A - Src < N)
        From.push_back({A - Src, Entry.first});
  } else {
    for (uint64_t K = 0; K < N; ++K)
      if (auto Ref = taintAt(Src + K))
        From.push_back({K, *Ref});
  }
  for (const auto &[K, Ref] : From)
    if (auto B = peek(Dst + K, 1))
      Taint[Dst + K] = {Ref, uint8_t((*B)[0])};
}

std::optional<std::vector<std::optional<DrawRef>>>
Executor::inputRefs(Word A, std::optional<uint64_t> N, bool *Fresh) {
  if (Taint.empty())
    return std::nullopt;
  std::vector<std::optional<DrawRef>> Refs;
  bool Any = false;
  if (Fresh)
    *Fresh = false;
  uint64_t Len = N ? *N : MaxInputStringBytes;
  for (uint64_t K = 0; K <= Len; ++K) {
    auto It = Taint.find(A + K);
    auto Byte = peek(A + K, 1);
    bool Ok = Byte.has_value();
    uint8_t B = Ok ? uint8_t((*Byte)[0]) : 0;
    if (It != Taint.end()) {
      Any = true;
      Refs.push_back(It->second.first);
      if (Fresh && Ok && K < Len && B != 0 && It->second.second == B)
        *Fresh = true;
    } else {
      Refs.push_back(std::nullopt);
    }
    if (K == Len)
      break;
    if (!N) {
      if (!Ok)
        return std::nullopt;
      if (B == 0)
        break;
    }
  }
  if (!Any)
    return std::nullopt;
  return Refs;
}

void Executor::noteICmp(unsigned T, const ICmpInst &I, ArrayRef<RVal> Ops) {
  if (Cmps.size() >= MaxInputCmpsPerRun || Taint.empty())
    return;
  for (unsigned W = 0; W < 2; ++W) {
    auto *C = dyn_cast<ConstantInt>(I.getOperand(1 - W));
    if (!C || C->getBitWidth() > 64)
      continue;
    int64_t Want = C->getSExtValue();
    if (Want == 0 || Want < -128 || Want > 255)
      continue; // a zero test is a string's end, not a spelling
    auto *LI = dyn_cast<LoadInst>(castSource(I.getOperand(W)));
    if (!LI)
      continue;
    auto It = LoadAddr.find({T, LI});
    if (It == LoadAddr.end())
      continue;
    auto Entry = Taint.find(It->second);
    uint8_t Got = uint8_t(Ops[W].W & 0xff);
    if (Entry == Taint.end() || Got == uint8_t(Want & 0xff))
      continue;
    InputCmp Cmp;
    Cmp.Site = &I;
    Cmp.K = InputCmp::Equal;
    Cmp.Overwrite = true;
    Cmp.Refs = {Entry->second.first, taintAt(It->second + 1)};
    Cmp.Want = std::string(1, char(Want & 0xff));
    addInputCmp(T, std::move(Cmp), Entry->second.second == Got);
    return;
  }
}

//===----------------------------------------------------------------------===//
// The edits (Guidance.h)
//===----------------------------------------------------------------------===//

std::vector<DrawStreams> guidedEdits(const InputCmp &C, const DrawStreams &Run,
                                     const DrawCounts &Counts) {
  std::vector<DrawStreams> Out;
  if (C.Refs.empty() || C.Want.empty())
    return Out;
  std::vector<Word> Want(C.Want.begin(), C.Want.end());
  for (Word &W : Want)
    W &= 0xff;
  // No byte of the operand is what was read any more (an emptied or reused
  // buffer): the wanted bytes are what the comparing thread's next read
  // returns — the first count it drew after the comparison becomes their
  // number, the draws between (a read's failure bit) zero.
  auto Own = Run.find(C.Tid);
  auto OwnCounts = Counts.find(C.Tid);
  if ((!C.Fresh || C.Refs.size() == 1) && Own != Run.end() &&
      OwnCounts != Counts.end())
    if (auto At = OwnCounts->second.lower_bound(C.Next);
        At != OwnCounts->second.end() && *At < Own->second.size()) {
      const std::vector<Word> &S = Own->second;
      std::vector<Word> E(S.begin(), S.begin() + *At);
      std::fill(E.begin() + std::min<size_t>(C.Next, E.size()), E.end(), 0);
      E.push_back(Want.size());
      E.insert(E.end(), Want.begin(), Want.end());
      E.insert(E.end(), S.begin() + *At + 1, S.end());
      DrawStreams D = Run;
      D[C.Tid] = std::move(E);
      Out.push_back(std::move(D));
    }
  std::optional<unsigned> Tid;
  for (const auto &R : C.Refs)
    if (R) {
      if (Tid && *Tid != R->Tid)
        return Out; // bytes from two threads' input
      Tid = R->Tid;
    }
  auto It = Run.find(Tid.value_or(0));
  if (!Tid || It == Run.end())
    return Out;
  const std::vector<Word> &S = It->second;
  size_t Len = C.Refs.size() - 1; // the operand's bytes before its end
  // The operand's bytes must be consecutive draws.
  for (size_t K = 1; K < Len; ++K)
    if (C.Refs[K] && C.Refs[K - 1] &&
        C.Refs[K]->Index != C.Refs[K - 1]->Index + 1)
      return Out;
  // The count of the read the bytes came from: the last count drawn before
  // them (it grows or shrinks with an edit, so that the read returns the
  // edited bytes, no more and no fewer).
  std::optional<size_t> CountAt;
  if (auto CI = Counts.find(*Tid); CI != Counts.end()) {
    size_t First = S.size();
    for (const auto &R : C.Refs)
      if (R)
        First = std::min<size_t>(First, R->Index);
    auto After = CI->second.lower_bound(uint32_t(First));
    if (After != CI->second.begin())
      CountAt = *std::prev(After);
  }
  auto With = [&](size_t At, size_t Remove) {
    if (At > S.size())
      return;
    Remove = std::min(Remove, S.size() - At);
    std::vector<Word> E(S.begin(), S.begin() + At);
    E.insert(E.end(), Want.begin(), Want.end());
    E.insert(E.end(), S.begin() + At + Remove, S.end());
    if (CountAt && *CountAt < At) {
      // The count is an unsigned 32-bit draw, clamped by the model.
      int64_t K = int64_t(uint32_t(E[*CountAt]));
      K += int64_t(Want.size()) - int64_t(Remove);
      E[*CountAt] = Word(
          uint32_t(std::max<int64_t>(0, std::min<int64_t>(K, 0x7fffffff))));
    }
    DrawStreams D = Run;
    D[*Tid] = std::move(E);
    Out.push_back(std::move(D));
  };
  // Where the operand ends in the stream: its end's own draw, or just after
  // its last byte's.
  std::optional<size_t> End;
  if (C.Refs[Len])
    End = C.Refs[Len]->Index;
  else if (Len > 0 && C.Refs[Len - 1])
    End = C.Refs[Len - 1]->Index + 1;
  std::optional<size_t> Start;
  if (C.Refs[0])
    Start = C.Refs[0]->Index;
  if (C.K == InputCmp::Contain) {
    if (End)
      With(*End, 0);
    if (Start && Len > 0)
      With(*Start, 0);
  } else if (C.Overwrite) {
    if (!Start)
      return Out;
    With(*Start, std::min(Want.size(), Len ? Len : Want.size()));
    if (Want.size() == 1)
      With(*Start, 0);
  } else if (Len == 0) {
    if (End)
      With(*End, 0);
  } else if (Start && C.Refs[Len - 1]) {
    With(*Start, Len);
  }
  return Out;
}

} // namespace crace::explore
