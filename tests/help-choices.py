#!/usr/bin/env python3
"""Every help text lists the values its option takes, as the program's tables do.

Usage: help-choices.py IOTALLY

The values of --format, --kind and --by are declared once in the program
(cli/formats.c, the kind registry, the --by keys), and a usage error lists
them from there ("unknown format 'x' (expected text, json or markdown)").
The help texts describe each value in prose. For every command and every
option that takes one of these values, the list the help text gives (the
first run "a, b or c" of its description, parenthesised remarks left out)
must be the usage error's list, in the same order: a value added to a table
and not to the help text, or left in a help text after its removal, fails.
A command with no such option is not a pass: the test counts the checks and
fails below the number of options it knows to exist.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import helptext  # noqa: E402

CHECKED = ('format', 'kind', 'by')
# vmmap, classes, track, footprint, diff, report, trend, signatures take --format;
# trend --kind; track --by.
AT_LEAST = 10


def strip_parens(text):
    out, depth = [], 0
    for ch in text:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    s = re.sub(r'\s+', ' ', ''.join(out)).replace("'", '')
    return re.sub(r' +,', ',', s)


def help_list(desc):
    m = re.search(r'\b([a-z]+(?:, [a-z]+)*,? or [a-z]+)\b', strip_parens(desc))
    return re.split(r',? or |, ', m.group(1)) if m else None


def error_list(binary, command, option):
    r = subprocess.run([binary, command, '--' + option, 'zz-no-such-value'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = re.search(r'\(expected ([^)]*)\)', r.stderr)
    if r.returncode != 64 or not m:
        return None, r
    return re.split(r',? or |, ', m.group(1)), r


def main():
    binary = sys.argv[1]
    failed = checks = 0
    for name, _ in helptext.main_help(binary)['commands']:
        for o in helptext.command_help(binary, name)['options']:
            if o.long not in CHECKED:
                continue
            want, r = error_list(binary, name, o.long)
            got = help_list(o.full)
            checks += 1
            if want is None:
                print('FAIL: iotally %s --%s zz-no-such-value: exit %d, no "(expected ...)": %s'
                      % (name, o.long, r.returncode, r.stderr.strip()))
                failed += 1
            elif got != want:
                print('FAIL: iotally %s --help lists --%s as %s; the program takes %s'
                      % (name, o.long, got, want))
                failed += 1
            else:
                print('ok: iotally %s --%s: %s' % (name, o.long, ', '.join(want)))
    if checks < AT_LEAST:
        print('FAIL: %d options checked, expected at least %d' % (checks, AT_LEAST))
        failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
