#!/usr/bin/env python3
"""Generate a series of vmmap captures whose trend is known by construction.

Each sample is a real vmmap dump (macOS 26 layout: header with Date/Time and
Physical footprint, a writable-regions section) written to
OUTDIR/sample-NN.txt. Three region series are built from a shape and seeded
Gaussian noise, rounded to 16 KiB pages:

  IOSurface, PURGE=N       64 MiB + shape(i) + noise   (vsize = resident = dirty)
  IOSurface, PURGE=V       32 MiB + shape(i) + noise   for --shape leak, else flat
  IOAccelerator (graphics) 32 MiB + noise, unpurgeable (always flat)

Shapes over samples i = 0 .. n-1, with amplitude --rate (MiB per sample):
  leak     rate * i                          (steady growth)
  plateau  rate * min(i, n // 2)             (grows in the first half, then flat)
  step     rate * (n // 2) once i >= 0.6 n   (one jump)
  flat     0                                 (noise only)

--shape rise-flat is the series of issue 24: IOAccelerator (graphics)
PURGE=N made of --unit MiB regions, --base-units of them plus
--units-per-sample more in each of the first --rise-samples samples, then
the same count (exact, no noise); IOSurface PURGE=N 64 MiB + noise. With
--footprint-start G, the Physical footprint is G GiB + --footprint-rise GiB
* min(i, --footprint-until) / --footprint-until, printed as vmmap prints
it ("26.3G": rounded to 0.1 GiB), instead of the regions' total.

Samples are --interval minutes apart from --start. The sizes are written so
that vmmap prints them exactly (8 MiB regions and one remainder, all whole
KiB below 10000K), so what iotally reads is the constructed value.

  tools/gen-trend.py --shape leak --samples 20 --seed 1 OUTDIR

--kind classes writes `ioreg -l` root entries instead (no capture time, so
argument order): IOSurface instances = 7 + shape(i) with --rate counted in
instances, OSString = 4033 + rounded noise, IOPCIDevice = 3 always, and an
instance allocation total of 14 MiB + 64 KiB * shape(i).
"""

import argparse
import datetime
import os
import random
import sys

KiB = 1024
MiB = 1024 * KiB
PAGE = 16 * KiB
CHUNK = 8 * MiB


def pages(v):
    """Bytes rounded to whole pages, at least 0."""
    return max(0, int(round(v / PAGE))) * PAGE


def shape_value(shape, i, n, rate):
    if shape == 'leak':
        return rate * i
    if shape == 'plateau':
        return rate * min(i, n // 2)
    if shape == 'step':
        return rate * (n // 2) if i >= 0.6 * n else 0
    if shape == 'flat':
        return 0
    raise ValueError(shape)


def size_text(n):
    """vmmap's size string for n bytes below 10000K: whole KiB, exact."""
    assert n % KiB == 0 and n < 10000 * KiB
    return '%dK' % (n // KiB)


def region_lines(rtype, total, purge, addr):
    """Regions of `rtype` adding up to `total` bytes; returns (lines, next address)."""
    lines = []
    sizes = [CHUNK] * (total // CHUNK)
    if total % CHUNK:
        sizes.append(total % CHUNK)
    tag = 'PURGE=%s' % purge if purge else ''
    for size in sizes:
        s = size_text(size)
        lines.append('%-24s %12x-%-12x [%6s %6s %6s %6s] rw-/rw- SM=SHM %-8s' %
                     (rtype, addr, addr + size, s, s, s, '0K', tag))
        addr += size + PAGE
    return lines, addr


def footprint_text(n):
    mb = n / MiB
    return '%.1fM' % mb if mb < 1000 else '%.1fG' % (mb / 1024)


def unit_region_lines(rtype, count, unit, purge, addr):
    """`count` regions of `unit` bytes each (vmmap prints 128.0M exactly)."""
    lines = []
    s = '%.1fM' % (unit / MiB) if unit >= 10000 * KiB else size_text(unit)
    for _ in range(count):
        lines.append('%-24s %12x-%-12x [%6s %6s %6s %6s] rw-/rw- SM=PRV PURGE=%s' %
                     (rtype, addr, addr + unit, s, s, s, '0K', purge))
        addr += unit + PAGE
    return lines, addr


def sample_text(when, regions, footprint=None, units=None):
    total = sum(v for _, _, v in regions) + 100 * MiB
    if units:
        total += units[1] * units[2]
    if footprint is not None:
        total = footprint
    out = [
        '# SOURCE: synthetic, tools/gen-trend.py (a series built by construction)',
        'Process:         GPUStress [4242]',
        'Path:            /Applications/GPUStress.app/Contents/MacOS/GPUStress',
        'Identifier:      com.example.gpustress',
        'Code Type:       ARM64',
        'Platform:        macOS',
        '',
        'Date/Time:       %s +0000' % when.strftime('%Y-%m-%d %H:%M:%S.000'),
        'OS Version:      macOS 26.6 (25G72)',
        'Report Version:  7',
        'Analysis Tool:   /usr/bin/vmmap',
        '',
        'Physical footprint:         %s' % footprint_text(total),
        '----',
        '',
        'Virtual Memory Map of process 4242 (GPUStress)',
        'Output report format:  2.4  -- 64-bit process',
        'VM page size:  16384 bytes',
        '',
        '==== Writable regions for process 4242',
        'REGION TYPE                    START - END         [ VSIZE  RSDNT  DIRTY   SWAP] '
        'PRT/MAX SHRMOD PURGE    REGION DETAIL',
    ]
    addr = 0x104000000
    for rtype, purge, value in regions:
        lines, addr = region_lines(rtype, value, purge, addr)
        out.extend(lines)
    if units:
        lines, addr = unit_region_lines(units[0], units[1], units[2], 'N', addr)
        out.extend(lines)
    out.append('')
    return '\n'.join(out) + '\n'


def classes_text(surfaces, strings, instance):
    diag = ('{"Container allocation"=12648079,"Instance allocation"=%d,'
            '"Pageable allocation"=1902493696,"Classes"={"OSObject"=6,"IOPCIDevice"=3,'
            '"IOSurface"=%d,"OSString"=%d},"IOMalloc allocation"=61931553}'
            % (instance, surfaces, strings))
    return '\n'.join([
        '+-o Root  <class IORegistryEntry, id 0x100000100, retain 16>',
        '  | {',
        '  |   "IOKitBuildVersion" = "Darwin Kernel Version 17.0.0: synthetic; '
        'root:xnu-4570.1.46~2/RELEASE_X86_64"',
        '  |   "IOKitDiagnostics" = %s' % diag,
        '  | }',
        '  | ',
    ]) + '\n'


def generate_classes(args):
    rng = random.Random(args.seed)
    os.makedirs(args.outdir, exist_ok=True)
    paths = []
    for i in range(args.samples):
        shape = shape_value(args.shape, i, args.samples, args.rate)
        path = os.path.join(args.outdir, 'ioreg-%02d.txt' % (i + 1))
        with open(path, 'w') as f:
            f.write(classes_text(7 + int(round(shape)),
                                 4033 + int(round(rng.gauss(0, args.noise))),
                                 14 * MiB + int(round(shape)) * 64 * KiB))
        paths.append(path)
    return paths


def generate_rise_flat(args):
    rng = random.Random(args.seed)
    start = datetime.datetime.strptime(args.start, '%Y-%m-%d %H:%M')
    os.makedirs(args.outdir, exist_ok=True)
    paths = []
    for i in range(args.samples):
        count = args.base_units + args.units_per_sample * min(i, args.rise_samples)
        regions = [('IOSurface', 'N', pages(64 * MiB + rng.gauss(0, args.noise * MiB)))]
        fp = None
        if args.footprint_start is not None:
            frac = min(i, args.footprint_until) / args.footprint_until
            fp = int(round((args.footprint_start + args.footprint_rise * frac) * 1024 * MiB))
        when = start + datetime.timedelta(minutes=args.interval * i)
        path = os.path.join(args.outdir, 'sample-%02d.txt' % (i + 1))
        with open(path, 'w') as f:
            f.write(sample_text(when, regions, fp,
                                ('IOAccelerator (graphics)', count, int(args.unit * MiB))))
        paths.append(path)
    return paths


def generate(args):
    if getattr(args, 'kind', 'vmmap') == 'classes':
        return generate_classes(args)
    if args.shape == 'rise-flat':
        return generate_rise_flat(args)
    rng = random.Random(args.seed)
    start = datetime.datetime.strptime(args.start, '%Y-%m-%d %H:%M')
    rate = args.rate * MiB
    noise = args.noise * MiB
    os.makedirs(args.outdir, exist_ok=True)
    paths = []
    for i in range(args.samples):
        shape = shape_value(args.shape, i, args.samples, rate)
        volatile = shape if args.shape == 'leak' else 0
        regions = [
            ('IOSurface', 'N', pages(64 * MiB + shape + rng.gauss(0, noise))),
            ('IOSurface', 'V', pages(32 * MiB + volatile + rng.gauss(0, noise))),
            ('IOAccelerator (graphics)', '', pages(32 * MiB + rng.gauss(0, noise))),
        ]
        when = start + datetime.timedelta(minutes=args.interval * i)
        path = os.path.join(args.outdir, 'sample-%02d.txt' % (i + 1))
        with open(path, 'w') as f:
            f.write(sample_text(when, regions))
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kind', choices=['vmmap', 'classes'], default='vmmap')
    ap.add_argument('--shape', choices=['leak', 'plateau', 'step', 'flat', 'rise-flat'],
                    default='leak')
    ap.add_argument('--unit', type=float, default=128.0, help='rise-flat: MiB per region')
    ap.add_argument('--base-units', type=int, default=72, help='rise-flat: regions at first')
    ap.add_argument('--units-per-sample', type=int, default=3)
    ap.add_argument('--rise-samples', type=int, default=10)
    ap.add_argument('--footprint-start', type=float, help='rise-flat: GiB')
    ap.add_argument('--footprint-rise', type=float, default=0.0, help='GiB')
    ap.add_argument('--footprint-until', type=int, default=1, help='sample index')
    ap.add_argument('--samples', type=int, default=20)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rate', type=float, default=4.0, help='MiB per sample')
    ap.add_argument('--noise', type=float, default=1.0, help='noise sigma in MiB')
    ap.add_argument('--interval', type=float, default=5.0, help='minutes between samples')
    ap.add_argument('--start', default='2026-09-05 12:00')
    ap.add_argument('outdir')
    args = ap.parse_args()
    if args.samples < 1:
        sys.exit('gen-trend.py: --samples must be at least 1')
    generate(args)


if __name__ == '__main__':
    main()
