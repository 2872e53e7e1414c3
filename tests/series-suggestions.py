#!/usr/bin/env python3
"""Every command a series refusal suggests runs when copied.

Usage: series-suggestions.py --bin IOTALLY

Each case is a command iotally refuses because it names a series where one
capture (or a pair) is wanted, or too short a series. Its message on
standard error quotes commands ('iotally ...'); each of them is run as
written (split like a shell would, from the project root) and must exit 0.
A refusal that quotes no command fails the test, so a message that loses
its suggestion is caught, and so is one whose suggestion names a form that
does not open (issue 23: 'iotally report series1.tar.gz/NNN').
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

# (command, exit status of the refusal)
REFUSALS = [
    ('vmmap fixtures/bundle/series', 64),
    ('vmmap fixtures/series-bundle/leak.tar.gz', 64),
    ('classes fixtures/bundle/series', 64),
    ('diff fixtures/bundle/series fixtures/bundle/series', 64),
    ('diff fixtures/series-bundle/leak.tar.gz fixtures/series-bundle/leak.tar.gz', 64),
    ('report fixtures/bundle/series', 65),
    ('vmmap fixtures/series-bundle/leak.tar.gz:999', 66),
    ('report --fail-if "classes:IOSurface > 1" fixtures/trend/classes/ioreg-01.txt '
     'fixtures/trend/classes/ioreg-02.txt fixtures/trend/classes/ioreg-03.txt', 64),
]


def run(binary, words, root):
    return subprocess.run([binary] + words, cwd=root, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=dict(os.environ, LC_ALL='C'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = ran = 0
    for cmd, status in REFUSALS:
        p = run(a.bin, shlex.split(cmd), root)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != status:
            print('FAIL: iotally %s exited %d, expected %d: %s' % (cmd, p.returncode, status, err))
            failures += 1
            continue
        suggested = re.findall(r"'iotally ([^']+)'", err)
        if not suggested:
            print('FAIL: iotally %s suggests no command: %s' % (cmd, err.strip()))
            failures += 1
            continue
        for s in suggested:
            words = shlex.split(s)
            if words and words[0] == 'trend' and '--fail-if' in words:
                continue   # names an option, not a command to paste
            q = run(a.bin, words, root)
            ran += 1
            if q.returncode != 0:
                print('FAIL: "iotally %s" (suggested by "iotally %s") exited %d: %s'
                      % (s, cmd, q.returncode, q.stderr.decode('utf-8', 'replace').strip()))
                failures += 1
            else:
                print('ok: "iotally %s" (from "iotally %s")' % (s, cmd))
    print('%d suggested commands run, %d failures' % (ran, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
