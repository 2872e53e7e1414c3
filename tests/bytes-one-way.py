#!/usr/bin/env python3
"""Every byte figure of the text outputs is written one way.

Runs every golden case's command (tests/golden/*/*/cmd) that is `report`,
`diff`, `trend`, `footprint` or a bundle listing (`iotally PATH`) writing
text or Markdown (JSON, NDJSON, CSV and HTML keep exact bytes by design),
collects each byte figure printed, and fails when the same bytes are
written two ways:

  - a figure in binary units ("5 MiB", "~140.63 MiB", "+3 × 128 MiB")
    without "~" must be whole bytes, and the one rendering of those bytes
    (util/size.h: the largest unit, up to two decimals, trailing zeros
    dropped): "140.62 MiB" (not whole bytes) and "5120 KiB" (5 MiB written
    another way) fail;
  - a figure in "~" must be in its largest unit with at most two decimals;
  - vmmap's own tokens ("+5120K", "384.0M") and byte counts with a unit
    "B" of 1024 or more ("1008205824 B") are the same bytes written
    another way, and fail;
  - a bare number in a byte column of a table (BEFORE, AFTER, DELTA of
    `diff`'s tables: "1048576", "+1044480") is bytes without their unit,
    and fails. A table of counts (a CLASS, a size bucket's CHANGE, a row
    whose field or figure is a count, heap's nodes) has bare numbers by right, and a
    GATE table writes exact bytes beside the figure by design.

The truth is independent of iotally's formatter: the rendering is worked
out here from the bytes, by exact rational arithmetic.

usage: bytes-one-way.py IOTALLY ROOT
"""

import fractions
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_cmds import golden_commands  # noqa: E402

UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']
COMMANDS = {'report', 'diff', 'trend', 'footprint'}
MACHINE_FORMATS = {'json', 'ndjson', 'csv', 'html', 'junit'}

FIGURE = re.compile(r'(~?)([+-]?)(\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB|PiB|EiB)\b')
# vmmap's tokens, except a gate's limit as its gates file spells it ("> +384M"):
# the user's words, quoted.
VMMAP_TOKEN = re.compile(r'(?<![<>=] )(?<![<>=])(?:^|(?<=[\s(]))[+-]?\d+(?:\.\d+)?[KMGT]'
                         r'(?=[\s),;]|$)')


def render(n):
    """The one rendering of n whole bytes (n >= 0): util/size.h's rule."""
    u = 0
    while u < 6 and n >> (10 * (u + 1)):
        u += 1
    if u == 0:
        return '%d B' % n
    scale = 1 << (10 * u)
    cents = fractions.Fraction(n * 100, scale)
    whole_cents = cents.numerator // cents.denominator
    exact = cents.denominator == 1
    if not exact and (cents - whole_cents) >= fractions.Fraction(1, 2):
        whole_cents += 1
    whole, c = divmod(whole_cents, 100)
    text = '%d' % whole if c == 0 else ('%d.%d' % (whole, c // 10) if c % 10 == 0
                                        else '%d.%02d' % (whole, c))
    return ('' if exact else '~') + text + ' ' + UNITS[u]


def check_figure(approx, digits, unit):
    """None when the figure is written the one way, else why not."""
    if '.' in digits and len(digits.split('.')[1]) > 2:
        return 'more than two decimals'
    if '.' in digits and digits.endswith('0'):
        return 'a trailing zero'
    value = fractions.Fraction(digits) * (1 << (10 * UNITS.index(unit)))
    if approx:
        if unit != 'B' and fractions.Fraction(digits) >= 1024 and unit != 'EiB':
            # 1023.996 KiB rounds to "~1024 KiB": the carry keeps its unit.
            if fractions.Fraction(digits) != 1024:
                return 'not in its largest unit'
        if unit != 'B' and fractions.Fraction(digits) < 1:
            return 'below 1 of its unit'
        return None
    if value.denominator != 1:
        return 'not whole bytes, yet not marked "~"'
    want = render(value.numerator)
    if want != digits + ' ' + unit:
        return 'the same bytes are written %r' % want
    return None


BYTE_COLUMNS = {'BEFORE', 'AFTER', 'DELTA'}
COUNT_TABLES = {'CLASS', 'CHANGE', 'GATE'}
COUNT_ROW = re.compile(r'(?:^|[\s.|])(?:count|regions|instances|records|nodes)(?:\s|\||$)')
BARE = re.compile(r'^[+-]?\d+$')
HEADER_WORD = re.compile(r'^[A-Z][A-Z.]*$')


def table_cells(line):
    """The cells of a table line and where each ends: aligned text or Markdown."""
    if line.startswith('|'):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        return [(c, i) for i, c in enumerate(cells)]
    return [(m.group(0), m.end()) for m in re.finditer(r'\S+(?: \S+)*', line)]


def bare_byte_cells(text):
    """(line number, cell) of each bare number in a byte column of a table."""
    found, header = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or set(line.strip()) <= set('|-: '):
            if not line.strip():
                header = None
            continue
        cells = table_cells(line)
        words = [c for c, _ in cells]
        if words and all(HEADER_WORD.match(w) for w in words) and \
                BYTE_COLUMNS <= {w.upper() for w in words}:
            header = None if COUNT_TABLES & {w.upper() for w in words} else cells
            continue
        if header is None or COUNT_ROW.search(line):
            continue
        where = {end: c for c, end in cells}
        for word, end in header:
            if word.upper() in BYTE_COLUMNS:
                cell = where.get(end)
                if cell is not None and BARE.match(cell):
                    found.append((n, cell))
    return found


def commands(root):
    """(case, argv) of every golden command this test reads."""
    for case, argv in golden_commands(root):
        word = argv[1]
        if 'help' in argv or '--help' in argv or '-h' in argv:
            continue   # usage text: the syntax a user types, not figures
        listing = not word.startswith('-') and os.path.exists(os.path.join(root, word))
        if word not in COMMANDS and not listing:
            continue
        fmt = None
        for i, a in enumerate(argv):
            if a == '--format' and i + 1 < len(argv):
                fmt = argv[i + 1]
            elif a.startswith('--format='):
                fmt = a.split('=', 1)[1]
            elif a in ('-o', '--output', '--junit', '--ndjson', '--json'):
                fmt = 'file'
        if fmt in MACHINE_FORMATS or fmt == 'file':
            continue
        yield case, argv


def main():
    iotally, root = sys.argv[1], sys.argv[2]
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    failures, ran, figures = [], 0, 0
    for case, argv in commands(root):
        p = subprocess.run([iotally] + argv[1:], cwd=root, env=env, capture_output=True,
                           timeout=60)
        ran += 1
        text = p.stdout.decode('utf-8', 'replace')
        for n, line in enumerate(text.splitlines(), 1):
            for m in FIGURE.finditer(line):
                figures += 1
                approx, _, digits, unit = m.groups()
                why = check_figure(approx, digits, unit)
                if why:
                    failures.append('%s: line %d: %r: %s' % (case, n, m.group(0), why))
            for m in VMMAP_TOKEN.finditer(line):
                failures.append('%s: line %d: %r: vmmap\'s token where the text '
                                'formatter writes binary units' % (case, n, m.group(0).strip()))
        for n, cell in bare_byte_cells(text):
            failures.append('%s: line %d: %r: bytes without their unit in a byte column'
                            % (case, n, cell))
    if ran < 50 or figures < 500:
        failures.append('only %d commands and %d figures read: the case list is wrong'
                        % (ran, figures))
    for f in failures[:60]:
        print('FAIL', f)
    if len(failures) > 60:
        print('... and %d more' % (len(failures) - 60))
    print('%d commands, %d byte figures, %d written another way' % (ran, figures,
                                                                    len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
