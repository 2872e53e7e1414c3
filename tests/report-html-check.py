#!/usr/bin/env python3
"""Load an `iotally report --format html` page in a real browser and check it.

Usage: report-html-check.py --bin IOTALLY [--case NAME] [--expect TEXT]... [--charts N]
                            [--hostile] [--rejects MESSAGE] -- REPORT-ARGS...
                            [--case NAME ...]...

Each case's page is written with -o into a temporary directory and opened
by one headless Chromium for all the cases (tests/browser.py: a fresh tab
each, 1200 x 1600; Debian package chromium, installed by tools/dev), run as
CI runs it: --headless --no-sandbox --disable-gpu, background networking,
component updates and sync off, a fresh profile, and every host name
resolving nowhere, so nothing could be fetched even if the page asked.
Every case runs; the last line counts those that passed and failed.

  - the DOM the browser built holds at least N <svg> charts, each
    with drawn shapes, every --expect text, exactly one <script> (the
    application/json data, which parses, matches docs/json/report.schema.json
    and carries the same verdict as the page), no <img>, <iframe>, <object>, <embed>, <link>, <base>, no
    element with an on* attribute, and no URL to anything outside the page
    (src=, href=, url(), @import), and a Content-Security-Policy of
    default-src 'none';
  - the screenshot: the PNG is not blank (many distinct colours);
  - --hostile: the capture's hostile strings appear as text, not elements;
  - every bar chart carries at least one figure written on it (<text
    class="val">) and every bar has a <title> tooltip;
  - --new-site LABEL (repeatable): the icicle nodes that open a run of new
    call sites (no bytes before) say NEW before their label, and their labels
    are exactly these (the outermost frame of each new site that no older
    site shares, known from how the inputs were built);
  - one headline (<p class="verdict">);
  - --timelines N: exactly N timeline charts (a series), each drawing every
    sample of the data as a point with a tooltip, a line, figures, and the
    verdict badge the data gives it; --max-bytes B: the page's size budget;
    --command trend (or rate): the page of 'iotally trend --format html'
    (or 'iotally rate --format html') instead;
  - --folded N: exactly N table rows sit in <details class="unchanged">
    (the unchanged rows the construction of the inputs says there are), and
    the embedded data marks exactly N rows unchanged.
  - --sections ID,ID,...: the page's <section id=...> are exactly these, in
    this order, each once (one kernel section whatever files it came from),
    under one headline (<p class="verdict">).

--rejects MESSAGE (with --page or --mutate, the tests that the checks can fail):
pass only when the page is refused with exactly MESSAGE, so a page refused for
another reason, a crash of this script or of iotally, or a page that passes,
fails the test.
"""

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser

from browser import Browser, BrowserError

CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu',
                  '--disable-background-networking', '--disable-component-update',
                  '--disable-sync', '--no-first-run', '--disable-default-apps',
                  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost',
                  '--hide-scrollbars']
# The viewport every page is loaded and photographed at.
WIDTH, HEIGHT = 1200, 1600
# The first screens a reader sees: a laptop's and a phone's (issue "the answer first").
SCREENS = ((1200, 900), (390, 800))

# What a screen shows, measured by the browser: where the summary block
# ends, the right edge of the widest table box, the page's own width, and
# the smallest chart text as rendered (font size times the SVG's scale).
GEOMETRY_JS = r"""JSON.stringify((() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const s = document.querySelector('ul.summary');
  let widest = 0, wid = null;
  for (const t of document.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (r.width > 0 && r.right > widest) { widest = r.right; wid = t.id || t.caption?.textContent; }
  }
  let small = null, smallText = null;
  for (const t of document.querySelectorAll('svg text')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    if (small === null || px < small) { small = px; smallText = t.textContent; }
  }
  // A pair's delta: each table's first column headed "delta", "... delta" or
  // "change" (not the first), measured in its first row.
  let delta = 0, did = null;
  for (const t of document.querySelectorAll('table')) {
    const ths = [...t.querySelectorAll('thead th')];
    const i = ths.findIndex((th, k) => k > 0 && /(^| )(delta|change)$/.test(th.textContent.trim()));
    const row = i < 0 ? null : t.querySelector('tbody tr:not(.bt)');
    if (!row || !row.children[i]) continue;
    const r = row.children[i].getBoundingClientRect();
    if (r.width > 0 && r.right > delta) { delta = r.right; did = t.id; }
  }
  // A series' overview (GPU memory by type over time): the first chart of section#gpu.
  const ov = document.querySelector('section#gpu figure');
  return {vw, vh, summary: s ? s.getBoundingClientRect().bottom : null,
          overview: ov ? ov.getBoundingClientRect().bottom : null,
          widest, wid, small, smallText, delta, did,
          scrollW: document.documentElement.scrollWidth};
})())"""


class Refused(Exception):
    """A check the page does not pass: its message says which."""


def fail(msg):
    raise Refused(msg)


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        for d in os.environ.get('PATH', '').split(os.pathsep):
            p = os.path.join(d, name)
            if os.access(p, os.X_OK):
                return p
    fail('no chromium on PATH (tools/dev installs the Debian package chromium)')


VOID = {'meta', 'link', 'br', 'img', 'input', 'hr', 'col', 'area', 'base', 'embed',
        'source', 'wbr', 'param', 'track'}


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []           # (tag, attrs)
        self.script_text = []
        self.in_script = False
        self.svg_shapes = 0
        self.text = []
        self.stack = []          # open elements: (tag, attrs)
        self.folded_rows = 0     # <tr> of a <tbody> inside <details class="unchanged">
        self.bar_charts = []     # per <svg class="chart bars">: labelled figures in it
        self.bars_untitled = 0   # bars (rect.s*/b*) with no <title> tooltip
        self.bar_open = None     # [has_title] of the bar being read
        self.new_sites = []      # labels after <tspan class="new">NEW</tspan>
        self.after_new = False   # the text that follows a NEW mark is its label
        self.timelines = []      # per <svg class="chart timeline">: what it draws
        self.in_badge = False
        self.point_open = None   # [has_title] of the timeline point being read
        self.headlines = 0       # <p class="verdict">

    def inside(self, tag, cls=None):
        return any(t == tag and (cls is None or cls in a.get('class', '').split())
                   for t, a in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        cls = attrs.get('class', '').split()
        if tag == 'script':
            self.in_script = True
        if tag in ('rect', 'line', 'path', 'polygon'):
            self.svg_shapes += 1
        if tag == 'tr' and self.inside('tbody') and self.inside('details', 'unchanged'):
            self.folded_rows += 1
        if tag == 'p' and 'verdict' in cls:
            self.headlines += 1
        if tag == 'svg' and 'timeline' in cls:
            self.timelines.append({'badge': '', 'vals': 0, 'line': False, 'points': 0,
                                   'untitled': 0, 'labels': 0})
        if self.inside('svg', 'timeline'):
            tl = self.timelines[-1]
            if tag == 'text' and 'badge' in cls:
                self.in_badge = True
            elif tag == 'text' and 'val' in cls:
                tl['vals'] += 1
            elif tag == 'text':
                tl['labels'] += 1
            if tag == 'path' and 'tl-line' in cls and attrs.get('d'):
                tl['line'] = True
            if tag == 'circle' and 'tl-pt' in cls:
                tl['points'] += 1
                self.point_open = [False]
            if tag == 'title' and self.point_open is not None:
                self.point_open[0] = True
        if tag == 'svg' and 'bars' in cls:
            self.bar_charts.append(0)
        if tag == 'text' and 'val' in cls and self.inside('svg', 'bars'):
            self.bar_charts[-1] += 1
        if tag == 'rect' and self.inside('svg', 'bars') and \
                any(re.fullmatch(r'[sb][0-9]', c) for c in cls) and \
                'key' not in cls:
            self.bar_open = [False]
        if tag == 'title' and self.stack and self.stack[-1][0] == 'rect' and self.bar_open:
            self.bar_open[0] = True
        if tag not in VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == 'script':
            self.in_script = False
        if tag == 'rect' and self.bar_open is not None:
            self.bars_untitled += not self.bar_open[0]
            self.bar_open = None
        if tag == 'circle' and self.point_open is not None:
            self.timelines[-1]['untitled'] += not self.point_open[0]
            self.point_open = None
        if tag == 'text':
            self.in_badge = False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.in_badge:
            self.timelines[-1]['badge'] += data
        if self.in_script:
            self.script_text.append(data)
        else:
            self.text.append(data)
        if self.inside('tspan', 'new') and data == 'NEW':
            self.after_new = True
        elif self.after_new and self.inside('text', 'in'):
            self.new_sites.append(data.strip())
            self.after_new = False


def png_is_not_blank(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        fail('the screenshot is not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IDAT':
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    # Filtered scanlines: count distinct 3-byte runs as a rough colour count.
    colours = {raw[i:i + 3] for i in range(0, min(len(raw), 6_000_000), 7)}
    return len(colours)


HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>'


def mutate(page, how):
    with open(page, encoding='utf-8') as f:
        text = f.read()
    if how == 'unescape':
        # in the body: the <title> holds the process too, but as text only
        escaped = HOSTILE.replace('<', '&lt;').replace('>', '&gt;')
        head, body = text.split('<body>', 1)
        broken = head + '<body>' + body.replace(escaped, HOSTILE, 1)
    elif how == 'unfold':
        broken = text.replace('<details class="unchanged">', '<details class="open">')
    elif how == 'unmark':
        broken = text.replace('<tspan class="new">NEW</tspan> ', '')
    elif how == 'twice':
        # a writer that gave each kernel source its own section
        m = re.search(r'<section id="classes">.*?</section>', text, re.S)
        broken = text.replace(m.group(0), m.group(0) * 2, 1) if m else text
    elif how == 'unscroll':
        # a table laid out at its own width, as before tables had their scroll box
        # (and their cells wrapped on a phone)
        broken = text.replace('display:block;max-width:100%;overflow-x:auto', '', 1)
        broken = broken.replace('td:not(.num){overflow-wrap:anywhere;min-width:3rem}'
                                'td.num{white-space:normal}', '', 1)
    elif how == 'nowrap':
        # a phone's table cells laid out unwrapped: the delta column scrolls away
        broken = text.replace('td:not(.num){overflow-wrap:anywhere;min-width:3rem}'
                              'td.num{white-space:normal}', '', 1)
    elif how == 'unoverview':
        # a series page without its overview, as before it had one
        broken = re.sub(r'<section id="gpu">.*?</section>', '', text, count=1, flags=re.S)
    elif how == 'shrink':
        # charts scaled down to the phone's width, their text with them
        broken = text.replace('figure svg{max-width:none}', '', 1)
    elif how == 'unbadge':
        broken = re.sub(r'<text class="badge"[^>]*>[^<]*</text>', '', text)
    elif how == 'unlabel':
        broken = re.sub(r'<text class="(in )?val"[^>]*>[^<]*</text>', '', text)
    else:
        broken = text.replace('</style>', '</style><link rel="stylesheet" '
                              'href="https://cdn.example.com/report.css">', 1)
    if broken == text:
        fail('nothing to mutate')
    with open(page, 'w', encoding='utf-8') as f:
        f.write(broken)


def check_histogram_sums(data):
    """Bytes by size bucket add up to the type's bytes by purgeable state.

    Two aggregations of the same regions, done apart in the model: the
    histogram of a type (chart "T: bytes by region size ...") and the
    stacked bars of GPU memory by type and state (item "T", or "T (before)"
    and "T (after)"). Their sums must agree, and the regions beside the
    histogram's bytes must add up to the type's region count in the table.
    """
    stacked, regions = {}, {}
    for sec in data['sections']:
        for c in sec['charts']:
            if c['kind'] == 'stacked':
                for it in c['items']:
                    stacked[it['label']] = sum(it['values'])
        for t in sec['tables']:
            if t['id'] == 'gpu-types' and t['columns'][2] == 'regions':
                for row in t['rows']:
                    regions[row[0]] = regions.get(row[0], 0) + row[2]
    for sec in data['sections']:
        for c in sec['charts']:
            if c['kind'] != 'histogram':
                continue
            typ = c['title'].split(': bytes by region size')[0]
            sides = [typ] if len(c['series']) == 1 else [typ + ' (before)', typ + ' (after)']
            for k, side in enumerate(sides):
                got = sum(it['values'][k] for it in c['items'])
                if side not in stacked or stacked[side] != got:
                    fail('%s: the size buckets hold %d bytes, the type %r'
                         % (side, got, stacked.get(side)))
                n = sum(it['counts'][k] for it in c['items'])
                if len(sides) == 1 and typ in regions and regions[typ] != n:
                    fail('%s: the size buckets hold %d regions, the table %d'
                         % (typ, n, regions[typ]))


VERDICTS = {'LEAK', 'GROWING', 'PLATEAU', 'STEP', 'NO TREND', 'STABLE', 'INSUFFICIENT'}


def check_timelines(drawn, data, expected):
    """Each timeline of the data drawn: its points with tooltips, a line, figures, its badge."""
    charts = [c for sec in data['sections'] for c in sec['charts'] if c['kind'] == 'timeline']
    if len(drawn) != expected or len(charts) != expected:
        fail('%d timelines drawn and %d in the data, expected %d'
             % (len(drawn), len(charts), expected))
    for i, (tl, c) in enumerate(zip(drawn, charts)):
        if tl['badge'] not in VERDICTS or tl['badge'] != c.get('badge'):
            fail('timeline %d carries no verdict badge (drawn %r, data %r)'
                 % (i + 1, tl['badge'], c.get('badge')))
        present = sum(1 for it in c['items'] if not it.get('absent'))
        if not tl['line'] or tl['points'] != present:
            fail('timeline %d draws %d points of %d' % (i + 1, tl['points'], present))
        if tl['untitled']:
            fail('timeline %d: %d points without a tooltip' % (i + 1, tl['untitled']))
        if tl['vals'] < 1 or tl['labels'] < 2:
            fail('timeline %d carries no figures or labels' % (i + 1))


def check_overview(screens):
    """A series page: its overview chart ends inside the laptop's first screen."""
    for w, h, g in screens:
        if g['overview'] is None:
            fail('no GPU overview chart (section#gpu) on the page')
        if w >= 1200 and g['overview'] > h:
            fail('at %dx%d the GPU overview ends at %.0f px, below the first screen'
                 % (w, h, g['overview']))
        print('%dx%d: the GPU overview ends at %.0f px' % (w, h, g['overview']))


def check_screens(screens, data):
    """At each first screen: the summary in sight, every table box inside the
    viewport, every pair table's delta column in sight without scrolling,
    chart text of 10 px or more; and no two timelines alike."""
    for w, h, g in screens:
        if data.get('summary') and (g['summary'] is None or g['summary'] > h):
            fail('at %dx%d the summary block ends at %r px, below the first screen'
                 % (w, h, g['summary']))
        if g['widest'] > g['vw'] + 0.5:
            fail('at %dx%d table %r is %.0f px wide, past the %d px viewport'
                 % (w, h, g['wid'], g['widest'], g['vw']))
        if g['delta'] > g['vw'] + 0.5:
            fail('at %dx%d the delta column of table %r ends at %.0f px, past the %d px '
                 'viewport' % (w, h, g['did'], g['delta'], g['vw']))
        if g['small'] is not None and g['small'] < 10:
            fail('at %dx%d chart text %r is %.1f px, under 10 px'
                 % (w, h, g['smallText'], g['small']))
        print('%dx%d: summary ends at %s px, widest table %.0f px, smallest chart text %s px'
              % (w, h, g['summary'], g['widest'],
                 '%.1f' % g['small'] if g['small'] is not None else '-'))
    seen = {}
    for sec in data['sections']:
        for c in sec['charts']:
            if c['kind'] != 'timeline':
                continue
            key = json.dumps([(it.get('absent'), it['values'][:1]) for it in c['items']])
            if key in seen:
                fail('timelines %r and %r draw the same data' % (seen[key], c['title']))
            seen[key] = c['title']


def case_parser():
    ap = argparse.ArgumentParser()
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('--charts', type=int, default=1)
    ap.add_argument('--hostile', action='store_true')
    ap.add_argument('--folded', type=int, default=None,
                    help='exactly this many table rows folded in <details class="unchanged">')
    ap.add_argument('--overview', action='store_true',
                    help='a series page: its GPU overview chart inside the first screen')
    ap.add_argument('--sections', default=None,
                    help='the sections, in order, each once (comma-separated ids)')
    ap.add_argument('--page', help='check this HTML file instead of writing one '
                    '(the test that the checks can fail)')
    ap.add_argument('--new-site', action='append', default=None,
                    help='an icicle node marked NEW with this label (repeatable: all of them)')
    ap.add_argument('--mutate', choices=['unescape', 'stylesheet', 'unfold', 'unlabel',
                                         'unmark', 'twice', 'unbadge', 'unscroll', 'nowrap',
                                         'shrink', 'unoverview'],
                    help='break the written page before loading it, as a writer that '
                    'forgot to escape the hostile process name or linked a CDN style '
                    'sheet would (the test that the checks can fail)')
    ap.add_argument('--rejects', metavar='MESSAGE',
                    help='the page must be refused with exactly this message')
    ap.add_argument('--timelines', type=int, default=None,
                    help='exactly this many timeline charts, each with its samples as '
                    'points with tooltips, a line, figures and the verdict badge of the data')
    ap.add_argument('--max-bytes', type=int, default=None,
                    help='the page is at most this many bytes')
    ap.add_argument('--command', default='report',
                    help='the iotally command that writes the page (report; trend, rate)')
    ap.add_argument('rest', nargs=argparse.REMAINDER)
    return ap


def split_cases(argv):
    """--bin IOTALLY, then the cases: each '--case NAME' and its options."""
    if len(argv) < 2 or argv[0] != '--bin':
        sys.exit('usage: report-html-check.py --bin IOTALLY [--case NAME] CASE-OPTIONS... '
                 '[--case NAME CASE-OPTIONS...]...')
    binary, rest = argv[1], argv[2:]
    cases, want_name = [], False
    for arg in rest:
        if want_name:
            cases.append((arg, []))
            want_name = False
        elif arg == '--case':
            want_name = True
        else:
            if not cases:
                cases.append(('page', []))
            cases[-1][1].append(arg)
    return binary, cases


def run_case(browser, binary, a):
    """0 when the case ends as it should (passes, or is refused as --rejects says)."""
    a.bin = binary
    try:
        check(a, browser)
    except Refused as e:
        if a.rejects is None:
            print('FAIL:', e)
            return 1
        if str(e) != a.rejects:
            print('FAIL: refused, but not for the expected reason')
            print('  expected: %s' % a.rejects)
            print('  got:      %s' % e)
            return 1
        print('refused as expected: %s' % e)
        return 0
    if a.rejects is not None:
        print('FAIL: the page passed every check; expected it refused with: %s' % a.rejects)
        return 1
    return 0


def main():
    binary, cases = split_cases(sys.argv[1:])
    parser = case_parser()
    parsed = [(name, parser.parse_args(args)) for name, args in cases]
    failed = []
    with tempfile.TemporaryDirectory() as profile, \
            Browser(chromium(), CHROMIUM_FLAGS, profile) as browser:
        for name, a in parsed:
            print('--- %s' % name)
            sys.stdout.flush()
            try:
                rc = run_case(browser, binary, a)
            except BrowserError as e:
                print('FAIL: %s' % e)
                rc = 1
            if rc:
                failed.append(name)
    print('%d passed, %d failed' % (len(parsed) - len(failed), len(failed)))
    for name in failed:
        print('failed: %s' % name)
    return 1 if failed else 0


def check(a, browser):
    args = [x for x in a.rest if x != '--']
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, 'report.html')
        if a.page:
            with open(os.path.join(root, a.page), 'rb') as src, open(page, 'wb') as dst:
                dst.write(src.read())
        else:
            if a.command == 'report':
                proc = subprocess.run([a.bin, 'report', '--format', 'html', '-o', page] + args,
                                      cwd=root, stderr=subprocess.PIPE)
            else:
                with open(page, 'wb') as out:
                    proc = subprocess.run([a.bin, a.command, '--format', 'html'] + args,
                                          cwd=root, stdout=out, stderr=subprocess.PIPE)
            if proc.returncode not in (0, 1) or not os.path.exists(page):
                fail('iotally report exited %d: %s'
                     % (proc.returncode, proc.stderr.decode()))
            if a.mutate:
                mutate(page, a.mutate)
        size = os.path.getsize(page)
        print('html: %d bytes' % size)
        if a.max_bytes is not None and size > a.max_bytes:
            fail('the page is %d bytes, over the budget of %d' % (size, a.max_bytes))
        dom, png = browser.load('file://' + page, WIDTH, HEIGHT)
        screens = [(w, h, json.loads(browser.evaluate('file://' + page, w, h, GEOMETRY_JS)))
                   for w, h in SCREENS]
        shot = os.path.join(tmp, 'shot.png')
        with open(shot, 'wb') as f:
            f.write(png)
        colours = png_is_not_blank(shot)
    if '<html' not in dom or '</html>' not in dom:
        fail('the browser gave no page')
    p = Dom()
    p.feed(dom)
    tags = [t for t, _ in p.tags]
    svgs = tags.count('svg')
    if svgs < a.charts:
        fail('%d <svg> charts in the DOM, expected at least %d' % (svgs, a.charts))
    if a.charts and p.svg_shapes < a.charts:
        fail('the charts draw nothing')
    for bad in ('img', 'iframe', 'object', 'embed', 'link', 'base', 'form', 'frame',
                'audio', 'video', 'source'):
        if bad in tags:
            fail('a <%s> element in the DOM' % bad)
    scripts = [attrs for t, attrs in p.tags if t == 'script']
    if len(scripts) != 1 or scripts[0].get('type') != 'application/json':
        fail('expected one <script type="application/json">, found %r' % scripts)
    for t, attrs in p.tags:
        for k, v in attrs.items():
            if k.startswith('on'):
                fail('<%s %s=...> in the DOM' % (t, k))
            if k in ('src', 'href', 'action', 'formaction', 'poster', 'srcset', 'data') or \
                    (k == 'xlink:href'):
                fail('<%s %s="%s">: a reference out of the page' % (t, k, v))
            if v and re.search(r'url\s*\(|@import', v):
                fail('<%s %s="%s">: a URL in a style' % (t, k, v))
    styles = re.findall(r'<style[^>]*>(.*?)</style>', dom, re.S)
    for s in styles:
        if re.search(r'url\s*\(|@import|https?:', s):
            fail('a URL in the style sheet')
    csp = [attrs.get('content', '') for t, attrs in p.tags
           if t == 'meta' and attrs.get('http-equiv', '').lower() == 'content-security-policy']
    if not csp or "default-src 'none'" not in csp[0]:
        fail("no Content-Security-Policy of default-src 'none'")
    data = json.loads(''.join(p.script_text))
    if data.get('schema') != 'iotally.report/1':
        fail('the embedded data has schema %r' % data.get('schema'))
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(data, f)
    check = subprocess.run([sys.executable, os.path.join(root, 'tests', 'json-validate.py'),
                            os.path.join(root, 'docs', 'json', 'report.schema.json'), f.name],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    os.unlink(f.name)
    if check.returncode != 0:
        fail('the embedded data does not match docs/json/report.schema.json: '
             + check.stdout.decode())
    text = ' '.join(p.text)
    if data.get('verdict') and data['verdict'] not in text:
        fail('the verdict of the data is not on the page')
    for e in a.expect:
        if e not in text:
            fail('%r is not in the page text' % e)
    if a.hostile:
        if HOSTILE not in text:
            fail('the hostile process name is not shown as text')
        if HOSTILE not in json.dumps(data, ensure_ascii=False):
            fail('the hostile process name is not in the data')
    if a.folded is not None:
        if p.folded_rows != a.folded:
            fail('%d table rows folded in <details class="unchanged">, expected %d'
                 % (p.folded_rows, a.folded))
        marked = sum(len(t.get('unchanged_rows', [])) for sec in data['sections']
                     for t in sec['tables'])
        if marked != a.folded:
            fail('the data marks %d rows unchanged, expected %d' % (marked, a.folded))
    if a.new_site is not None and sorted(p.new_sites) != sorted(a.new_site):
        fail('icicle nodes marked NEW: %r, expected %r' % (p.new_sites, a.new_site))
    if a.sections is not None:
        got = [attrs.get('id') for t, attrs in p.tags if t == 'section']
        if got != a.sections.split(','):
            fail('sections %s, expected %s' % (','.join(map(str, got)), a.sections))
        verdicts = [1 for t, attrs in p.tags
                    if t == 'p' and 'verdict' in attrs.get('class', '').split()]
        if len(verdicts) != 1:
            fail('%d headlines (<p class="verdict">), expected 1' % len(verdicts))
    check_histogram_sums(data)
    check_screens(screens, data)
    if a.overview:
        check_overview(screens)
    if a.timelines is not None:
        check_timelines(p.timelines, data, a.timelines)
    for i, labels in enumerate(p.bar_charts):
        if labels == 0:
            fail('bar chart %d carries no figure on its bars' % (i + 1))
    if p.bars_untitled:
        fail('%d bars without a <title> tooltip' % p.bars_untitled)
    print('screenshot: %d colours' % colours)
    if colours < 20:
        fail('the screenshot is blank')
    if p.headlines != 1:
        fail('%d headlines (<p class="verdict">), expected 1' % p.headlines)
    print('ok: %d charts (%d bar charts, %d figures on bars), %d shapes, %d rows folded, '
          '%d elements, screenshot %d colours'
          % (svgs, len(p.bar_charts), sum(p.bar_charts), p.svg_shapes, p.folded_rows,
             len(tags), colours))


if __name__ == '__main__':
    sys.exit(main())
