#!/usr/bin/env python3
"""The DuckDB queries of docs/signatures.md on the rows of a reduced fleet,
checked against the generator's truth.

  duckdb-signatures.py IOTALLY ROOT NODE_MODULES

The SQL is taken from docs/signatures.md (every ```sql block whose first line
is '-- signatures-test: NAME'), so the documented queries are the tested ones,
and runs in DuckDB through npm @duckdb/node-api (tests/duckdb-run.cjs), as
tests/duckdb-fleet.py does; a missing DuckDB is a failure, not a skip.

The expected figures come from tools/gen-fleet.py's truth.json, not from
iotally: each bucket holds the pairs of one planted family set (its size),
the OS versions of a vmmap bucket are the distinct OS versions of its pairs'
machines,
and the pairs without growth are the pairs planted without a leak; the
members query lists the pairs planted with t-gpu-surface-4M alone, whose
bucket id is worked out here (SHA-256 of 'iotsig/1 gpu:IOSurface/N/4M').
"""

import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

from casecheck import stop


def doc_queries(root):
    with open(os.path.join(root, 'docs', 'signatures.md'), encoding='utf-8') as f:
        text = f.read()
    queries = {}
    for block in re.findall(r'```sql\n(.*?)```', text, re.S):
        m = re.match(r'-- signatures-test: (\S+)\n', block)
        if m:
            queries[m.group(1)] = block[m.end():]
    return queries


def main():
    iotally, root, modules = (os.path.abspath(a) for a in sys.argv[1:4])
    if not os.path.isdir(os.path.join(modules, '@duckdb', 'node-api')):
        stop('DuckDB (npm @duckdb/node-api) is not installed in %s' % modules)
    queries = doc_queries(root)
    for name in ('buckets', 'no-growth', 'members'):
        if name not in queries:
            stop('docs/signatures.md has no query "-- signatures-test: %s"' % name)
    with tempfile.TemporaryDirectory() as tmp:
        fleet = os.path.join(tmp, 'fleet')
        subprocess.run([sys.executable, os.path.join(root, 'tools', 'gen-fleet.py'), '--pairs',
                        '120', '--seed', '11', '--families', 'test', '--machines', '30', fleet],
                       check=True)
        with open(os.path.join(tmp, 'signatures.ndjson'), 'w') as f:
            subprocess.run([iotally, 'signatures', '--format', 'ndjson', fleet + '/before',
                            fleet + '/after'], stdout=f, check=True)
        proc = subprocess.run(['node', os.path.join(root, 'tests', 'duckdb-run.cjs'), modules],
                              cwd=tmp, input=json.dumps(queries), stdout=subprocess.PIPE,
                              universal_newlines=True)
        if proc.returncode != 0:
            stop('DuckDB could not run the queries of docs/signatures.md')
        got = json.loads(proc.stdout)
        with open(fleet + '/truth.json') as f:
            t = json.load(f)
    truth, meta = t['pairs'], t['machines']
    sets = collections.defaultdict(list)
    for name, fams in truth.items():
        if fams:
            sets['+'.join(fams)].append(name)
    want = sorted(([len(v), len({meta[n][2] for n in v if meta[n][0] == 'vmmap'})]
                   for v in sets.values()), reverse=True)
    rows = got['buckets']
    have = sorted(([int(r[3]), int(r[4])] for r in rows), reverse=True)
    if have != want:
        stop('buckets (pairs, OS versions) %r, planted %r' % (have, want))
    if [int(r[3]) for r in rows] != sorted((int(r[3]) for r in rows), reverse=True):
        stop('buckets not ordered by pairs')
    noleak = sum(1 for v in truth.values() if not v)
    if int(got['no-growth'][0][0]) != noleak:
        stop('no-growth %s, planted %d' % (got['no-growth'][0][0], noleak))
    # The members query names the bucket of t-gpu-surface-4M alone by its id's first digits.
    sid = hashlib.sha256(b'iotsig/1 gpu:IOSurface/N/4M').hexdigest()[:12]
    if "'%s'" % sid[:4] not in queries['members']:
        stop('the members query does not name the bucket %s by its first 4 digits' % sid)
    planted = sorted(n for n, fams in truth.items() if fams == ['t-gpu-surface-4M'])
    members = got['members']
    if [r[0] for r in members] != planted:
        stop('members %r, planted %r' % ([r[0] for r in members], planted))
    for r in members:
        if r[1] != 'fleet/before/' + r[0] and not r[1].endswith('/fleet/before/' + r[0]):
            stop('member %s: before %r is not its BEFORE' % (r[0], r[1]))
        if r[3] != 'iotally report %s %s' % (r[1], r[2]):
            stop('member %s: report line %r' % (r[0], r[3]))
    print('buckets: %d, each the pairs and OS versions of one planted family set' % len(rows))
    print('members: the %d pairs planted with t-gpu-surface-4M alone, each with its report line'
          % len(members))
    print('no-growth: %d pairs, those planted without a leak' % noleak)
    return 0


if __name__ == '__main__':
    sys.exit(main())
