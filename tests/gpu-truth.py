#!/usr/bin/env python3
"""One GPU truth: every command gives the same GPU totals of a vmmap capture.

usage: gpu-truth.py IOTALLY ROOT

For every vmmap fixture (fixtures/vmmap, fixtures/gpu, fixtures/diff/vmmap-*)
that iotally reads, the gpu metric family (docs/gpu.md: IOAccelerator*,
IOSurface*, owned unmapped (graphics); count, vsize, resident, dirty,
swapped) of its first dump is taken from

  - `iotally vmmap --format json` (its groups, or its summary rows when the
    dump has no region lines), with the GPU types selected,
  - `iotally vmmap --format ndjson` (group rows, or summary rows, and the
    dump's `gpu` row with the default types),
  - the diff gates `vmmap:gpu.FIELD` of the capture against itself (the
    gate's BEFORE figure; not evaluable when the capture lacks the field),
  - `iotally trend` of the trend fixture series (metrics vmmap:gpu.FIELD,
    every sample's value; trend shows only metrics that change),
  - `iotally report --format html` (the embedded data: the GPU table's rows,
    and the headline's region count),

and all must agree: a figure one of them has as unknown must be unknown in
all, never 0.

The footprint family (footprint:gpu.dirty, docs/gpu.md) the same way, on
every footprint fixture: `iotally footprint --format json` (the summed
figure of several processes, else the one process's), the gate
`footprint:gpu.dirty` of the capture against itself, the report headline
(exact bytes, or a rounded figure within its printed precision) and the
trend of fixtures/footprint-trend/*/ (every sample's value). An independent parse of the region lines here (vmmap's
24-byte cut names completed by the summary table or docs/gpu.md's list;
VSIZE from the addresses, or the printed size on unmapped/kernel lines)
checks count and vsize of the region-line dumps against the same figures.
"""

import glob
import json
import os
import re
import subprocess
import sys

FIELDS = ('count', 'vsize', 'resident', 'dirty', 'swapped')
GPU_SELECT = 'IOAccelerator,IOSurface,owned unmapped (graphics)'
LONG_GPU = ('owned unmapped (graphics)',)
UNITS = {'K': 1024, 'M': 1024 ** 2, 'G': 1024 ** 3, 'T': 1024 ** 4}


def is_gpu(name):
    return (name.startswith('IOAccelerator') or name.startswith('IOSurface')
            or name == 'owned unmapped (graphics)')


def run(iotally, root, args):
    p = subprocess.run([iotally] + args, cwd=root, capture_output=True,
                       env=dict(os.environ, LC_ALL='C', TZ='UTC'))
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr


def from_vmmap_json(iotally, root, rel):
    rc, out, _ = run(iotally, root, ['vmmap', '--types', GPU_SELECT, '--format', 'json',
                                     '--snapshot', '1', rel])
    if rc != 0:
        return None
    dump = json.loads(out)['dumps'][0]
    if dump['groups']:
        return sum_known(dump['groups'])
    return summary_figures(dump['summary_rows'], 'virtual')


def sum_known(rows):
    """Each field summed over the rows; None when a row has it as unknown."""
    return {f: None if any(r[f] is None for r in rows) else sum(r[f] for r in rows)
            for f in FIELDS}


def summary_figures(rows, vkey):
    """The gpu family from summary rows; None for a field a GPU row lacks."""
    rows = [r for r in rows if r['type'] and not r['type'].startswith('TOTAL')]
    if not rows:
        return None
    out = {}
    for f in FIELDS:
        key = vkey if f == 'vsize' else f
        table_has = any(r.get(key) is not None for r in rows)
        gpu = [r for r in rows if is_gpu(r['type'])]
        if not table_has or any(r.get(key) is None for r in gpu):
            out[f] = None
        else:
            out[f] = sum(r[key] for r in gpu)
    return out


def from_ndjson(iotally, root, rel):
    rc, out, _ = run(iotally, root, ['vmmap', '--types', GPU_SELECT, '--format', 'ndjson',
                                     rel])
    if rc != 0:
        return None
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    groups = [r for r in rows if r['row'] == 'group' and r['dump'] == 1]
    if groups:
        return sum_known(groups)
    summary = [r for r in rows if r['row'] == 'summary' and r['dump'] == 1]
    return summary_figures(summary, 'vsize')


def from_ndjson_gpu_row(iotally, root, rel):
    """The dump's `gpu` row, with the default --types (it must not depend on them)."""
    rc, out, _ = run(iotally, root, ['vmmap', '--format', 'ndjson', rel])
    if rc != 0:
        return None
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    gpu = [r for r in rows if r['row'] == 'gpu' and r['dump'] == 1]
    if len(gpu) != 1:
        return None
    return {f: gpu[0][f] for f in FIELDS}


def only_gate(rc, text):
    """The one gate of a diff's JSON: exit 0, or 65 because it was the only
    gate and not evaluable (no gate evaluated fails a run); else None."""
    if rc not in (0, 65):
        return None
    gate = json.loads(text)['gates'][0]
    if rc == 65 and gate['evaluable'] is not False:
        return None
    return gate


def from_gates(iotally, root, rel):
    out = {}
    for f in FIELDS:
        rc, text, _ = run(iotally, root, ['diff', '--format', 'json', '--dump', '1',
                                          '--fail-if', 'vmmap:gpu.%s > +0' % f, rel, rel])
        gate = only_gate(rc, text)
        if gate is None:
            return None
        out[f] = gate['before']
    return out


def check_trend(iotally, root):
    """Each trend fixture series: every sample's vmmap:gpu.FIELD value is the
    vmmap JSON figure of that sample (trend shows only metrics that change,
    so a capture repeated three times would show none)."""
    failures = 0
    for d in sorted(glob.glob(os.path.join(root, 'fixtures', 'trend', '*', ''))):
        files = sorted(glob.glob(os.path.join(d, '*.txt')))
        rels = [os.path.relpath(f, root) for f in files]
        if len(rels) < 3 or from_vmmap_json(iotally, root, rels[0]) is None:
            continue
        rc, text, _ = run(iotally, root, ['trend', '--format', 'json'] + rels)
        if rc not in (0, 1):
            continue
        doc = json.loads(text)
        used = [i['path'] for i in doc['inputs'] if i.get('used', True)] \
            if doc['inputs'] and isinstance(doc['inputs'][0], dict) and 'path' in doc['inputs'][0] \
            else rels
        shown = {m['name'][len('vmmap:gpu.'):]: m for m in doc['metrics']
                 if m['name'].startswith('vmmap:gpu.')}
        if 'vsize' not in shown:
            print('%s: trend shows no vmmap:gpu.vsize' % d)
            failures += 1
            continue
        for f, m in shown.items():
            for i, v in enumerate(m['values']):
                ref = from_vmmap_json(iotally, root, used[i])
                if ref is None or v is None:
                    continue
                if ref[f] != int(round(v)):
                    print('%s: gpu.%s is %r in vmmap JSON but %r in trend' %
                          (used[i], f, ref[f], v))
                    failures += 1
    return failures


def from_report(iotally, root, rel):
    rc, html, _ = run(iotally, root, ['report', '--format', 'html', rel])
    if rc != 0:
        return None
    m = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S)
    doc = json.loads(m.group(1))
    out = {f: None for f in FIELDS}
    for sec in doc['sections']:
        for t in sec['tables']:
            if t['id'] not in ('gpu-types', 'gpu-summary'):
                continue
            cols = t['columns']
            for f, col in (('count', 'regions'), ('vsize', 'virtual'), ('resident', 'resident'),
                           ('dirty', 'dirty'), ('swapped', 'swapped')):
                i = cols.index(col)
                cells = [r[i] for r in t['rows']]
                out[f] = None if any(c is None for c in cells) else sum(cells)
    verdict = doc['verdict'] if isinstance(doc['verdict'], str) else json.dumps(doc['verdict'])
    m = re.search(r'in (\d+|\?) regions?', verdict)
    headline = None if not m or m.group(1) == '?' else int(m.group(1))
    return out, headline


def size_bytes(tok):
    if tok[-1] in UNITS:
        return int(float(tok[:-1]) * UNITS[tok[-1]])
    return int(tok)


REGION = re.compile(r'^[ >]*(?:--->)?\s*(.+?)\s+([0-9a-fA-Fx]+|unmapped|kernel)-'
                    r'([0-9a-fA-Fx]+|unmapped|kernel)\s+\[\s*([^\]]*)\]\s*'
                    r'[-r][-w][-x]/[-r][-w][-x]\s+SM=(...)(.*)$')


def independent(path):
    """count and vsize of the GPU regions of the first dump, or None."""
    with open(path, 'rb') as fh:
        text = fh.read().decode('utf-8', 'replace')
    lines = text.splitlines()
    summary_names = [l.split('  ')[0].strip() for l in lines if not REGION.match(l.rstrip())]
    count = vsize = 0
    seen = False
    dumps = 0
    for line in lines:
        if line.startswith('Process:'):
            dumps += 1
            if dumps > 1:
                break
        m = REGION.match(line.rstrip())
        if not m:
            continue
        name, start, end, sizes, _sm, rest = m.groups()
        tokens = sizes.split()
        purge = re.match(r'^(\s+[A-Z]+)*\s+PURGE=', rest) is not None
        if len(name) == 24:
            full = [n for n in summary_names if len(n) > 24 and n.startswith(name)]
            full = sorted(set(full))
            if len(full) == 1:
                name = full[0]
            else:
                name = next((g for g in LONG_GPU if g.startswith(name)), name)
        if not is_gpu(name):
            continue
        seen = True
        nonzero = any(size_bytes(t) for t in tokens[1:4]) if len(tokens) >= 4 else True
        if not purge and not nonzero:
            continue   # the breakdown's rule (model/vmmap.h vmmap_region_counts)
        count += 1
        if start in ('unmapped', 'kernel'):
            vsize += size_bytes(tokens[0])
        else:
            vsize += int(end, 16) - int(start, 16)
    return {'count': count, 'vsize': vsize} if seen else None


def footprint_json_gpu(iotally, root, rel):
    """gpu.dirty of `iotally footprint --format json`: (bytes, exact), or
    None when the capture does not have it, or False when it is not read."""
    rc, out, _ = run(iotally, root, ['footprint', '--format', 'json', rel])
    if rc != 0:
        return False
    doc = json.loads(out)
    whole = doc['summed'] or (doc['processes'][0] if len(doc['processes']) == 1 else None)
    fig = whole and whole.get('gpu_dirty')
    return (fig['bytes'], fig['exact']) if fig else None


def footprint_gate_gpu(iotally, root, rel):
    rc, text, _ = run(iotally, root, ['diff', '--format', 'json', '--fail-if',
                                      'footprint:gpu.dirty > +0', rel, rel])
    gate = only_gate(rc, text)
    return False if gate is None else gate['before']


BINARY = {'B': 1, 'KiB': 1024, 'MiB': 1024 ** 2, 'GiB': 1024 ** 3, 'TiB': 1024 ** 4}


def footprint_report_gpu(iotally, root, rel):
    """The report headline's figure: (value in bytes, decimals shown), None
    when the headline gives none, False when the report is refused."""
    rc, html, _ = run(iotally, root, ['report', '--format', 'html', rel])
    if rc != 0:
        return False
    data = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S)
    verdict = json.loads(data.group(1))['verdict']
    verdict = verdict if isinstance(verdict, str) else json.dumps(verdict)
    # ">=" marks a lower bound (rows the author left out), "~" a rounded figure.
    m = re.search(r'GPU memory \(footprint, dirty\) (?:>=)?(~?)([0-9.]+) (B|KiB|MiB|GiB|TiB)',
                  verdict)
    if not m:
        return None
    decimals = len(m.group(2).split('.')[1]) if '.' in m.group(2) else 0
    return float(m.group(2)) * BINARY[m.group(3)], decimals, BINARY[m.group(3)]


def check_footprint(iotally, root):
    failures = checked = 0
    for path in sorted(glob.glob(os.path.join(root, 'fixtures', 'footprint', '*.txt'))):
        rel = os.path.relpath(path, root)
        ref = footprint_json_gpu(iotally, root, rel)
        if ref is False:
            continue   # a capture iotally refuses (overflow, garbage)
        checked += 1
        gate = footprint_gate_gpu(iotally, root, rel)
        if gate is False or (ref is None) != (gate is None) or \
                (ref is not None and gate != ref[0]):
            print('%s: footprint:gpu.dirty is %r in footprint JSON but %r in the gate' %
                  (rel, ref, gate))
            failures += 1
        rep = footprint_report_gpu(iotally, root, rel)
        if ref is None or rep is None:
            if (ref is None) != (rep is None):
                print('%s: footprint:gpu.dirty is %r in footprint JSON, the report headline '
                      'says %r' % (rel, ref, rep))
                failures += 1
            continue
        if rep is False:
            print('%s: report refused a capture footprint reads' % rel)
            failures += 1
            continue
        value, decimals, unit = rep
        if abs(value - ref[0]) > unit * 0.5 * 10 ** -decimals + 1e-9:
            print('%s: footprint:gpu.dirty is %d in footprint JSON, %r in the report headline'
                  % (rel, ref[0], value))
            failures += 1
    for d in sorted(glob.glob(os.path.join(root, 'fixtures', 'footprint-trend', '*', ''))):
        rels = [os.path.relpath(f, root) for f in sorted(glob.glob(os.path.join(d, '*.txt')))]
        rc, text, _ = run(iotally, root, ['trend', '--format', 'json'] + rels)
        if rc not in (0, 1):
            print('%s: trend did not read the series' % d)
            failures += 1
            continue
        shown = [m for m in json.loads(text)['metrics'] if m['name'] == 'footprint:gpu.dirty']
        if not shown:
            print('%s: trend shows no footprint:gpu.dirty' % d)
            failures += 1
            continue
        for rel, v in zip(rels, shown[0]['values']):
            ref = footprint_json_gpu(iotally, root, rel)
            if ref and v is not None and int(round(v)) != ref[0]:
                print('%s: footprint:gpu.dirty is %d in footprint JSON but %r in trend' %
                      (rel, ref[0], v))
                failures += 1
    print('%d footprint captures checked across footprint JSON, gates, report and trend'
          % checked)
    if checked < 6:
        print('too few footprint captures were read: %d' % checked)
        failures += 1
    return failures


def main():
    iotally, root = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(root, 'fixtures', 'vmmap', '*.txt')) +
                   glob.glob(os.path.join(root, 'fixtures', 'gpu', '*.txt')) +
                   glob.glob(os.path.join(root, 'fixtures', 'diff', 'vmmap-*.txt')))
    failures = checked = 0
    for path in files:
        rel = os.path.relpath(path, root)
        ref = from_vmmap_json(iotally, root, rel)
        if ref is None:
            continue   # not a capture vmmap reads
        checked += 1
        others = {
            'ndjson': from_ndjson(iotally, root, rel),
            'ndjson gpu row': from_ndjson_gpu_row(iotally, root, rel),
            'gates': from_gates(iotally, root, rel),
        }
        rep = from_report(iotally, root, rel)
        if rep is not None:
            others['report'] = rep[0]
            if rep[0]['count'] is not None and rep[1] is not None and rep[1] != rep[0]['count']:
                print('%s: report headline says %d regions, its table %d' %
                      (rel, rep[1], rep[0]['count']))
                failures += 1
        for who, got in others.items():
            if got is None:
                print('%s: %s did not read it' % (rel, who))
                failures += 1
                continue
            for f in FIELDS:
                if got[f] != ref[f]:
                    print('%s: gpu.%s is %r in vmmap JSON but %r in %s' %
                          (rel, f, ref[f], got[f], who))
                    failures += 1
        ind = independent(path)
        # A dump with lines iotally does not understand is not compared: this
        # simple parse would read some of them (synthetic-malformed-lines.txt).
        clean = b'not understood' not in run(iotally, root, ['vmmap', rel])[2]
        if ind is not None and clean and from_lines(iotally, root, rel):
            for f in ('count', 'vsize'):
                if ind[f] != ref[f]:
                    print('%s: gpu.%s is %r by an independent parse, %r by iotally' %
                          (rel, f, ind[f], ref[f]))
                    failures += 1
    failures += check_trend(iotally, root)
    failures += check_footprint(iotally, root)
    print('%d captures checked across vmmap JSON, NDJSON, gates and report' % checked)
    if checked < 20:
        print('too few captures were read: %d' % checked)
        failures += 1
    if failures:
        print('%d check(s) failed' % failures)
        return 1
    return 0


def from_lines(iotally, root, rel):
    """Does the first dump list regions (not a summary-only dump)?"""
    rc, out, _ = run(iotally, root, ['vmmap', '--types', GPU_SELECT, '--format', 'json',
                                     '--snapshot', '1', rel])
    return rc == 0 and json.loads(out)['dumps'][0]['lines']['regions'] > 0 \
        if rc == 0 and isinstance(json.loads(out)['dumps'][0].get('lines'), dict) else False


if __name__ == '__main__':
    sys.exit(main())
