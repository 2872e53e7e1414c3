#!/usr/bin/env python3
"""Render `iotally report` Markdown the way GitHub does and check its shape.

Usage: report-md-check.py --bin IOTALLY [--command rate] [--gen-vmmap N] -- REPORT-ARGS...

The Markdown goes through `cmark-gfm -e table` (GitHub's own parser, the
Debian package cmark-gfm) with raw HTML let through (--unsafe), and:
  - every pipe table of the Markdown (a `|---` delimiter line) comes out as
    a <table>, and the tables have as many rows as the Markdown has;
  - the only headings are the report's own: one <h2>, and one <h3> for
    each "### " line; no <h1>, <h4>-<h6>, <hr> or setext heading;
  - no element from a capture survives: no <script>, <img>, <a> or
    comment other than the report's <details>/<summary>;
  - the document is under 60,000 characters.
  - every --expect text is a line of the Markdown (e.g. how many unchanged
    rows were left out, worked out from the construction of the inputs), and
    no line of text follows a table without a blank line.
With --command rate, `iotally rate --format markdown` is checked the same way.
With --gen-vmmap N the input is a generated dump of N regions
(tools/gen-vmmap.py); with --gen-track-pair N [--same M] a pair of track
captures that share M call sites (1 by default) and whose AFTER adds N call
sites of 30 frames with 150-character symbols (far more than fits, so
rows, cells and backtraces must shrink). Generated inputs are written to a
temporary directory.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

from casecheck import stop

LIMIT = 60000


def write_track(path, sites):
    """Call sites 0 .. sites-1; site i is the same in every capture written."""
    with open(path, 'w') as f:
        f.write("kernel memory allocations ('/usr/sbin/ioclasscount --track')\n")
        f.write('-' * 60 + '\n')
        for i in range(sites):
            size = 0x1000 * (i + 2)
            f.write('\n0x%x bytes (0x%x + 0x0), 1 call [%d]\n' % (size, size, i))
            for k in range(30):
                sym = 'Vendor%05d::layer%02d_%s(unsigned long)' % (i, k, 'x' * 120)
                f.write(' %d %-40s0xfffffff0%08x %s + 0x%x\n'
                        % (k, 'com.example.driver.Gen%03d' % (i % 7), i * 64 + k, sym, 4 * k))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--command', default='report', choices=('report', 'rate'))
    ap.add_argument('--gen-vmmap', type=int, default=0)
    ap.add_argument('--gen-track-pair', type=int, default=0)
    ap.add_argument('--same', type=int, default=1,
                    help='with --gen-track-pair: call sites both captures hold alike')
    ap.add_argument('--expect', action='append', default=[],
                    help='a line the Markdown must hold')
    ap.add_argument('rest', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = [x for x in a.rest if x != '--']
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        if a.gen_vmmap:
            dump = os.path.join(tmp, 'big.txt')
            with open(dump, 'w') as f:
                subprocess.run([sys.executable, os.path.join(root, 'tools', 'gen-vmmap.py'),
                                '--regions', str(a.gen_vmmap), '--seed', '11'],
                               stdout=f, check=True)
            args.append(dump)
        if a.gen_track_pair:
            write_track(os.path.join(tmp, 'before.txt'), a.same)
            write_track(os.path.join(tmp, 'after.txt'), a.same + a.gen_track_pair)
            args += [os.path.join(tmp, 'before.txt'), os.path.join(tmp, 'after.txt')]
        fmt = ['--format', 'markdown'] if a.command == 'rate' else []
        proc = subprocess.run([a.bin, a.command] + fmt + args, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=root)
        if proc.returncode not in (0, 1):
            stop('iotally %s exited %d: %s' % (a.command, proc.returncode, proc.stderr.decode()))
    md = proc.stdout.decode('utf-8')
    print('markdown: %d characters' % len(md))
    if len(md) >= LIMIT:
        stop('%d characters, the limit is %d' % (len(md), LIMIT))
    html = subprocess.run(['cmark-gfm', '-e', 'table', '--unsafe'], input=proc.stdout,
                          stdout=subprocess.PIPE, check=True).stdout.decode('utf-8')

    md_tables = len(re.findall(r'^\|:?---', md, re.M))
    if md_tables == 0:
        stop('the report has no table')
    html_tables = html.count('<table>')
    if html_tables != md_tables:
        stop('%d pipe tables in the Markdown, %d <table> in the HTML' % (md_tables, html_tables))
    md_rows = sum(1 for line in md.splitlines() if line.startswith('| '))
    html_rows = html.count('<tr>')
    if md_rows != html_rows:
        stop('%d table rows in the Markdown, %d <tr> in the HTML' % (md_rows, html_rows))

    h3 = len(re.findall(r'^### ', md, re.M))
    for tag, want in (('h1', 0), ('h2', 1), ('h3', h3), ('h4', 0), ('h5', 0), ('h6', 0),
                      ('hr', 0)):
        got = len(re.findall(r'<%s[ >/]' % tag, html))
        if got != want:
            stop('%d <%s> in the rendered report, expected %d' % (got, tag, want))
    allowed = {'details', 'summary', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'p',
               'strong', 'em', 'code', 'h2', 'h3', 'ol', 'li', 'blockquote', 'ul'}
    # The summary block: one list, under the title, of at most four lines.
    lists = re.findall(r'<ul>(.*?)</ul>', html, re.S)
    if len(lists) > 1 or (lists and lists[0].count('<li>') > 4):
        stop('%d lists in the rendered report, the first of %d lines: expected one '
             'summary block of at most 4' % (len(lists), lists[0].count('<li>')))
    if lists and not re.match(r'<h2>[^<]*</h2>\s*<ul>', html):
        stop('the summary block is not the first thing under the title')
    for tag in set(re.findall(r'<([a-zA-Z][a-zA-Z0-9]*)', html)):
        if tag.lower() not in allowed:
            stop('element <%s> in the rendered report' % tag)
    if '<!--' in html:
        stop('an HTML comment in the rendered report')
    lines = md.splitlines()
    for e in a.expect:
        if e not in lines:
            stop('no line %r in the Markdown' % e)
    # A line of text right under a table would be read as one of its rows.
    for i, line in enumerate(lines[:-1]):
        if line.startswith('|') and lines[i + 1] and not lines[i + 1].startswith('|'):
            stop('line %d follows a table without a blank line: %r' % (i + 2, lines[i + 1]))
    print('ok: %d tables, %d rows, %d sections' % (md_tables, md_rows, h3))


if __name__ == '__main__':
    main()
