#!/usr/bin/env python3
"""Negative test of the link layer check (src/meson.build, layer-check-*).

Takes the build's own link command of layer-check-report (`ninja -t
commands`: the same flags, LTO or not, export_dynamic included), adds the
planted archive (tests/layer/planted_report_calls_ingest.c: report/ calling
ingest/) beside the report/ library inside its --whole-archive group, and
requires that link to fail naming the planted caller and the ingest/
function it calls. The unchanged command links (meson builds
layer-check-report before this test runs), so the failure is the plant's.

    link-check-planted.py NINJA BUILD_DIR PLANTED_ARCHIVE
"""

import os
import shlex
import subprocess
import sys
import tempfile

TARGET = 'src/layer-check-report'
LAYER_ARCHIVE = 'src/report/libiotally_report.a'
CALLEE = 'input_detect'
CALLER = 'planted_report_calls_ingest'


def link_command(ninja, build):
    out = subprocess.run([ninja, '-C', build, '-t', 'commands', TARGET],
                         check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1]


def run(words, build):
    return subprocess.run(words, cwd=build, capture_output=True, text=True)


def main(argv):
    if len(argv) != 4:
        print('usage: link-check-planted.py NINJA BUILD_DIR PLANTED_ARCHIVE', file=sys.stderr)
        return 64
    ninja, build, planted = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3])
    words = shlex.split(link_command(ninja, build))
    if '-o' not in words or LAYER_ARCHIVE not in words:
        print('FAIL: the link command of %s has no -o or no %s:\n%s'
              % (TARGET, LAYER_ARCHIVE, ' '.join(words)))
        return 1
    if '-Wl,--whole-archive' not in words or \
            words.index('-Wl,--whole-archive') > words.index(LAYER_ARCHIVE):
        print('FAIL: %s is not linked whole by %s' % (LAYER_ARCHIVE, TARGET))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        words[words.index('-o') + 1] = os.path.join(tmp, 'planted')
        at = words.index(LAYER_ARCHIVE)
        words.insert(at + 1, planted)
        bad = run(words, build)
        if bad.returncode == 0:
            print('FAIL: %s linked with a report/ object calling ingest/ (%s -> %s)'
                  % (TARGET, CALLER, CALLEE))
            return 1
        want = ["undefined reference to `%s'" % CALLEE, CALLER]
        missing = [w for w in want if w not in bad.stderr]
        if missing:
            print('FAIL: the planted link failed without naming %s:\n%s'
                  % (' and '.join(missing), bad.stderr))
            return 1
    print('ok: the report/ layer check refuses a call into ingest/ (%s -> %s)' % (CALLER, CALLEE))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
