//===- Rounds.cpp - runtime of the K-round sequentialisation (Rounds.h) ---===//
#include "engines/kiss/Rounds.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace crace::kiss::rounds {

std::string runtimeIR(unsigned H, unsigned K, unsigned NT, unsigned L,
                      uint64_t Stride) {
  std::string S;
  raw_string_ostream OS(S);
  std::string IH = "i" + std::to_string(H);
  auto Arr = [](unsigned N, StringRef T) {
    return formatv("[{0} x {1}]", N, T).str();
  };
  // Element Idx of the global array Name (N elements of type T).
  auto Gep = [&](StringRef Name, unsigned N, StringRef T, StringRef IdxTy,
                 StringRef Idx, StringRef Res) {
    OS << formatv("  {0} = getelementptr {1}, ptr @{2}, i32 0, {3} {4}\n", Res,
                  Arr(N, T), Name, IdxTy, Idx);
  };
  std::string JoinInit = "[";
  for (unsigned I = 0; I < NT; ++I)
    JoinInit += formatv("{0}i32 {1}", I ? ", " : "", K).str();
  JoinInit += "]";
  OS << "@__kiss_raise = global i1 false\n"
     << "@__kiss_atomic = global i1 false\n"
     << "@__kiss_self = global " << IH << " 0\n"
     << "@__kiss_next = global " << IH << " 0\n"
     << "@__kiss_round = global i32 0\n"
     << "@__kiss_limit = global i32 " << K << "\n"
     << "@__kiss_stride = global i64 0\n"
     << "@__kiss_tt_fn = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_tt_arg = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_tt_round = global " << Arr(NT, "i32") << " zeroinitializer\n"
     << "@__kiss_done = global " << Arr(NT, "i1") << " zeroinitializer\n"
     << "@__kiss_done_round = global " << Arr(NT, "i32") << " zeroinitializer\n"
     << "@__kiss_result = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_join_round = global " << Arr(NT, "i32") << " " << JoinInit
     << "\n"
     << "@__kiss_join_guess = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_join_guessed = global " << Arr(NT, "i1")
     << " zeroinitializer\n"
     << "@__kiss_locks = global " << Arr(L, "ptr") << " zeroinitializer\n"
     << "declare i32 @__crace_nondet_int()\n"
     << "declare ptr @__crace_nondet_ptr()\n"
     << "declare void @__crace_assume(i32)\n\n";
  OS << "define i1 @__kiss_nondet() {\n"
        "  %v = call i32 @__crace_nondet_int()\n"
        "  %b = icmp ne i32 %v, 0\n  ret i1 %b\n}\n";
  OS << "define void @__kiss_assume(i1 %c) {\n"
        "  %z = zext i1 %c to i32\n"
        "  call void @__crace_assume(i32 %z)\n  ret void\n}\n";
  // The copy of the current round of a pointer into copy 0.
  OS << "define ptr @__kiss_cur(ptr %p) {\n"
        "  %r = load i32, ptr @__kiss_round\n"
        "  %z = zext i32 %r to i64\n"
        "  %s = load i64, ptr @__kiss_stride\n"
        "  %o = mul i64 %z, %s\n"
        "  %q = getelementptr i8, ptr %p, i64 %o\n  ret ptr %q\n}\n";
  // A context switch: the thread continues in the same or a later round
  // (it is not scheduled in the rounds it skips).
  OS << "define void @__kiss_schedule() {\nentry:\n"
        "  %a = load i1, ptr @__kiss_atomic\n"
        "  br i1 %a, label %done, label %go\ngo:\n"
        "  %r = load i32, ptr @__kiss_round\n"
        "  %l = load i32, ptr @__kiss_limit\n"
        "  %n = call i32 @__crace_nondet_int()\n"
        "  %ge = icmp uge i32 %n, %r\n  %lt = icmp ult i32 %n, %l\n"
        "  %ok = and i1 %ge, %lt\n"
        "  call void @__kiss_assume(i1 %ok)\n"
        "  store i32 %n, ptr @__kiss_round\n  br label %done\n"
        "done:\n  ret void\n}\n";
  // A thread completes: its result, its last round, the guessed result of
  // an earlier join.
  OS << "define void @__kiss_finish(" << IH << " %id, ptr %res) {\n";
  Gep("__kiss_done", NT, "i1", IH, "%id", "%d");
  OS << "  store i1 true, ptr %d\n";
  Gep("__kiss_result", NT, "ptr", IH, "%id", "%rp");
  OS << "  store ptr %res, ptr %rp\n";
  Gep("__kiss_done_round", NT, "i32", IH, "%id", "%drp");
  OS << "  %r = load i32, ptr @__kiss_round\n  store i32 %r, ptr %drp\n";
  Gep("__kiss_join_guessed", NT, "i1", IH, "%id", "%gdp");
  Gep("__kiss_join_guess", NT, "ptr", IH, "%id", "%gp");
  OS << "  %gd = load i1, ptr %gdp\n  %g = load ptr, ptr %gp\n"
        "  %eq = icmp eq ptr %g, %res\n  %nd = xor i1 %gd, true\n"
        "  %ok = or i1 %nd, %eq\n  call void @__kiss_assume(i1 %ok)\n"
        "  ret void\n}\n";
  OS << "define void @__kiss_run(ptr %fn, ptr %arg, " << IH << " %id) {\n"
     << "  %saved = load " << IH << ", ptr @__kiss_self\n"
     << "  store " << IH << " %id, ptr @__kiss_self\n"
     << "  %r = call ptr %fn(ptr %arg)\n"
     << "  %rz = load i1, ptr @__kiss_raise\n"
     << "  br i1 %rz, label %out, label %fin\nfin:\n"
     << "  call void @__kiss_finish(" << IH << " %id, ptr %r)\n"
     << "  br label %out\nout:\n"
     << "  store i1 false, ptr @__kiss_raise\n"
     << "  store i1 false, ptr @__kiss_atomic\n"
     << "  store " << IH << " %saved, ptr @__kiss_self\n  ret void\n}\n";
  // Runs thread id (if created and scheduled at all) from a round not
  // before its creation.
  OS << "define void @__kiss_start(" << IH << " %id) {\nentry:\n"
     << "  %n = load " << IH << ", ptr @__kiss_next\n"
     << "  %c = icmp ule " << IH << " %id, %n\n"
     << "  br i1 %c, label %maybe, label %out\nmaybe:\n"
     << "  %skip = call i1 @__kiss_nondet()\n"
     << "  br i1 %skip, label %out, label %go\ngo:\n";
  Gep("__kiss_tt_round", NT, "i32", IH, "%id", "%trp");
  OS << "  %r0 = load i32, ptr %trp\n  %l = load i32, ptr @__kiss_limit\n"
        "  %r = call i32 @__crace_nondet_int()\n"
        "  %ge = icmp uge i32 %r, %r0\n  %lt = icmp ult i32 %r, %l\n"
        "  %ok = and i1 %ge, %lt\n  call void @__kiss_assume(i1 %ok)\n"
        "  store i32 %r, ptr @__kiss_round\n";
  Gep("__kiss_tt_fn", NT, "ptr", IH, "%id", "%fp");
  Gep("__kiss_tt_arg", NT, "ptr", IH, "%id", "%ap");
  OS << "  %f = load ptr, ptr %fp\n  %x = load ptr, ptr %ap\n"
     << "  call void @__kiss_run(ptr %f, ptr %x, " << IH << " %id)\n"
     << "  br label %out\nout:\n  ret void\n}\n";
  // Creation: a fresh id (in creation order, the round-robin order); ids
  // beyond the table are threads that are never scheduled.
  OS << "define void @__kiss_create(ptr %h, ptr %fn, ptr %arg) {\nentry:\n"
     << "  %n = load " << IH << ", ptr @__kiss_next\n"
     << "  %id = add " << IH << " %n, 1\n"
     << "  store " << IH << " %id, ptr @__kiss_next\n"
     << "  %hn = icmp ne ptr %h, null\n"
     << "  br i1 %hn, label %wh, label %rest\nwh:\n"
     << "  store " << IH << " %id, ptr %h\n  br label %rest\nrest:\n"
     << "  %ok = icmp ult " << IH << " %id, " << NT << "\n"
     << "  br i1 %ok, label %put, label %out\nput:\n";
  Gep("__kiss_tt_fn", NT, "ptr", IH, "%id", "%fp");
  Gep("__kiss_tt_arg", NT, "ptr", IH, "%id", "%ap");
  Gep("__kiss_tt_round", NT, "i32", IH, "%id", "%rp");
  OS << "  store ptr %fn, ptr %fp\n  store ptr %arg, ptr %ap\n"
        "  %r = load i32, ptr @__kiss_round\n  store i32 %r, ptr %rp\n"
        "  br label %out\nout:\n  ret void\n}\n";
  // Join. A thread earlier in the order has run already: it must have
  // completed in this round or before. A later one runs afterwards: its
  // completion round (before this one) and result are checked then.
  OS << "define void @__kiss_join(" << IH << " %h, ptr %ret) {\nentry:\n"
     << "  %in = icmp ult " << IH << " %h, " << NT << "\n"
     << "  %nz = icmp ne " << IH << " %h, 0\n"
     << "  %ok = and i1 %in, %nz\n  call void @__kiss_assume(i1 %ok)\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n"
     << "  %ne = icmp ne " << IH << " %h, %s\n"
     << "  call void @__kiss_assume(i1 %ne)\n"
     << "  %r = load i32, ptr @__kiss_round\n"
     << "  %rn = icmp ne ptr %ret, null\n"
     << "  %before = icmp ult " << IH << " %h, %s\n"
     << "  br i1 %before, label %b, label %a\nb:\n";
  Gep("__kiss_done", NT, "i1", IH, "%h", "%dp");
  Gep("__kiss_done_round", NT, "i32", IH, "%h", "%drp");
  OS << "  %d = load i1, ptr %dp\n  call void @__kiss_assume(i1 %d)\n"
        "  %dr = load i32, ptr %drp\n  %le = icmp ule i32 %dr, %r\n"
        "  call void @__kiss_assume(i1 %le)\n"
        "  br i1 %rn, label %bw, label %out\nbw:\n";
  Gep("__kiss_result", NT, "ptr", IH, "%h", "%resp");
  OS << "  %res = load ptr, ptr %resp\n  store ptr %res, ptr %ret\n"
        "  br label %out\na:\n";
  Gep("__kiss_join_round", NT, "i32", IH, "%h", "%jrp");
  OS << "  %jr = load i32, ptr %jrp\n  %lt = icmp ult i32 %r, %jr\n"
        "  %m = select i1 %lt, i32 %r, i32 %jr\n  store i32 %m, ptr %jrp\n"
        "  br i1 %rn, label %aw, label %out\naw:\n";
  Gep("__kiss_join_guessed", NT, "i1", IH, "%h", "%gdp");
  Gep("__kiss_join_guess", NT, "ptr", IH, "%h", "%gp");
  OS << "  %gd = load i1, ptr %gdp\n"
        "  br i1 %gd, label %old, label %new\nold:\n"
        "  %g = load ptr, ptr %gp\n  store ptr %g, ptr %ret\n"
        "  br label %out\nnew:\n"
        "  %g2 = call ptr @__crace_nondet_ptr()\n"
        "  store ptr %g2, ptr %gp\n  store i1 true, ptr %gdp\n"
        "  store ptr %g2, ptr %ret\n  br label %out\n"
        "out:\n  ret void\n}\n";
  // At the end: every join of a later thread saw it completed before.
  OS << "define void @__kiss_check_joins() {\nentry:\n";
  for (unsigned I = 1; I < NT; ++I) {
    Gep("__kiss_join_round", NT, "i32", "i32", std::to_string(I),
        formatv("%jrp{0}", I).str());
    Gep("__kiss_done", NT, "i1", "i32", std::to_string(I),
        formatv("%dp{0}", I).str());
    Gep("__kiss_done_round", NT, "i32", "i32", std::to_string(I),
        formatv("%drp{0}", I).str());
    OS << formatv("  %jr{0} = load i32, ptr %jrp{0}\n"
                  "  %none{0} = icmp eq i32 %jr{0}, {1}\n"
                  "  %d{0} = load i1, ptr %dp{0}\n"
                  "  %dr{0} = load i32, ptr %drp{0}\n"
                  "  %lt{0} = icmp ult i32 %dr{0}, %jr{0}\n"
                  "  %okd{0} = and i1 %d{0}, %lt{0}\n"
                  "  %ok{0} = or i1 %none{0}, %okd{0}\n"
                  "  call void @__kiss_assume(i1 %ok{0})\n",
                  I, K);
  }
  OS << "  ret void\n}\n";
  OS << "define " << IH << " @__kiss_thread_self() {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n  ret " << IH
     << " %s\n}\n";
  OS << "define void @__kiss_thread_exit(ptr %r) {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n"
     << "  call void @__kiss_finish(" << IH << " %s, ptr %r)\n"
     << "  store i1 true, ptr @__kiss_raise\n  ret void\n}\n";
  // Locks: the table of held locks is shared state (one per round). The
  // operations work on the table %t of the current round, selected by a
  // switch so that every address stays concrete for the bmc.
  auto TGep = [&](unsigned J, StringRef Res) {
    OS << formatv("  {0} = getelementptr {1}, ptr %t, i32 0, i32 {2}\n", Res,
                  Arr(L, "ptr"), J);
  };
  writeLockTableIR(OS, L, "_at", ", ptr %t", ", ptr %t", TGep);
  // Dispatch on the round: Op(l) calls Op_at(l, table of the round).
  auto Dispatch = [&](StringRef Op, bool Bool) {
    OS << formatv("define {0} @__kiss_{1}(ptr %l) {\nentry:\n",
                  Bool ? "i1" : "void", Op)
       << "  %r = load i32, ptr @__kiss_round\n"
       << "  switch i32 %r, label %c0 [";
    for (unsigned R = 1; R < K; ++R)
      OS << formatv(" i32 {0}, label %c{0}", R);
    OS << " ]\n";
    for (unsigned R = 0; R < K; ++R)
      OS << formatv("c{0}:\n  {5}call {1} @__kiss_{2}_at(ptr %l, ptr "
                    "getelementptr (i8, ptr @__kiss_locks, i64 {3}))\n"
                    "  ret {4}\n",
                    R, Bool ? "i1" : "void", Op, R * Stride,
                    Bool ? formatv("i1 %v{0}", R).str() : "void",
                    Bool ? formatv("%v{0} = ", R).str() : "");
    OS << "}\n";
  };
  Dispatch("held", true);
  Dispatch("lock", false);
  Dispatch("unlock", false);
  OS << sharedRuntimeIR();
  return S;
}

void writeLockTableIR(raw_ostream &OS, unsigned L, StringRef Suffix,
                      StringRef Params, StringRef Args,
                      function_ref<void(unsigned, StringRef)> SlotGep) {
  auto Slot = [&](unsigned J) { SlotGep(J, formatv("%p{0}", J).str()); };
  OS << formatv("define i1 @__kiss_held{0}(ptr %l{1}) {\nentry:\n", Suffix,
                Params);
  std::string Acc = "false";
  for (unsigned J = 0; J < L; ++J) {
    Slot(J);
    OS << formatv("  %v{0} = load ptr, ptr %p{0}\n"
                  "  %e{0} = icmp eq ptr %v{0}, %l\n"
                  "  %o{0} = or i1 %e{0}, {1}\n",
                  J, Acc);
    Acc = formatv("%o{0}", J).str();
  }
  OS << "  ret i1 " << Acc << "\n}\n";
  OS << formatv("define void @__kiss_lock{0}(ptr %l{1}) {\nentry:\n"
                "  %h = call i1 @__kiss_held{0}(ptr %l{2})\n",
                Suffix, Params, Args)
     << "  %f = xor i1 %h, true\n  call void @__kiss_assume(i1 %f)\n"
     << "  br label %s0\n";
  for (unsigned J = 0; J < L; ++J) {
    OS << formatv("s{0}:\n", J);
    Slot(J);
    OS << formatv("  %v{0} = load ptr, ptr %p{0}\n"
                  "  %e{0} = icmp eq ptr %v{0}, null\n"
                  "  br i1 %e{0}, label %t{0}, label %s{1}\nt{0}:\n"
                  "  store ptr %l, ptr %p{0}\n  ret void\n",
                  J, J + 1);
  }
  OS << formatv("s{0}:\n", L)
     << "  call void @__kiss_assume(i1 false)\n  ret void\n}\n";
  OS << formatv("define void @__kiss_unlock{0}(ptr %l{1}) {\nentry:\n"
                "  br label %s0\n",
                Suffix, Params);
  for (unsigned J = 0; J < L; ++J) {
    OS << formatv("s{0}:\n", J);
    Slot(J);
    OS << formatv("  %v{0} = load ptr, ptr %p{0}\n"
                  "  %e{0} = icmp eq ptr %v{0}, %l\n"
                  "  br i1 %e{0}, label %c{0}, label %s{1}\nc{0}:\n"
                  "  store ptr null, ptr %p{0}\n  br label %s{1}\n",
                  J, J + 1);
  }
  OS << formatv("s{0}:\n  ret void\n}\n", L);
}

std::string sharedRuntimeIR() {
  std::string S;
  raw_string_ostream OS(S);
  OS << "define i32 @__kiss_trylock(ptr %l) {\n"
     << "  %h = call i1 @__kiss_held(ptr %l)\n"
     << "  br i1 %h, label %busy, label %take\nbusy:\n  ret i32 16\n"
     << "take:\n  call void @__kiss_lock(ptr %l)\n  ret i32 0\n}\n";
  // Condition wait: release, let others run, maybe block for good (RAISE;
  // under --rounds the thread is not scheduled again), else wake up
  // (spuriously or signalled: POSIX allows both) and re-acquire.
  OS << "define void @__kiss_cond_wait(ptr %c, ptr %m) {\n"
     << "  call void @__kiss_unlock(ptr %m)\n"
     << "  call void @__kiss_schedule()\n"
     << "  %r = call i1 @__kiss_nondet()\n"
     << "  br i1 %r, label %stop, label %go\nstop:\n"
     << "  store i1 true, ptr @__kiss_raise\n  ret void\ngo:\n"
     << "  call void @__kiss_lock(ptr %m)\n  ret void\n}\n";
  OS << "define void @__kiss_atomic_begin() {\n"
     << "  store i1 true, ptr @__kiss_atomic\n  ret void\n}\n";
  OS << "define void @__kiss_atomic_end() {\n"
     << "  store i1 false, ptr @__kiss_atomic\n  ret void\n}\n";
  // Not modelled yet: waiting on barriers and semaphores ends the path
  // (the executions past it are not explored).
  OS << "define i32 @__kiss_block_i32(ptr %p) {\n"
     << "  call void @__kiss_assume(i1 false)\n  ret i32 0\n}\n";
  OS << "define void @__kiss_block(ptr %p) {\n"
     << "  call void @__kiss_assume(i1 false)\n  ret void\n}\n";
  return S;
}

} // namespace crace::kiss::rounds
