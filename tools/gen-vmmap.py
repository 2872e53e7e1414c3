#!/usr/bin/env python3
"""Generate realistic `vmmap -noCoalesce` dumps (macOS 26 layout).

Used for the benchmark (250,000 and 1,000,000 regions) and for synthetic
fixtures. The output is deterministic for a given --seed. Region lines use
vmmap's printf layout (24-column type, 12-column addresses, six-wide sizes
rendered the way vmmap rounds them), mostly IOAccelerator / IOSurface
regions in every purgeable state, and the summary table agrees with the
region lines, so a parser's cross-check stays quiet.

  tools/gen-vmmap.py --regions 250000 > big.txt
  tools/gen-vmmap.py --regions 40 --exact --seed 7 > small.txt

--exact only picks sizes that vmmap prints without rounding, so a tool that
reads the printed sizes and one that computes them from addresses agree.
"""

import argparse
import random
import sys

KB = 1024
MB = 1024 * KB
GB = 1024 * MB
PAGE = 16 * KB


def size_string(n):
    """vmmap's memorySizeString."""
    if n == 0:
        return '0K'
    kb = n / 1024.0
    if kb < 4:
        return '%d' % n
    if kb < 10000:
        return '%.0fK' % kb
    mb = kb / 1024.0
    if mb < 1000:
        return '%.1fM' % mb
    gb = mb / 1024.0
    if gb < 1000:
        return '%.1fG' % gb
    return '%.1fT' % (gb / 1024.0)


def exact(n):
    """Does vmmap print n so that int(float(text) * unit) == n?"""
    s = size_string(n)
    units = {'K': KB, 'M': MB, 'G': GB, 'T': 1024 * GB}
    unit = units.get(s[-1], 1)
    val = float(s[:-1] if s[-1] in units else s)
    return int(val * unit) == n


# (type, weight, prot, share mode, purge choices, size choices in bytes, detail kind)
GPU_SIZES = [16 * KB, 64 * KB, 256 * KB, 1 * MB, 4 * MB, 8 * MB, 8650752,
             16 * MB, 33423360, 128 * MB]
SURFACE_SIZES = [(16 * KB, 19, 19), (7520256, 2880, 652), (19398656, 2080, 2330),
                 (33423360, 3456, 2234), (1048576, 512, 512)]
KINDS = [
    ('IOAccelerator (graphics)', 45, 'rw-/rw-', 'SHM', 'NNNNVVE', GPU_SIZES, ''),
    ('IOAccelerator', 15, 'r--/r--', 'SHM', '-', [16 * KB, 48 * KB, 64 * KB], ''),
    ('IOAccelerator', 5, 'rw-/rw-', 'SHM', 'NNVE', GPU_SIZES, ''),
    ('IOSurface', 25, 'rw-/rw-', 'SHM', 'NNNNVE', None, 'surface'),
    ('MALLOC_SMALL', 4, 'rw-/rwx', 'PRV', '-', [8 * MB], 'DefaultMallocZone_0x100b18000'),
    ('CoreAnimation', 3, 'rw-/rwx', 'PRV', 'NNE', [16 * KB, 64 * KB, 128 * KB], ''),
    ('__TEXT', 3, 'r-x/r-x', 'COW', '-', [32 * KB, 1 * MB, 2359296],
     '/System/Library/Frameworks/Metal.framework/Versions/A/Metal'),
]


def pick_size(rng, choices, want_exact):
    for _ in range(100):
        n = rng.choice(choices)
        if not want_exact or exact(n):
            return n
    raise SystemExit('no exact size among %r' % choices)


def make_region(rng, addr, want_exact):
    weights = [k[1] for k in KINDS]
    rtype, _, prot, sm, purges, sizes, detail = rng.choices(KINDS, weights)[0]
    purge = rng.choice(purges)
    if detail == 'surface':
        choices = [s for s in SURFACE_SIZES if not want_exact or exact(s[0])]
        vsize, w, h = rng.choice(choices)
        surface_id = rng.randrange(0x10, 0x4000)
        own = w * h * 4 if vsize > 16 * KB else 2560
        own_s = size_string(own) if not want_exact else '%dK' % ((own + 1023) // 1024)
        detail = "SurfaceID: 0x%x  %dx%d (BGRA) %s  'WindowServer', shared with Dock[612]" % (
            surface_id, w, h, own_s)
    else:
        vsize = pick_size(rng, sizes, want_exact)
    if purge == 'E':
        resident = dirty = swapped = 0
    elif purge == 'V':
        resident = rng.choice([0, vsize])
        dirty = 0
        swapped = 0
    elif rtype == 'IOAccelerator' and purge == '-':
        resident = dirty = vsize
        swapped = 0
    else:
        resident = vsize if rng.random() < 0.7 else 0
        dirty = resident if rng.random() < 0.8 else 0
        swapped = 0 if resident else vsize
    if rng.random() < 0.03 and purge == '-':
        resident = dirty = swapped = 0
    return {
        'type': rtype, 'start': addr, 'end': addr + vsize, 'vsize': vsize,
        'resident': resident, 'dirty': dirty, 'swapped': swapped,
        'prot': prot, 'sm': sm, 'purge': purge, 'detail': detail,
    }


def region_line(r):
    purge = ' PURGE=%s' % r['purge'] if r['purge'] != '-' else ''
    if not purge and r['detail']:
        purge = ' ' * 8
    sizes = '%6s %6s %6s %6s' % tuple(size_string(r[k]) for k in
                                      ('vsize', 'resident', 'dirty', 'swapped'))
    line = '%-24s %12x-%-12x [%s] %s SM=%s%s' % (
        r['type'][:24], r['start'], r['end'], sizes, r['prot'], r['sm'], purge)
    if r['detail']:
        line += '  ' + r['detail']
    return line


def header(name, pid, os_version):
    return [
        'Process:         %s [%d]' % (name, pid),
        'Path:            /Applications/%s.app/Contents/MacOS/%s' % (name, name),
        'Load Address:    0x100b18000',
        'Identifier:      com.example.%s' % name.lower(),
        'Version:         1.0 (1)',
        'Code Type:       ARM64',
        'Platform:        macOS',
        'Parent Process:  launchd [1]',
        'Target Type:     live task',
        '',
        'Date/Time:       2026-09-05 12:23:00.508 +0000',
        'Launch Time:     2026-09-05 11:02:41.120 +0000',
        'OS Version:      %s' % os_version,
        'Report Version:  7',
        'Analysis Tool:   /usr/bin/vmmap',
        '',
        'Physical footprint:         1.2G',
        'Physical footprint (peak):  3.5G',
        'Idle exit:                  untracked',
        '----',
        '',
        'Virtual Memory Map of process %d (%s)' % (pid, name),
        'Output report format:  2.4  -- 64-bit process',
        'VM page size:  16384 bytes',
        '',
    ]


COLUMN_HEADER = ('REGION TYPE                    START - END         [ VSIZE  RSDNT  DIRTY   SWAP]'
                 ' PRT/MAX SHRMOD PURGE    REGION DETAIL')


def summary(regions, pid):
    rows = {}
    for r in regions:
        row = rows.setdefault(r['type'], [0] * 8)
        row[0] += r['vsize']
        row[1] += r['resident']
        row[2] += r['dirty']
        row[3] += r['swapped']
        if r['purge'] == 'V':
            row[4] += r['vsize']
        elif r['purge'] == 'N':
            row[5] += r['resident']
        elif r['purge'] == 'E':
            row[6] += r['vsize']
        row[7] += 1
    width = max([30] + [min(len(t), 60) for t in rows])
    out = [
        '==== Legend',
        'SM=sharing mode:  ',
        '\tCOW=copy_on_write PRV=private NUL=empty ALI=aliased ',
        '\tSHM=shared ZER=zero_filled S/A=shared_alias',
        'PURGE=purgeable mode:',
        '\tV=volatile N=nonvolatile E=empty   otherwise is unpurgeable',
        '',
        '==== Summary for process %d' % pid,
        '',
        ' ' * (width + 2) + 'VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION ',
        '%-*s' % (width, 'REGION TYPE') + '    SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced) ',
        '%-*s' % (width, '===========') + '  ======= ========    =====  ======= ========   ======    =====  ======= ',
    ]
    total = [0] * 8
    for t in sorted(rows):
        row = rows[t]
        total = [a + b for a, b in zip(total, row)]
        note = '        see MALLOC ZONE table below' if t.startswith('MALLOC') else ''
        values = ''.join(' %8s' % size_string(v) for v in row[:7])
        out.append('%-*s' % (width, t) + values + ' %8d' % row[7] + ' ' + note)
    out.append('%-*s' % (width, '===========') + '  ======= ========    =====  ======= ========   ======    =====  ======= ')
    out.append('%-*s' % (width, 'TOTAL') + ''.join(' %8s' % size_string(v) for v in total[:7]) +
               ' %8d ' % total[7])
    out.append('')
    return out


def generate(args, out):
    rng = random.Random(args.seed)
    for dump in range(args.dumps):
        pid = 4242 + dump
        addr = 0x104000000
        regions = []
        for _ in range(args.regions):
            addr += rng.choice([0, 0, PAGE, 4 * PAGE])
            r = make_region(rng, addr, args.exact)
            regions.append(r)
            addr = r['end']
        lines = header(args.process, pid, args.os_version)
        nonwritable = [r for r in regions if 'w' not in r['prot'].split('/')[0]]
        writable = [r for r in regions if 'w' in r['prot'].split('/')[0]]
        lines.append('==== Non-writable regions for process %d' % pid)
        lines.append(COLUMN_HEADER)
        lines.extend(region_line(r) for r in nonwritable)
        lines.append('')
        lines.append('==== Writable regions for process %d' % pid)
        lines.append(COLUMN_HEADER)
        lines.extend(region_line(r) for r in writable)
        lines.append('')
        lines.extend(summary(regions, pid))
        out.write('\n'.join(lines))
        out.write('\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--regions', type=int, default=1000)
    ap.add_argument('--dumps', type=int, default=1)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--exact', action='store_true',
                    help='only sizes vmmap prints without rounding')
    ap.add_argument('--process', default='GPUStress')
    ap.add_argument('--os-version', default='macOS 26.6 (25G72)')
    args = ap.parse_args()
    generate(args, sys.stdout)


if __name__ == '__main__':
    main()
