#!/usr/bin/env python3
"""Compare `iotally vmmap` with the reference script on the same dump.

The reference is Chromium's vmmap_gpu_regions.py in ../shared/seeds (beside
the project checkout). Where the script's rounded sizes are exact, the two
must agree byte for byte on stdout, stderr and exit status. When the script
is not there the test is skipped (exit 77, saying which file is missing),
except when the environment sets CI (as .ci/run and CI services do): there a
missing reference is a failure, so that a CI run cannot be green without its
only outside oracle for vmmap's figures.

  script-compare.py IOTALLY ROOT FIXTURE [--notes-differ] [-- TYPES...]

--notes-differ: stdout and status only. For summary-only dumps iotally's
stderr says more than the script's "No active regions found" by design: that
the dump is summary-only, and which GPU types the default types leave out.
"""

import os
import subprocess
import sys


def main():
    binary, root, fixture = sys.argv[1:4]
    rest = sys.argv[4:]
    notes_differ = bool(rest) and rest[0] == '--notes-differ'
    if notes_differ:
        rest = rest[1:]
    types = rest[1:] if rest and rest[0] == '--' else []
    script = os.path.join(root, '..', 'shared', 'seeds', 'vmmap_gpu_regions.py')
    if not os.path.exists(script):
        script = os.path.normpath(script)
        if os.environ.get('CI'):
            print('FAIL: the reference script %s is missing and CI is set: put the '
                  'shared reference folder beside the checkout as ../shared' % script)
            return 1
        print('skipped: the reference script %s is missing (the shared reference '
              'folder belongs beside the checkout as ../shared)' % script)
        return 77
    ref_cmd = [sys.executable, script, '--file', fixture]
    our_cmd = [binary, 'vmmap', fixture]
    if types:
        ref_cmd += ['--types'] + types
        our_cmd += ['--types', ','.join(types)]
    env = dict(os.environ, LC_ALL='C')
    ref = subprocess.run(ref_cmd, cwd=root, capture_output=True, env=env)
    ours = subprocess.run(our_cmd, cwd=root, capture_output=True, env=env)
    status = 0
    for what, a, b in (('stdout', ref.stdout, ours.stdout),
                       ('stderr', ref.stderr, ours.stderr),
                       ('status', ref.returncode, ours.returncode)):
        if what == 'stderr' and notes_differ:
            continue
        if a != b:
            print('%s differs from the reference script on %s' % (what, fixture))
            print('--- reference\n%s\n--- iotally\n%s' % (a, b))
            status = 1
    if status == 0:
        print('identical to the reference script: %s' % ' '.join(our_cmd[1:]))
    return status


if __name__ == '__main__':
    sys.exit(main())
