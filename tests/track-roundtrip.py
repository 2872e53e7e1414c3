#!/usr/bin/env python3
"""The record listing of `iotally track CAPTURE` is the capture itself.

A capture that ioclasscount printed whole (every record, sorted as the tool
sorts them, with its total line) is listed back byte for byte: the records
are re-formatted from the parsed model, so this checks the parser and the
writer against the capture, not against an earlier run of the program.

  track-roundtrip.py IOTALLY ROOT CAPTURE
"""

import os
import subprocess
import sys


def main():
    binary, root, capture = sys.argv[1:4]
    with open(os.path.join(root, capture), 'rb') as f:
        want = f.read()
    # Leading comment lines (the fixture's "# SOURCE:" line) are not part of
    # what ioclasscount printed: every reader skips them (docs/architecture.md,
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
    return 0


if __name__ == '__main__':
    sys.exit(main())
