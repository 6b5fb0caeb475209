#!/usr/bin/env python3
"""Brute-force Mazurkiewicz trace counter for the programs of dpor_counts/.

Each program is modelled here by hand as threads that are Python generators
yielding their visible operations (the ones crace's explore engine
schedules: shared-memory accesses, lock operations, thread creation, thread
end and join).  Every interleaving is enumerated (by replay from scratch, the
programs are tiny); two maximal executions are the same Mazurkiewicz trace
iff they have the same events and order every dependent pair of events of
different threads the same way.  Dependence: accesses to one location of
which one writes (an atomic RMW is a write), any two operations on one
mutex, a create and the created thread's events, a thread's end and its
join.  Executions that end with no thread enabled but some blocked
(deadlocks) are maximal too.

This is an independent check of the hand-made arguments in the .c files; it
is not run by lit (all programs: about 2 minutes, locked3 and lastzero3
have 50000+ interleavings).  Usage: python3 count_traces.py [NAME...]
"""
import sys


def R(loc):
    return ("r", loc)


def W(loc, val):
    return ("w", loc, val)


def CAS(loc, old, new):
    return ("cas", loc, old, new)


def LOCK(m):
    return ("lock", m)


def UNLOCK(m):
    return ("unlock", m)


def SPAWN(name):
    return ("spawn", name)


def JOIN(name):
    return ("join", name)


def run(prog, schedule):
    """Runs prog (dict name -> generator function taking no args; 'main'
    starts) along schedule (list of thread names).  Returns (events,
    enabled) where events are (tid, k, desc) and enabled the thread names
    that can take a step at the end."""
    mem = {}
    locks = {}
    gens, pending, steps, done = {}, {}, {}, set()

    def start(name):
        g = prog[name]()
        gens[name] = g
        steps[name] = 0
        advance(name, None, first=True)

    def advance(name, value, first=False):
        try:
            op = next(gens[name]) if first else gens[name].send(value)
            pending[name] = op
        except StopIteration:
            pending[name] = ("end",)

    def enabled(name):
        if name in done:
            return False
        op = pending[name]
        if op[0] == "lock":
            return locks.get(op[1]) is None
        if op[0] == "join":
            return op[1] in done
        return True

    start("main")
    events = []
    for t in schedule:
        assert enabled(t), (t, schedule)
        op = pending[t]
        k = steps[t]
        steps[t] += 1
        val = None
        kind = op[0]
        if kind == "r":
            val = mem.get(op[1], 0)
            desc = ("r", op[1])
        elif kind == "w":
            mem[op[1]] = op[2]
            desc = ("w", op[1])
        elif kind == "cas":
            cur = mem.get(op[1], 0)
            val = cur == op[2]
            if val:
                mem[op[1]] = op[3]
            desc = ("w", op[1])
        elif kind == "lock":
            locks[op[1]] = t
            desc = ("m", op[1])
        elif kind == "unlock":
            locks[op[1]] = None
            desc = ("m", op[1])
        elif kind == "spawn":
            desc = ("spawn", op[1])
        elif kind == "join":
            desc = ("join", op[1])
        elif kind == "end":
            desc = ("end", t)
        events.append((t, k, desc))
        if kind == "end":
            done.add(t)
            continue
        if kind == "spawn":
            start(op[1])
        advance(t, val)
    return events, [n for n in gens if enabled(n)]


def dependent(a, b):
    (ta, _, da), (tb, _, db) = a, b
    if ta == tb:
        return True
    if da[0] in "rw" and db[0] in "rw":
        return da[1] == db[1] and "w" in (da[0], db[0])
    if da[0] == "m" and db[0] == "m":
        return da[1] == db[1]
    for x, tx, y, ty in ((da, ta, db, tb), (db, tb, da, ta)):
        if x[0] == "spawn" and x[1] == ty:
            return True
        if x[0] == "join" and y[0] == "end" and x[1] == ty:
            return True
    return False


def key(events):
    order = []
    for i, a in enumerate(events):
        for b in events[i + 1:]:
            if a[0] != b[0] and dependent(a, b):
                order.append((a, b))
    return (frozenset(events), frozenset(order))


def count(prog):
    traces, execs = set(), 0

    def dfs(schedule):
        nonlocal execs
        events, en = run(prog, schedule)
        if not en:  # maximal: every thread ended, or a deadlock
            execs += 1
            traces.add(key(events))
            return
        for t in en:
            dfs(schedule + [t])

    dfs([])
    return len(traces), execs


# ---------------------------------------------------------------- programs
def spawn_join(workers, main_body=lambda: iter(())):
    """main: spawn each worker, run main_body, join each worker."""
    def main():
        for w in workers:
            yield SPAWN(w)
        yield from main_body()
        for w in workers:
            yield JOIN(w)
    return main


def prog_independent():
    def t1():
        yield W("x", 1)
        yield R("x")
    def t2():
        yield W("y", 1)
        yield R("y")
    return {"main": spawn_join(["t1", "t2"]), "t1": t1, "t2": t2}


def prog_writers(n, main_writes):
    ws = ["t%d" % i for i in range(1, n + (0 if main_writes else 1))]
    def writer(v):
        def g():
            yield W("x", v)
        return g
    p = {w: writer(i + 1) for i, w in enumerate(ws)}
    body = (lambda: iter([W("x", n)])) if main_writes else (lambda: iter(()))
    p["main"] = spawn_join(ws, body)
    return p


def prog_readers(n):
    # main writes x after creating n readers
    rs = ["t%d" % i for i in range(1, n + 1)]
    def reader():
        yield R("x")
    p = {r: reader for r in rs}
    p["main"] = spawn_join(rs, lambda: iter([W("x", 1)]))
    return p


def prog_locked(n, main_too):
    ws = ["t%d" % i for i in range(1, n + (0 if main_too else 1))]
    def worker():
        yield LOCK("m")
        v = yield R("c")
        yield W("c", v + 1)
        yield UNLOCK("m")
    def body():
        yield from worker()
    p = {w: worker for w in ws}
    p["main"] = spawn_join(ws, body if main_too else (lambda: iter(())))
    return p


def prog_opposite():
    def t1():
        yield W("x", 1)
        yield W("y", 1)
    def body():
        yield W("y", 2)
        yield W("x", 2)
    return {"main": spawn_join(["t1"], body), "t1": t1}


def prog_lastzero(n):
    # array[0..n]; thread j (1..n): array[j] = array[j-1] + 1;
    # main (thread 0 of the benchmark): for (i = n; array[i] != 0; i--);
    ws = ["t%d" % j for j in range(1, n + 1)]
    def writer(j):
        def g():
            v = yield R("a%d" % (j - 1))
            yield W("a%d" % j, v + 1)
        return g
    def body():
        i = n
        while True:
            v = yield R("a%d" % i)
            if v == 0:
                break
            i -= 1
    p = {w: writer(j + 1) for j, w in enumerate(ws)}
    p["main"] = spawn_join(ws, body)
    return p


def prog_indexer():
    # table of 4 slots; main inserts at hash 0, t1 at hash 0, t2 at hash 1:
    # while (!cas(&table[h], 0, v)) h = (h + 1) % 4;
    def inserter(h0, v):
        def g():
            h = h0
            while True:
                ok = yield CAS("s%d" % h, 0, v)
                if ok:
                    return
                h = (h + 1) % 4
        return g
    return {"main": spawn_join(["t1", "t2"], inserter(0, 3)),
            "t1": inserter(0, 1), "t2": inserter(1, 2)}


def prog_flag():
    def t1():
        yield W("data", 1)
        yield W("flag", 1)
    def body():
        f = yield R("flag")
        if f:
            yield R("data")
    return {"main": spawn_join(["t1"], body), "t1": t1}


def prog_racy_incr():
    def worker():
        v = yield R("x")
        yield W("x", v + 1)
    return {"main": spawn_join(["t1", "t2"]), "t1": worker, "t2": worker}


def prog_lock_order():
    def t1():
        yield LOCK("a")
        yield LOCK("b")
        yield UNLOCK("b")
        yield UNLOCK("a")
    def body():
        yield LOCK("b")
        yield LOCK("a")
        yield UNLOCK("a")
        yield UNLOCK("b")
    return {"main": spawn_join(["t1"], body), "t1": t1}


PROGRAMS = {  # named as the .c files of dpor_counts/
    "independent": prog_independent(),
    "writers2_atomic": prog_writers(2, False),
    "writers2_racy": prog_writers(2, False),  # same events, plain stores
    "writers3_atomic": prog_writers(3, True),
    "writers4_atomic": prog_writers(4, True),
    "readers2": prog_readers(2),
    "readers3": prog_readers(3),
    "locked2": prog_locked(2, False),
    "locked3_main": prog_locked(3, True),
    "locked3": prog_locked(3, False),
    "opposite_orders": prog_opposite(),
    "lastzero2": prog_lastzero(2),
    "lastzero3": prog_lastzero(3),
    "indexer": prog_indexer(),
    "flag_handshake_racy": prog_flag(),
    "racy_incr": prog_racy_incr(),
    "lock_order_deadlock": prog_lock_order(),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or PROGRAMS:
        traces, execs = count(PROGRAMS[name])
        print("%-20s traces %6d   interleavings %8d" % (name, traces, execs))
