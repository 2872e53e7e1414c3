#!/usr/bin/env python3
"""Load iotally's NDJSON rows of the fixtures into DuckDB and check the queries
of docs/fleet.md against figures known from how the fixtures were made.

  duckdb-fleet.py IOTALLY ROOT NODE_MODULES

The SQL is taken from docs/fleet.md itself (every ```sql block whose first line
is '-- fleet-test: NAME'), so the documented queries are the tested ones. Each
runs in DuckDB through npm @duckdb/node-api (tests/duckdb-run.cjs; tools/dev
installs it into .deps/node). A missing Node.js or DuckDB is a failure, not a
skip: CI installs both, and a test that cannot run proves nothing.

The expected figures do not come from iotally: they come from the edits that
built the AFTER captures (fixtures/diff/README.md, fixtures/diff/*.edits,
fixtures/diff-folders/README.md) and from numbers printed in the capture files
themselves (read here with a regular expression).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from casecheck import stop

MiB = 1 << 20
BEFORE = 'fixtures/diff-folders/before'
AFTER = 'fixtures/diff-folders/after'
EMPTY = 'fixtures/vmmap/empty.txt'
MLX = 'fixtures/footprint/macos26.5-arm64-footprint-swapped-wired-elided-mlx.txt'
FOOTPRINT = ['fixtures/footprint/constructed-bytes-swapped-wired.txt',
             'fixtures/footprint/constructed-formatted-two-processes.txt', MLX]
FP_BEFORE = 'fixtures/footprint/constructed-formatted-two-processes.txt'
FP_MOVED = 'fixtures/footprint-diff/constructed-formatted-iosurface-moved-relaunched.txt'
MLX_LESS = 'fixtures/footprint-diff/macos26.5-arm64-footprint-elided-mlx-gpu-64m-less.txt'
# The queries pair captures by the rows' side and pair, never by path: the
# rows are written from copies of BEFORE and AFTER under names that are not
# before/after, given as relative paths.
BASELINE = 'baseline'
NIGHTLY = 'nightly'


def doc_queries(root):
    with open(os.path.join(root, 'docs', 'fleet.md'), encoding='utf-8') as f:
        text = f.read()
    queries = {}
    for block in re.findall(r'```sql\n(.*?)```', text, re.S):
        m = re.match(r'-- fleet-test: (\S+)\n', block)
        if m:
            queries[m.group(1)] = block[m.end():]
    return queries


def emit(iotally, root, out, args, expect_status, cwd=None):
    with open(out, 'wb') as f:
        proc = subprocess.run([iotally] + args, cwd=cwd or root, stdout=f,
                              stderr=subprocess.PIPE)
    if proc.returncode != expect_status:
        stop('%s exited %d, expected %d:\n%s' % (' '.join(args), proc.returncode,
                                                  expect_status, proc.stderr.decode()))


def printed(root, path, pattern):
    """A number as the capture file itself prints it."""
    with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
        m = re.search(pattern, f.read())
    if not m:
        stop('%s: no match for %s' % (path, pattern))
    return int(m.group(1), 0)


def expected(root):
    alloc = {}
    for side, path in (('before', 'fixtures/diff/classes-before.txt'),
                       ('after', 'fixtures/diff/classes-after.txt')):
        alloc[side] = [printed(root, path, r'"%s allocation"=(\d+)' % k)
                       for k in ('Instance', 'Container', 'IOMalloc', 'Pageable')]
    # fixtures/diff/README.md: Instance allocation +1048576, IOMalloc +65536.
    if [a - b for a, b in zip(alloc['after'], alloc['before'])] != [MiB, 0, 65536, 0]:
        stop('classes fixtures do not hold the documented allocation edits')
    total_before = printed(root, 'fixtures/diff/track-before.txt', r'(0x[0-9a-f]+) bytes total')
    total_after = printed(root, 'fixtures/diff/track-after.txt', r'(0x[0-9a-f]+) bytes total')
    # fixtures/diff-folders/README.md: net total +1044480 bytes.
    if total_after - total_before != 1044480:
        stop('track fixtures do not hold the documented total')
    return {
        # Three vmmap dumps: the two app-vmmap.txt of the folders and one
        # empty file beside the nightly one (the folders' ioreg.txt and
        # track.txt are other kinds).
        'inputs': [['error', 1], ['ok', 2]],
        'errors': [[NIGHTLY + '/empty.txt', NIGHTLY + '/empty.txt: error: the input is empty']],
        # vmmap-after.edits: + 3 IOAccelerator (graphics) regions of 128 MiB,
        # PURGE=N, all resident, none dirty; + 5 IOSurface regions of 1 MiB,
        # PURGE=N, resident and dirty. Nothing else changed.
        'gpu-growth': [['IOAccelerator (graphics)', 'N', 3, 3 * 128 * MiB],
                       ['IOSurface', 'N', 5, 5 * MiB]],
        # fixtures/diff/README.md, classes-after.txt: OSDictionary +100,
        # IOSurface +5, IOSurfaceRootUserClient 0 -> 5, AGXGLContext new = 3,
        # IOPCIDevice +2, IOService 4 -> 5, IOUserClient 0 -> 1,
        # OSValueObject<void*> (2) gone.
        'class-growth': [['OSDictionary', 100], ['IOSurface', 5],
                         ['IOSurfaceRootUserClient', 5], ['AGXGLContext', 3],
                         ['IOPCIDevice', 2], ['IOService', 1], ['IOUserClient', 1],
                         ['OSValueObject<void*>', -2]],
        'allocations': [[BASELINE + '/ioreg.txt'] + alloc['before'],
                        [NIGHTLY + '/ioreg.txt'] + alloc['after']],
        # track-after.txt: one new 1 MiB call site, NewCache::grow, 4 calls.
        'new-sites': [['com.example.driver.NewCache',
                       'com.example.driver.NewCache: NewCache::grow(unsigned long)',
                       MiB, 4]],
        # fixtures/diff-folders/gates-past-boundary.txt: every gate set one step
        # past the growth built in, so each trips with exactly that growth.
        'tripped-gates': [['app-vmmap.txt', 'vmmap:IOAccelerator (graphics):N.vsize >= +384M',
                           3 * 128 * MiB],
                          ['app-vmmap.txt', 'vmmap:IOSurface.count >= +5', 5],
                          ['ioreg.txt', 'alloc:instance >= +1MiB', MiB],
                          ['ioreg.txt', 'classes:IOSurface >= +5', 5],
                          ['track.txt', 'track:total >= +1044480', 1044480]],
        # The largest changes built in (diff README): +3 x 128 MiB of
        # IOAccelerator (graphics) (N), +5 x 1 MiB of IOSurface (N), then the
        # Instance allocation +1 MiB and the new 1 MiB call site (a tie, by
        # kind), then the IOMalloc allocation +65536.
        'diff-changes': [['vmmap', 'rows', 'IOAccelerator (graphics)', 'N', 'vsize',
                          3 * 128 * MiB],
                         ['vmmap', 'rows', 'IOSurface', 'N', 'vsize', 5 * MiB],
                         ['classes', 'allocation', 'instance', None, 'allocation', MiB],
                         ['track', 'sites',
                          'com.example.driver.NewCache: NewCache::grow(unsigned long)', None,
                          'bytes', MiB],
                         ['classes', 'allocation', 'iomalloc', None, 'allocation', 65536]],
        # fixtures/footprint/README.md: Metal App 512 + 256 + 128 + 1 MiB + 512 KiB
        # (exact bytes); render 400 MiB + 6817 KiB, helper 1000 KiB (rounded); the
        # Python capture lists one GPU row, as printed, then elides rows.
        'footprint-gpu': [['Python', 1581, printed(root, MLX, r'(\d+) MB .*IOAccelerator') * MiB,
                           True, True],
                          ['Metal App', 4242, 941096960, False, False],
                          ['render', 100, 400 * MiB + 6817 * 1024, True, False],
                          ['helper', 101, 1000 * 1024, True, False]],
        # Every byte of both captures is in some module's row.
        'modules-total': total_before + total_after,
        # FP_MOVED moves IOSurface from render (the first IOSurface row of each
        # capture, 400 -> 336 MB) to helper, relaunched under another pid (its
        # new IOSurface row, after its header): render loses what helper gains
        # (gpu.dirty), each matched by name (pids as the headers print them).
        'footprint-process-gpu': [
            ['helper', printed(root, FP_BEFORE, r'helper \[(\d+)\]'),
             printed(root, FP_MOVED, r'helper \[(\d+)\]'), 'relaunched',
             printed(root, FP_MOVED, r'(?s)helper \[\d+\].*?(\d+) MB +0 B +0 B +\d+ +IOSurface') * MiB],
            ['render', printed(root, FP_BEFORE, r'render \[(\d+)\]'),
             printed(root, FP_MOVED, r'render \[(\d+)\]'), 'same',
             (printed(root, FP_MOVED, r'(\d+) MB +0 B +0 B +\d+ +IOSurface') -
              printed(root, FP_BEFORE, r'(\d+) MB +0 B +0 B +\d+ +IOSurface')) * MiB]],
        # MLX_LESS is MLX with less IOAccelerator (graphics) Dirty, Footprint and
        # phys_footprint, both elided (" ..."): each figure moves by what the two
        # files print apart, all rounded (printed in MB), and gpu.dirty (the one
        # GPU row listed) is the one lower bound: the others are printed, not summed.
        'footprint-diff-bound': [
            ['figures', m, (printed(root, MLX, pattern) - printed(root, MLX_LESS, pattern)) * MiB,
             True, m == 'gpu.dirty']
            for m, pattern in (('footprint', r'Footprint: (\d+) MB'),
                               ('gpu.dirty', r'\n(\d+) MB .*IOAccelerator'),
                               ('phys_footprint', r'phys_footprint: (\d+) MB'))],
    }


def normalise(rows):
    """DuckDB's JSON gives 64- and 128-bit integers as strings: compare as ints."""
    out = []
    for row in rows:
        out.append([int(v) if isinstance(v, str) and re.fullmatch(r'-?\d+', v) else v
                    for v in row])
    return out


def check_gpu_per_capture(rows):
    """The per-capture GPU rows of AFTER minus BEFORE: the same edits, per purge state."""
    delta = {}
    for source, process, captured, purge, regions, vsize, dirty in rows:
        sign = 1 if source.startswith(NIGHTLY + '/') else -1
        d = delta.setdefault(purge, [0, 0, 0])
        for i, v in enumerate((regions, vsize, dirty)):
            d[i] += sign * v
        if process != 'GPUStress':
            stop('gpu-per-capture: process %r' % process)
    want = {'N': [8, 3 * 128 * MiB + 5 * MiB, 5 * MiB]}
    got = {k: v for k, v in delta.items() if v != [0, 0, 0]}
    if got != want:
        stop('gpu-per-capture: AFTER - BEFORE is %r, expected %r' % (got, want))


def check_gpu_rows(rows, per_capture):
    """The gpu row of each dump is the sum of that capture's GPU group rows
    (the query above, summed over purge states), and AFTER - BEFORE is the
    construction's +8 regions, +3 x 128 MiB + 5 MiB."""
    groups = {}
    for source, process, captured, purge, regions, vsize, dirty in per_capture:
        g = groups.setdefault(source, [0, 0, 0])
        for i, v in enumerate((regions, vsize, dirty)):
            g[i] += v
    if len(rows) != len(groups):
        stop('gpu-row-per-dump: %d gpu rows for %d captures' % (len(rows), len(groups)))
    delta = [0, 0, 0]
    for source, dump, regions, vsize, resident, dirty, rounded in rows:
        if groups.get(source) != [regions, vsize, dirty]:
            stop('gpu-row-per-dump: %s says %r, its group rows %r' %
                 (source, [regions, vsize, dirty], groups.get(source)))
        sign = 1 if source.startswith(NIGHTLY + '/') else -1
        for i, v in enumerate((regions, vsize, dirty)):
            delta[i] += sign * v
    if delta != [8, 3 * 128 * MiB + 5 * MiB, 5 * MiB]:
        stop('gpu-row-per-dump: AFTER - BEFORE is %r' % delta)


def main():
    iotally, root, modules = sys.argv[1:4]
    iotally = os.path.abspath(iotally)
    root = os.path.abspath(root)
    modules = os.path.abspath(modules)
    runner = os.path.join(root, 'tests', 'duckdb-run.cjs')
    if not os.path.isdir(os.path.join(modules, '@duckdb', 'node-api')):
        stop('DuckDB (npm @duckdb/node-api) is not installed in %s: run tools/dev test, '
             'which installs it' % modules)
    queries = doc_queries(root)
    want = expected(root)
    for name in list(want) + ['gpu-per-capture', 'gpu-row-per-dump']:
        if name != 'modules-total' and name not in queries:
            stop('docs/fleet.md has no query "-- fleet-test: %s"' % name)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(root, BEFORE), os.path.join(tmp, BASELINE))
        shutil.copytree(os.path.join(root, AFTER), os.path.join(tmp, NIGHTLY))
        shutil.copy(os.path.join(root, EMPTY), os.path.join(tmp, NIGHTLY, 'empty.txt'))
        emit(iotally, root, os.path.join(tmp, 'vmmap.ndjson'),
             ['vmmap', '--format', 'ndjson', '--all-types', BASELINE, NIGHTLY], 65, tmp)
        emit(iotally, root, os.path.join(tmp, 'classes.ndjson'),
             ['classes', '--format', 'ndjson', BASELINE, NIGHTLY], 65, tmp)
        emit(iotally, root, os.path.join(tmp, 'track.ndjson'),
             ['track', '--format', 'ndjson', BASELINE, NIGHTLY], 65, tmp)
        emit(iotally, root, os.path.join(tmp, 'diff.ndjson'),
             ['diff', '--format', 'ndjson', '--gates',
              os.path.join(root, 'fixtures/diff-folders/gates-past-boundary.txt'),
              BASELINE, NIGHTLY], 1, tmp)
        emit(iotally, root, os.path.join(tmp, 'footprint.ndjson'),
             ['footprint', '--format', 'ndjson'] + FOOTPRINT, 0)
        emit(iotally, root, os.path.join(tmp, 'diff-footprint.ndjson'),
             ['diff', '--format', 'ndjson', FP_BEFORE, FP_MOVED], 0)
        emit(iotally, root, os.path.join(tmp, 'diff-elided.ndjson'),
             ['diff', '--format', 'ndjson', MLX_LESS, MLX], 0)
        proc = subprocess.run(['node', runner, modules], cwd=tmp, input=json.dumps(queries),
                              stdout=subprocess.PIPE, universal_newlines=True)
        if proc.returncode != 0:
            stop('DuckDB could not run the queries of docs/fleet.md')
        got = {k: normalise(v) for k, v in json.loads(proc.stdout).items()}
    status = 0
    for name, rows in sorted(want.items()):
        if name == 'modules-total':
            total = sum(r[2] for r in got['modules'])
            if total != rows:
                print('modules: the bytes add up to %d, expected %d' % (total, rows))
                status = 1
            else:
                print('modules: the bytes add up to both captures\' printed totals')
            continue
        if got[name] != rows:
            print('%s: got %r\n  expected %r' % (name, got[name], rows))
            status = 1
        else:
            print('%s: %d rows as expected' % (name, len(rows)))
    check_gpu_per_capture(got['gpu-per-capture'])
    print('gpu-per-capture: AFTER - BEFORE as built')
    check_gpu_rows(got['gpu-row-per-dump'], got['gpu-per-capture'])
    print('gpu-row-per-dump: each the sum of its GPU groups, AFTER - BEFORE as built')
    return status


if __name__ == '__main__':
    sys.exit(main())
