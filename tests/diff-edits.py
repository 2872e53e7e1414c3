#!/usr/bin/env python3
"""The deltas `iotally diff` reports are the edits that built the AFTER file.

Each fixtures/diff/<after>.edits lists, as data, the edits made to BEFORE
(fixtures/diff/README.md tells them in prose): one line per figure the edits
change, "WHERE.FIELD +DELTA", with every delta worked out from the edit
itself (3 regions of 128 MiB: vsize +402653184). The test runs
`iotally diff --format json BEFORE AFTER` and checks that the figures that
changed are exactly those lines: none missing, none extra, none different.

WHERE names an element of the report by what it is about:
  rows[TYPE/STATE]    buckets[TYPE/VSIZE]    sites[LABEL]    modules[MODULE]
  classes[CLASS]      movement[TYPE/FROM/TO] (its bytes)
  a top-level member (footprint, total, allocation.FIELD)

  diff-edits.py IOTALLY ROOT EDITS
"""

import json
import os
import subprocess
import sys


def element_label(section, o):
    if section == 'rows':
        return '%s/%s' % (o['type'], o['purge'])
    if section == 'buckets':
        return '%s/%d' % (o['type'], o['vsize'])
    if section == 'sites':
        return o['site']
    if section == 'modules':
        return o['module']
    if section == 'classes':
        return o['class']
    if section == 'movement':
        return '%s/%s/%s' % (o['type'], o['from'], o['to'])
    raise SystemExit('no label for an element of %r' % section)


def changed(v, path, out):
    """Every before/after/delta triple under v whose delta is not 0."""
    if isinstance(v, dict):
        if {'before', 'after', 'delta'} <= set(v) and isinstance(v['delta'], int):
            if v['delta']:
                out[path] = v['delta']
            return
        for k, x in v.items():
            if k != 'frames':
                changed(x, '%s.%s' % (path, k) if path else k, out)
    elif isinstance(v, list):
        section = path.split('.')[-1]
        for x in v:
            if not isinstance(x, dict):
                continue
            where = '%s[%s]' % (path, element_label(section, x))
            if section == 'movement':   # bytes that changed state: a delta already
                out[where + '.bytes'] = x['bytes']
            else:
                changed(x, where, out)


def read_edits(path):
    meta, edits = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            if line.startswith(('before ', 'after ')):
                key, value = line.split(' ', 1)
                meta[key] = value
                continue
            where, delta = line.rsplit(' ', 1)
            if where in edits:
                raise SystemExit('%s:%d: %s listed twice' % (path, n, where))
            edits[where] = int(delta)
    return meta['before'], meta['after'], edits


def main():
    binary, root, edits_path = sys.argv[1:4]
    before, after, want = read_edits(os.path.join(root, edits_path))
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    proc = subprocess.run([binary, 'diff', '--format', 'json', before, after], cwd=root,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        print('diff exited %d: %s' % (proc.returncode, proc.stderr.decode()))
        return 1
    doc = json.loads(proc.stdout)
    got = {}
    for key, value in doc.items():
        # The signature says what grew as text (tests/signature-check.py), not as figures.
        if key not in ('schema', 'kind', 'inputs', 'warnings', 'gates', 'tripped', 'signature'):
            changed(value, key, got)
    status = 0
    for where in sorted(set(want) | set(got)):
        if where not in got:
            print('edit not reported: %s %+d' % (where, want[where]))
        elif where not in want:
            print('reported, but no edit made it: %s %+d' % (where, got[where]))
        elif got[where] != want[where]:
            print('%s: edit %+d, reported %+d' % (where, want[where], got[where]))
        else:
            continue
        status = 1
    if status == 0:
        print('%s: %d figures changed, each by its edit' % (edits_path, len(want)))
    return status


if __name__ == '__main__':
    sys.exit(main())
