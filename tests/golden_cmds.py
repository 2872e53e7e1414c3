"""The golden cases' commands, for the tests that run them again (bytes-one-way.py,
diff-report-rows.py): each case's `cmd` that is one iotally command line, without
standard input or shell syntax, split into its words."""

import os
import shlex


def golden_commands(root):
    """(case, argv) of each such command, cases in name order."""
    base = os.path.join(root, 'tests', 'golden')
    for group in sorted(os.listdir(base)):
        gdir = os.path.join(base, group)
        if not os.path.isdir(gdir):
            continue
        for case in sorted(os.listdir(gdir)):
            path = os.path.join(gdir, case, 'cmd')
            if not os.path.isfile(path) or os.path.exists(os.path.join(gdir, case, 'stdin')):
                continue
            with open(path, encoding='utf-8') as f:
                line = f.read().strip()
            if any(c in line for c in '|;&<>$`'):
                continue
            try:
                argv = shlex.split(line)
            except ValueError:
                continue
            if len(argv) >= 2 and argv[0] == 'iotally':
                yield '%s/%s' % (group, case), argv
