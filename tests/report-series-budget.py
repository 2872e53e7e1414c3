#!/usr/bin/env python3
"""A series of vmmap, classes and track captures: its report within budget.

Usage: report-series-budget.py --bin IOTALLY [--samples N] [--keep DIR]

Builds a series folder of N samples (default 20), each a bundle holding
  - target/vmmap.txt: tools/gen-trend.py --shape leak (IOSurface N and V
    grow 4 MiB a sample: N LEAK, V GROWING; fixtures/trend/README.md),
  - kernel/ioreg.txt: tools/gen-trend.py --kind classes --shape leak --rate 3
    (IOSurface +3 instances a sample, alloc:instance +192 KiB: LEAK),
  - kernel/track.txt: fixtures/diff/track-before.txt for the first half and
    track-after.txt for the second (every module that changes between them
    is one STEP, as tests/golden/trend/track-step),
with manifests (sha256 of each file) and series.json, then checks:
  - the verdicts of the report (the badges in the HTML page's data) are
    those of the construction, and equal 'iotally trend --format json
    --kind K' of the same series for every metric drawn (round trip);
  - the headline starts with LEAK;
  - the HTML page is at most 2 MiB and the Markdown at most 65,536
    characters (issue 23's budgets), and says what it left out.
--keep DIR writes the series there (for tools/bench: report vs the parse).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HTML_BUDGET = 2 * 1024 * 1024
MD_BUDGET = 65536


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def step(sample_dir, sid, kind, rel, when):
    path = os.path.join(sample_dir, rel)
    return {'argv': [sid], 'capture_kind': kind, 'duration_ms': 10, 'exit_status': 0,
            'id': sid, 'reason': None, 'signal': None, 'started_utc': when, 'status': 'ok',
            'stderr': None,
            'stdout': {'bytes': os.path.getsize(path), 'path': rel, 'sha256': sha(path)}}


def build(root, out, n):
    gen = os.path.join(root, 'tools', 'gen-trend.py')
    with tempfile.TemporaryDirectory() as tmp:
        vm, cl = os.path.join(tmp, 'vm'), os.path.join(tmp, 'cl')
        subprocess.run([sys.executable, gen, '--shape', 'leak', '--seed', '31',
                        '--samples', str(n), vm], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, gen, '--kind', 'classes', '--shape', 'leak',
                        '--rate', '3', '--noise', '2', '--seed', '32', '--samples', str(n), cl],
                       check=True, stdout=subprocess.DEVNULL)
        vms, cls = sorted(os.listdir(vm)), sorted(os.listdir(cl))
        samples = []
        for i in range(n):
            d = '%03d' % (i + 1)
            sd = os.path.join(out, d)
            os.makedirs(os.path.join(sd, 'target'))
            os.makedirs(os.path.join(sd, 'kernel'))
            shutil.copy(os.path.join(vm, vms[i]), os.path.join(sd, 'target', 'vmmap.txt'))
            shutil.copy(os.path.join(cl, cls[i]), os.path.join(sd, 'kernel', 'ioreg.txt'))
            track = 'track-before.txt' if i < n // 2 else 'track-after.txt'
            shutil.copy(os.path.join(root, 'fixtures', 'diff', track),
                        os.path.join(sd, 'kernel', 'track.txt'))
            when = '2026-12-01T%02d:%02d:00Z' % (10 + (i * 5) // 60, (i * 5) % 60)
            manifest = {
                'argv': ['iotally', 'capture', '--count', str(n)], 'complete': True,
                'finished_utc': when, 'host': {}, 'iotally_version': '0.1.0',
                'redaction': {'enabled': True, 'rules': [], 'warning': None},
                'schema': 'iotally.bundle/1', 'series': None, 'started_utc': when,
                'steps': [step(sd, 'target.vmmap', 'vmmap', 'target/vmmap.txt', when),
                          step(sd, 'kernel.ioreg', 'classes', 'kernel/ioreg.txt', when),
                          step(sd, 'kernel.track', 'track', 'kernel/track.txt', when)],
                'target': {'name': 'GPUStress', 'pid': 4242},
            }
            with open(os.path.join(sd, 'manifest.json'), 'w') as f:
                json.dump(manifest, f, indent=2)
            samples.append({'complete': True, 'dir': d, 'index': i + 1, 'started_utc': when})
        with open(os.path.join(out, 'series.json'), 'w') as f:
            json.dump({'complete': True, 'count': n, 'interval_s': 300, 'samples': samples,
                       'schema': 'iotally.series/1', 'started_utc': samples[0]['started_utc']},
                      f, indent=2)


def run(binary, args, root):
    p = subprocess.run([binary] + args, cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit('FAIL: iotally %s exited %d: %s'
                         % (' '.join(args), p.returncode, p.stderr.decode()))
    return p.stdout


def check(binary, series, root):
    html = run(binary, ['report', '--format', 'html', series], root)
    md = run(binary, ['report', '--format', 'markdown', series], root).decode()
    print('html: %d bytes (budget %d); markdown: %d characters (budget %d)'
          % (len(html), HTML_BUDGET, len(md), MD_BUDGET))
    if len(html) > HTML_BUDGET:
        raise SystemExit('FAIL: the HTML page is over its budget')
    if len(md) > MD_BUDGET:
        raise SystemExit('FAIL: the Markdown page is over its budget')
    data = json.loads(re.search(rb'<script type="application/json" id="iotally-data">(.*?)'
                                rb'</script>', html, re.S).group(1))
    if not data['verdict'].startswith('LEAK: '):
        raise SystemExit('FAIL: the headline does not start with LEAK: %r' % data['verdict'])
    # A timeline drawn for several metrics of the same values names them all: "A = B".
    badges = {name: c['badge'] for s in data['sections'] for c in s['charts']
              if c['kind'] == 'timeline' for name in c['title'].split(' = ')}
    # The construction.
    want = {'vmmap:IOSurface:N.dirty': 'LEAK', 'vmmap:IOSurface:V.dirty': 'GROWING',
            'classes:IOSurface': 'LEAK', 'alloc:instance': 'LEAK'}
    for m, v in want.items():
        if badges.get(m) != v:
            raise SystemExit('FAIL: %s is %r in the report, %s by construction'
                             % (m, badges.get(m), v))
    # track: between the two files (tests/golden/diff/track-text) NewCache goes
    # 0 -> 1 MiB, the least growth a verdict needs (trend's default): one STEP;
    # AGXG13X +8 KiB and kernel -12 KiB are under it: STABLE; the total moves
    # +1044480 B, under 1 MiB too: no rise verdict.
    track = {m: v for m, v in badges.items() if m.startswith('track:')}
    if (track.get('track:com.example.driver.NewCache') != 'STEP' or
            track.get('track:com.apple.AGXG13X') != 'STABLE' or
            track.get('track:kernel') != 'STABLE' or
            track.get('track:total') in ('LEAK', 'GROWING', 'PLATEAU', 'STEP', None)):
        raise SystemExit('FAIL: the track metrics are %r, not the construction\'s' % track)
    # The same verdicts as trend's JSON, kind by kind.
    trend = {}
    for kind in ('vmmap', 'classes', 'track'):
        doc = json.loads(run(binary, ['trend', '--format', 'json', '--kind', kind, series],
                             root))
        trend.update({m['name']: m['verdict'] for m in doc['metrics']})
    for m, v in badges.items():
        if trend.get(m) != v:
            raise SystemExit('FAIL: %s is %s in the report, %r in trend' % (m, v, trend.get(m)))
    # What the page left out is said.
    if 'not drawn' not in md and len(badges) >= 40:
        raise SystemExit('FAIL: the Markdown page does not say what it left out')
    print('ok: %d timelines, verdicts as constructed and as trend gives them' % len(badges))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--samples', type=int, default=20)
    ap.add_argument('--keep')
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.path.abspath(a.bin)
    if a.keep:
        os.makedirs(a.keep)
        build(root, a.keep, a.samples)
        check(binary, os.path.abspath(a.keep), root)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        series = os.path.join(tmp, 'series')
        os.makedirs(series)
        build(root, series, a.samples)
        check(binary, series, root)
    return 0


if __name__ == '__main__':
    sys.exit(main())
