#!/usr/bin/env python3
"""Golden test runner.

A case is a directory tests/golden/<kind>/<case>/ holding:
  cmd     one shell command line; "iotally" is the binary under test
  stdin   (optional) bytes fed to standard input
  stdout, stderr, status   the expected output, byte for byte

The command runs from the project root with LC_ALL=C and TZ=UTC.
With IOTALLY_REGEN=1 (meson test --setup regen) the expected files are
rewritten from the actual run instead, for review with git diff.

--check-registry compares the case directories on disk with the cases
meson registered: a case on disk that no test runs is an error.
"""

import argparse
import difflib
import os
import subprocess
import sys


def run_case(binary, root, case):
    case_dir = os.path.join(root, case)
    with open(os.path.join(case_dir, 'cmd'), encoding='utf-8') as f:
        cmd = f.read().strip()
    if '/dev/full' in cmd and not os.path.exists('/dev/full'):
        print('%s: skipped: this system has no /dev/full (macOS)' % case)
        return 77
    stdin_path = os.path.join(case_dir, 'stdin')
    stdin = open(stdin_path, 'rb') if os.path.exists(stdin_path) else subprocess.DEVNULL
    env = dict(os.environ)
    env['LC_ALL'] = 'C'
    env['TZ'] = 'UTC'
    env['PATH'] = os.path.dirname(os.path.abspath(binary)) + os.pathsep + env.get('PATH', '')
    try:
        proc = subprocess.run(['sh', '-c', cmd], cwd=root, stdin=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=env, timeout=120)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    actual = {
        'stdout': proc.stdout,
        'stderr': proc.stderr,
        'status': ('%d\n' % proc.returncode).encode(),
    }
    if os.environ.get('IOTALLY_REGEN') == '1':
        for name, data in actual.items():
            with open(os.path.join(case_dir, name), 'wb') as f:
                f.write(data)
        print('regenerated', case)
        return 0
    failed = False
    for name, data in actual.items():
        path = os.path.join(case_dir, name)
        try:
            with open(path, 'rb') as f:
                expected = f.read()
        except FileNotFoundError:
            print('%s: missing expected file %s' % (case, name))
            failed = True
            continue
        if expected != data:
            failed = True
            print('%s: %s differs' % (case, name))
            diff = difflib.unified_diff(
                expected.decode('utf-8', 'replace').splitlines(True),
                data.decode('utf-8', 'replace').splitlines(True),
                'expected/' + name, 'actual/' + name)
            sys.stdout.writelines(list(diff)[:200])
    print('command:', cmd)
    return 1 if failed else 0


def check_registry(root, cases):
    golden = os.path.join(root, 'tests', 'golden')
    on_disk = set()
    for kind in sorted(os.listdir(golden)):
        kdir = os.path.join(golden, kind)
        if not os.path.isdir(kdir):
            continue
        for case in os.listdir(kdir):
            if os.path.isdir(os.path.join(kdir, case)):
                on_disk.add('tests/golden/%s/%s' % (kind, case))
    registered = set(cases)
    status = 0
    for c in sorted(on_disk - registered):
        print('case on disk but not registered in meson:', c)
        status = 1
    for c in sorted(registered - on_disk):
        print('case registered but missing on disk:', c)
        status = 1
    print('%d golden cases registered' % len(registered))
    return status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin')
    ap.add_argument('--root', required=True)
    ap.add_argument('--case')
    ap.add_argument('--check-registry', nargs='*')
    args = ap.parse_args()
    if args.check_registry is not None:
        return check_registry(args.root, args.check_registry)
    return run_case(args.bin, args.root, args.case)


if __name__ == '__main__':
    sys.exit(main())
