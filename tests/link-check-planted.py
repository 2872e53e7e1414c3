#!/usr/bin/env python3
"""Negative test of the link layer check (src/meson.build, layer-check-*).

Takes the build's own link command of layer-check-LAYER (`ninja -t
commands`: the same flags, LTO or not, export_dynamic included), adds the
planted archive (tests/layer/planted_report_calls_ingest.c: report/ calling
ingest/; tests/layer/planted_bundle_calls_ingest.c: bundle/ calling the
ingest/ reader above it; tests/layer/planted_app_calls_cli.c: app/ calling
cli/) beside the layer's library inside its
--whole-archive group, and requires that link to fail naming the planted
caller and the function it calls. The unchanged command links (meson
builds layer-check-LAYER before this test runs), so the failure is the
plant's.

    link-check-planted.py NINJA BUILD_DIR PLANTED_ARCHIVE [LAYER callee caller]

(default: report input_detect planted_report_calls_ingest)
"""

import os
import shlex
import subprocess
import sys
import tempfile

DEFAULT = ('report', 'input_detect', 'planted_report_calls_ingest')


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
              '[LAYER callee caller]', file=sys.stderr)
        return 64
    ninja, build, planted = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3])
    layer, callee, caller = argv[4:7] if len(argv) == 7 else DEFAULT
    target = 'src/layer-check-' + layer
    layer_archive = 'src/%s/libiotally_%s.a' % (layer, layer)
    words = shlex.split(link_command(ninja, build, target))
    if '-o' not in words or layer_archive not in words:
        print('FAIL: the link command of %s has no -o or no %s:\n%s'
              % (target, layer_archive, ' '.join(words)))
        return 1
    if '-Wl,--whole-archive' not in words or \
            words.index('-Wl,--whole-archive') > words.index(layer_archive):
        print('FAIL: %s is not linked whole by %s' % (layer_archive, target))
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        words[words.index('-o') + 1] = os.path.join(tmp, 'planted')
        at = words.index(layer_archive)
        words.insert(at + 1, planted)
        bad = run(words, build)
        if bad.returncode == 0:
            print('FAIL: %s linked with a %s/ object calling a layer it may not use '
                  '(%s -> %s)' % (target, layer, caller, callee))
            return 1
        want = ["undefined reference to `%s'" % callee, caller]
        missing = [w for w in want if w not in bad.stderr]
        if missing:
            print('FAIL: the planted link failed without naming %s:\n%s'
                  % (' and '.join(missing), bad.stderr))
            return 1
    print('ok: the %s/ layer check refuses a call it may not make (%s -> %s)'
          % (layer, caller, callee))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
