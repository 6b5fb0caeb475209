"""usage: compare_fingerprints.py A.sarif B.sarif SHIFT

B is A's program with SHIFT lines inserted at the top: the results must
have the same fingerprints, in the same order, and lines SHIFT further."""
import json
import sys

a, b = (json.load(open(f))["runs"][0]["results"] for f in sys.argv[1:3])
shift = int(sys.argv[3])
if not a or len(a) != len(b):
    sys.exit(f"{len(a)} vs {len(b)} results")
for ra, rb in zip(a, b):
    if ra["partialFingerprints"] != rb["partialFingerprints"]:
        sys.exit(f"fingerprints differ: {ra['partialFingerprints']} {rb['partialFingerprints']}")
    la = ra["locations"][0]["physicalLocation"]["region"]["startLine"]
    lb = rb["locations"][0]["physicalLocation"]["region"]["startLine"]
    if lb != la + shift:
        sys.exit(f"line {la} became {lb}, expected {la + shift}")
print(f"{len(a)} fingerprint(s) stable")
