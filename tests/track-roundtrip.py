#!/usr/bin/env python3
"""The record listing of `iotally track CAPTURE` is the capture itself.

A capture that ioclasscount printed whole (every record, sorted as the tool
sorts them, with its total line) is listed back byte for byte: the records
are re-formatted from the parsed model, so this checks the parser and the
writer against the capture, not against an earlier run of the program.

The groupings (--by module and class, as JSON) partition those records: each
adds up to the capture's own figures, read here from its text with a regular
expression: the sum of the record headers' bytes (equal to the printed
"0x.. bytes total" line where there is one) and calls, and the number of
records; --by symbol's self bytes add up to the same bytes.

  track-roundtrip.py IOTALLY ROOT CAPTURE
"""

import json
import os
import re
import subprocess
import sys

RECORD = re.compile(rb'^(0x[0-9a-f]+) bytes \(0x[0-9a-f]+ \+ 0x[0-9a-f]+\), (\d+) calls?,? \[\d+\]$')
TOTAL = re.compile(rb'^(0x[0-9a-f]+) bytes total$')


def capture_figures(text):
    """(bytes, calls, records, printed total or None) from the capture's own lines."""
    nbytes = calls = records = 0
    total = None
    for line in text.split(b'\n'):
        m = RECORD.match(line)
        if m:
            nbytes += int(m.group(1), 16)
            calls += int(m.group(2))
            records += 1
        m = TOTAL.match(line)
        if m:
            total = int(m.group(1), 16)
    return nbytes, calls, records, total


def check_groupings(binary, root, capture, env, text):
    nbytes, calls, records, total = capture_figures(text)
    failures = 0
    if records == 0:
        print('%s: no record header found in the capture' % capture)
        return 1
    if total is not None and total != nbytes:
        print('%s: the records add up to %d bytes, the capture prints %d' % (capture, nbytes, total))
        failures += 1
    for by in ('module', 'class', 'symbol'):
        proc = subprocess.run([binary, 'track', '--by', by, '--format', 'json', capture],
                              cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            print('%s: --by %s exited %d' % (capture, by, proc.returncode))
            failures += 1
            continue
        groups = json.loads(proc.stdout)['groups']
        if by == 'symbol':
            # A record counts for every symbol of its stack; only the bytes
            # charged to a symbol itself (self) partition the records.
            got = (sum(g['self_bytes'] for g in groups), calls, records)
        else:
            got = (sum(g['bytes'] for g in groups), sum(g['count'] for g in groups),
                   sum(g['records'] for g in groups))
        if got != (nbytes, calls, records):
            print('%s: --by %s groups add up to %d bytes, %d calls, %d records; the capture '
                  'holds %d, %d, %d' % ((capture, by) + got + (nbytes, calls, records)))
            failures += 1
    if not failures:
        print('%s: --by module, class (and symbol\'s self bytes) add up to the capture\'s %d bytes, %d calls, '
              '%d records' % (capture, nbytes, calls, records))
    return failures


def main():
    binary, root, capture = sys.argv[1:4]
    with open(os.path.join(root, capture), 'rb') as f:
        want = f.read()
    # Leading comment lines (the fixture's "# SOURCE:" line) are not part of
    # what ioclasscount printed: every reader skips them (docs/preamble.md,
    # "Input before the capture"); blank lines among them stay.
    lines = want.split(b'\n')
    keep = []
    for i, line in enumerate(lines):
        if line.strip() and not line.startswith(b'#'):
            keep += lines[i:]
            break
        if not line.startswith(b'#'):
            keep.append(line)
    want = b'\n'.join(keep)
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    proc = subprocess.run([binary, 'track', capture], cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0 or proc.stderr:
        print('%s: status %d, stderr:\n%s' % (capture, proc.returncode,
                                              proc.stderr.decode('utf-8', 'replace')))
        return 1
    if proc.stdout != want:
        got = proc.stdout.split(b'\n')
        exp = want.split(b'\n')
        for i, (g, e) in enumerate(zip(got, exp)):
            if g != e:
                print('%s: line %d differs\n  capture: %r\n  listing: %r' % (capture, i + 2, e, g))
                break
        else:
            print('%s: %d lines listed, the capture has %d' % (capture, len(got), len(exp)))
        return 1
    print('%s: listed back byte for byte (%d bytes)' % (capture, len(want)))
    return 1 if check_groupings(binary, root, capture, env, want) else 0


if __name__ == '__main__':
    sys.exit(main())
