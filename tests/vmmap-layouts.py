#!/usr/bin/env python3
"""vmmap layouts read the same way.

usage: vmmap-layouts.py IOTALLY ROOT

1. Pairs of fixtures that hold the same figures in two layouts (a real
   capture and one rebuilt from it, see fixtures/vmmap/README.md) must give
   the same report, byte for byte.
2. Every vmmap fixture gets the same verdict from content detection
   (`iotally FILE`) and from `iotally vmmap FILE`: either both read it as a
   vmmap capture (the same output, byte for byte: detection ran the vmmap
   command), or vmmap refuses it as not a vmmap capture and detection does
   not hand it to vmmap.
"""

import glob

import os
import subprocess
import sys

# (constructed layout, the real capture it was made from, options)
SAME_FIGURES = [
    ('summary-one-line-header.txt', 'macos26.4.1-arm64-summary-mlx-python.txt', ['--all-types']),
    ('summary-rows-without-header.txt', 'macos26.4.1-arm64-summary-mlx-python.txt', []),
    ('region-lines-blanks-around-prot.txt', 'macos26-agentstudio-iosurface-wide-lines.txt',
     ['--surfaces']),
    ('summary-quoted.txt', 'macos26.4.1-arm64-summary-mlx-python.txt', ['--all-types']),
    ('summary-indented.txt', 'macos26.4.1-arm64-summary-mlx-python.txt', ['--all-types']),
    ('crashreport-with-json-full-report.txt', 'format-in-macos-crashreport-vm-region-info.txt',
     ['--all-types']),
    # Region figures only: the pages dump's summary VIRTUAL is exact, the bytes one rounded.
    ('pages-gpu-purge-states.txt', 'synthetic-gpu-purge-states.txt', ['--format', 'csv']),
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


# vmmap's refusals that say the input is not vmmap's at all.
NOT_VMMAP = (b'error: no vmmap dump found', b'error: not a vmmap dump', b'error: this is ')


def check_same_verdict(iotally, root):
    failures = 0
    files = sorted(glob.glob(os.path.join(root, 'fixtures', 'vmmap', '*')) +
                   glob.glob(os.path.join(root, 'fixtures', 'diff', 'vmmap-*.txt')))
    for path in files:
        if path.endswith('.md'):
            continue
        rel = os.path.relpath(path, root)
        by_vmmap = run(iotally, root, ['vmmap', rel])
        by_content = run(iotally, root, [rel])
        vmmap_reads = not any(m in by_vmmap[2] for m in NOT_VMMAP)
        detected = by_content == by_vmmap
        # Another tool's report: every command says the same sentence of it,
        # so vmmap's refusal and detection's are the same bytes.
        foreign = b'which iotally does not read'
        if not vmmap_reads and foreign in by_vmmap[2]:
            detected = foreign not in by_content[2]
        if vmmap_reads != detected:
            print('%s: iotally vmmap %s it, content detection %s' %
                  (rel, 'reads or explains' if vmmap_reads else 'refuses',
                   'hands it to vmmap' if detected else 'does not'))
            failures += 1
    if not files:
        print('no vmmap fixtures found')
        failures += 1
    return failures


def main():
    iotally, root = sys.argv[1], sys.argv[2]
    failures = check_same_figures(iotally, root)
    failures += check_same_verdict(iotally, root)
    if failures:
        print('%d check(s) failed' % failures)
        return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
