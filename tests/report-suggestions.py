#!/usr/bin/env python3
"""Every command a refusal of `report BEFORE AFTER` (bundles) suggests runs when copied.

Usage: report-suggestions.py --bin IOTALLY (from the project root)

Each case is a command (a refusal, or a page that points elsewhere), its exit
status, and how many suggestions its standard error and output must hold: every 'iotally ...' quoted in the message is split
as a shell would split it, run with the same binary, and must exit 0 and
write something. A case that prints fewer suggestions than it should fails,
so the test cannot pass by finding none.
"""
import argparse
import re
import shlex
import subprocess
import sys

CASES = [
    # a folder series of 2 samples: report its samples (trend needs 3)
    # (usage errors also end with "Try 'iotally help report'.", run like the rest)
    (['report', 'fixtures/bundle/series', 'fixtures/bundle-pair/after'], 64, 2),
    # a folder series of 21, its last sample without a vmmap: the first and last
    # complete samples, and trend
    (['report', 'fixtures/series-bundle/leak', 'fixtures/bundle-pair/after'], 64, 3),
    # the same series as an archive, on the AFTER side: trend
    (['report', 'fixtures/bundle-pair/before', 'fixtures/series-bundle/leak.tar.gz'], 64, 2),
    # two bundles with no kind in common: list the steps of BEFORE
    (['report', 'fixtures/bundle/footprint-before', 'fixtures/bundle/partial'], 66, 1),
    # no ioreg plist before, a plist after: before's ioalloccount totals join the
    # classes section beside after's plist totals, so the page points nowhere else
    (['report', 'fixtures/bundle-pair/no-plist-before', 'fixtures/bundle-pair/after'], 0, 0),
    # no ioreg plist on either side: ioalloccount's totals join the classes
    # section, so the page points nowhere else
    (['report', 'fixtures/bundle-pair/no-plist-before', 'fixtures/bundle-pair/no-plist-after'],
     0, 0),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    a = ap.parse_args()
    failed = 0
    for args, status, want in CASES:
        p = subprocess.run([a.bin] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = p.stderr.decode() + p.stdout.decode()
        if p.returncode != status:
            print('FAIL: %s exited %d, expected %d: %s' % (args, p.returncode, status, err))
            failed += 1
            continue
        found = re.findall(r"'(iotally [^']*)'", err)
        if len(found) != want:
            print('FAIL: %s suggests %d commands, expected %d: %s'
                  % (args, len(found), want, err))
            failed += 1
        for cmd in found:
            argv = shlex.split(cmd)
            q = subprocess.run([a.bin] + argv[1:], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            ok = q.returncode == 0 and q.stdout
            print('%s: %s -> exit %d' % ('ok' if ok else 'FAIL', cmd, q.returncode))
            failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
