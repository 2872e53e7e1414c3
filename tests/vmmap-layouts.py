#!/usr/bin/env python3
"""vmmap layouts read the same way.

usage: vmmap-layouts.py IOTALLY ROOT

1. Pairs of fixtures that hold the same figures in two layouts (a real
   capture and one rebuilt from it, see fixtures/vmmap/README.md) must give
   the same report, byte for byte.
"""

import os
import subprocess
import sys

# (constructed layout, the real capture it was made from, options)
SAME_FIGURES = [
    ('summary-one-line-header.txt', 'macos26.4.1-arm64-summary-mlx-python.txt', ['--all-types']),
]


def run(iotally, root, args):
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    proc = subprocess.run([iotally] + args, cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def check_same_figures(iotally, root):
    failures = 0
    for made, real, opts in SAME_FIGURES:
        a = run(iotally, root, ['vmmap'] + opts + ['fixtures/vmmap/' + made])
        b = run(iotally, root, ['vmmap'] + opts + ['fixtures/vmmap/' + real])
        if a[0] != b[0] or a[1] != b[1]:
            print('%s and %s report different figures' % (made, real))
            failures += 1
    return failures


def main():
    iotally, root = sys.argv[1], sys.argv[2]
    failures = check_same_figures(iotally, root)
    if failures:
        print('%d check(s) failed' % failures)
        return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
