#!/usr/bin/env python3
"""Leak signatures checked against independent truth.

  signature-check.py IOTALLY ROOT

1. Every signature in the golden outputs of diff (JSON documents and NDJSON
   rows) has the id the rule says: the first 12 hex digits of the SHA-256 of
   its canonical text, which starts with the rule.
2. A reduced fleet (tools/gen-fleet.py, family set `test`, seed 5: other
   families and seed than docs/signatures.md's evaluation fleet) is bucketed
   and measured with tools/fleet-eval.py --check: the test fails when purity
   or completeness drops below 0.95 or more than 1 % of the no-leak pairs get
   a signature. The check itself is shown to trip: the same rows with two
   no-leak pairs given a leak's signature must fail it.
3. Bucketing the NDJSON rows read back gives the buckets of the captures
   (round trip), and two runs give the same bytes.
"""

import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from casecheck import stop

RULE = 'iotsig/1'


def sig_id(canonical):
    return hashlib.sha256(canonical.encode('utf-8')).hexdigest()[:12]


def check_goldens(root):
    n = 0
    for path in sorted(glob.glob(os.path.join(root, 'tests/golden/diff/*/stdout'))):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        docs = []
        try:
            docs = [json.loads(text)]
        except ValueError:
            for line in text.splitlines():
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    pass
        for d in docs:
            if not isinstance(d, dict):
                continue
            s = d.get('signature')
            if isinstance(s, dict):
                if not s['canonical'].startswith(RULE + ' ') or s['rule'] != RULE:
                    stop('%s: canonical text %r without its rule' % (path, s['canonical']))
                if sig_id(s['canonical']) != s['id']:
                    stop('%s: id %s is not the id of %r' % (path, s['id'], s['canonical']))
                n += 1
            if d.get('schema') == 'iotally.diff-ndjson/1' and 'signature_id' not in d:
                stop('%s: an NDJSON row without the signature columns' % path)
    if n < 5:
        stop('only %d signatures found in the diff goldens' % n)
    print('goldens: %d signature ids are the SHA-256 of their text' % n)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def main():
    iotally, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    check_goldens(root)
    gen = os.path.join(root, 'tools', 'gen-fleet.py')
    ev = os.path.join(root, 'tools', 'fleet-eval.py')
    with tempfile.TemporaryDirectory() as tmp:
        fleet = os.path.join(tmp, 'fleet')
        rc, _, err = run([sys.executable, gen, '--pairs', '150', '--seed', '5', '--families',
                          'test', '--machines', '40', fleet])
        if rc:
            stop('gen-fleet: ' + err)
        folders = [fleet + '/before', fleet + '/after']
        rc, rows, err = run([iotally, 'signatures', '--format', 'ndjson'] + folders)
        if rc:
            stop('signatures --format ndjson exited %d: %s' % (rc, err))
        rc2, rows2, _ = run([iotally, 'signatures', '--format', 'ndjson'] + folders)
        if rows2 != rows:
            stop('two runs over the same fleet gave different rows')
        rows_path = os.path.join(tmp, 'rows.ndjson')
        with open(rows_path, 'w') as f:
            f.write(rows)
        rc, out, err = run([sys.executable, ev, '--iotally', iotally, '--check', '--rows', rows_path, fleet])
        print(out, end='')
        if rc:
            stop('the reduced fleet is past a bound: ' + err)
        # The check trips: two no-leak pairs given the first leak's signature.
        with open(fleet + '/truth.json') as f:
            truth = json.load(f)['pairs']
        recs = [json.loads(l) for l in rows.splitlines()]
        leak = next(r for r in recs if r['grew'])
        quiet = [r for r in recs if not truth[r['pair']]][:2]
        if len(quiet) < 2:
            stop('the reduced fleet has fewer than 2 no-leak pairs')
        for r in quiet:
            for k in ('grew', 'signature_id', 'signature_label', 'signature_rule', 'signature',
                      'growth_bytes', 'growth_count'):
                r[k] = leak[k]
        bad = os.path.join(tmp, 'bad.ndjson')
        with open(bad, 'w') as f:
            f.write(''.join(json.dumps(r) + '\n' for r in recs))
        rc, _, _ = run([sys.executable, ev, '--iotally', iotally, '--check', '--rows', bad, fleet])
        if rc != 1:
            stop('fleet-eval --check passed rows with 2 no-leak pairs bucketed (exit %d)' % rc)
        print('fleet-eval --check trips on 2 no-leak pairs given a signature')
        # Round trip: the rows bucketed again give the same buckets.
        rc, a, err = run([iotally, 'signatures', '--format', 'json'] + folders)
        rc2, b, err2 = run([iotally, 'signatures', '--format', 'json', rows_path])
        if rc or rc2:
            stop('signatures --format json: %s %s' % (err, err2))
        ja, jb = json.loads(a), json.loads(b)
        if ja != jb:
            stop('buckets of the rows read back differ from those of the captures')
        truth_sets = {}
        for name, fams in truth.items():
            if fams:
                truth_sets.setdefault('+'.join(fams), 0)
                truth_sets['+'.join(fams)] += 1
        counts = sorted((k['count'] for k in ja['buckets']), reverse=True)
        if counts != sorted(truth_sets.values(), reverse=True):
            stop('bucket sizes %r are not the planted family sizes %r' %
                 (counts, sorted(truth_sets.values(), reverse=True)))
        print('round trip: %d buckets from the rows as from the captures, sized as planted' %
              len(ja['buckets']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
