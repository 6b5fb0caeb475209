//===- SourceNames.cpp - instructions and locations in source terms ------===//
//
// Part of ProgramModel: source locations of instructions and the names of
// abstract locations (variables, fields through debug info, heap objects)
// as reports print them.
//
//===----------------------------------------------------------------------===//
#include "model/ProgramModel.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include <functional>

using namespace llvm;

namespace crace {

std::optional<std::string> harnessObjectName(StringRef File,
                                             std::string *Type) {
  if (!File.consume_front("/crace-harness/"))
    return std::nullopt;
  bool Library = File.consume_front("library/");
  if (Type)
    *Type = File.str();
  return (Library ? "library object <" : "kernel object <") + File.str() + ">";
}

std::string SourceLoc::str() const {
  if (!valid())
    return File.empty() ? "<unknown>" : File;
  return formatv("{0}:{1}:{2}", File, Line, Column).str();
}

SourceLoc ProgramModel::location(const Instruction *I) const {
  SourceLoc L;
  if (!I)
    return L;
  DebugLoc DL = I->getDebugLoc();
  if (!DL) {
    // Fall back to the closest earlier instruction with a location.
    for (const Instruction *P = I->getPrevNode(); P && !DL;
         P = P->getPrevNode())
      DL = P->getDebugLoc();
  }
  L.Function = I->getFunction()->getName().str();
  if (!DL) {
    // Code without debug information: a model function that stays a call
    // (memcmp, ...). Called from one place, that call is where its
    // accesses happen; otherwise only the function is known.
    const CallBase *Site = nullptr;
    unsigned Sites = 0;
    for (const User *U : I->getFunction()->users())
      if (const auto *CB = dyn_cast<CallBase>(U);
          CB && CB->getCalledOperand() == I->getFunction()) {
        Site = CB;
        ++Sites;
      }
    if (Sites == 1 && Site->getFunction() != I->getFunction() &&
        Site->getDebugLoc())
      return location(Site);
    L.File = L.Function + "()";
    return L;
  }
  const DILocation *Loc = DL.get();
  if (const DISubprogram *SP = Loc->getScope()->getSubprogram())
    L.Function = SP->getName().str();
  SmallString<256> Path(Loc->getFilename());
  if (!sys::path::is_absolute(Path) && !Loc->getDirectory().empty()) {
    Path = Loc->getDirectory();
    sys::path::append(Path, Loc->getFilename());
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  L.File = Path.str().str();
  L.Line = Loc->getLine();
  L.Column = Loc->getColumn();
  if (L.Line == 0)
    // Line 0: instructions the optimiser merged from several lines (two
    // branches' stores sunk into one); only the function is known, so the
    // location is its first line.
    if (const DISubprogram *SP = Loc->getScope()->getSubprogram()) {
      L.Line = SP->getLine();
      L.Column = 0;
    }
  return L;
}

static const DIType *stripQualifiers(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    auto Tag = D->getTag();
    if (Tag == dwarf::DW_TAG_typedef || Tag == dwarf::DW_TAG_const_type ||
        Tag == dwarf::DW_TAG_volatile_type ||
        Tag == dwarf::DW_TAG_atomic_type || Tag == dwarf::DW_TAG_restrict_type)
      T = D->getBaseType();
    else
      break;
  }
  return T;
}

/// The struct type a pointer type points to (typedefs kept for naming).
static const DIType *structPointee(const DIType *T) {
  auto *Ptr = dyn_cast_or_null<DIDerivedType>(stripQualifiers(T));
  if (!Ptr || Ptr->getTag() != dwarf::DW_TAG_pointer_type)
    return nullptr;
  const DIType *Pointee = Ptr->getBaseType();
  auto *C = dyn_cast_or_null<DICompositeType>(stripQualifiers(Pointee));
  if (C && C->getTag() == dwarf::DW_TAG_structure_type && !C->isForwardDecl() &&
      C->getSizeInBits() > 0)
    return Pointee;
  return nullptr;
}

/// The type of the member of struct T that starts at byte Off.
static const DIType *memberAt(const DIType *T, int64_t Off) {
  auto *C = dyn_cast_or_null<DICompositeType>(stripQualifiers(T));
  if (!C || C->getTag() != dwarf::DW_TAG_structure_type)
    return nullptr;
  for (const DINode *N : C->getElements())
    if (auto *Mem = dyn_cast<DIDerivedType>(N);
        Mem && Mem->getTag() == dwarf::DW_TAG_member &&
        int64_t(Mem->getOffsetInBits() / 8) == Off)
      return Mem->getBaseType();
  return nullptr;
}

/// GEP = &p->field... with constant indices on a named struct: the struct's
/// debug type (looked up by Named) and the field's byte offset in it.
static std::optional<std::pair<const DIType *, int64_t>>
debugField(const GEPOperator *GEP, const DataLayout &DL,
           const std::function<const DIType *(StringRef)> &Named) {
  auto *STy = GEP ? dyn_cast<StructType>(GEP->getSourceElementType()) : nullptr;
  if (!STy || !STy->hasName() || !GEP->hasAllConstantIndices())
    return std::nullopt;
  StringRef SName = STy->getName();
  if (!SName.consume_front("struct."))
    return std::nullopt;
  const DIType *Ty = Named(SName.split('.').first);
  APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
  if (!Ty || !GEP->accumulateConstantOffset(DL, Off))
    return std::nullopt;
  return std::make_pair(Ty, Off.getSExtValue());
}

/// The struct a heap block holds, from the debug information of the
/// variables its pointer is kept in (the allocation's result, through
/// casts, phis and selects): the pointee of the first one that points to a
/// struct. Null when none does (void *, char *, no debug information).
static const DIType *
heapStructType(const Value *Site,
               const std::function<const DIType *(StringRef)> &Named) {
  SmallVector<const Value *, 8> Work = {Site};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    SmallVector<DbgValueInst *, 2> Values;
    SmallVector<DbgVariableRecord *, 2> Records;
    findDbgValues(Values, const_cast<Value *>(V), &Records);
    SmallVector<const DIVariable *, 4> Vars;
    for (DbgValueInst *D : Values)
      Vars.push_back(D->getVariable());
    for (DbgVariableRecord *R : Records)
      Vars.push_back(R->getVariable());
    for (const DIVariable *Var : Vars)
      if (const DIType *T = structPointee(Var->getType()))
        return T;
    for (const User *U : V->users()) {
      if (isa<CastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U))
        Work.push_back(U);
      // Stored into a field of a struct: the field's declared type.
      const auto *St = dyn_cast<StoreInst>(U);
      if (!St || St->getValueOperand() != V)
        continue;
      auto Holder = debugField(dyn_cast<GEPOperator>(St->getPointerOperand()),
                               St->getModule()->getDataLayout(), Named);
      if (!Holder)
        continue;
      if (const DIType *Field = memberAt(Holder->first, Holder->second))
        if (const DIType *T = structPointee(Field))
          return T;
    }
  }
  return nullptr;
}

/// "struct job" or the typedef's name.
static std::string typeName(const DIType *T) {
  if (const auto *D = dyn_cast<DIDerivedType>(T);
      D && D->getTag() == dwarf::DW_TAG_typedef)
    return D->getName().str();
  T = stripQualifiers(T);
  return ("struct " + T->getName()).str();
}

/// Appends ".field" / "[i]" for the byte offset Off inside type T.
static void fieldPath(const DIType *T, int64_t Off, std::string &Out) {
  for (int Depth = 0; Depth < 16; ++Depth) {
    T = stripQualifiers(T);
    auto *C = dyn_cast_or_null<DICompositeType>(T);
    if (!C)
      break;
    if (C->getTag() == dwarf::DW_TAG_array_type) {
      const DIType *Elem = stripQualifiers(C->getBaseType());
      uint64_t ESize = Elem ? Elem->getSizeInBits() / 8 : 0;
      if (!ESize)
        break;
      Out += "[" + std::to_string(Off / ESize) + "]";
      Off %= ESize;
      T = Elem;
      continue;
    }
    if (C->getTag() != dwarf::DW_TAG_structure_type &&
        C->getTag() != dwarf::DW_TAG_class_type)
      break;
    const DIDerivedType *Found = nullptr;
    for (const DINode *N : C->getElements()) {
      auto *Mem = dyn_cast<DIDerivedType>(N);
      if (!Mem || Mem->getTag() != dwarf::DW_TAG_member)
        continue;
      int64_t Start = Mem->getOffsetInBits() / 8;
      int64_t Size = std::max<int64_t>(1, Mem->getSizeInBits() / 8);
      if (Off >= Start && Off < Start + Size) {
        Found = Mem;
        break;
      }
    }
    if (!Found)
      break;
    Out += "." + Found->getName().str();
    Off -= Found->getOffsetInBits() / 8;
    T = Found->getBaseType();
    if (Off == 0 && !isa_and_nonnull<DICompositeType>(stripQualifiers(T)))
      return;
  }
  if (Off != 0)
    Out += "+" + std::to_string(Off);
}

const DIType *ProgramModel::namedType(StringRef Name) const {
  if (!NamedTypesBuilt) {
    NamedTypesBuilt = true;
    DebugInfoFinder Finder;
    Finder.processModule(M);
    for (const DIType *T : Finder.types())
      if (auto *C = dyn_cast<DICompositeType>(T))
        if (!C->getName().empty() && !C->isForwardDecl())
          NamedTypes.emplace(C->getName().str(), C);
  }
  auto It = NamedTypes.find(Name.str());
  return It == NamedTypes.end() ? nullptr : It->second;
}

std::string ProgramModel::accessedField(const Value *Access,
                                        int64_t Off) const {
  // The access's own address: a field (constant indices) of a named struct.
  auto Holder =
      debugField(dyn_cast_or_null<GEPOperator>(Access), M.getDataLayout(),
                 [this](StringRef N) { return namedType(N); });
  if (!Holder)
    return "";
  auto [Ty, Field] = *Holder;
  uint64_t Bytes = Ty->getSizeInBits() / 8;
  if (Field < 0 || Bytes == 0 || uint64_t(Field) >= Bytes)
    return "";
  std::string Path;
  // Which struct of the block, when the object's offset is known.
  if (Off != UnknownOffset) {
    if (Off < Field || uint64_t(Off - Field) % Bytes != 0)
      return "";
    if (Off - Field > 0)
      Path = "[" + std::to_string(uint64_t(Off - Field) / Bytes) + "]";
  }
  fieldPath(Ty, Field, Path);
  return typeName(Ty) + Path;
}

std::string ProgramModel::describe(Loc L, uint64_t Size,
                                   const Value *Access) const {
  // An element picked by a variable index: named as its first one, with
  // the index that varies as [*].
  if (L.Stride) {
    std::string First = describe({L.Obj, L.Off}, Size, Access);
    size_t Close = First.rfind(']');
    size_t Open = Close == std::string::npos ? Close : First.rfind('[', Close);
    if (Open != std::string::npos &&
        First.find_first_not_of("0123456789", Open + 1) == Close)
      return First.substr(0, Open + 1) + "*" + First.substr(Close);
    if (L.Count == UnboundedCount)
      return First + " (or any later element, " + std::to_string(L.Stride) +
             " bytes apart)";
    return First + " (or one of " + std::to_string(L.Count - 1) +
           " more elements " + std::to_string(L.Stride) + " bytes apart)";
  }
  const AbsObject &O = PTA->object(L.Obj);
  // An address before the object (container_of on a list's head) names
  // no part of it.
  if (L.Off != UnknownOffset && L.Off < 0)
    return describe({L.Obj, UnknownOffset}, Size, Access) + " (" +
           std::to_string(-L.Off) + " bytes before its start)";
  std::string Name;
  const DIType *Ty = nullptr;
  switch (O.Kind) {
  case ObjKind::Unknown:
    return "memory of unknown origin";
  case ObjKind::Function:
    return "function '" + O.Site->getName().str() + "'";
  case ObjKind::Global:
  case ObjKind::ThreadLocal: {
    auto *G = cast<GlobalVariable>(O.Site);
    SmallVector<DIGlobalVariableExpression *, 1> GVs;
    G->getDebugInfo(GVs);
    if (!GVs.empty()) {
      Name = GVs.front()->getVariable()->getName().str();
      Ty = GVs.front()->getVariable()->getType();
    } else {
      Name = G->getName().str();
      if (G->getName().starts_with(".str"))
        Name = "string literal";
    }
    break;
  }
  case ObjKind::Stack: {
    auto *A = const_cast<Value *>(O.Site);
    for (DbgVariableRecord *R : findDVRDeclares(A)) {
      Name = R->getVariable()->getName().str();
      Ty = R->getVariable()->getType();
    }
    if (Name.empty())
      for (DbgDeclareInst *D : findDbgDeclares(A)) {
        Name = D->getVariable()->getName().str();
        Ty = D->getVariable()->getType();
      }
    if (Name.empty())
      Name = O.Site->hasName() ? O.Site->getName().str() : "stack object";
    break;
  }
  case ObjKind::Heap: {
    SourceLoc SL = location(cast<Instruction>(O.Site));
    StringRef File(SL.File);
    std::string TypeName;
    if (auto H = harnessObjectName(File, &TypeName)) {
      Name = *H;
      File = TypeName;
      File.consume_front("struct ");
      File.consume_front("union ");
      Ty = namedType(File);
      if (Ty && L.Off != UnknownOffset) {
        std::string Path;
        fieldPath(Ty, L.Off, Path);
        return Name + Path;
      }
      break;
    }
    // A call through a pointer to a function that returns a fresh block
    // (PointsTo's heap cloning by call site) is its own heap object.
    const auto *SiteCall = dyn_cast<CallBase>(O.Site);
    Name = (SiteCall && callIntrinsic(*SiteCall) != Intrinsic::Alloc
                ? "heap object returned by the call at "
                : "heap object allocated at ") +
           SL.str();
    // A copy of an allocation wrapper (frontend/HeapCloning.h): named
    // after the call that made it.
    if (const MDNode *Via = cast<Instruction>(O.Site)->getMetadata("crace.via"))
      if (const auto *S = dyn_cast<MDString>(Via->getOperand(0)))
        Name = "heap object allocated by " + S->getString().str();
    // A block of structs, named as the program's variables type it:
    // "struct job.done in the heap object allocated at ...".
    auto [Cached, New] = HeapStructs.try_emplace(O.Site, nullptr);
    if (New)
      Cached->second =
          heapStructType(O.Site, [this](StringRef N) { return namedType(N); });
    if (const DIType *Struct = Cached->second) {
      std::string Type = typeName(Struct);
      if (L.Off == UnknownOffset)
        return Type + " (some field) in the " + Name;
      uint64_t Bytes = stripQualifiers(Struct)->getSizeInBits() / 8;
      std::string Path;
      if (uint64_t(L.Off) >= Bytes)
        Path = "[" + std::to_string(uint64_t(L.Off) / Bytes) + "]";
      fieldPath(Struct, int64_t(uint64_t(L.Off) % Bytes), Path);
      return Type + Path + " in the " + Name;
    }
    // Else as the access types it: a field of a struct the program reaches
    // the block as (void * blocks, wrappers' results).
    if (std::string Field = accessedField(Access, L.Off); !Field.empty())
      return Field + " in the " + Name;
    break;
  }
  }
  if (L.Off == UnknownOffset) {
    if (Ty && isa<DICompositeType>(stripQualifiers(Ty)))
      return Name + "[*]";
    return O.Kind == ObjKind::Heap ? Name + " (some offset)" : Name;
  }
  std::string Path;
  if (Ty)
    fieldPath(Ty, L.Off, Path);
  else if (L.Off)
    Path = "+" + std::to_string(L.Off);
  if (O.Kind == ObjKind::Heap && !Path.empty())
    return Name + " at offset " + std::to_string(L.Off);
  return Name + Path;
}

} // namespace crace
