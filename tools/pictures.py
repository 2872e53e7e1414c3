#!/usr/bin/env python3
"""The documentation's pictures of report pages, rendered from the fixtures.

    tools/pictures.py IOTALLY            write each picture (headless Chromium)
    tools/pictures.py --check IOTALLY    fail when a picture is older than its page

Each picture is the first screen of one report page, written by `iotally
report --format html` from fixtures in this tree, at a laptop's or a
phone's width. docs/pictures.json records, for each picture, the command,
the screen and the sha256 of the page it was taken of. --check writes each
page again (no browser) and fails when its sha256 is not the recorded one:
the page changed since its picture was taken, so the picture shows an
older page. Run from the top of the tree; the pages name their inputs by
relative path, so they are the same bytes wherever the tree is.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join('docs', 'pictures.json')

# name: (report operands, width, height): what each picture shows.
PICTURES = {
    'docs/report-vmmap-pair.png':
        (['fixtures/diff/vmmap-before.txt', 'fixtures/diff/vmmap-after.txt'], 1200, 900),
    'docs/report-bundle-pair.png':
        (['fixtures/bundle-pair/before', 'fixtures/bundle-pair/after'], 1200, 900),
    'docs/report-bundle-pair-phone.png':
        (['fixtures/bundle-pair/before', 'fixtures/bundle-pair/after'], 390, 800),
    'docs/report-series.png':
        (['fixtures/series-bundle/leak.tar.gz'], 1200, 900),
}

CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu',
                  '--disable-background-networking', '--disable-component-update',
                  '--disable-sync', '--no-first-run', '--disable-default-apps',
                  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost',
                  '--hide-scrollbars']


def page(iotally, operands, path):
    """Write the page of `operands` to `path`; its sha256."""
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    proc = subprocess.run([iotally, 'report', '--format', 'html', '-o', path] + operands,
                          cwd=ROOT, env=env, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        sys.exit('iotally report %s exited %d: %s' % (' '.join(operands), proc.returncode,
                                                     proc.stderr.decode()))
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        for d in os.environ.get('PATH', '').split(os.pathsep):
            p = os.path.join(d, name)
            if os.access(p, os.X_OK):
                return p
    sys.exit('no chromium on PATH (tools/dev installs the Debian package chromium)')


def write(iotally):
    sys.path.insert(0, os.path.join(ROOT, 'tests'))
    from browser import Browser
    record = {}
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as profile, \
            Browser(chromium(), CHROMIUM_FLAGS, profile) as b:
        for name, (operands, w, h) in PICTURES.items():
            html = os.path.join(tmp, 'page.html')
            digest = page(iotally, operands, html)
            _, png = b.load('file://' + html, w, h)
            out = os.path.join(ROOT, name)
            with open(out + '.tmp', 'wb') as f:
                f.write(png)
            os.replace(out + '.tmp', out)
            record[name] = {'command': ['iotally', 'report', '--format', 'html'] + operands,
                            'screen': [w, h], 'page_sha256': digest}
            print('%s: %dx%d of %s' % (name, w, h, ' '.join(operands)))
    path = os.path.join(ROOT, RECORD)
    with open(path + '.tmp', 'w') as f:
        json.dump(record, f, indent=2, sort_keys=True)
        f.write('\n')
    os.replace(path + '.tmp', path)
    return 0


def check(iotally):
    with open(os.path.join(ROOT, RECORD)) as f:
        record = json.load(f)
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (operands, w, h) in PICTURES.items():
            r = record.get(name)
            digest = page(iotally, operands, os.path.join(tmp, 'page.html'))
            if not r or not os.path.exists(os.path.join(ROOT, name)):
                stale.append('%s: no picture recorded' % name)
            elif r['page_sha256'] != digest or r['screen'] != [w, h]:
                stale.append('%s is older than the page it shows (page sha256 %s, the '
                             'picture was taken of %s)' % (name, digest[:12],
                                                           r['page_sha256'][:12]))
    for s in stale:
        print('FAIL', s)
    if stale:
        print('tools/pictures.py build/iotally takes them again')
        return 1
    print('%d pictures, each of the page as it is written now' % len(PICTURES))
    return 0


def main():
    args = sys.argv[1:]
    if args and args[0] == '--check':
        return check(os.path.abspath(args[1]))
    if len(args) != 1:
        sys.exit(__doc__)
    return write(os.path.abspath(args[0]))


if __name__ == '__main__':
    sys.exit(main())
