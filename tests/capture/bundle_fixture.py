"""What make-bundle-fixtures.py and make-pair-fixtures.py share: a bundle's
manifest, its steps and their file entries, and a reproducible .tar.gz of a
bundle, built with Python's hashlib, json and tarfile, independently of
iotally's writer.
"""

import gzip
import hashlib
import io
import json
import os
import tarfile


def file_entry(d, rel):
    """A step's file entry: its path in the bundle, byte count and sha256."""
    data = open(os.path.join(d, rel), 'rb').read()
    return {'path': rel, 'bytes': len(data), 'sha256': hashlib.sha256(data).hexdigest()}


def step(d, sid, argv, kind, out, started, status='ok', reason=None, exit_status=0):
    """A step that ran, its standard error empty (logs/SID.stderr, written here)."""
    err = 'logs/%s.stderr' % sid
    open(os.path.join(d, err), 'wb').close()
    return {
        'id': sid, 'argv': argv, 'started_utc': started, 'duration_ms': 10,
        'exit_status': exit_status, 'signal': None, 'status': status, 'reason': reason,
        'capture_kind': kind,
        'stdout': file_entry(d, out) if out else None,
        'stderr': file_entry(d, err),
    }


def skipped_step(sid, argv, kind, reason):
    """A step that did not run: no files."""
    return {'id': sid, 'argv': argv, 'started_utc': None, 'duration_ms': 0,
            'exit_status': None, 'signal': None, 'status': 'skipped', 'reason': reason,
            'capture_kind': kind, 'stdout': None, 'stderr': None}


def write_manifest(d, started, finished, complete, argv, host, target, steps):
    """d/manifest.json (iotally.bundle/1); `host` sets some of the host fields, the rest null."""
    h = {k: None for k in ('model', 'machine', 'os_version', 'os_build', 'kernel_version',
                           'kernel_variant', 'page_size', 'memsize')}
    h.update(host)
    manifest = {
        'schema': 'iotally.bundle/1', 'complete': complete, 'iotally_version': '0.1.0',
        'started_utc': started, 'finished_utc': finished, 'argv': argv,
        'redaction': {'enabled': True, 'warning': None, 'rules': []},
        'host': h, 'target': target, 'steps': steps, 'series': None,
    }
    with open(os.path.join(d, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write('\n')


def pack(src, top, tgz):
    """src/ as a reproducible .tar.gz whose members sit under top/."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=tarfile.PAX_FORMAT) as t:
        for dirpath, dirnames, filenames in sorted(os.walk(src)):
            dirnames.sort()
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                info = t.gettarinfo(full, top + '/' + os.path.relpath(full, src))
                info.mtime = 0
                info.uid = info.gid = 0
                info.uname = info.gname = ''
                with open(full, 'rb') as f:
                    t.addfile(info, f)
    with open(tgz, 'wb') as f:
        f.write(gzip.compress(buf.getvalue(), mtime=0))
