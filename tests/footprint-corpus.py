#!/usr/bin/env python3
"""The footprint captures read exactly: an independent parse of each file
(a few regular expressions, nothing shared with iotally's reader) against
`iotally footprint --all-categories --format json`: every category figure,
the TOTAL row, the header and auxiliary figures, gpu.dirty and the slack
(half a unit of base 1024 for KB/MB/GB, 0 for bytes).

usage: footprint-corpus.py IOTALLY ROOT FILE...
"""
import json
import re
import subprocess
import sys

UNITS = {'B': 1, 'KB': 1 << 10, 'MB': 1 << 20, 'GB': 1 << 30, 'TB': 1 << 40}
GPU = {'Owned physical footprint (unmapped) (graphics)', 'IOSurface',
       'IOAccelerator (graphics)', 'IOAccelerator', 'IOKit'}
COLS = {'Dirty': 'dirty', '(Swapped)': 'swapped', 'Clean': 'clean',
        'Reclaimable': 'reclaimable', '(Wired)': 'wired', 'Regions': 'regions'}
FIG = r'(\d+) (B|KB|MB|GB|TB)'


def fig(n, u):
    unit = UNITS[u]
    return {'bytes': int(n) * unit, 'slack': unit // 2}


def parse(path):
    procs, cur, cols = [], None, None
    for line in open(path, encoding='utf-8').read().split('\n')[1:]:
        m = re.match(r'^(.*?) ?\[(\d+)\]: (\d+)-bit\s+Footprint: ' + FIG, line)
        if m:
            cur = {'name': m.group(1) or None, 'pid': int(m.group(2)),
                   'footprint': fig(m.group(4), m.group(5)), 'cats': {}, 'total': None}
            procs.append(cur)
            continue
        m = re.match(r'^\s*(phys_footprint(?:_peak)?): ' + FIG + r'$', line)
        if m:
            cur[m.group(1)] = fig(m.group(2), m.group(3))
            continue
        words = line.split()
        if words and words[-1] == 'Category':
            cols = [COLS[w] for w in words[:-1]]
            continue
        if cols and words and re.match(r'^\d', words[0]):
            vals = {}
            for c in cols[:-1]:
                vals[c] = fig(words.pop(0), words.pop(0))
            vals['regions'] = {'count': int(words.pop(0)), 'slack': 0}
            name = ' '.join(words)
            if name == 'TOTAL':
                cur['total'] = vals
            else:
                cur['cats'][name] = vals
    return procs


def main():
    exe, root, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    failures = 0
    for f in files:
        want = parse(f'{root}/{f}')
        out = subprocess.run([exe, 'footprint', '--all-categories', '--format', 'json', f],
                             cwd=root, capture_output=True, text=True)
        got = json.loads(out.stdout)['processes']

        def check(what, w, g):
            nonlocal failures
            if w is None and g is None:
                return
            key = 'count' if w and 'count' in w else 'bytes'
            if g is None or w is None or g[key] != w[key] or g['slack'] != w['slack']:
                print(f'{f}: {what}: expected {w}, got {g}')
                failures += 1

        if len(got) != len(want):
            print(f'{f}: {len(want)} processes expected, got {len(got)}')
            failures += 1
            continue
        for w, g in zip(want, got):
            if (w['name'], w['pid']) != (g['name'], g['pid']):
                print(f'{f}: process {w["name"]} [{w["pid"]}], got {g["name"]} [{g["pid"]}]')
                failures += 1
            for k in ('footprint', 'phys_footprint', 'phys_footprint_peak'):
                check(k, w.get(k), g[k])
            gcats = {c['name']: c for c in g['categories']}
            if set(gcats) != set(w['cats']):
                print(f'{f}: categories differ: {sorted(set(gcats) ^ set(w["cats"]))}')
                failures += 1
            for name, vals in w['cats'].items():
                for c, v in vals.items():
                    check(f'{name}.{c}', v, gcats.get(name, {}).get(c))
            for c, v in (w['total'] or {}).items():
                check(f'TOTAL.{c}', v, (g['total'] or {}).get(c))
            if w['cats']:
                gpu = [v['dirty'] for n, v in w['cats'].items() if n in GPU]
                exp = {'bytes': sum(x['bytes'] for x in gpu), 'slack': sum(x['slack'] for x in gpu)}
                check('gpu.dirty', exp, g['gpu_dirty'])
            else:
                check('gpu.dirty', None, g['gpu_dirty'])
        print(f'{f}: {sum(len(w["cats"]) for w in want)} categories checked')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
