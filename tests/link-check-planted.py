#!/usr/bin/env python3
"""Negative test of the link layer check (src/meson.build, layer-check-*).

Takes the build's own link command of layer-check-LAYER (`ninja -t
commands`: the same flags, LTO or not, export_dynamic included), adds the
planted archive (tests/layer/planted_*.c: e.g. report/ calling ingest/,
app/ calling cli/) beside the layer's library inside its --whole-archive
group, and requires that link to fail naming the planted caller and the
function of the forbidden layer it calls. The unchanged command links
(meson builds layer-check-LAYER before this test runs), so the failure is
the plant's.

    link-check-planted.py NINJA BUILD_DIR PLANTED_ARCHIVE [LAYER CALLER CALLEE]

LAYER CALLER CALLEE default to report planted_report_calls_ingest input_detect.
"""

import os
import shlex
import subprocess
import sys
import tempfile

def link_command(ninja, build, target):
    out = subprocess.run([ninja, '-C', build, '-t', 'commands', target],
                         check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1]


def run(words, build):
    return subprocess.run(words, cwd=build, capture_output=True, text=True)


def main(argv):
    if len(argv) not in (4, 7):
        print('usage: link-check-planted.py NINJA BUILD_DIR PLANTED_ARCHIVE '
              '[LAYER CALLER CALLEE]', file=sys.stderr)
        return 64
    ninja, build, planted = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3])
    layer, CALLER, CALLEE = argv[4:7] if len(argv) == 7 else \
        ('report', 'planted_report_calls_ingest', 'input_detect')
    TARGET = 'src/layer-check-' + layer
    LAYER_ARCHIVE = 'src/%s/libiotally_%s.a' % (layer, layer)
    words = shlex.split(link_command(ninja, build, TARGET))
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
            print('FAIL: %s linked with a planted %s/ object calling another layer (%s -> %s)'
                  % (TARGET, layer, CALLER, CALLEE))
            return 1
        want = ["undefined reference to `%s'" % CALLEE, CALLER]
        missing = [w for w in want if w not in bad.stderr]
        if missing:
            print('FAIL: the planted link failed without naming %s:\n%s'
                  % (' and '.join(missing), bad.stderr))
            return 1
    print('ok: the %s/ layer check refuses the planted call (%s -> %s)' % (layer, CALLER, CALLEE))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
