#!/usr/bin/env python3
"""Negative tests of tools/kind-check.py: each plants one decision on a
kind's name outside the kind's modules, in a temporary copy of src/, and
requires the check to fail with exactly that file, line and reason (and
nothing else); the unchanged copy must pass, a row left out of the list of
kinds and a tree without that list must not. Plants in a kind's own modules
and the words that only look like a kind (the vmmap metric
"vmmap:footprint", a kind inside another word) must pass.

    kind-check-planted.py CHECK SRC_DIR
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from planted_check import clean_passes, copy_src, run_check, run_plants  # noqa: E402

# (file under src/, line appended, the message expected, or None where the
# plant is allowed; {line} is the planted line's number).
PLANTS = [
    ('report/texttable.c', 'static int p(const char *k) { return strcmp(k, "vmmap") == 0; }',
     'src/report/texttable.c:{line}: compares with the kind name "vmmap": '
     'a field or hook of its registry row'),
    ('app/sources.c', 'static int q(enum input_kind i) { switch (i) { case INPUT_TRACK: return 1; default: return 0; } }',
     'src/app/sources.c:{line}: case INPUT_TRACK: decides on a track input outside its '
     'modules: a field or hook of its registry row'),
    ('cli/msgs.c', 'static const char *const m = "a capture of vmmap, classes or footprint";',
     'src/cli/msgs.c:{line}: a string that lists kinds (vmmap, classes, footprint): '
     'generate it from the registry rows'),
    ('model/trend.c', 'static const char *const l[] = { "track", "classes" };',
     'src/model/trend.c:{line}: a hand-written list of kinds (track, classes): '
     'iterate the registry rows'),
    # a kind's own modules may name it; a metric that only looks like a kind
    ('model/diff_vmmap.c', 'static int r(const char *k) { return strcmp(k, "vmmap") == 0; }', None),
    ('app/kind_classes.c', 'static int s(enum input_kind i) { switch (i) { case INPUT_IOREG_TEXT: return 1; default: return 0; } }', None),
    ('cli/msgs.c', 'static const char *const n = "vmmap:footprint and the trackers";', None),
    # a row the one list of kinds (util/capture_kinds.h) leaves out
    ('app/kind_heap.c', 'const struct kind kind_heapcopy = { .name = "heapcopy" };',
     'src/app/kind_heap.c:{line}: the row of "heapcopy" is not in CAPTURE_KINDS '
     '(util/capture_kinds.h): the registry would never see it'),
]


def refused(check, copy, says, missing):
    """0 when the check refuses the tree (exit 1, saying `says`); else 1, said."""
    got = run_check(check, copy)
    if got.returncode != 1 or says not in got.stdout:
        print(f'FAIL: a tree without {missing} passed: ' + got.stdout)
        return 1
    print(f'ok: a tree without {missing} is refused')
    return 0


def main(argv):
    if len(argv) != 3:
        print('usage: kind-check-planted.py CHECK SRC_DIR', file=sys.stderr)
        return 64
    check, src = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_src(src, tmp)
        if not clean_passes(check, copy):
            return 1
        failures = run_plants(check, copy, PLANTS)
        # the check must refuse a tree without the list of kinds (restored
        # after), and one whose rows it cannot find
        kind_list = os.path.join(copy, 'util', 'capture_kinds.h')
        with open(kind_list, encoding='utf-8') as f:
            listed = f.read()
        os.remove(kind_list)
        failures += refused(check, copy, 'no list of kinds', 'the list of kinds')
        with open(kind_list, 'w', encoding='utf-8') as f:
            f.write(listed)
        for name in os.listdir(os.path.join(copy, 'app')):
            if name.startswith('kind_') and name.endswith('.c'):
                os.remove(os.path.join(copy, 'app', name))
        failures += refused(check, copy, 'registry rows', 'rows')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
