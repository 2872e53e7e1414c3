#!/usr/bin/env python3
"""Hostile archives: a member name that is one long chain of folders, a
series archive of thousands of samples, a first member that is a link or
leaves its folder, and a redacted copy of many members. Each case builds
its input here and checks the exit status, the exact message, and for
the resource cases a bound measured at two sizes (the child's CPU time
and peak memory from wait4): the truth is the input's construction.

  untrusted-archives.py IOTALLY ROOT [--case NAME]...
"""

import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

from casecheck import check, collect_cases, iotally_env

# untrusted-inputs.py's command line, fixture bundle and case runner, shared.
_spec = importlib.util.spec_from_file_location(
    'untrusted_inputs', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     'untrusted-inputs.py'))
inputs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(inputs)


class Scratch:
    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix='iotally-archives-')
        return self

    def __exit__(self, *exc):
        # rm, not shutil.rmtree: a copy of a deep name nests folders past
        # Python's recursion limit.
        subprocess.run(['rm', '-rf', self.dir], check=False)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)


class Run:
    """One run of iotally: status, output, and the child's own CPU seconds
    and peak resident memory (KiB), from wait4 (the peak counts the forked
    Python before exec, about 20 MB: a floor, not noise)."""

    def __init__(self, args, scratch, timeout=120):
        out, err = scratch.path('stdout'), scratch.path('stderr')
        with open(out, 'wb') as fo, open(err, 'wb') as fe:
            p = subprocess.Popen([inputs.ARGS.bin] + list(args), stdout=fo, stderr=fe,
                                 stdin=subprocess.DEVNULL, env=iotally_env(), cwd=scratch.dir)
            timer = threading.Timer(timeout, p.kill)
            timer.start()
            _, status, ru = os.wait4(p.pid, 0)   # its own rusage, not every child's
            timer.cancel()
            p.returncode = status   # reaped here: Popen must not wait for it again
        self.timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9
        self.returncode = (os.WEXITSTATUS(status) if os.WIFEXITED(status)
                           else -os.WTERMSIG(status))
        self.stdout = open(out, 'rb').read()
        self.stderr = open(err, 'rb').read().decode('utf-8', 'replace')
        self.cpu = ru.ru_utime + ru.ru_stime
        self.maxrss_kb = ru.ru_maxrss


def run(args, scratch, timeout=120):
    return Run(args, scratch, timeout)


def expect(case, r, status, stderr_has=None, stderr_is=None):
    if not check(case, not r.timed_out, 'the run did not end within its time limit'):
        return False
    ok = check(case, r.returncode == status, 'exit %d, want %d; stderr: %s' %
               (r.returncode, status, r.stderr[:600]))
    if stderr_has is not None:
        ok &= check(case, stderr_has in r.stderr, 'stderr lacks %r: %s' % (stderr_has, r.stderr[:600]))
    if stderr_is is not None:
        ok &= check(case, r.stderr == stderr_is, 'stderr %r, want %r' % (r.stderr[:600], stderr_is))
    return ok


def add(t, name, data=b'', kind=None, link=''):
    info = tarfile.TarInfo(name)
    info.mtime = 0
    if kind is not None:
        info.type = kind
        info.linkname = link
        t.addfile(info)
        return
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))


def bundle_archive(path, extra=(), first=()):
    """The complete fixture bundle as a .tar.gz (pax names: any length), with
    `first` members before it and `extra` after: (name, bytes, kind, link)."""
    with tarfile.open(path, 'w:gz', format=tarfile.PAX_FORMAT) as t:
        for m in first:
            add(t, *m)
        for name, data in inputs.complete_members():
            add(t, name, data)
        for m in extra:
            add(t, *m)


# ---- a long member name: refused at a bound, the name set linear --------------

LONG_WHY = 'is longer than 4096 bytes (PATH_MAX): no file has so long a name'


def case_long_member_name():
    """A member whose pax name is 'a/a/.../x', 64,001 bytes, after a
    manifest: each folder above it was kept as its own key, 1 GB for this
    name in a 282-byte archive. Refused (65) by every reader, in a few MB."""
    c = 'long-member-name'
    name = 'b/' + 'a/' * 32000 + 'x'
    with Scratch() as s:
        arc = s.path('long.tar.gz')
        bundle_archive(arc, extra=[(name, b'x\n')])
        for cmd in (['vmmap', arc], ['report', arc], ['redact', arc, '-o', s.path('out')]):
            r = run(cmd, s, timeout=120)
            if expect('%s/%s' % (c, cmd[0]), r, 65, stderr_has=LONG_WHY + ': not read\n'):
                check(c, r.stderr.startswith("iotally: %s: error: the member 'b/a/a/a/" % arc),
                      'the message does not name the archive and the member: %r' % r.stderr[:300])
            check('%s/%s' % (c, cmd[0]), r.maxrss_kb < 200 * 1024,
                  'peak memory %d KiB for a 64,001-byte name' % r.maxrss_kb)
        check(c, not os.path.exists(s.path('out')), 'redact wrote a copy')


def deep_names_rss(s, count, length):
    """Peak memory of `vmmap` over a bundle archive with `count` extra members
    whose names are `length`-byte chains of one-letter folders."""
    depth = (length - len('b/d0000/x')) // 2
    extra = [('b/d%04d/%sx' % (i, 'a/' * depth), b'') for i in range(count)]
    arc = s.path('deep-%d.tar.gz' % length)
    bundle_archive(arc, extra=extra)
    r = run(['vmmap', arc], s, timeout=120)
    return r


def case_deep_names_memory_linear():
    """The same bytes of names (400 KB) as 200 names of 2,000 bytes and as
    100 of 4,000 (under the bound): the name set's memory follows the bytes,
    not the square of each name's length (which took 200 MB, then 400 MB)."""
    c = 'deep-names-memory-linear'
    with Scratch() as s:
        short = deep_names_rss(s, 200, 2000)
        long_ = deep_names_rss(s, 100, 4000)
        for r in (short, long_):
            expect(c, r, 0)
        check(c, long_.maxrss_kb <= short.maxrss_kb * 1.3 + 8 * 1024,
              'peak memory %d KiB for 4,000-byte names, %d KiB for 2,000-byte names of the '
              'same total' % (long_.maxrss_kb, short.maxrss_kb))
        check(c, long_.maxrss_kb < 300 * 1024, 'peak memory %d KiB for 400 KB of names'
              % long_.maxrss_kb)


# ---- a series archive: read once, not once per sample --------------------------

def vmmap_text():
    with tarfile.open(inputs.fixture('series-bundle', 'leak.tar.gz')) as t:
        return t.extractfile('leak/001/target/vmmap.txt').read()


def series_archive(path, n, vm):
    """A series of `n` samples (00001 ...), each a manifest and its vmmap
    capture with the right size and digest, listed newest first."""
    samples = [{'dir': '%05d' % (i + 1), 'index': i + 1, 'complete': True,
                'started_utc': '2026-09-05T%02d:%02d:%02dZ' % (i // 3600, i // 60 % 60, i % 60)}
               for i in range(n)]
    sha = hashlib.sha256(vm).hexdigest()
    with tarfile.open(path, 'w:gz') as t:
        add(t, 's/series.json', json.dumps({'schema': 'iotally.series/1', 'complete': True,
                                            'count': n, 'samples': samples[::-1]}).encode())
        for smp in samples:
            man = {'schema': 'iotally.bundle/1', 'complete': True,
                   'started_utc': smp['started_utc'],
                   'steps': [{'id': 'target.vmmap', 'capture_kind': 'vmmap', 'status': 'ok',
                              'started_utc': smp['started_utc'],
                              'stdout': {'path': 'target/vmmap.txt', 'bytes': len(vm),
                                         'sha256': sha}}]}
            add(t, 's/%s/manifest.json' % smp['dir'], json.dumps(man).encode())
            add(t, 's/%s/target/vmmap.txt' % smp['dir'], vm)


def case_series_archive_cpu_linear():
    """`trend S.tar.gz` and `vmmap S.tar.gz:00001` on series of 250 and
    2,000 samples: every sample's manifest, capture and digest was read by
    a walk from the archive's start (4,000 samples: 94 s and 27 s). The
    archive is read once: 8 times the samples costs at most 24 times the
    CPU (quadratic: 64)."""
    c = 'series-archive-cpu-linear'
    vm = vmmap_text()
    with Scratch() as s:
        with open(s.path('sample.txt'), 'wb') as f:
            f.write(vm)
        alone = run(['vmmap', 'sample.txt'], s)
        cpu = {}
        for n in (250, 2000):
            arc = s.path('S%d.tar.gz' % n)
            series_archive(arc, n, vm)
            r = run(['trend', '--format', 'json', arc], s, timeout=180)
            if expect('%s/trend %d' % (c, n), r, 0):
                doc = json.loads(r.stdout)
                check(c, doc['samples'] == n and len(doc['inputs']) == n,
                      'trend read %r samples of %d' % (doc['samples'], n))
            v = run(['vmmap', arc + ':00001'], s, timeout=180)
            if expect('%s/vmmap %d' % (c, n), v, 0):
                check(c, v.stdout == alone.stdout, 'the first sample of %d does not read '
                      'as its capture alone' % n)
            cpu[n] = (max(r.cpu, 0.02), max(v.cpu, 0.02))
        for k, what in enumerate(('trend', 'vmmap S:00001')):
            ratio = cpu[2000][k] / cpu[250][k]
            check(c, ratio <= 24, '%s: %.2f s CPU for 2,000 samples, %.2f s for 250 (x%.1f)'
                  % (what, cpu[2000][k], cpu[250][k], ratio))


# ---- the first member refused: a bundle refused, not text read -----------------

def case_first_member_refused():
    """An archive whose first member is a link, an absolute name or one with
    '..' was taken for no bundle and its bytes read as a text capture (exit
    0, nothing checked). It is a bundle whose member is refused: 65."""
    c = 'first-member-refused'
    cases = (
        (('b/zz', b'', tarfile.SYMTYPE, '/etc/passwd'),
         "the member 'b/zz' is a symbolic link, not a file: a bundle holds only files and "
         "folders"),
        (('b/zz', b'', tarfile.LNKTYPE, 'b/manifest.json'),
         "the member 'b/zz' is a hard link, not a file: a bundle holds only files and folders"),
        (('/etc/x', b'x\n'), "the member '/etc/x' is an absolute path: not read"),
        (('../x', b'x\n'), "the member '../x' leaves its folder ('..'): not read"),
    )
    for member, why in cases:
        with Scratch() as s:
            arc = s.path('first.tar.gz')
            bundle_archive(arc, first=[member])
            for cmd in ('vmmap', 'report', 'classes'):
                r = run([cmd, arc], s)
                expect('%s/%s %s' % (c, cmd, member[0]), r, 65,
                       stderr_is='iotally: %s: error: %s\n' % (arc, why))


# ---- redact: one sync for the whole copy --------------------------------------

def syncs(args, s):
    """The sync calls of one run (strace), or None when it cannot be traced."""
    strace = shutil.which('strace')
    if not strace:
        return None
    log = s.path('strace.log')
    # LeakSanitizer cannot run under ptrace: the sanitizer builds trace without it.
    asan = os.environ.get('ASAN_OPTIONS', '')
    env = iotally_env(ASAN_OPTIONS=(asan + ':' if asan else '') + 'detect_leaks=0')
    p = subprocess.run([strace, '-f', '-qq', '-o', log, '-e',
                        'trace=fsync,fdatasync,syncfs,sync,sync_file_range', inputs.ARGS.bin] + args,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                       cwd=s.dir, timeout=240)
    if p.returncode != 0 or not os.path.exists(log):
        return None if b'ptrace' in p.stderr or b'PTRACE' in p.stderr else -1
    return sum(1 for line in open(log) if 'sync' in line and 'resumed' not in line)


def case_redact_one_sync():
    """`redact` of an archive of 300 empty members, into a folder and into
    a .tar.gz: every member was fsynced (100,000 members took 379 s). Now
    the copy is synced once, whatever the number of members. (300 shows a
    sync a member as plainly as 2,000 did, at a seventh of the time under
    strace and a sanitizer.)"""
    c = 'redact-one-sync'
    members = 300
    with Scratch() as s:
        arc = s.path('many.tar.gz')
        bundle_archive(arc, extra=[('b/extra/%05d.txt' % i, b'') for i in range(members)])
        for out in ('copy', 'copy.tar.gz'):
            n = syncs(['redact', arc, '-o', s.path(out)], s)
            if n is None:
                print('skip %s: strace cannot trace here' % c)
                return
            check(c, n != -1, 'redact -o %s failed under strace' % out)
            check(c, 1 <= n <= 2, 'redact -o %s: %d sync calls for %d members' % (out, n, members))
        with tarfile.open(s.path('copy.tar.gz')) as t:
            names = set(t.getnames())
        check(c, all(('b/extra/%05d.txt' % i) in names for i in range(members)),
              'members missing from the copy')
        check(c, len(os.listdir(s.path('copy', 'extra'))) == members,
              'members missing from the copied folder')


if __name__ == '__main__':
    inputs.CASES = collect_cases(globals())
    sys.exit(inputs.main())
