#!/usr/bin/env python3
"""The benchmark's dump shapes (tools/gen-vmmap-shapes.py) read as generated.

    vmmap-shapes.py IOTALLY SOURCE_ROOT

A benchmark over dumps the parser misreads would time the wrong thing. For
each region shape, a small seeded dump is read with --all-types --format
json and checked against the generator's construction: every region line
parsed (none unparsed, no warning), and per type the region count equals
the count the generator wrote in the dump's summary table, less its
regions with nothing resident, dirty or swapped and no purgeable state
(reserved address space, which iotally does not count: docs/vmmap.md). The -summary
shape gives one dump per 'Process:' header, with all its rows read; the
corpus shape (real captures, some deliberately odd) is read without a
failure status.
"""

import json
import re
import os
import subprocess
import sys
import tempfile

from casecheck import stop


def gen(root, shape, regions, seed=7):
    return subprocess.run([sys.executable, root + '/tools/gen-vmmap-shapes.py', '--shape', shape,
                           '--regions', str(regions), '--seed', str(seed)],
                          check=True, stdout=subprocess.PIPE).stdout


def read(exe, text, tmp):
    with open(tmp, 'wb') as f:
        f.write(text)
    r = subprocess.run([exe, 'vmmap', '--all-types', '--format', 'json', tmp],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, json.loads(r.stdout) if r.stdout else None, r.stderr.decode()


RESERVED = re.compile(rb'^(.*?)\s+[0-9a-f]+-[0-9a-f]+\s+\[\s*\S+\s+0K\s+0K\s+0K\] [^\n]*$',
                      re.M)


def reserved_by_type(text):
    out = {}
    for m in RESERVED.finditer(text):
        if b'PURGE=' not in m.group(0):
            t = m.group(1).decode().strip()
            out[t] = out.get(t, 0) + 1
    return out


def main():
    exe, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        check(exe, root, os.path.join(d, 'dump.txt'))


def check(exe, root, tmp):
    for shape in ('independent', 'long-details', 'many-types', 'wide'):
        text = gen(root, shape, 2000)
        reserved = reserved_by_type(text)
        rc, doc, err = read(exe, text, tmp)
        if rc != 0 or 'warning' in err:
            stop('%s: status %d, stderr %r' % (shape, rc, err[:300]))
        d = doc['dumps'][0]
        if d['lines']['regions'] != 2000 or d['lines']['unparsed'] != 0:
            stop('%s: lines %r' % (shape, d['lines']))
        counts = {}
        for g in d['groups']:
            counts[g['type']] = counts.get(g['type'], 0) + g['count']
        written = {row['type']: row['count'] for row in d['summary_rows']}
        # Region lines cut type names to 24 bytes (not -w): match by prefix.
        for t, n in written.items():
            got = counts.get(t, counts.get(t[:24], 0))
            want = n - reserved.get(t, reserved.get(t[:24], 0))
            if got != want:
                stop('%s: type %r: %d regions read, %d written (%d of them reserved)' %
                     (shape, t, got, n, n - want))
        if sum(counts.values()) != 2000 - sum(reserved.values()):
            stop('%s: %d regions in the groups' % (shape, sum(counts.values())))
        print('ok %s: 2000 regions, %d types' % (shape, len(written)))

    text = gen(root, 'summary-heavy', 400)
    rc, doc, err = read(exe, text, tmp)
    if rc != 0 or 'warning' in err:
        stop('summary-heavy: status %d, stderr %r' % (rc, err[:300]))
    headers = text.count(b'\nProcess:') + text.startswith(b'Process:')
    rows = sum(len(d['summary_rows']) for d in doc['dumps'])
    table_rows = sum(1 for line in text.split(b'\n')
                     if line and not line.startswith((b'=', b'TOTAL', b'REGION', b' '))
                     and line.rstrip().split()[-1].isdigit() and b':' not in line)
    if len(doc['dumps']) != headers or rows != table_rows:
        stop('summary-heavy: %d dumps for %d headers, %d rows for %d written' %
             (len(doc['dumps']), headers, rows, table_rows))
    print('ok summary-heavy: %d dumps, %d rows' % (headers, rows))

    rc, doc, err = read(exe, gen(root, 'corpus', 3000), tmp)
    if rc != 0 or not doc['dumps']:
        stop('corpus: status %d' % rc)
    print('ok corpus: %d dumps' % len(doc['dumps']))


if __name__ == '__main__':
    main()
