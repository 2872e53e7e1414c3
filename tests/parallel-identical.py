#!/usr/bin/env python3
"""-j N prints exactly what -j 1 prints.

  parallel-identical.py IOTALLY ROOT

Every command that reads many inputs is run with -j 1, -j 2 and -j 8 over
folders of many captures, and the runs must agree byte for byte: standard
output, standard error, the exit status and, for diff, the JUnit file. The
inputs are the project's fixtures, many copies of them under other names, so
that workers overtake each other: captures with warnings, inputs refused
(empty, malformed, hostile property lists, another kind in a folder),
bundles, suppressions that count per input, diff pairs whose gates trip,
pairs of different kinds and files without a counterpart. So that the test
cannot pass by checking nothing, the runs together must show warnings,
refused inputs (65), tripped gates (1) and output from every input.

Standard output that cannot be written (/dev/full) stops the run at the same
input at every -j, with the same messages.

-j 0, -j 257 and -j x are usage errors (64) with one message.
"""

import os
import shutil
import subprocess
import sys
import tempfile

JOBS = ['1', '2', '8']


def run(iotally, root, args, junit=None):
    """stdout, stderr, status (and the JUnit file's bytes) of one run."""
    cmd = [iotally] + args
    if junit:
        cmd[2:2] = ['--junit', junit]
    full = args[0] == 'full'
    if full:
        del cmd[1]
    proc = subprocess.run(cmd, cwd=root, stdout=open('/dev/full', 'wb') if full else
                          subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, LC_ALL='C'))
    got = [proc.stdout, proc.stderr, proc.returncode]
    if junit:
        with open(junit, 'rb') as f:
            got.append(f.read())
        os.unlink(junit)
    return got


def copies(src_dir, dst_dir, times, keep=lambda name: True):
    """Every file of src_dir, `times` times under other names (their order interleaved)."""
    os.makedirs(dst_dir, exist_ok=True)
    names = sorted(n for n in os.listdir(src_dir)
                   if os.path.isfile(os.path.join(src_dir, n)) and keep(n))
    for t in range(times):
        for n in names:
            shutil.copyfile(os.path.join(src_dir, n), os.path.join(dst_dir, '%02d-%s' % (t, n)))
    return len(names) * times


def main():
    iotally, root = sys.argv[1], os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix='iotally-parallel-')
    try:
        return check(iotally, root, tmp)
    finally:
        shutil.rmtree(tmp)


def check(iotally, root, tmp):
    fx = os.path.join(root, 'fixtures')
    many_vmmap = os.path.join(tmp, 'vmmap')
    copies(os.path.join(fx, 'vmmap'), many_vmmap, 3, lambda n: n != 'README.md')
    open(os.path.join(many_vmmap, 'zz-empty.txt'), 'w').close()
    shutil.copytree(os.path.join(fx, 'bundle', 'complete'), os.path.join(many_vmmap, 'zz-bundle'))
    many_classes = os.path.join(tmp, 'classes')
    copies(os.path.join(fx, 'classes'), many_classes, 2)
    many_track = os.path.join(tmp, 'track')
    copies(os.path.join(fx, 'track'), many_track, 4)
    suppress = os.path.join(tmp, 'suppress.txt')
    with open(suppress, 'w') as f:
        f.write('re:IOSurface|IOAccel\nOSData\n')
    # diff: 12 copies of each pair, one name only in AFTER, one pair of two kinds.
    before, after = os.path.join(tmp, 'before'), os.path.join(tmp, 'after')
    folders = os.path.join(fx, 'diff-folders')
    npairs = copies(os.path.join(folders, 'before'), before, 12)
    copies(os.path.join(folders, 'after'), after, 12)
    shutil.copyfile(os.path.join(folders, 'after-unpaired', 'second-app-vmmap.txt'),
                    os.path.join(after, 'only-after.txt'))
    shutil.copyfile(os.path.join(folders, 'before', 'track.txt'), os.path.join(before, 'kinds.txt'))
    shutil.copyfile(os.path.join(folders, 'after', 'ioreg.txt'), os.path.join(after, 'kinds.txt'))
    gates = os.path.join(folders, 'gates-past-boundary.txt')
    junit = os.path.join(tmp, 'junit.xml')

    cases = [
        (['vmmap', '--format', 'ndjson', many_vmmap, 'fixtures/diff-folders/before',
          'fixtures/bundle/complete.tar.gz'], None),
        (['vmmap', '--format', 'ndjson', '--all-types', '--strict', many_vmmap], None),
        (['classes', '--format', 'ndjson', many_classes, 'fixtures/ioreg',
          'fixtures/ioclasscount', 'fixtures/diff-folders/before'], None),
        (['track', '--format', 'ndjson', '--suppress', suppress, many_track,
          'fixtures/diff-folders/before'], None),
        (['full', 'vmmap', '--format', 'ndjson', many_vmmap], None),
        (['full', 'diff', '--format', 'ndjson', '--gates', gates, before, after], None),
        (['footprint', '--format', 'ndjson', 'fixtures/footprint', 'fixtures/footprint-diff'],
         None),
        (['diff', '--gates', gates, before, after], junit),
        (['diff', '--format', 'ndjson', '--gates', gates, before, after], junit),
        (['diff', '--format', 'markdown', '--gates', gates, before, after], None),
        (['diff', '--fail-if', 'vmmap:NoSuchType.vsize > +1', '--fail-if', 'track:total > +1',
          before, after], junit),
        (['diff', '--gates', gates, 'fixtures/diff-folders/before', 'fixtures/diff-folders/after'],
         junit),
        (['diff', '--format', 'ndjson', 'fixtures/bundle/complete', 'fixtures/bundle/complete.tar.gz'],
         junit),
        (['signatures', before, after], None),
        (['signatures', '--format', 'ndjson', before, after], None),
    ]
    failures = 0
    statuses = set()
    stderr_all = b''
    for args, junit_file in cases:
        at = 2 if args[0] == 'full' else 1
        runs = {j: run(iotally, root, args[:at] + ['-j', j] + args[at:], junit_file)
                for j in JOBS}
        first = runs[JOBS[0]]
        statuses.add(first[2])
        stderr_all += first[1]
        if args[0] == 'full':
            if b'cannot write output' not in first[1]:
                failures += 1
                print('FAIL: %s: no write error said' % ' '.join(args))
        elif not first[0]:
            print('FAIL: %s printed nothing on standard output' % ' '.join(args))
            failures += 1
        for j in JOBS[1:]:
            for what, a, b in zip(('stdout', 'stderr', 'status', 'junit'), first, runs[j]):
                if a != b:
                    failures += 1
                    print('FAIL: %s: -j %s and -j 1 differ in %s' % (' '.join(args), j, what))
                    if what == 'stderr' or what == 'status':
                        print('  -j 1: %r\n  -j %s: %r' % (a[:2000], j, b[:2000]))
    # The inputs exercised what they are meant to.
    for needed, why in ((65, 'a refused input'), (1, 'a tripped gate')):
        if needed not in statuses:
            failures += 1
            print('FAIL: no run exited %d (%s): %r' % (needed, why, statuses))
    for needed in (b'warning:', b'error:', b'note:', b'results are partial', b'suppressed'):
        if needed not in stderr_all:
            failures += 1
            print('FAIL: no run printed %r' % needed)
    if npairs < 3:
        failures += 1
        print('FAIL: too few diff pairs')

    for bad in ('0', '257', 'x', ''):
        for cmd in (['vmmap', '--format', 'ndjson'], ['diff']):
            out, err, status = run(iotally, root, cmd + ['-j', bad, 'fixtures/diff-folders/before',
                                                        'fixtures/diff-folders/after'])
            want = ("iotally: error: -j needs a number of jobs from 1 to 256, got '%s'" %
                    bad).encode()
            if status != 64 or not err.startswith(want) or out:
                failures += 1
                print('FAIL: -j %r: exit %d, %r' % (bad, status, err))
    print('%d passed, %d failed' % (len(cases), failures) if failures else
          '%d commands agree at -j %s' % (len(cases), ', '.join(JOBS)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
