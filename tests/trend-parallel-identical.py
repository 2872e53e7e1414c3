#!/usr/bin/env python3
"""`trend -j N` and `report -j N` of a series print exactly what -j 1 prints.

  trend-parallel-identical.py IOTALLY ROOT

1. Every golden case of `iotally trend` (tests/golden/trend/*) and of the
   series report (tests/golden/report/series-*) is run again with -j 1, -j 2
   and -j 4 put after the command's name (a wrapper named `iotally` first on
   PATH), and each run must give the case's expected standard output,
   standard error and exit status byte for byte: the golden files are the
   outputs checked by their own `why`, and -j must not move a byte.

2. Larger series, so that workers overtake each other: 80 vmmap samples
   (fixtures/trend/leak four times under other names, so capture times
   repeat and each sample says so), with inputs left out among them (an
   empty file, a partial capture, a missing file), a line not understood,
   a file of two dumps,
   of another kind (a classes capture first, or in the middle with and
   without --kind), 60 classes samples, the series bundle and its archive.
   trend (text, JSON, Markdown, HTML, --junit, gates), report (Markdown,
   HTML) and standard output that cannot be written, at -j 1, 2 and 4: the
   runs must agree on standard output, standard error, exit status and the
   JUnit file. So that the test cannot pass by checking nothing, the runs
   together must show warnings, left-out inputs, notes, a tripped gate (1),
   a refusal (65) and output.

3. -j 0, -j 257 and -j x are usage errors (64) of trend and report.
"""

import os
import shutil
import stat
import subprocess
import sys
import tempfile

JOBS = ['1', '2', '4']


def wrapper(tmp, iotally, jobs):
    """A folder whose `iotally` runs IOTALLY with -j JOBS after trend or report."""
    d = os.path.join(tmp, 'bin-j' + jobs)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, 'iotally')
    with open(path, 'w') as f:
        f.write('#!/bin/sh\n'
                'case "$1" in\n'
                'trend|report) c=$1; shift; exec "%s" "$c" -j %s "$@";;\n'
                'esac\n'
                'exec "%s" "$@"\n' % (iotally, jobs, iotally))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return d


def golden_cases(root):
    golden = os.path.join(root, 'tests', 'golden')
    cases = []
    for kind, keep in (('trend', lambda n: True), ('report', lambda n: n.startswith('series-'))):
        kdir = os.path.join(golden, kind)
        for name in sorted(os.listdir(kdir)):
            if os.path.isdir(os.path.join(kdir, name)) and keep(name):
                cases.append(os.path.join(kdir, name))
    return cases


def run_golden(case_dir, root, bindir):
    with open(os.path.join(case_dir, 'cmd'), encoding='utf-8') as f:
        cmd = f.read().strip()
    stdin_path = os.path.join(case_dir, 'stdin')
    stdin = open(stdin_path, 'rb') if os.path.exists(stdin_path) else subprocess.DEVNULL
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    env['PATH'] = bindir + os.pathsep + env.get('PATH', '')
    try:
        proc = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], cwd=root, stdin=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                              timeout=120)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    return {'stdout': proc.stdout, 'stderr': proc.stderr,
            'status': ('%d\n' % proc.returncode).encode()}


def check_golden(iotally, root, tmp):
    failures = 0
    cases = golden_cases(root)
    if len(cases) < 40:
        print('FAIL: only %d golden cases of trend and the series report found' % len(cases))
        failures += 1
    for jobs in JOBS:
        bindir = wrapper(tmp, iotally, jobs)
        for case_dir in cases:
            if '/dev/full' in open(os.path.join(case_dir, 'cmd')).read() and \
                    not os.path.exists('/dev/full'):
                continue
            got = run_golden(case_dir, root, bindir)
            for what, data in got.items():
                with open(os.path.join(case_dir, what), 'rb') as f:
                    want = f.read()
                if want != data:
                    failures += 1
                    print('FAIL: %s at -j %s: %s differs from the golden file' %
                          (os.path.relpath(case_dir, root), jobs, what))
                    print('  want: %r\n  got:  %r' % (want[:600], data[:600]))
    return failures, len(cases)


def run(iotally, root, args, jobs, junit=None):
    """stdout, stderr, status (and the JUnit file's bytes) of one run."""
    full = args[0] == 'full'
    if full:
        args = args[1:]
    cmd = [iotally, args[0], '-j', jobs] + args[1:]
    if junit:
        cmd[2:2] = ['--junit', junit]
    proc = subprocess.run(cmd, cwd=root, stdout=open('/dev/full', 'wb') if full else
                          subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, LC_ALL='C', TZ='UTC'))
    got = [proc.stdout, proc.stderr, proc.returncode]
    if junit:
        try:
            with open(junit, 'rb') as f:
                got.append(f.read())
            os.unlink(junit)
        except FileNotFoundError:
            got.append(None)
    return got


def make_series(root, tmp):
    """Folders of many samples, some left out; their paths."""
    fx = os.path.join(root, 'fixtures')
    leak = os.path.join(fx, 'trend', 'leak')
    names = sorted(os.listdir(leak))
    many = os.path.join(tmp, 'many')
    os.makedirs(many)
    for t in range(4):
        for n in names:
            shutil.copyfile(os.path.join(leak, n), os.path.join(many, '%d-%s' % (t, n)))
    # Left out in turn: empty, partial, lines not understood (a note, still used).
    open(os.path.join(many, '1-sample-05x-empty.txt'), 'w').close()
    shutil.copyfile(os.path.join(fx, 'trend', 'partial.txt'),
                    os.path.join(many, '2-sample-09x-partial.txt'))
    with open(os.path.join(leak, names[3]), 'rb') as f:
        lines = f.read().split(b'\n')
    at = next(i for i, l in enumerate(lines) if l.startswith(b'IOSurface '))
    lines.insert(at, b'IOSurface   1zz000000-104800000    [ 8192K  8192K  8192K     0K] '
                     b'rw-/rw- SM=SHM PURGE=N ')
    with open(os.path.join(many, '3-sample-12x-unparsed.txt'), 'wb') as f:
        f.write(b'\n'.join(lines))
    # Two dumps: a note, the first used.
    with open(os.path.join(many, '0-sample-17x-two-dumps.txt'), 'wb') as out:
        for n in (names[16], names[17]):
            with open(os.path.join(leak, n), 'rb') as f:
                out.write(f.read())
    # Samples that take a worker far longer than the small ones after them (20,000
    # regions of a type the trend does not follow, some 400 times a small sample's
    # lines), so that those finish first and
    # wait for their turn; each says something, and so do the ones right after it.
    for t, (n, m) in enumerate(((names[4], names[5]), (names[9], names[10]),
                                (names[13], names[14]))):
        with open(os.path.join(leak, n), 'rb') as f:
            lines = f.read().split(b'\n')
        at = next(i for i, l in enumerate(lines) if l.startswith(b'IOSurface '))
        lines[at:at] = [b'MALLOC_SMALL                %09x-%09x    [ 8192K  8192K  8192K     0K] '
                        b'rw-/rw- SM=PRV ' % (0x200000000 + r * 0x800000,
                                              0x200000000 + (r + 1) * 0x800000)
                        for r in range(20000)]
        with open(os.path.join(leak, m), 'rb') as f:
            second = f.read()
        with open(os.path.join(many, '%d-%sa-large.txt' % (t, n[:-4])), 'wb') as f:
            f.write(b'\n'.join(lines) + second)
        with open(os.path.join(many, '%d-%sb-unparsed.txt' % (t, n[:-4])), 'wb') as f:
            f.write(b'\n'.join(lines[:at] + [b'IOSurface   1zz-2zz    [ 8192K  8192K  8192K     '
                                             b'0K] rw-/rw- SM=SHM PURGE=N '] +
                                 lines[at + 20000:]))
    samples = sorted(os.path.join(many, n) for n in os.listdir(many))
    classes = os.path.join(tmp, 'classes')
    os.makedirs(classes)
    cdir = os.path.join(fx, 'trend', 'classes')
    for t in range(6):
        for n in sorted(os.listdir(cdir)):
            shutil.copyfile(os.path.join(cdir, n), os.path.join(classes, '%d-%s' % (t, n)))
    csamples = sorted(os.path.join(classes, n) for n in os.listdir(classes))
    return samples, csamples


def check_series(iotally, root, tmp):
    samples, csamples = make_series(root, tmp)
    missing = os.path.join(tmp, 'no-such-sample.txt')
    other = os.path.join(root, 'fixtures', 'trend', 'classes', 'ioreg-01.txt')
    mid = samples[:40] + [other] + samples[40:]
    junit = os.path.join(tmp, 'junit.xml')
    bundle = 'fixtures/series-bundle/leak'
    gate = 'vmmap:IOSurface.dirty slope > 1MiB/h'
    cases = [
        (['trend'] + samples + [missing], None),
        (['trend', '--format', 'json'] + samples, None),
        (['trend', '--format', 'markdown'] + samples, None),
        (['trend', '--format', 'html'] + samples, None),
        (['trend', '--fail-on', 'leak', '--fail-if', gate] + samples, junit),
        (['trend', other] + samples, None),
        (['trend'] + mid, None),
        (['trend', '--kind', 'vmmap'] + mid, None),
        (['trend', '--kind', 'classes'] + mid, None),
        (['trend'] + csamples, None),
        (['trend', '--format', 'json', '--min-count', '2'] + csamples, junit),
        (['trend', bundle, bundle + '.tar.gz'], None),
        (['trend', '--format', 'html', bundle + '.tar.gz'], None),
        (['report'] + samples + [missing], None),
        (['report', '--format', 'html'] + samples, None),
        (['report'] + mid, None),
        (['report', bundle], None),
        (['report', '--format', 'html', bundle + '.tar.gz'], None),
        (['full', 'trend'] + samples, None),
        (['full', 'report'] + samples, None),
    ]
    failures = 0
    statuses = set()
    stderr_all = b''
    for args, junit_file in cases:
        runs = {j: run(iotally, root, args, j, junit_file) for j in JOBS}
        first = runs[JOBS[0]]
        statuses.add(first[2])
        stderr_all += first[1]
        label = ' '.join(os.path.basename(a) for a in args[:6]) + \
            (' ... (%d arguments)' % len(args) if len(args) > 6 else '')
        if args[0] == 'full':
            if b'cannot write' not in first[1]:
                failures += 1
                print('FAIL: %s: no write error said: %r' % (label, first[1][:300]))
        elif not first[0] and first[2] in (0, 1):
            failures += 1
            print('FAIL: %s printed nothing on standard output' % label)
        for j in JOBS[1:]:
            for what, a, b in zip(('stdout', 'stderr', 'status', 'junit'), first, runs[j]):
                if a != b:
                    failures += 1
                    print('FAIL: %s: -j %s and -j 1 differ in %s' % (label, j, what))
                    if what in ('stderr', 'status'):
                        print('  -j 1: %r\n  -j %s: %r' % (a[:1500], j, b[:1500]))
    for needed, why in ((0, 'a trend'), (1, 'a tripped gate'), (65, 'a refusal')):
        if needed not in statuses:
            failures += 1
            print('FAIL: no run exited %d (%s): %r' % (needed, why, sorted(statuses)))
    for needed in (b'warning:', b'note: holds 2 dumps', b'left out: partial',
                   b'same capture time', b'line not understood', b'different kinds: classes',
                   b'--kind vmmap, but the inputs are captures of', b' more), classes ('):
        if needed not in stderr_all:
            failures += 1
            print('FAIL: no run printed %r' % needed)
    return failures, len(cases)


def check_bad_jobs(iotally, root):
    failures = 0
    for bad in ('0', '257', 'x'):
        for cmd in ('trend', 'report'):
            proc = subprocess.run([iotally, cmd, '-j', bad, 'fixtures/trend/leak'], cwd=root,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=dict(os.environ, LC_ALL='C'))
            want = ("iotally: error: -j needs a number of jobs from 1 to 256, got '%s'" %
                    bad).encode()
            if proc.returncode != 64 or not proc.stderr.startswith(want) or proc.stdout:
                failures += 1
                print('FAIL: %s -j %r: exit %d, %r' % (cmd, bad, proc.returncode,
                                                      proc.stderr[:300]))
    return failures


def main():
    iotally, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix='iotally-trend-parallel-')
    try:
        f1, n1 = check_golden(iotally, root, tmp)
        f2, n2 = check_series(iotally, root, tmp)
        f3 = check_bad_jobs(iotally, root)
    finally:
        shutil.rmtree(tmp)
    failures = f1 + f2 + f3
    if failures:
        print('%d failures' % failures)
        return 1
    print('%d golden cases and %d series runs agree at -j %s' % (n1, n2, ', '.join(JOBS)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
