#!/usr/bin/env python3
"""Generate vmmap dumps of several shapes for the parser benchmark.

tools/gen-vmmap.py writes one distribution of line shapes (mostly GPU
regions, short details, a few repeated sizes). A parser tuned to it can be
slow on other dumps, so tools/bench-vmmap also times these shapes. This
script shares no code with gen-vmmap.py: its region lines are built from
the printf model in docs/vmmap.md (and the format notes it cites), with
sizes drawn log-uniformly so every unit and rounding of vmmap's
memorySizeString appears, not only the few texts a GPU-heavy dump repeats.

  tools/gen-vmmap-shapes.py --shape NAME [--regions N] [--seed S] > dump.txt

Shapes:
  independent    a realistic macOS 26 mix: ~45 region types, a quarter of
                 them GPU, log-uniform sizes, details of every kind
  long-details   every line carries a detail of 120 to 400 bytes (deep
                 framework paths, IOSurface lines shared with many clients)
  many-types     ~70 region types, 3 % of lines GPU, short details
  wide           `vmmap -w` of the 10.13 layout: 16-digit zero-padded
                 addresses, a type column as wide as the longest name
                 (no 24-byte cut), untruncated details
  summary-heavy  `vmmap -summary` captures one after another: headers and
                 summary tables of ~80 rows, no region lines (--regions
                 counts table rows)
  corpus         the real captures copied in fixtures/vmmap (macos*, osx*,
                 format-in-*, chromium-*: each keeps its source line), or
                 every .txt of --corpus-dir, concatenated whole and
                 repeated until --regions lines

Every dump's summary table agrees with its region lines (per-type sums of
the sizes vmmap would print), so the parser's cross-check stays quiet.
The output is deterministic for a given --seed.
"""

import argparse
import glob
import math
import os
import random
import sys

KB = 1024
MB = KB * KB
GB = MB * KB
TB = GB * KB

GPU_TYPES = ['IOAccelerator', 'IOAccelerator (graphics)', 'IOSurface']

COMMON_TYPES = [
    '__TEXT', '__DATA', '__DATA_CONST', '__DATA_DIRTY', '__LINKEDIT', '__AUTH',
    '__AUTH_CONST', '__OBJC_RO', '__OBJC_RW', 'MALLOC_TINY', 'MALLOC_SMALL',
    'MALLOC_MEDIUM (reserved)', 'MALLOC_LARGE', 'MALLOC_NANO', 'MALLOC metadata',
    'MALLOC guard page', 'Stack', 'Stack Guard', 'VM_ALLOCATE', 'VM_ALLOCATE (reserved)',
    'Kernel Alloc Once', 'dyld private memory', 'shared memory', 'mapped file', 'IOKit',
    'CoreAnimation', 'CoreGraphics', 'CG image', 'CG raster data', 'ColorSync',
    'CoreUI image data', 'Foundation', 'Image IO', 'Activity Tracing',
    'Accelerate framework', 'AttributeGraph Data', 'Dispatch continuations',
    'WebKit Malloc', 'JS JIT generated code', 'JS VM Gigacage (reserved)', 'Mach message',
    'OpenCL', 'owned unmapped', 'page table in kernel',
]

MORE_TYPES = [
    '__PAGEZERO', '__CTF', '__FONT_DATA', '__UNICODE', '__IMAGE', '__TPRO_CONST',
    '__OBJC_CONST', '__GLSLBUILTINS', 'MALLOC', 'MALLOC (admin)', 'MALLOC (empty)',
    'MALLOC_LARGE (empty)', 'MALLOC_LARGE metadata', 'MALLOC_NANO (reserved)',
    'MALLOC_NANO metadata', 'MALLOC_TINY (empty)', 'MALLOC_SMALL (empty)',
    'STACK GUARD', 'VM_ALLOCATE (graphics)', 'IOKit (reserved)', 'CG backing stores',
    'WebKit Malloc metadata', 'JS VM Gigacage', 'OpenGL GLSL', 'Performance tool data',
    'unused __DATA', 'unused __TEXT', 'Memory Tag 240', 'Memory Tag 251',
    'AttributeGraph Data (old mapping)', 'owned unmapped (graphics)',
]

FRAMEWORKS = ['Metal', 'CoreGraphics', 'AppKit', 'Foundation', 'QuartzCore', 'ImageIO',
              'CoreML', 'AVFoundation', 'WebKit', 'JavaScriptCore', 'Security',
              'CoreFoundation', 'IOSurface', 'CoreImage', 'MetalPerformanceShaders']
CLIENTS = ['WindowServer[401]', 'Dock[612]', 'ControlCenter[655]', 'Finder[702]',
           'Safari[1201]', 'com.apple.WebKit.GPU[1207]', 'SystemUIServer[633]',
           'NotificationCenter[690]', 'loginwindow[160]', 'Spotlight[677]']


def size_text(n):
    """vmmap's memorySizeString (docs/vmmap.md, section on size fields)."""
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


class Shape:
    """How one shape draws its region lines."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.page = 4096 if name == 'wide' else 16 * KB
        if name == 'many-types':
            self.types = COMMON_TYPES + MORE_TYPES
            self.gpu_share = 0.03
        else:
            self.types = COMMON_TYPES + (MORE_TYPES[:10] if name == 'wide' else [])
            self.gpu_share = 0.25
        self.type_width = 24
        if name == 'wide':
            self.type_width = max(len(t) for t in self.types + GPU_TYPES)

    def pick_type(self):
        if self.rng.random() < self.gpu_share:
            return self.rng.choice(GPU_TYPES)
        return self.rng.choice(self.types)

    def pick_vsize(self):
        # Log-uniform from one page to 4 GiB, in whole pages.
        pages = int(math.exp(self.rng.uniform(0, math.log(4 * GB / self.page))))
        return max(1, pages) * self.page

    def detail(self, rtype, vsize):
        rng = self.rng
        long_ = self.name == 'long-details'
        if rtype == 'IOSurface':
            w, h = rng.randrange(16, 6000), rng.randrange(16, 4000)
            shared = rng.sample(CLIENTS, rng.randrange(4, 10) if long_ else rng.randrange(0, 2))
            d = "SurfaceID: 0x%x  %dx%d (BGRA) %s  '%s'" % (
                rng.randrange(0x10, 0x40000), w, h, size_text(min(vsize, w * h * 4)),
                rng.choice(['WindowServer', 'AgentStudio', 'WebKit LayerBacking', 'CA']))
            if shared:
                d += ', shared with ' + ', '.join(shared)
            return d
        if rtype.startswith('IOAccelerator'):
            return ''
        if rtype.startswith('__') or rtype == 'mapped file':
            depth = rng.randrange(2, 6) if long_ else rng.randrange(1, 3)
            fw = rng.choice(FRAMEWORKS)
            parts = ['System', 'Library', 'Frameworks']
            for _ in range(depth):
                f = rng.choice(FRAMEWORKS)
                parts += ['%s.framework' % f, 'Versions', 'A', 'Frameworks']
            parts += ['%s.framework' % fw, 'Versions', 'A', fw]
            return '/' + '/'.join(parts)
        if rtype.startswith('MALLOC'):
            d = 'DefaultMallocZone_0x%x' % rng.randrange(0x100000000, 0x200000000)
            if long_:
                d += ' ' + ' '.join('zone_%d_%s' % (i, rng.choice(FRAMEWORKS)) for i in range(8))
            return d
        if rtype.startswith('Stack'):
            return 'thread %d' % rng.randrange(0, 64)
        if long_:
            return ' '.join(rng.choice(FRAMEWORKS) for _ in range(rng.randrange(12, 30)))
        return rng.choice(['', '', '', 'libobjc.A.dylib', 'CoreAnimation', 'MTLHeap 0x%x' %
                           rng.randrange(0, 1 << 32)])

    def region(self, addr):
        rng = self.rng
        rtype = self.pick_type()
        vsize = self.pick_vsize()
        gpu = rtype in GPU_TYPES
        purge = rng.choice('NNVE') if gpu and rng.random() < 0.8 else '-'
        if purge == 'E':
            resident = dirty = swapped = 0
        else:
            resident = rng.randrange(0, vsize // self.page + 1) * self.page
            dirty = rng.randrange(0, resident // self.page + 1) * self.page
            swapped = 0 if purge == 'V' else rng.randrange(0, (vsize - resident) // self.page + 1) * self.page
        prot = 'rw-/rw-' if gpu else rng.choice(['r-x/r-x', 'r--/r--', 'rw-/rwx', 'rw-/rw-',
                                                  '---/---', 'r--/rw-'])
        sm = 'SHM' if gpu else rng.choice(['COW', 'PRV', 'PRV', 'NUL', 'ALI', 'ZER', 'S/A'])
        return {'type': rtype, 'start': addr, 'end': addr + vsize, 'vsize': vsize,
                'bytes': (vsize, resident, dirty, swapped),
                'sizes': [size_text(v) for v in (vsize, resident, dirty, swapped)],
                'prot': prot, 'sm': sm, 'purge': purge,
                'detail': self.detail(rtype, vsize)}

    def line(self, r):
        purge = ' PURGE=' + r['purge'] if r['purge'] != '-' else (' ' * 8 if r['detail'] else '')
        if self.name == 'wide':
            rng = '%016x-%016x' % (r['start'], r['end'])
            head = '%-*s %s' % (self.type_width, r['type'], rng)
        else:
            head = '%-24s %12x-%-12x' % (r['type'][:24], r['start'], r['end'])
        s = '%s [%6s %6s %6s %6s] %s SM=%s%s' % (head, *r['sizes'], r['prot'], r['sm'], purge)
        if r['detail']:
            s += '  ' + r['detail']
        return s


def header_lines(pid, name, summary_only):
    out = [
        'Process:         %s [%d]' % (name, pid),
        'Path:            /Applications/%s.app/Contents/MacOS/%s' % (name, name),
        'Load Address:    0x100b18000',
        'Identifier:      com.example.%s' % name.lower(),
        'Version:         2.1 (210)',
        'Code Type:       ARM64',
        'Platform:        macOS',
        'Parent Process:  launchd [1]',
        'Target Type:     live task',
        '',
        'Date/Time:       2026-09-05 12:23:00.508 +0000',
        'Launch Time:     2026-09-05 11:02:41.120 +0000',
        'OS Version:      macOS 26.6 (25G72)',
        'Report Version:  7',
        'Analysis Tool:   /usr/bin/vmmap',
        '',
        'Physical footprint:         1.2G',
        'Physical footprint (peak):  3.5G',
        'Idle exit:                  untracked',
        '----',
        '',
    ]
    if not summary_only:
        out += ['Virtual Memory Map of process %d (%s)' % (pid, name),
                'Output report format:  2.4  -- 64-bit process',
                'VM page size:  16384 bytes', '']
    return out


def summary_lines(rows, pid, summary_only):
    """rows: type -> [virtual, resident, dirty, swapped, volatile, nonvol, empty, count]."""
    width = max([30] + [min(len(t), 60) for t in rows])
    rule = '%-*s' % (width, '===========') + \
        '  ======= ========    =====  ======= ========   ======    =====  ======= '
    out = []
    if not summary_only:
        out += ['==== Legend', 'SM=sharing mode:  ',
                '\tCOW=copy_on_write PRV=private NUL=empty ALI=aliased ',
                '\tSHM=shared ZER=zero_filled S/A=shared_alias', 'PURGE=purgeable mode:',
                '\tV=volatile N=nonvolatile E=empty   otherwise is unpurgeable', '',
                '==== Summary for process %d' % pid, '']
    out += [' ' * (width + 2) +
            'VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION ',
            '%-*s' % (width, 'REGION TYPE') +
            '    SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced) ',
            rule]
    total = [0] * 8
    for t in sorted(rows):
        row = rows[t]
        total = [a + b for a, b in zip(total, row)]
        out.append('%-*s' % (width, t) + ''.join(' %8s' % size_text(v) for v in row[:7]) +
                   ' %8d ' % row[7])
    out.append(rule)
    out.append('%-*s' % (width, 'TOTAL') + ''.join(' %8s' % size_text(v) for v in total[:7]) +
               ' %8d ' % total[7])
    out.append('')
    return out


def add_to_rows(rows, r):
    # vmmap sums the regions' exact bytes, then prints the sum.
    row = rows.setdefault(r['type'], [0] * 8)
    vals = r['bytes']
    for i in range(4):
        row[i] += vals[i]
    if r['purge'] == 'V':
        row[4] += vals[0]
    elif r['purge'] == 'N':
        row[5] += vals[1]
    elif r['purge'] == 'E':
        row[6] += vals[0]
    row[7] += 1


def region_dump(shape, rng, pid, nregions, out):
    addr = 0x100000000 + rng.randrange(0, 1 << 20) * shape.page
    regions = []
    for _ in range(nregions):
        addr += rng.choice([0, 0, shape.page, 16 * shape.page])
        r = shape.region(addr)
        regions.append(r)
        addr = r['end']
    rows = {}
    for r in regions:
        add_to_rows(rows, r)
    col = ('REGION TYPE                    START - END         [ VSIZE  RSDNT  DIRTY   SWAP]'
           ' PRT/MAX SHRMOD PURGE    REGION DETAIL')
    lines = header_lines(pid, 'Shape%s' % shape.name.title().replace('-', ''), False)
    for title, writable in (('Non-writable', False), ('Writable', True)):
        lines.append('==== %s regions for process %d' % (title, pid))
        lines.append(col)
        lines.extend(shape.line(r) for r in regions if ('w' in r['prot'][:3]) == writable)
        lines.append('')
    lines.extend(summary_lines(rows, pid, False))
    out.write('\n'.join(lines) + '\n')


def summary_dumps(rng, nrows, out):
    """vmmap -summary captures of ~80 rows each until nrows rows are written."""
    types = COMMON_TYPES + MORE_TYPES + GPU_TYPES
    pid = 5000
    written = 0
    while written < nrows:
        rows = {}
        for t in rng.sample(types, min(len(types), rng.randrange(60, 80))):
            v = rng.randrange(1, 1 << 22) * 16 * KB
            res = rng.randrange(0, v // KB + 1) * KB
            dirty = rng.randrange(0, res // KB + 1) * KB
            swp = rng.randrange(0, (v - res) // KB + 1) * KB
            gpu = t in GPU_TYPES
            vol = rng.randrange(0, v // KB + 1) * KB if gpu else 0
            rows[t] = [v, res, dirty, swp, vol, res if gpu else 0, 0, rng.randrange(1, 5000)]
        lines = header_lines(pid, 'Summary%d' % pid, True)
        lines += ['ReadOnly portion of Libraries: Total=1.8G resident=532.9M(29%) '
                  'swapped_out_or_unallocated=1.3G(71%)', '']
        lines += summary_lines(rows, pid, True)
        out.write('\n'.join(lines) + '\n')
        written += len(rows)
        pid += 1


REAL_CAPTURES = ['macos*.txt', 'osx*.txt', 'format-in-*.txt', 'chromium-*.txt']


def corpus_dumps(nlines, out, corpus_dir):
    if corpus_dir:
        files = sorted(glob.glob(os.path.join(corpus_dir, '*.txt')))
    else:
        corpus_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                                  'fixtures', 'vmmap')
        files = sorted(f for pat in REAL_CAPTURES
                       for f in glob.glob(os.path.join(corpus_dir, pat)))
    if not files:
        sys.exit('gen-vmmap-shapes: no corpus files in %s' % corpus_dir)
    texts = []
    for f in files:
        with open(f, encoding='utf-8', errors='surrogateescape') as fh:
            t = fh.read()
        texts.append(t if t.endswith('\n') else t + '\n')
    written = 0
    while written < nlines:
        for t in texts:
            out.write(t)
            written += t.count('\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--shape', required=True,
                    choices=['independent', 'long-details', 'many-types', 'wide',
                             'summary-heavy', 'corpus'])
    ap.add_argument('--regions', type=int, default=250000)
    ap.add_argument('--dumps', type=int, default=1, help='region dumps, one after another')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--corpus-dir', help='for --shape corpus: every .txt of this folder')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = sys.stdout
    if a.shape == 'summary-heavy':
        summary_dumps(rng, a.regions, out)
    elif a.shape == 'corpus':
        corpus_dumps(a.regions, out, a.corpus_dir)
    else:
        shape = Shape(rng, a.shape)
        per = max(1, a.regions // a.dumps)
        for i in range(a.dumps):
            region_dump(shape, rng, 4300 + i, per, out)


if __name__ == '__main__':
    main()
