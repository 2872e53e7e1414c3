#!/usr/bin/env python3
"""Hostile rows, empty arrays and pages too large: each case builds its input
(a session with nothing in it, signature rows that lie, a series of long
class names), runs the real binary (under ASan/UBSan in the sanitizer builds,
where a null pointer passed to the C library with a length of 0 aborts the
run) and checks the exit status and what it says against what was built.

  untrusted-rows.py IOTALLY ROOT [--case NAME]...
"""

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

from casecheck import check, collect_cases, run_cases, run_iotally

ARGS = None
RULE = 'iotsig/1'
ROWS_SCHEMA = 'iotally.signatures-ndjson/1'
HTML_BUDGET = 2 * 1024 * 1024   # README: the page is at most 2 MiB


def run(args, timeout=120, cwd=None):
    """None when the run did not end within `timeout` seconds."""
    try:
        return run_iotally(ARGS.bin, args, timeout=timeout, cwd=cwd or ARGS.root,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


# expect() and Scratch are untrusted-inputs.py's: that script is loaded as a
# module (its name has a hyphen), which runs nothing but its definitions.
_spec = importlib.util.spec_from_file_location(
    'untrusted_inputs', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     'untrusted-inputs.py'))
_inputs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_inputs)
expect = _inputs.expect


class Scratch(_inputs.Scratch):
    def write(self, name, text):
        p = self.path(name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'w') as f:
            f.write(text)
        return p


# ---- empty arrays: nothing to sort, nothing to copy --------------------------

def case_session_without_growth_rows():
    """A session index whose steps wrote nothing: no class to compare and no
    call site, so the growth table has no row (its array was never
    allocated, and sorting it passed NULL to qsort)."""
    c = 'session-without-growth-rows'
    with Scratch() as s:
        s.write('sess/session.json', json.dumps({
            'schema': 'iotally.session/1', 'complete': True, 'steps': [],
            'tracking': {'left': 'off'}}))
        r = run([s.path('sess')])
        if expect(c, r, 0):
            check(c, b'No class grew' in r.stdout, 'no word of an empty table: %r' %
                  r.stdout[:400])


def case_rows_first_row_refused():
    """A rows file whose first row is refused: the file gave no record (its
    array was never allocated, and moving its records passed NULL to
    memcpy). Exit 65, naming the file and line 1."""
    c = 'rows-first-row-refused'
    with Scratch() as s:
        p = s.write('rows.ndjson', line({
            'schema': ROWS_SCHEMA, 'row': 'pair', 'source': 'x', 'status': 'maybe'}))
        expect(c, run(['signatures', p]), 65,
               "%s:1: error: row's status is neither 'ok' nor 'error'" % p)


def case_rows_nothing_grew():
    """Rows in which nothing grew: no bucket to sort."""
    c = 'rows-nothing-grew'
    with Scratch() as s:
        p = s.write('rows.ndjson', line(row(None)))
        r = run(['signatures', '--format', 'json', p])
        if expect(c, r, 0):
            out = json.loads(r.stdout)
            check(c, out['buckets'] == [] and out['no_growth'] == 1,
                  'want no bucket and 1 pair without growth: %r' % out)


# ---- signature rows: the id is its text's, the label the rule's --------------

def line(obj):
    """One NDJSON row, spelt as iotally writes them (a rows file is told by
    its first line's "schema":"...")."""
    return json.dumps(obj, separators=(',', ':')) + '\n'


def sig_id(canonical):
    return hashlib.sha256(canonical.encode()).hexdigest()[:12]


def row(canonical, label=None, sig_id_=None, name='p.txt', drop=()):
    """A signatures NDJSON row; canonical None: nothing grew."""
    grew = canonical is not None
    r = {'schema': ROWS_SCHEMA, 'row': 'pair', 'source': 'after/' + name, 'kind': 'vmmap',
         'baseline': 'before/' + name, 'pair': name, 'status': 'ok', 'error': None,
         'grew': grew,
         'signature_id': (sig_id_ or sig_id(canonical)) if grew else None,
         'signature_label': (label or 'whatever') if grew else None,
         'signature_rule': RULE if grew else None,
         'signature': canonical,
         'growth_bytes': 1 << 24 if grew else None, 'growth_count': 1 if grew else None,
         'os_version': None, 'machine': None, 'captured': None}
    for k in drop:
        del r[k]
    return r


# Each canonical text with its label as docs/signatures.md spells the rule:
# gpu "<type> <state in words> +<n> <unit>iB regions" (N non-volatile, -
# unpurgeable), class "<Class> +instances", track "[mapping ]<module>:
# <symbol> +bytes", fp "footprint <category> dirty +bytes", trend "series
# <VERDICT>", "; " between components.
TEXTS = [
    ('iotsig/1 gpu:IOSurface/N/16M', 'IOSurface non-volatile +16 MiB regions'),
    ('iotsig/1 class:+AGXBuffer; track:map:com.x.Drv!Pool::grow',
     'AGXBuffer +instances; mapping com.x.Drv: Pool::grow +bytes'),
    ('iotsig/1 trend:LEAK; fp:IOSurface', 'series LEAK; footprint IOSurface dirty +bytes'),
    ('iotsig/1 gpu:IOAccelerator (graphics)/-/128M; track:kext!',
     'IOAccelerator (graphics) unpurgeable +128 MiB regions; kext: ? +bytes'),
]


def case_rows_label_from_rule():
    """Rows that share a text, the first with a label of its own choosing:
    the bucket is named by the rule's words for the text, never by a row."""
    c = 'rows-label-from-rule'
    with Scratch() as s:
        rows = []
        for k, (text, _) in enumerate(TEXTS):
            rows.append(row(text, label='Nothing leaked: close this bug', name='a%d' % k))
            rows.append(row(text, label='second row', name='b%d' % k))
        p = s.write('rows.ndjson', ''.join(line(x) for x in rows))
        r = run(['signatures', '--format', 'json', p])
        if not expect(c, r, 0):
            return
        got = {b['canonical']: (b['label'], b['count'], b['id'])
               for b in json.loads(r.stdout)['buckets']}
        for text, label in TEXTS:
            check(c, got.get(text) == (label, 2, sig_id(text)),
                  'bucket of %r: %r, want %r' % (text, got.get(text), (label, 2, sig_id(text))))
        r = run(['signatures', p])
        if expect(c + '/text', r, 0):
            check(c + '/text', b'close this bug' not in r.stdout,
                  'a row named its bucket: %r' % r.stdout[:600])


def case_rows_id_not_of_its_text():
    """A row that claims the id of another text (another bucket's)."""
    c = 'rows-id-not-of-its-text'
    with Scratch() as s:
        other = sig_id(TEXTS[0][0])
        p = s.write('rows.ndjson', line(row(TEXTS[0][0])) +
                    line(row(TEXTS[1][0], sig_id_=other)))
        expect(c, run(['signatures', p]), 65,
               "%s:2: error: row's signature_id is not the id of its signature" % p)


def case_rows_without_text():
    """A row of the current rule with an id and a label but no canonical
    text: the id cannot be checked, so it is refused."""
    c = 'rows-without-text'
    with Scratch() as s:
        for how, r0 in (('null', row(TEXTS[0][0])), ('absent', row(TEXTS[0][0], drop=('signature',)))):
            r0['signature_id'] = 'abcdefabcdef'
            if how == 'null':
                r0['signature'] = None
            p = s.write('rows-%s.ndjson' % how, line(r0))
            expect('%s/%s' % (c, how), run(['signatures', p]), 65,
                   "%s:1: error: row lacks the string 'signature'" % p)


def case_rows_text_not_of_the_rule():
    """A text that is not the rule's name followed by a component."""
    c = 'rows-text-not-of-the-rule'
    with Scratch() as s:
        for k, text in enumerate(('iotsig/1', 'iotsig/1 nosuch:x', 'iotsig/12 gpu:x/N/1M')):
            p = s.write('rows-%d.ndjson' % k, line(row(text)))
            expect('%s/%d' % (c, k), run(['signatures', p]), 65,
                   "%s:1: error: row's signature is not its rule followed by a component" % p)


def case_diff_rows_read_back():
    """diff's NDJSON rows carry the canonical text: read back, they give the
    bucket that signatures gives the same pair."""
    c = 'diff-rows-read-back'
    pair = [os.path.join('fixtures', 'diff', 'vmmap-before.txt'),
            os.path.join('fixtures', 'diff', 'vmmap-after.txt')]
    with Scratch() as s:
        r = run(['diff', '--format', 'ndjson'] + pair)
        if not expect(c, r, 0):
            return
        rows = [json.loads(x) for x in r.stdout.decode().splitlines()]
        for x in rows:
            if not check(c, x.get('signature') and sig_id(x['signature']) == x['signature_id'],
                         'a row without its text or with another id: %r' % x):
                return
        p = s.write('diff.ndjson', r.stdout.decode())
        a = run(['signatures', '--format', 'json', p])
        b = run(['signatures', '--format', 'json'] + pair)
        if expect(c + '/rows', a, 0) and expect(c + '/pair', b, 0):
            key = lambda o: [(k['id'], k['label'], k['canonical'])
                             for k in json.loads(o.stdout)['buckets']]
            check(c, key(a) == key(b) and len(key(a)) == 1,
                  'rows %r, pair %r' % (key(a), key(b)))


# ---- the HTML page's budget ---------------------------------------------------

def classes_series(s, samples, classes, name_len, prefix='C'):
    """`samples` ioclasscount captures of `classes` classes with names of
    `name_len` characters, each class growing by its index a sample."""
    paths = []
    for k in range(samples):
        p = s.path('s%02d.txt' % k)
        with open(p, 'w') as f:
            for i in range(classes):
                f.write('%s%04d = %d\n' % (prefix * (name_len - 4), i, 100 + k * (i + 1)))
        paths.append(p)
    return paths


class Page(HTMLParser):
    """The page's elements balanced, its headline and its data."""

    VOID = {'meta', 'br', 'img', 'input', 'link', 'hr', 'col', 'area', 'base', 'wbr',
            'source', 'track', 'embed', 'param'}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.scripts = [], [], []
        self.verdict, self.folded = None, False
        self._text = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in self.VOID and not (tag in ('circle', 'line', 'path', 'rect')):
            self.stack.append(tag)
        if tag in ('script', 'p'):
            self._text = (tag, a.get('class'), [])

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in ('circle', 'line', 'path', 'rect') and (not self.stack or self.stack[-1] != tag):
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> closes <%s>' % (tag, self.stack[-1] if self.stack else ''))
            return
        self.stack.pop()
        if self._text and self._text[0] == tag:
            text = ''.join(self._text[2])
            if tag == 'script':
                self.scripts.append(text)
            elif self._text[1] == 'verdict':
                self.verdict = text
            elif self._text[1] == 'warn' and text.startswith('This page was folded'):
                self.folded = True
            self._text = None

    def handle_data(self, data):
        if self._text:
            self._text[2].append(data)


def check_page(c, html, folded=True):
    """Within budget, folded and saying so (when `folded`), elements
    balanced, one data script that parses and carries the page's headline."""
    check(c, len(html) <= HTML_BUDGET, 'the page is %d bytes, over %d' % (len(html), HTML_BUDGET))
    p = Page()
    p.feed(html.decode('utf-8'))
    p.close()
    check(c, not p.errors and p.stack == [], 'unbalanced: %r, open %r' % (p.errors[:3], p.stack))
    if folded:
        check(c, p.folded, 'the page does not say it was folded')
    if not check(c, len(p.scripts) == 1, '%d scripts, want the data alone' % len(p.scripts)):
        return None
    data = json.loads(p.scripts[0])
    check(c, data['verdict'] == p.verdict, 'data verdict %r, page %r' %
          (data['verdict'][:80], (p.verdict or '')[:80]))
    return data


def child_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def render(c, paths, out):
    before = child_cpu()
    r = run(['report', '--format', 'html', '-o', out] + paths, timeout=240)
    cpu = child_cpu() - before
    if not expect(c, r, 0) or not check(c, os.path.exists(out), 'no page written'):
        return None, cpu
    with open(out, 'rb') as f:
        return f.read(), cpu


def case_html_budget_long_names():
    """6 samples of 60 classes with 20,000-character names (about 7 MB of
    captures, 5.7 MB of page before): the page fits 2 MiB and says it was
    folded; its data says how many rows it left out, so rows kept plus rows
    left out are the 60 classes built."""
    c = 'html-budget-long-names'
    with Scratch() as s:
        html, _ = render(c, classes_series(s, 6, 60, 20000), s.path('page.html'))
        data = html and check_page(c, html)
        if not data:
            return
        tables = [t for sec in data['sections'] for t in sec['tables'] if t['rows'] or
                  t['omitted_rows']]
        names = [t for t in tables if any(isinstance(x, str) and 'C' * 50 in x
                                          for row_ in t['rows'] for x in row_)]
        check(c, names, 'no table of the classes in the data')
        for t in names:
            check(c, len(t['rows']) + t['omitted_rows'] >= 60,
                  'table %s: %d rows + %d left out, want the 60 classes' %
                  (t['id'], len(t['rows']), t['omitted_rows']))
        if shutil.which('chromium') and ARGS.browser:
            r = subprocess.run([sys.executable, os.path.join(ARGS.root, 'tests',
                                                             'report-html-check.py'),
                                '--bin', ARGS.bin, '--max-bytes', str(HTML_BUDGET),
                                '--expect', 'This page was folded', '--'] +
                               classes_series(s, 6, 60, 20000), cwd=ARGS.root,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=280)
            check(c + '/browser', r.returncode == 0, 'the browser check failed: %s' %
                  r.stdout.decode('utf-8', 'replace')[-800:])


def case_html_budget_any_size():
    """The bound holds for any input and the work grows with it, not faster:
    the same series with names 4 times as long, and one of 3,000 classes,
    each within 2 MiB; CPU time of the 4x input at most 4 x 3 (slack for a
    loaded machine and a sanitizer) the time of the 1x one."""
    c = 'html-budget-any-size'
    cpu = []
    for length in (20000, 80000):
        with Scratch() as s:
            html, t = render(c, classes_series(s, 6, 60, length), s.path('page.html'))
            if html is None:
                return
            check_page('%s/%d' % (c, length), html)
            cpu.append(max(t, 0.05))
    check(c, cpu[1] <= 12 * cpu[0], 'CPU %.2f s at 4x the names, %.2f s at 1x' % (cpu[1], cpu[0]))
    with Scratch() as s:
        html, _ = render(c, classes_series(s, 6, 3000, 400), s.path('page.html'))
        if html is not None:
            check_page(c + '/classes', html, folded=False)


def case_html_within_budget_unchanged():
    """A page that fits is the whole page: not folded, nothing cut."""
    c = 'html-within-budget-unchanged'
    with Scratch() as s:
        html, _ = render(c, classes_series(s, 6, 60, 40), s.path('page.html'))
        if html is not None:
            check(c, b'This page was folded' not in html and b'\xe2\x80\xa6' not in html,
                  'a page within budget was folded')


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('bin')
    ap.add_argument('root')
    ap.add_argument('--case', action='append')
    ap.add_argument('--no-browser', dest='browser', action='store_false',
                    help='skip the headless Chromium check of a folded page')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    return run_cases(collect_cases(globals()), ARGS.case)


if __name__ == '__main__':
    sys.exit(main())
