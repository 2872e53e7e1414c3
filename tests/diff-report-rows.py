#!/usr/bin/env python3
"""diff's tables are the pair report's tables: a round trip between the two outputs.

For every pair of files a golden case compares (`iotally diff A B`, two
files), runs `iotally diff A B --format markdown` and `iotally report A B
--format html`, reads the report's data (the iotally.report/1 JSON the page
embeds: every row with its exact figures, the unchanged rows marked) and
fails unless the diff shows, table by table in the report's order:

  - the table's title, then its columns in capitals;
  - the report's rows that are not marked unchanged, in its order, each
    cell read back to the report's cell: a text cell the same text, an
    empty cell "-", a count the same integer (a delta signed), a byte
    figure the rendering of the report's exact bytes worked out here by
    exact arithmetic (util/size.h's rule, independent of iotally's
    formatter; "~" where the bytes are not a whole number of the unit or
    the tool rounded them);
  - and "N unchanged rows not shown" for the rows it leaves out;
  - a table of the report without rows nowhere;
  - each line of a section's text (a pair's totals) as the report has it.

The plain text report of the same pair must hold the same titles and as
many rows a table. So a kind whose diff chose or laid out its rows apart
from its report fails here.

usage: diff-report-rows.py IOTALLY ROOT
"""

import fractions
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_cmds import golden_commands  # noqa: E402

UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']
DATA = re.compile(r'<script type="application/json" id="iotally-data">(.*?)</script>', re.S)
MD_ESCAPED = re.compile(r'\\(.)')
VALUE_OPTIONS = {'--fail-if', '--format', '--gates', '--junit', '--ndjson'}
# Every kind's diff tables are its pair report's (report/diff_<kind>_write.c
# writes only their JSON): a kind named here is held to it.
REPORT_KINDS = {'vmmap', 'heap', 'classes', 'footprint', 'track'}


def render_bytes(n):
    """n bytes (signed) in binary units: '16 KiB', '~+1.5 MiB' ('~' when inexact)."""
    sign = '-' if n < 0 else ''
    m = abs(n)
    u = 0
    while u < 6 and m >> (10 * (u + 1)):
        u += 1
    cents = fractions.Fraction(m * 100, 1 << (10 * u))
    whole_cents = cents.numerator // cents.denominator
    exact = cents.denominator == 1
    if not exact and cents - whole_cents >= fractions.Fraction(1, 2):
        whole_cents += 1
    whole, c = divmod(whole_cents, 100)
    text = '%d' % whole if c == 0 else ('%d.%d' % (whole, c // 10) if c % 10 == 0
                                        else '%d.%02d' % (whole, c))
    return exact, sign, text + ' ' + UNITS[u]


def cell_matches(shown, value, delta):
    """Does the diff's cell `shown` say the report's cell `value`?"""
    if value is None:
        return shown == '-'
    if isinstance(value, str):
        return shown == value
    if re.search(r' (?:B|[KMGTPE]iB)$', shown):
        exact, sign, text = render_bytes(value)
        if delta and value > 0:
            sign = '+'
        # '~' on an inexact figure always, on an exact one only in a rounded table.
        want = sign + text
        return shown == ('~' + want if not exact else want) or (exact and shown == '~' + want)
    if delta and value > 0:
        return shown == '+%d' % value
    return shown == '%d' % value


def md_cells(line):
    """The cells of a Markdown pipe-table line, unescaped."""
    cells, cur, i = [], '', 1
    body = line.strip()
    while i < len(body):
        ch = body[i]
        if ch == '\\' and i + 1 < len(body):
            cur += ch + body[i + 1]
            i += 2
            continue
        if ch == '|':
            cells.append(MD_ESCAPED.sub(r'\1', cur.strip()))
            cur = ''
        else:
            cur += ch
        i += 1
    return cells


def md_tables(text):
    """{title: (header, rows, lines after the table)} of diff's Markdown, in order."""
    tables, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if not lines[i].startswith('### ') or lines[i] == '### Gates':
            i += 1
            continue
        title = MD_ESCAPED.sub(r'\1', lines[i][4:])
        i += 2
        header, rows = None, []
        if i < len(lines) and lines[i].startswith('|'):
            header = md_cells(lines[i])
            i += 2
            while i < len(lines) and lines[i].startswith('|'):
                rows.append(md_cells(lines[i]))
                i += 1
        after = []
        while i < len(lines) and not lines[i].startswith('#'):
            if lines[i]:
                after.append(lines[i])
            i += 1
        tables.append((title, header, rows, after))
    return tables


def text_tables(text, notes):
    """[(title, row count)] of diff's text tables (a title line ends in ':').

    A table's note (`notes`: the report's) is the line under its rows, not a row.
    """
    tables, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if line.endswith(':') and not line.startswith(' ') and line != 'Gates:' and \
                i + 1 < len(lines):
            title, n, i = line[:-1], 0, i + 2
            while i < len(lines) and lines[i] and lines[i] not in notes and \
                    not re.match(r'\d+ (?:unchanged|more) row', lines[i]):
                n += 1
                i += 1
            tables.append((title, n))
        i += 1
    return tables


def pairs(root):
    """(case, before, after) of each golden `iotally diff A B` of two files, once a pair."""
    seen = set()
    for case, argv in golden_commands(root):
        if argv[1] != 'diff':
            continue
        files, skip, args = [], False, iter(argv[2:])
        for a in args:
            if a in VALUE_OPTIONS:
                next(args, None)   # gates and where they go: not the tables
            elif a.startswith('-'):
                skip = True        # an option that chooses rows: not the report's pair
            else:
                files.append(a)
        if skip or len(files) != 2 or tuple(files) in seen or not all(
                os.path.isfile(os.path.join(root, p)) for p in files):
            continue
        seen.add(tuple(files))
        yield case, files[0], files[1]


def check_pair(iotally, root, env, before, after, tmp):
    """The pair's kind and disagreements (empty: none); None, None when not compared."""
    md = subprocess.run([iotally, 'diff', '--format', 'markdown', before, after], cwd=root,
                        env=env, capture_output=True, timeout=60)
    if md.returncode not in (0, 1) or b'### ' not in md.stdout:
        return None, None   # not compared, or unchanged (no table)
    kind = re.match(rb'## iotally diff \((\w+)\)', md.stdout)
    if not kind or kind.group(1).decode() not in REPORT_KINDS:
        return None, None
    kind = kind.group(1).decode()
    page = os.path.join(tmp, 'report.html')
    rep = subprocess.run([iotally, 'report', '--format', 'html', '-o', page, before, after],
                         cwd=root, env=env, capture_output=True, timeout=60)
    if rep.returncode != 0:
        return kind, ['report failed: %s' % rep.stderr.decode('utf-8', 'replace').strip()]
    with open(page, encoding='utf-8') as f:
        data = json.loads(DATA.search(f.read()).group(1))
    # A table without rows (none kept, none left out) is not printed.
    want = [t for s in data['sections'] for t in s['tables']
            if t['rows'] or t.get('omitted_rows')]
    got = md_tables(md.stdout.decode('utf-8'))
    errors = []
    if [t['title'] for t in want] != [g[0] for g in got]:
        return kind, ['tables %r, the report has %r' % ([g[0] for g in got],
                                                        [t['title'] for t in want])]
    for t, (title, header, rows, after_lines) in zip(want, got):
        unchanged = set(t.get('unchanged_rows', []))
        rows_want = [r for i, r in enumerate(t['rows']) if i not in unchanged]
        if rows_want and header != [c.upper() for c in t['columns']]:
            errors.append('%s: columns %r, the report has %r' % (title, header, t['columns']))
        if len(rows) != len(rows_want):
            errors.append('%s: %d rows, the report has %d changed' % (title, len(rows),
                                                                       len(rows_want)))
            continue
        kinds = t['column_kinds']
        for n, (g, w) in enumerate(zip(rows, rows_want)):
            for c, (shown, value) in enumerate(zip(g, w)):
                if not cell_matches(shown, value, 'delta' in kinds[c]):
                    errors.append('%s: row %d, %s: %r for the report\'s %r'
                                  % (title, n + 1, t['columns'][c], shown, value))
        folded = len(unchanged)
        said = [a for a in after_lines if 'unchanged row' in a]
        if folded and said != ['%d unchanged row%s not shown' % (folded, '' if folded == 1
                                                                 else 's')]:
            errors.append('%s: %d unchanged rows, the diff says %r' % (title, folded, said))
    shown = {MD_ESCAPED.sub(r'\1', line) for line in md.stdout.decode('utf-8').splitlines()}
    for para in (p for sec in data['sections'] for p in sec['paragraphs']):
        if para not in shown:
            errors.append('the report\'s line %r is not in the diff' % para)
    text = subprocess.run([iotally, 'diff', before, after], cwd=root, env=env,
                          capture_output=True, timeout=60).stdout.decode('utf-8')
    shape = [(g[0], len(g[2])) for g in got]
    notes = {t['note'] for t in want if t.get('note')}
    if text_tables(text, notes) != shape:
        errors.append('text tables %r, Markdown %r' % (text_tables(text, notes), shape))
    return kind, errors


def main():
    iotally, root = sys.argv[1], sys.argv[2]
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    failures, compared = [], {k: 0 for k in REPORT_KINDS}
    with tempfile.TemporaryDirectory() as tmp:
        for case, before, after in pairs(root):
            kind, errors = check_pair(iotally, root, env, before, after, tmp)
            if kind is None:
                continue
            compared[kind] += 1
            failures += ['%s (%s %s): %s' % (case, before, after, e) for e in errors]
    for kind, n in sorted(compared.items()):
        if n == 0:
            failures.append('no pair of %s compared: the case list is wrong' % kind)
    for f in failures[:40]:
        print('FAIL', f)
    print('%d pairs compared (%s), %d disagreements'
          % (sum(compared.values()), ', '.join('%s %d' % kv for kv in sorted(compared.items())),
             len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
