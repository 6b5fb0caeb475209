#!/usr/bin/env python3
# A stand-in for crace whose engines contradict each other: lockset proves
# the program race-free, explore and kiss confirm a race, whoop and circ
# report a pair lockset does not have. scripts/differential.py must catch each.
import json
import sys

engine = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--engine="))
path = sys.argv[-1]


def access(line):
    return {"file": path, "line": line, "column": 1, "kind": "write",
            "thread": "t", "variable": "x", "locks": []}


finding = {"verdict": "race", "kind": "data-race", "engine": engine,
           "variable": "x", "accesses": [access(8), access(9)]}
if engine == "lockset":
    report = {"verdict": "race-free", "findings": [], "reasons": []}
elif engine in ("whoop", "circ"):
    finding["verdict"] = "possible-race"
    report = {"verdict": "possible-race", "findings": [finding], "reasons": []}
else:
    report = {"verdict": "race", "findings": [finding], "reasons": []}
json.dump(report, sys.stdout)
