#!/usr/bin/env python3
"""Golden test runner.

A case is a directory tests/golden/<kind>/<case>/ holding:
  cmd     one shell command line; "iotally" is the binary under test
  stdin   (optional) bytes fed to standard input
  stdout, stderr, status   the expected output, byte for byte
  why     one line: why the expected output is right (see WHY_KINDS)

The command runs from the project root with LC_ALL=C and TZ=UTC, under
bash with pipefail: the status of a pipeline is that of its last command
to fail, so `iotally ... | wc -c` fails when iotally does.

With IOTALLY_REGEN=1 (meson test --setup regen) the expected files are
rewritten from the actual run instead, for review with git diff, but only
for a case whose `why` is "recorded contract: " (message wording) or that
IOTALLY_REGEN_CASES names (kind/case, comma-separated): a figure justified
by a construction, a round trip or an outside reference is never rewritten
by a blanket regeneration. A refused case fails and says so.

--check-registry compares the case directories on disk with the cases
meson registered: a case on disk that no test runs is an error, and so is
a case without a well-formed `why`.
"""

import argparse
import difflib
import os
import subprocess
import sys

# The justifications a golden case's `why` may give, each followed by the
# concrete reason: known edits or generator truth (construction), the same
# figures through another path (round trip), another tool or a document
# (outside reference), or wording that is itself the contract (recorded
# contract: refusal and message text only).
WHY_KINDS = ('construction: ', 'round trip: ', 'outside reference: ',
             'recorded contract: ')
REGEN_FREELY = 'recorded contract: '


def read_why(case_dir):
    """The case's justification, or (None, reason it is not well-formed)."""
    path = os.path.join(case_dir, 'why')
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except FileNotFoundError:
        return None, 'no why file'
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return None, 'why is not UTF-8'
    if text.endswith('\n'):
        text = text[:-1]
    if '\n' in text or '\r' in text:
        return None, 'why is more than one line'
    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in text):
        return None, 'why holds a control character'
    kind = next((k for k in WHY_KINDS if text.startswith(k)), None)
    if kind is None:
        return None, 'why does not start with one of %s' % ', '.join(
            repr(k) for k in WHY_KINDS)
    if not text[len(kind):].strip():
        return None, 'why gives no justification after %r' % kind
    return text, None


def regen_named(case):
    """Whether IOTALLY_REGEN_CASES names this case (kind/case)."""
    named = os.environ.get('IOTALLY_REGEN_CASES', '')
    short = case.rstrip('/')
    if short.startswith('tests/golden/'):
        short = short[len('tests/golden/'):]
    for n in named.split(','):
        n = n.strip().rstrip('/')
        if n.startswith('tests/golden/'):
            n = n[len('tests/golden/'):]
        if n and n == short:
            return True
    return False


def regenerate(case, case_dir, actual):
    changed = []
    for name, data in actual.items():
        try:
            with open(os.path.join(case_dir, name), 'rb') as f:
                if f.read() == data:
                    continue
        except FileNotFoundError:
            pass
        changed.append(name)
    if not changed:
        print('unchanged', case)
        return 0
    why, problem = read_why(case_dir)
    if not regen_named(case) and (why is None or not why.startswith(REGEN_FREELY)):
        print('%s: not regenerated: %s would change, and its why is %s' % (
            case, ', '.join(changed), repr(why) if why else '(%s)' % problem))
        print('  check every changed byte, then name the case: '
              'IOTALLY_REGEN_CASES=%s' % case.rstrip('/').replace('tests/golden/', '', 1))
        return 1
    for name in changed:
        with open(os.path.join(case_dir, name), 'wb') as f:
            f.write(actual[name])
    print('regenerated %s (%s)' % (case, ', '.join(changed)))
    return 0


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
        proc = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], cwd=root, stdin=stdin,
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
        return regenerate(case, case_dir, actual)
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
    counts = dict.fromkeys(WHY_KINDS, 0)
    for c in sorted(on_disk):
        why, problem = read_why(os.path.join(root, c))
        if why is None:
            print('%s: %s (one line starting with one of %s and the reason '
                  'its expected output is right)' % (c, problem, ', '.join(
                      repr(k) for k in WHY_KINDS)))
            status = 1
            continue
        counts[next(k for k in WHY_KINDS if why.startswith(k))] += 1
    print('why: ' + ', '.join('%s%d' % (k, n) for k, n in counts.items()))
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
