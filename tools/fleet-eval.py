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

Then, per planted family, the pairs it was planted in (alone or beside
another family) and the pairs of its signature component in the component
view of `iotally signatures --format json` (its `components`): one leak
spread over several buckets must still be one component with the family's
size. The component's key is worked out here from the generator's spec
(tools/gen-fleet.py FAMILIES), not read from iotally.

With --check, exit 1 when purity or completeness is below its bound, the
no-leak rate above it, or a family's component count differs from its size
(the bounds of docs/signatures.md).
"""

import argparse
import collections
import importlib.util
import json
import os
import re
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


def load_families():
    """tools/gen-fleet.py's FAMILIES, read from the generator itself."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-fleet.py")
    spec = importlib.util.spec_from_file_location("gen_fleet", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {name: (kind, fam) for fams in mod.FAMILIES.values() for name, kind, fam in fams}


def unit_text(n):
    """A power-of-two size as the rule writes a size bucket: 128M, 4K, 512B."""
    e = n.bit_length() - 1
    for u, letter in ((30, "G"), (20, "M"), (10, "K")):
        if e >= u:
            return "%d%s" % (1 << (e - u), letter)
    return "%dB" % (1 << e)


def symbol_key(sym):
    """The symbol as docs/signatures.md keys it: no argument list, templates as <T>."""
    sym = re.sub(r"\(.*$", "", sym)
    while "<" in sym and re.search(r"<[^<>]*>", sym):
        sym = re.sub(r"<[^<>]*>", "\x00", sym)
    return sym.replace("\x00", "<T>")


def component_key(kind, fam):
    """(section, key) of a family's component, from its spec (docs/signatures.md)."""
    if kind == "vmmap":
        typ, purge, unit = fam[0], fam[1], fam[2]
        return "gpu", "%s/%s/%s" % (typ, purge, unit_text(unit))
    if kind == "classes":
        return "class", "+" + fam[0]
    return "track", "%s!%s" % (fam[0], symbol_key(fam[1]))


def component_counts(truth, components):
    """[(family, (section, key), planted pairs, component pairs)] and the unplanted components."""
    fams = load_families()
    planted = collections.Counter(f for p in truth.values() for f in p)
    got = {(c["section"], c["key"]): c["pairs"] for c in components}
    rows = []
    for name in sorted(planted):
        key = component_key(*fams[name])
        rows.append((name, key, planted[name], got.pop(key, 0)))
    return rows, sorted(got)


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
    # The component view of the same rows (or pairs): bucketed again from the rows.
    src = [a.rows] if a.rows else [a.fleet + "/before", a.fleet + "/after"]
    doc = json.loads(subprocess.run([a.iotally, "signatures", "--format", "json", "--examples", "0"]
                                    + src, check=True, capture_output=True, text=True).stdout)
    comp_rows, unplanted = component_counts(truth, doc["components"])
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
    equal = sum(1 for _, _, n, c in comp_rows if n == c)
    print("| components whose pairs equal their family's size | %d of %d | all |"
          % (equal, len(comp_rows)))
    print("| components of no planted family | %d | 0 |" % len(unplanted))
    print()
    print("| family | component | planted pairs | component pairs |")
    print("|---|---|---:|---:|")
    for name, (sec, key), n, c in comp_rows:
        print("| %s | `%s:%s` | %d | %d |" % (name, sec, key, n, c))
    bad = [k for k in ("purity", "completeness") if r[k] < BOUNDS[k]]
    if equal != len(comp_rows) or unplanted:
        bad.append("components")
    if r["no_leak_bucketed"] > BOUNDS["no_leak_bucketed"]:
        bad.append("no_leak_bucketed")
    if a.check and bad:
        print("fleet-eval: past the bound: %s" % ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
