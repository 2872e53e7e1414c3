#!/usr/bin/env python3
"""iotally vmmap writes each dump as it closes: same output, flat memory.

    vmmap-stream.py IOTALLY SOURCE_ROOT

Text, Markdown and CSV are written dump by dump while the parse goes on
(docs/vmmap.md); JSON still reads the whole input first. Checks:
- CSV of a file of many dumps (seeded dumps of tools/gen-vmmap-shapes.py,
  concatenated) holds exactly the rows the JSON report's groups give, dump
  by dump, in the same order (two writers, two paths through the vmmap command);
- --snapshot N's CSV is dump N's rows of the whole CSV, numbered 1;
- standard error: the warnings of the whole input come before the first
  note, and the notes on GPU memory left out name the dumps in input
  order, then the notes on dumps without regions, in input order;
- peak memory: 1,600 -summary dumps take less than 1.5 x the peak of 160
  (the whole read held every dump: about 10 x).
"""

import json
import os
import re
import subprocess
import sys
import tempfile

from casecheck import stop


def gen(root, shape, regions, seed):
    return subprocess.run([sys.executable, root + '/tools/gen-vmmap-shapes.py', '--shape', shape,
                           '--regions', str(regions), '--seed', str(seed)],
                          check=True, stdout=subprocess.PIPE).stdout


def run(exe, *args):
    r = subprocess.run([exe, 'vmmap'] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def csv_from_json(doc):
    rows = []
    for i, d in enumerate(doc['dumps'], 1):
        for g in d['groups']:
            rows.append('%d,%s,%s,%s,%s,%d,%d,%d,%d,%d' % (
                i, d['process']['name'], d['process']['pid'], g['type'], g['purge'],
                g['count'], g['vsize'], g['resident'], g['dirty'], g['swapped']))
    return rows


def peak_kib(exe, path):
    """The peak RSS of one run, from GNU time: a child forked here would
    carry this interpreter's own peak across its exec."""
    # Under AddressSanitizer freed memory waits in a quarantine instead of
    # being reused: without one, a sanitized build is measured alike.
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [env.get('ASAN_OPTIONS'),
                                                 'quarantine_size_mb=0']))
    # meson test sets MALLOC_PERTURB_, which makes glibc write over every
    # block it hands out or takes back: pages the program never touches
    # count as resident, and by how many depends on the heap's layout.
    env.pop('MALLOC_PERTURB_', None)
    peaks = []
    # The least of three runs: one run's peak moves by a few hundred KiB
    # with address-space layout alone.
    for _ in range(3):
        r = subprocess.run(['/usr/bin/time', '-f', '%M', exe, 'vmmap', path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if r.returncode != 0:
            stop('vmmap %s exited %d' % (path, r.returncode))
        peaks.append(int(r.stderr.decode().strip().splitlines()[-1]))
    return min(peaks)


def main():
    exe, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        many = os.path.join(tmp, 'many.txt')
        with open(many, 'wb') as f:
            for seed in range(12):
                f.write(gen(root, 'independent', 400, seed + 1))
        rc, out, err = run(exe, '--all-types', '--format', 'json', many)
        if rc != 0:
            stop('json exited %d: %s' % (rc, err))
        doc = json.loads(out)
        if len(doc['dumps']) != 12:
            stop('expected 12 dumps, read %d' % len(doc['dumps']))
        want = csv_from_json(doc)
        rc, out, err = run(exe, '--all-types', '--format', 'csv', many)
        got = out.split('\r\n')
        if rc != 0 or got[0] != 'dump,process,pid,type,purge,count,vsize,resident,dirty,swapped':
            stop('csv: exit %d, header %r' % (rc, got[0]))
        if got[1:-1] != want or got[-1] != '':
            stop('csv rows differ from the JSON groups (%d vs %d rows)' %
                 (len(got) - 2, len(want)))
        rc, out, err = run(exe, '--all-types', '--format', 'csv', '--snapshot', '5', many)
        snap = [r for r in want if r.startswith('5,')]
        if out.split('\r\n')[1:-1] != ['1,' + r[2:] for r in snap]:
            stop('--snapshot 5 is not dump 5 of the whole CSV')

        # Standard error in the order of a whole read.
        mixed = os.path.join(tmp, 'mixed.txt')
        with open(mixed, 'wb') as f:
            for seed in range(6):
                f.write(gen(root, 'summary-heavy', 150, seed + 1))
            f.write(b'IOAccelerator   not a region line [ 16K 16K] SM=PRV\n')
        rc, out, err = run(exe, mixed)
        lines = err.splitlines()
        if not lines or 'results are partial' not in lines[-1]:
            stop('the partial warning is not the last line: %r' % lines[-1:])
        kinds = ['other' if 'results are partial' in l else
                 'warning' if ': warning: ' in l else 'left-out' if 'leave out GPU' in l
                 else 'none' if l.startswith('Summary-only dump') else 'other' for l in lines]
        order = [k for k in kinds if k != 'other']
        if order != sorted(order, key=['warning', 'left-out', 'none'].index):
            stop('standard error is not warnings, then left-out notes, then '
                 'summary-only notes: %r' % kinds)
        procs = re.findall(rb'^Process: +(\S+)', open(mixed, 'rb').read(), re.M)
        noted = [re.search(r'\(process (\S+) ', l).group(1) for l in lines
                 if l.startswith('Summary-only dump')]
        if noted != [p.decode() for p in procs]:
            stop('summary-only notes out of input order: %r' % noted)
        left = [re.search(r'\(process (\S+) ', l).group(1) for l in lines
                if 'leave out GPU' in l]
        it = iter(noted)
        if not left or not all(name in it for name in left):
            stop('left-out notes out of input order: %r' % left)

        small, large = os.path.join(tmp, 'small.txt'), os.path.join(tmp, 'large.txt')
        with open(small, 'wb') as f:
            f.write(gen(root, 'summary-heavy', 160 * 70, 3))
        with open(large, 'wb') as f:
            f.write(gen(root, 'summary-heavy', 1600 * 70, 3))
        if not os.access('/usr/bin/time', os.X_OK):
            print('ok (no GNU time: peak memory not checked)')
            return
        s, l = peak_kib(exe, small), peak_kib(exe, large)
        if l > 1.5 * s:
            stop('peak RSS grows with the number of dumps: %d KiB for ~160, %d KiB for '
                 '~1,600' % (s, l))
    print('ok')


if __name__ == '__main__':
    main()
