#!/usr/bin/env python3
"""Writes the before/after bundle pair under fixtures/bundle-pair/ (run from the project root).

Built with Python's plistlib, hashlib and tarfile, independently of iotally, from
fixtures whose deltas are already known by construction (fixtures/diff/README.md,
the .edits files), so every delta of `iotally report before/ after/` is known:

  before/, after/  one capture each of: the ioreg root plist (IOKitDiagnostics),
                   ioclasscount (every class), ioalloccount (the four totals), the
                   --track capture, vmmap and footprint of the target

  kernel view      the plist's classes and totals are those of
                   fixtures/diff/classes-{before,after}.txt, plus IOAccelerator = 2 before
                   and 5 after (+3, one per new 128 MiB IOAccelerator region). ioclasscount.txt
                   and ioalloccount.txt render the same IOKitDiagnostics (ioclasscount.8,
                   ioalloccount.8), except in after/, whose ioclasscount was taken one second
                   after the plist and says IOSurface = 13 where the plist says 12: the one
                   disagreement between the sources of one bundle
  vmmap            fixtures/diff/vmmap-{before,after}.txt (+3 x 128 MiB IOAccelerator
                   (graphics), +5 x 1 MiB IOSurface: vmmap-after.edits)
  track            fixtures/diff/track-{before,after}.txt (new NewCache::grow site, +1 MiB:
                   track-after.edits)
  footprint        fixtures/footprint/constructed-bytes-swapped-wired.txt ->
                   fixtures/footprint-diff/constructed-bytes-after-iosurface-64m.txt
                   (IOSurface dirty +64 MiB), its process renamed GPUStress like vmmap's
  after.tar.gz     after/ packed under the folder name after/
  no-plist-before/, no-plist-after/
                   before/ and after/ without the ioreg plist (its step skipped): the
                   class counts are ioclasscount's alone and the totals ioalloccount's,
                   two views of the kernel that no file covers
"""
import os
import plistlib
import re
import shutil

from bundle_fixture import pack, skipped_step, step, write_manifest

ROOT = 'fixtures/bundle-pair'
SW_VERS = b'ProductName:\t\tmacOS\nProductVersion:\t\t26.6\nBuildVersion:\t\t25G72\n'
ALLOC_KEYS = ['Instance allocation', 'Container allocation', 'IOMalloc allocation',
              'Pageable allocation']

SIDES = {
    'before': {
        'started': '2026-11-29T10:15:30Z', 'times': ('10:15:30', '10:15:31', '10:15:32'),
        'classes': 'fixtures/diff/classes-before.txt', 'accel': 2, 'ioclasscount_fix': {},
        'track': 'fixtures/diff/track-before.txt', 'vmmap': 'fixtures/diff/vmmap-before.txt',
        'footprint': 'fixtures/footprint/constructed-bytes-swapped-wired.txt',
    },
    'after': {
        'started': '2026-11-29T11:15:30Z', 'times': ('11:15:30', '11:15:31', '11:15:32'),
        'classes': 'fixtures/diff/classes-after.txt', 'accel': 5,
        'ioclasscount_fix': {'IOSurface': 13},
        'track': 'fixtures/diff/track-after.txt', 'vmmap': 'fixtures/diff/vmmap-after.txt',
        'footprint': 'fixtures/footprint-diff/constructed-bytes-after-iosurface-64m.txt',
    },
}


def diagnostics(path, accel):
    """The IOKitDiagnostics of an ioreg -l text capture: classes in order, and the totals."""
    text = open(path).read()
    body = re.search(r'"IOKitDiagnostics" = \{(.*)\}', text).group(1)
    classes = re.search(r'"Classes"=\{([^}]*)\}', body).group(1)
    counts = [(k, int(v)) for k, v in re.findall(r'"([^"]+)"=(-?\d+)', classes)]
    counts.append(('IOAccelerator', accel))
    totals = {k: int(re.search(r'"%s"=(\d+)' % k, body).group(1)) for k in ALLOC_KEYS}
    return counts, totals


def root_plist(counts, totals):
    diag = {'Classes': dict(sorted(counts))}
    diag.update(totals)
    root = {'IOObjectClass': 'IORegistryEntry', 'IORegistryEntryName': 'Root',
            'IORegistryEntryID': 4294967552, 'IOKitDiagnostics': diag,
            'IOKitBuildVersion': 'Darwin Kernel Version 23.0.0: synthetic; '
                                 'root:xnu-10002.1.13~1/RELEASE_ARM64_T6000'}
    return plistlib.dumps(root, fmt=plistlib.FMT_XML, sort_keys=True)


def ioclasscount_text(counts, fix):
    # ioclasscount with no argument: "%s = %d\n" per class, sorted (ioclasscount.8)
    return ''.join('%s = %d\n' % (k, fix.get(k, v)) for k, v in sorted(counts)).encode()


def ioalloccount_text(totals):
    # ioalloccount.8: right-aligned key, hex, and kibibytes rounded down
    return ''.join('%22s = 0x%08x = %d K\n' % (k, totals[k], totals[k] // 1024)
                   for k in ALLOC_KEYS).encode()


def write_side(name, s, plist=True):
    d = os.path.join(ROOT, name)
    shutil.rmtree(d, ignore_errors=True)
    for sub in ('host', 'kernel', 'target', 'logs'):
        os.makedirs(os.path.join(d, sub))
    counts, totals = diagnostics(s['classes'], s['accel'])
    day = s['started'][:11]
    t = [day + x + 'Z' for x in s['times']]
    files = {
        'host/sw_vers.txt': SW_VERS,
        'kernel/ioreg-root.plist': root_plist(counts, totals),
        'kernel/ioclasscount.txt': ioclasscount_text(counts, s['ioclasscount_fix']),
        'kernel/ioalloccount.txt': ioalloccount_text(totals),
        'kernel/track.txt': open(s['track'], 'rb').read(),
        'target/vmmap.txt': open(s['vmmap'], 'rb').read(),
        # the footprint fixtures name their process "Metal App": renamed to the target's
        # name, as one capture of one process would print it (no figure changes)
        'target/footprint.txt': open(s['footprint'], 'rb').read().replace(
            b'Metal App [4242]', b'GPUStress [4242]'),
    }
    if not plist:
        del files['kernel/ioreg-root.plist']
    for rel, data in files.items():
        open(os.path.join(d, rel), 'wb').write(data)
    steps = [
        step(d, 'host.sw_vers', ['sw_vers'], None, 'host/sw_vers.txt', t[0]),
        step(d, 'kernel.ioreg_root', ['ioreg', '-a', '-l', '-d', '1'], 'classes',
             'kernel/ioreg-root.plist', t[0]) if plist else
        skipped_step('kernel.ioreg_root', ['ioreg', '-a', '-l', '-d', '1'], 'classes',
                     'not asked for (--no-ioreg)'),
        step(d, 'kernel.ioclasscount', ['ioclasscount'], 'classes', 'kernel/ioclasscount.txt',
             t[1]),
        step(d, 'kernel.ioalloccount', ['ioalloccount'], 'classes', 'kernel/ioalloccount.txt',
             t[2]),
        step(d, 'kernel.track', ['ioclasscount', '--track'], 'track', 'kernel/track.txt', t[2]),
        step(d, 'target.vmmap', ['vmmap', '-w', '-noCoalesce', '4242'], 'vmmap',
             'target/vmmap.txt', t[2]),
        step(d, 'target.footprint', ['footprint', '-f', 'bytes', '4242'], 'footprint',
             'target/footprint.txt', t[2]),
    ]
    write_manifest(d, s['started'], t[2], True,
                   ['iotally', 'capture', '--pid', '4242', '--track'],
                   {'model': 'Mac14,6', 'os_version': '26.6', 'os_build': '25G72',
                    'kernel_variant': 'DEVELOPMENT'},
                   {'pid': 4242, 'name': 'GPUStress'}, steps)


def main():
    os.makedirs(ROOT, exist_ok=True)
    for name, s in SIDES.items():
        write_side(name, s)
        write_side('no-plist-' + name, s, plist=False)
    pack(os.path.join(ROOT, 'after'), 'after', os.path.join(ROOT, 'after.tar.gz'))


if __name__ == '__main__':
    main()
