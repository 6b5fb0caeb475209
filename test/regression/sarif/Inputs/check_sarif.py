#!/usr/bin/env python3
"""Checks a SARIF log written by `crace --format=sarif`.

usage: check_sarif.py LOG.sarif [--results N] [--rule ID] [--code-flow]
                      [--notification]

1. JSON-schema validation against Inputs/sarif-subset.schema.json (the
   SARIF 2.1.0 objects crace writes, from the specification) and, when the
   environment variable CRACE_SARIF_SCHEMA names a copy of the official
   SARIF 2.1.0 schema, against that too.
2. What GitHub code scanning requires of an upload: a tool name, and for
   each result a rule id defined in tool.driver.rules, a message, at least
   one location with an artifact URI and a start line, and a fingerprint.
3. Consistency the schema cannot state: ruleIndex names the rule of ruleId,
   the result's level is its rule's, executionOrder numbers the steps of a
   code flow 1, 2, ... without gaps, each thread flow has an id of its own.
"""
import argparse
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check_sarif.py: the Python module jsonschema is missing "
             "(Debian: python3-jsonschema; scripts/install-deps.sh installs it)")

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    sys.exit("check_sarif.py: " + msg)


def validate(doc, schema_file, what):
    with open(schema_file) as f:
        schema = json.load(f)
    if "$ref" not in schema and "Root" in schema.get("definitions", {}):
        schema["$ref"] = "#/definitions/Root"  # a copy that names the root
    v = jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        print(f"{what}: at {'/'.join(map(str, e.path))}: {e.message}",
              file=sys.stderr)
    if errors:
        fail(f"{len(errors)} violation(s) of {what}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--results", type=int, help="exact number of results")
    ap.add_argument("--rule", help="every result has this ruleId")
    ap.add_argument("--code-flow", action="store_true",
                    help="every result has a code flow")
    ap.add_argument("--notification", action="store_true",
                    help="the invocation has an 'unknown' notification")
    a = ap.parse_args()
    with open(a.log) as f:
        doc = json.load(f)
    validate(doc, os.path.join(HERE, "sarif-subset.schema.json"),
             "the SARIF 2.1.0 subset schema")
    official = os.environ.get("CRACE_SARIF_SCHEMA")
    if official:
        validate(doc, official, "the official SARIF 2.1.0 schema")

    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    if not driver.get("name"):
        fail("tool.driver.name is missing")
    rules = driver.get("rules", [])
    rule_ids = [r["id"] for r in rules]
    results = run["results"]
    for i, res in enumerate(results):
        where = f"results[{i}]"
        rid = res.get("ruleId")
        if rid not in rule_ids:
            fail(f"{where}: ruleId {rid!r} is not in tool.driver.rules")
        if res.get("ruleIndex") is not None and rule_ids[res["ruleIndex"]] != rid:
            fail(f"{where}: ruleIndex {res['ruleIndex']} is not rule {rid!r}")
        rule = rules[rule_ids.index(rid)]
        if res.get("level") != rule["defaultConfiguration"]["level"]:
            fail(f"{where}: level {res.get('level')!r} differs from its rule's")
        if not res["message"]["text"].strip():
            fail(f"{where}: empty message")
        locs = res.get("locations", [])
        if not locs:
            fail(f"{where}: no location")
        phys = locs[0].get("physicalLocation", {})
        if not phys.get("artifactLocation", {}).get("uri"):
            fail(f"{where}: the first location has no artifact URI")
        if not phys.get("region", {}).get("startLine"):
            fail(f"{where}: the first location has no start line")
        if not res.get("partialFingerprints"):
            fail(f"{where}: no partialFingerprints")
        for rel in res.get("relatedLocations", []):
            if "id" not in rel:
                fail(f"{where}: a related location without id")
        if a.rule and rid != a.rule:
            fail(f"{where}: ruleId {rid!r}, expected {a.rule!r}")
        flows = res.get("codeFlows", [])
        if a.code_flow and not flows:
            fail(f"{where}: no code flow")
        for flow in flows:
            orders, ids = [], set()
            for tf in flow["threadFlows"]:
                if tf.get("id") in ids:
                    fail(f"{where}: two thread flows with id {tf.get('id')!r}")
                ids.add(tf.get("id"))
                mine = [s["executionOrder"] for s in tf["locations"]]
                if mine != sorted(mine):
                    fail(f"{where}: thread flow {tf.get('id')!r} runs out of order")
                orders += mine
            if sorted(orders) != list(range(1, len(orders) + 1)):
                fail(f"{where}: executionOrder is not 1..{len(orders)}: {sorted(orders)}")
            if rid == "race" and not any(s.get("importance") == "essential"
                       for tf in flow["threadFlows"] for s in tf["locations"]):
                fail(f"{where}: no step is marked essential")
    if a.results is not None and len(results) != a.results:
        fail(f"{len(results)} results, expected {a.results}")
    notes = [n for inv in run.get("invocations", [])
             for n in inv.get("toolExecutionNotifications", [])]
    if a.notification and not any(n.get("descriptor", {}).get("id") == "unknown"
                                  for n in notes):
        fail("no 'unknown' tool execution notification")
    print(f"SARIF OK: {len(results)} result(s)")


if __name__ == "__main__":
    main()
