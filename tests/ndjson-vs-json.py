#!/usr/bin/env python3
"""The NDJSON rows of a capture say what its JSON report says.

  ndjson-vs-json.py IOTALLY ROOT KIND FILE...

For each FILE, `iotally KIND --format json` (a separate writer with its own
schema and tests) and `iotally KIND --format ndjson FILE...` (all files in one
run) are compared figure by figure:

  vmmap    the group rows are the JSON's dumps[].groups, the summary rows its
           summary_rows, the dump row's totals the sum of its groups
  classes  the class rows are the JSON's classes, the snapshot row its
           allocation totals
  track    the site rows add up to the JSON's shown bytes and records

and the rows of each file come in the order the files were given.
"""

import json
import subprocess
import sys


def run(cmd, root):
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit('%s: exit %d\n%s' % (' '.join(cmd), proc.returncode, proc.stderr.decode()))
    return proc.stdout


def by_source(rows, files):
    got = {}
    order = []
    for r in rows:
        if r['source'] not in got:
            order.append(r['source'])
        got.setdefault(r['source'], []).append(r)
    if order != list(files):
        sys.exit('rows come in the order %r, not %r' % (order, list(files)))
    return got


def check_vmmap(doc, rows):
    errors = []
    for i, dump in enumerate(doc['dumps'], 1):
        mine = [r for r in rows if r['dump'] == i]
        groups = [{k: r[k] for k in ('type', 'purge', 'count', 'vsize', 'resident', 'dirty',
                                     'swapped')} for r in mine if r['row'] == 'group']
        if groups != dump['groups']:
            errors.append('dump %d: group rows differ from the JSON groups' % i)
        summary = [{'type': r['type'], 'virtual': r['vsize'], 'resident': r['resident'],
                    'dirty': r['dirty'], 'swapped': r['swapped'], 'volatile': r['volatile'],
                    'nonvol': r['nonvol'], 'empty': r['empty'], 'count': r['count']}
                   for r in mine if r['row'] == 'summary']
        want = [{k: s[k] for k in ('type', 'virtual', 'resident', 'dirty', 'swapped',
                                   'volatile', 'nonvol', 'empty', 'count')}
                for s in dump['summary_rows']]
        if summary != want:
            errors.append('dump %d: summary rows differ from the JSON summary_rows' % i)
        total = [r for r in mine if r['row'] == 'dump']
        for k in ('count', 'vsize', 'resident', 'dirty', 'swapped'):
            # A column the region lines do not print is null in every group
            # and in the dump row: unknown, not 0.
            figures = [g[k] for g in dump['groups']]
            want = None if None in figures else sum(figures)
            if len(total) != 1 or total[0][k] != want:
                errors.append('dump %d: the dump row\'s %s is not the sum of its groups'
                              % (i, k))
        if total and total[0]['process'] != (dump['process'] or {}).get('name'):
            errors.append('dump %d: process differs' % i)
    return errors


def check_classes(doc, rows):
    snap = doc['snapshots'][0]
    classes = {r['class']: r['count'] for r in rows if r['row'] == 'class'}
    errors = []
    if classes != snap['classes']:
        errors.append('class rows differ from the JSON classes')
    s = [r for r in rows if r['row'] == 'snapshot']
    alloc = {k: s[0][k] for k in ('instance', 'container', 'iomalloc', 'pageable')
             if s and s[0][k] is not None}
    if alloc != snap['allocation']:
        errors.append('snapshot row allocations %r differ from %r' % (alloc, snap['allocation']))
    return errors


def check_track(doc, rows):
    sites = [r for r in rows if r['row'] == 'site']
    errors = []
    if sum(r['bytes'] for r in sites) != doc['total']['shown']:
        errors.append('site bytes do not add up to the shown total')
    if sum(r['records'] for r in sites) != doc['total']['shown_records']:
        errors.append('site records do not add up to the shown records')
    if [r['bytes'] for r in sites] != sorted((r['bytes'] for r in sites), reverse=True):
        errors.append('sites are not largest first')
    return errors


def main():
    iotally, root, kind = sys.argv[1:4]
    files = sys.argv[4:]
    extra = ['--all-types'] if kind == 'vmmap' else []
    lines = run([iotally, kind, '--format', 'ndjson'] + extra + files, root).splitlines()
    rows = by_source([json.loads(l) for l in lines], files)
    check = {'vmmap': check_vmmap, 'classes': check_classes, 'track': check_track}[kind]
    status = 0
    for f in files:
        doc = json.loads(run([iotally, kind, '--format', 'json'] + extra + [f], root))
        errors = check(doc, rows[f])
        for e in errors:
            print('%s: %s' % (f, e))
        status |= bool(errors)
        if not errors:
            print('%s: %d rows agree with the JSON report' % (f, len(rows[f])))
    return status


if __name__ == '__main__':
    sys.exit(main())
