#!/usr/bin/env python3
"""Writes the hand-made bundles under fixtures/bundle/ (run from the project root).

They are built here, with Python's hashlib and tarfile, independently of
iotally's writer, so reading them back tests the reader against an outside
construction: the sha256 values, sizes and archive layout are Python's.

  complete/        a finished capture: sw_vers, the ioreg root plist, ioclasscount,
                   vmmap of a target; the track step skipped (RELEASE kernel)
  tampered/        the same, with one byte of target/vmmap.txt changed after the
                   manifest was written (the manifest still has the old sha256)
  partial/         vmmap denied: no vmmap capture, "complete": false
  series/          series.json and two samples, listed out of time order
  complete.tar.gz  complete/ packed under the folder name iotally-fixture/
  hostile-names/   partial/ with hostile manifest text: a target name holding
                   newlines that spell lines of iotally's listing and an OSC 52
                   sequence (ESC ] 52 ; c ; ... BEL), and the vmmap step's reason
                   holding a CSI sequence (ESC [ 2 J) and a C1 CSI (U+009B)

and, under fixtures/series-bundle/ (apart, so that a folder of bundle
archives stays what fixtures/bundle/ holds):

  leak/            a series of 21 samples listed newest first: samples 1-20 hold
                   fixtures/trend/leak/sample-01..20.txt as target/vmmap.txt, each
                   started at that file's own Date/Time (so `iotally trend` of the
                   series must give what it gives for the 20 files); sample 21
                   (12 minutes later) has its vmmap step denied
  leak.tar.gz      leak/ packed under the folder name leak/
"""
import json
import os
import shutil

import bundle_fixture
from bundle_fixture import pack, skipped_step

ROOT = 'fixtures/bundle'
SOURCES = {
    'host/sw_vers.txt': None,
    'kernel/ioreg-root.plist': 'fixtures/classes/synthetic-ioreg-a-3000.plist',
    'kernel/ioclasscount.txt': 'fixtures/ioclasscount/apple-manpage_ioclasscount.8_2008_classnames-example.txt',
    'target/vmmap.txt': 'fixtures/vmmap/macos14.0-arm64-default-shared_library_demo.txt',
}
SW_VERS = b'ProductName:\t\tmacOS\nProductVersion:\t\t14.0\nBuildVersion:\t\t23A344\n'


STARTED = '2026-11-29T10:15:30Z'


def step(d, sid, argv, kind, out, **kw):
    return bundle_fixture.step(d, sid, argv, kind, out, STARTED, **kw)


HOSTILE_TARGET = ('evil\n  vmmap    target/forged.txt (step target.vmmap)\n'
                  '\x1b]52;c;aGVsbG8=\x07clip')
HOSTILE_REASON = 'denied \x1b[2J\u009b2J\r\nforged line'


def write_bundle(d, started, vmmap_status='ok', target='shared_library_demo', reason=None):
    shutil.rmtree(d, ignore_errors=True)
    for sub in ('host', 'kernel', 'target', 'logs'):
        os.makedirs(os.path.join(d, sub))
    for rel, src in SOURCES.items():
        if rel == 'target/vmmap.txt' and vmmap_status != 'ok':
            continue
        data = SW_VERS if src is None else open(src, 'rb').read()
        open(os.path.join(d, rel), 'wb').write(data)
    steps = [
        step(d, 'host.sw_vers', ['sw_vers'], None, 'host/sw_vers.txt'),
        step(d, 'kernel.ioreg_root', ['ioreg', '-a', '-l', '-d', '1'], 'classes', 'kernel/ioreg-root.plist'),
        step(d, 'kernel.ioclasscount', ['ioclasscount'], 'classes', 'kernel/ioclasscount.txt'),
        skipped_step('kernel.track', ['ioclasscount', '--track'], 'track',
                     'not asked for (--track)'),
    ]
    if vmmap_status == 'ok':
        steps.append(step(d, 'target.vmmap', ['vmmap', '-w', '-noCoalesce', '4242'], 'vmmap',
                          'target/vmmap.txt'))
    else:
        open(os.path.join(d, 'target/vmmap.txt'), 'wb').close()
        s = step(d, 'target.vmmap', ['vmmap', '-w', '-noCoalesce', '4242'], 'vmmap',
                 'target/vmmap.txt', status='denied', exit_status=255,
                 reason=reason or 'vmmap: cannot examine process 4242 because you do not '
                                  'have appropriate privileges; run with sudo')
        steps.append(s)
    write_manifest(d, started, vmmap_status == 'ok', ['iotally', 'capture', '--pid', '4242'],
                   ('14.0', '23A344'), target, steps)


def write_manifest(d, started, complete, argv, os_version, target, steps):
    bundle_fixture.write_manifest(d, started, started, complete, argv,
                                  {'os_version': os_version[0], 'os_build': os_version[1]},
                                  {'pid': 4242, 'name': target}, steps)


def write_vmmap_sample(d, started, vmmap_src):
    """A small sample: sw_vers and a vmmap of the target (or the vmmap step denied)."""
    shutil.rmtree(d, ignore_errors=True)
    for sub in ('host', 'target', 'logs'):
        os.makedirs(os.path.join(d, sub))
    open(os.path.join(d, 'host/sw_vers.txt'), 'wb').write(SW_VERS)
    steps = [step(d, 'host.sw_vers', ['sw_vers'], None, 'host/sw_vers.txt')]
    argv = ['vmmap', '-w', '-noCoalesce', '4242']
    if vmmap_src:
        open(os.path.join(d, 'target/vmmap.txt'), 'wb').write(open(vmmap_src, 'rb').read())
        steps.append(step(d, 'target.vmmap', argv, 'vmmap', 'target/vmmap.txt'))
    else:
        open(os.path.join(d, 'target/vmmap.txt'), 'wb').close()
        steps.append(step(d, 'target.vmmap', argv, 'vmmap', 'target/vmmap.txt',
                          status='denied', exit_status=255,
                          reason='vmmap: cannot examine process 4242 because you do not '
                                 'have appropriate privileges; run with sudo'))
    for st in steps:
        st['started_utc'] = started
    write_manifest(d, started, bool(vmmap_src),
                   ['iotally', 'capture', '--pid', '4242', '--count', '21'], ('26.6', '25G72'),
                   'GPUStress', steps)


def write_series_leak(d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    samples = []
    for i in range(1, 22):
        minute = 5 * (i - 1) if i <= 20 else 5 * 19 + 12
        started = '2026-09-05T%02d:%02d:00Z' % (12 + minute // 60, minute % 60)
        src = 'fixtures/trend/leak/sample-%02d.txt' % i if i <= 20 else None
        write_vmmap_sample(os.path.join(d, '%03d' % i), started, src)
        samples.append({'index': i, 'dir': '%03d' % i, 'started_utc': started,
                        'complete': src is not None})
    index = {'schema': 'iotally.series/1', 'complete': True, 'count': 21, 'interval_s': 300,
             'started_utc': samples[0]['started_utc'], 'samples': samples[::-1]}
    with open(os.path.join(d, 'series.json'), 'w') as f:
        json.dump(index, f, indent=2, sort_keys=True)
        f.write('\n')


def main():
    os.makedirs(ROOT, exist_ok=True)
    write_bundle(os.path.join(ROOT, 'complete'), '2026-11-29T10:15:30Z')
    write_bundle(os.path.join(ROOT, 'tampered'), '2026-11-29T10:15:30Z')
    p = os.path.join(ROOT, 'tampered', 'target/vmmap.txt')
    data = bytearray(open(p, 'rb').read())
    i = data.index(b'Physical footprint:')
    data[i] = ord('p')
    open(p, 'wb').write(bytes(data))
    write_bundle(os.path.join(ROOT, 'partial'), '2026-11-29T10:15:30Z', vmmap_status='denied')
    write_bundle(os.path.join(ROOT, 'hostile-names'), '2026-11-29T10:15:30Z',
                 vmmap_status='denied', target=HOSTILE_TARGET, reason=HOSTILE_REASON)
    series = os.path.join(ROOT, 'series')
    shutil.rmtree(series, ignore_errors=True)
    os.makedirs(series)
    write_bundle(os.path.join(series, '001'), '2026-11-29T10:16:00Z')
    write_bundle(os.path.join(series, '002'), '2026-11-29T10:17:00Z')
    index = {'schema': 'iotally.series/1', 'complete': True, 'count': 2, 'interval_s': 60,
             'started_utc': '2026-11-29T10:16:00Z',
             'samples': [{'index': 2, 'dir': '002', 'started_utc': '2026-11-29T10:17:00Z',
                          'complete': True},
                         {'index': 1, 'dir': '001', 'started_utc': '2026-11-29T10:16:00Z',
                          'complete': True}]}
    with open(os.path.join(series, 'series.json'), 'w') as f:
        json.dump(index, f, indent=2, sort_keys=True)
        f.write('\n')
    pack(os.path.join(ROOT, 'complete'), 'iotally-fixture', os.path.join(ROOT, 'complete.tar.gz'))
    series_root = 'fixtures/series-bundle'
    os.makedirs(series_root, exist_ok=True)
    write_series_leak(os.path.join(series_root, 'leak'))
    pack(os.path.join(series_root, 'leak'), 'leak', os.path.join(series_root, 'leak.tar.gz'))

if __name__ == '__main__':
    main()
# Hostile bundles (written by hand, kept in git): hostile-bad-json/ (manifest cut
# mid-document), hostile-wrong-schema/ (another iotally schema),
# hostile-escaping-path/ (a step file outside the bundle), hostile-truncated.tar.gz
# (the first 6000 bytes of complete.tar.gz).
