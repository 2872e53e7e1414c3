#!/usr/bin/env python3
"""Measure how well `iotally signatures` buckets a generated fleet.

Reads FLEET/truth.json (tools/gen-fleet.py) and the NDJSON rows of
`iotally signatures --format ndjson FLEET/before FLEET/after` (run here, or
given with --rows), and prints, as a Markdown table:

  purity        per bucket, the share of its pairs whose planted families
                (the set: a pair with two leaks is its own family) are the
                bucket's most common set; weighted by bucket size. A no-leak
                pair in a bucket counts against it.
  completeness  per planted family set, the share of its pairs in its
                largest bucket; weighted by the family set's size.
  no-leak bucketed  no-leak pairs that got a signature / no-leak pairs.
  missed        leak pairs without a signature / leak pairs.

With --check, exit 1 when purity or completeness is below its bound or the
no-leak rate above it (the bounds of docs/signatures.md).
"""

import argparse
import collections
import json
import subprocess
import sys

BOUNDS = {"purity": 0.95, "completeness": 0.95, "no_leak_bucketed": 0.01}


def rates(truth, rows):
    sig = {}
    for r in rows:
        if r["status"] != "ok":
            raise SystemExit("pair %s could not be compared: %s" % (r["pair"], r["error"]))
        sig[r["pair"]] = r["signature_id"]
    missing = set(truth) - set(sig)
    if missing:
        raise SystemExit("pairs without a row: %s" % sorted(missing)[:5])
    buckets = collections.defaultdict(list)
    fams = collections.defaultdict(list)
    for name, planted in truth.items():
        fam = "+".join(planted)
        if sig[name]:
            buckets[sig[name]].append(fam)
        if fam:
            fams[fam].append(sig[name])
    bucketed = sum(len(v) for v in buckets.values())
    purity = sum(collections.Counter(v).most_common(1)[0][1] for v in buckets.values()
                 if True) / bucketed if bucketed else 1.0
    # A no-leak pair's family is "": never the dominant family of a leak bucket.
    leak_pairs = sum(len(v) for v in fams.values())
    completeness = sum(max(collections.Counter(s for s in v if s).values(), default=0)
                       for v in fams.values()) / leak_pairs if leak_pairs else 1.0
    noleak = [n for n, p in truth.items() if not p]
    noleak_b = sum(1 for n in noleak if sig[n])
    missed = sum(1 for v in fams.values() for s in v if not s)
    return {
        "pairs": len(truth), "leak_pairs": leak_pairs, "no_leak_pairs": len(noleak),
        "two_leak_pairs": sum(1 for p in truth.values() if len(p) == 2),
        "families": len({f for p in truth.values() for f in p}), "family_sets": len(fams),
        "buckets": len(buckets), "purity": purity, "completeness": completeness,
        "no_leak_bucketed": noleak_b / len(noleak) if noleak else 0.0,
        "no_leak_bucketed_n": noleak_b, "missed": missed,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iotally", default="build/iotally")
    ap.add_argument("--rows", help="NDJSON rows already written (else iotally is run)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("fleet")
    a = ap.parse_args()
    with open(a.fleet + "/truth.json") as fp:
        truth = json.load(fp)["pairs"]
    if a.rows:
        with open(a.rows) as fp:
            text = fp.read()
    else:
        text = subprocess.run([a.iotally, "signatures", "--format", "ndjson",
                               a.fleet + "/before", a.fleet + "/after"], check=True,
                              capture_output=True, text=True).stdout
    rows = [json.loads(l) for l in text.splitlines() if l.strip()]
    r = rates(truth, rows)
    print("| measure | value | bound |")
    print("|---|---:|---:|")
    print("| pairs (leak / no leak / two leaks) | %d (%d / %d / %d) | |" % (
        r["pairs"], r["leak_pairs"], r["no_leak_pairs"], r["two_leak_pairs"]))
    print("| planted families (family sets) / buckets | %d (%d) / %d | |" % (
        r["families"], r["family_sets"], r["buckets"]))
    print("| purity | %.4f | >= %.2f |" % (r["purity"], BOUNDS["purity"]))
    print("| completeness | %.4f | >= %.2f |" % (r["completeness"], BOUNDS["completeness"]))
    print("| no-leak pairs bucketed | %.4f (%d) | <= %.2f |" % (
        r["no_leak_bucketed"], r["no_leak_bucketed_n"], BOUNDS["no_leak_bucketed"]))
    print("| leak pairs without a signature | %d | |" % r["missed"])
    bad = [k for k in ("purity", "completeness") if r[k] < BOUNDS[k]]
    if r["no_leak_bucketed"] > BOUNDS["no_leak_bucketed"]:
        bad.append("no_leak_bucketed")
    if a.check and bad:
        print("fleet-eval: past the bound: %s" % ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
