#!/usr/bin/env python3
"""`iotally redact` end to end, checked from outside.

Inputs come from two independent places: bundles that `iotally capture
--no-redact` writes with the stand-in tools of capture-tests.py (the planted
user name, long name, serial number, platform UUID and boot-arg of
tests/capture/data), and files and archives built here with Python's
hashlib, gzip and tarfile (a hand-saved `ioreg -l` text with a serial number
and a user path, hostile archives). Every byte of every copy is searched
for the planted values; manifests are validated against
docs/json/bundle.schema.json and every sha256 recomputed with hashlib; the
inputs are hashed before and after (never changed); failures leave nothing
behind.

  redact-tests.py --bin build/iotally --root SOURCE_ROOT [--case NAME]
"""

import argparse
import gzip
import hashlib
import importlib.util
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

# the failure list is the one capture-tests.py's checks add to (tests/casecheck.py)
from standin_env import CASE_JOBS, check, collect_cases, run_cases

ARGS = None
CT = None   # capture-tests.py, for its stand-in environment

# The planted values of tests/capture/data and of the files built below.
PLANTED = [b'alice', b'Alice', b'C02PLANTED1X', b'PLANTEDUUID1', b'Planted-Example',
           b'owner=', b'zyxw_9k2ab1c0000gn', b'HOSTPLANTED']

IOREG_TEXT = b'''+-o J375dAP  <class IOPlatformExpertDevice, id 0x100000284>
    {
      "IOPlatformSerialNumber" = "C02PLANTED1X"
      "IOPlatformUUID" = "2D5462F0-45C1-5987-94E9-PLANTEDUUID1"
      "serial-number" = <"C02PLANTED1X">
      "model" = <"Mac14,12">
    }
+-o IOSurfaceRoot  <class IOSurfaceRoot, id 0x100000300>
      "IOUserClientCreator" = "pid 4242, WindowServer"
      "log" = "saved by C02PLANTED1X owner of /Users/alice/Library/Caches/x on HOSTPLANTED"
      "temp" = "/private/var/folders/zz/zyxw_9k2ab1c0000gn/T/com.example"
      "note" = "alice's session"
'''


def run(*args, stdin=None, env=None):
    return subprocess.run([ARGS.bin] + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env, timeout=300)


def tree_bytes(root):
    """{relative path: bytes} of every file under root."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = open(p, 'rb').read()
    return out


def tree_hash(root):
    h = hashlib.sha256()
    if os.path.isfile(root):
        h.update(open(root, 'rb').read())
        return h.hexdigest()
    for rel, data in sorted(tree_bytes(root).items()):
        h.update(rel.encode() + b'\0' + hashlib.sha256(data).digest())
    return h.hexdigest()


def archive_bytes(path):
    with tarfile.open(path, 'r:*') as t:
        return {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}


def no_planted(case, files, extra=()):
    for name, data in files.items():
        for p in PLANTED + list(extra):
            check(case, p not in data, '%r found in %s' % (p, name))


def check_manifest(case, files, prefix=''):
    """Schema, and every recorded sha256 and size against the bytes (hashlib)."""
    m = json.loads(files[prefix + 'manifest.json'])
    with tempfile.NamedTemporaryFile('wb', suffix='.json', delete=False) as f:
        f.write(files[prefix + 'manifest.json'])
    CT.validate(case, ARGS.root, 'bundle.schema.json', f.name)
    os.unlink(f.name)
    for s in m['steps']:
        for key in ('stdout', 'stderr'):
            e = s.get(key)
            if not e:
                continue
            data = files[prefix + e['path']]
            check(case, hashlib.sha256(data).hexdigest() == e['sha256'],
                  '%s: sha256 differs from the file' % e['path'])
            check(case, len(data) == e['bytes'], '%s: size differs' % e['path'])
    return m


def no_leftovers(case, folder):
    left = [n for n in os.listdir(folder) if '.partial' in n]
    check(case, not left, 'temporary files left: %s' % left)


class Scratch:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix='iotally-redact-test-')

    def path(self, name):
        return os.path.join(self.dir, name)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def raw_bundle(case, out, *extra):
    """An unredacted bundle of the stand-in tools (capture --no-redact)."""
    e = CT.Env()
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', out, '--no-redact', *extra)
        check(case, r.returncode == 0, 'capture exit %d: %s' % (r.returncode, r.stderr.decode()))
        return e.target.pid
    finally:
        e.close()


def rule_hits(m):
    return {r['rule']: r['hits'] for r in m['redaction']['rules']}


# ------------------------------------------------------------------ cases

def case_bundle_folder():
    c = 'bundle-folder'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src)
        raw = tree_bytes(src)
        check(c, any(b'alice' in d for d in raw.values()), 'the raw bundle holds no planted value')
        before = tree_hash(src)
        r = run('redact', src)
        out = s.path('raw-redacted')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        check(c, r.stdout.decode() == out + '\n', 'stdout %r' % r.stdout)
        check(c, tree_hash(src) == before, 'the input was changed')
        files = tree_bytes(out)
        check(c, sorted(files) == sorted(raw), 'files differ: %s' % sorted(set(files) ^ set(raw)))
        no_planted(c, files)
        m = check_manifest(c, files)
        hits = rule_hits(m)
        for rule in ('console-user', 'serial', 'user-path', 'temp-path', 'bootargs',
                     'known-value'):
            check(c, hits.get(rule, 0) > 0, 'rule %s has no hits: %r' % (rule, hits))
        check(c, m['redaction']['enabled'] is True and m['redaction']['warning'] is None,
              'redaction block %r' % m['redaction'])
        per_file = {f: n for r_ in m['redaction']['rules'] for f, n in r_['files'].items()}
        check(c, 'target/vmmap.txt' in per_file, 'no hits recorded for target/vmmap.txt')
        err = r.stderr.decode()
        check(c, 'removed' in err and 'serial' in err and 'target/vmmap.txt' in err,
              'stderr does not say what was removed: %s' % err)
        for p in PLANTED:
            check(c, p.decode() not in err, 'stderr shows a removed value %r' % p)
        check(c, files['host/sysctl/kern.bootargs.txt'] == b'kern.bootargs: io=0x400000 debug=0x8\n',
              'bootargs %r' % files['host/sysctl/kern.bootargs.txt'])
        check(c, b'/Users/USER/Documents/' in files['target/vmmap.txt'], 'no /Users/USER/ path')
        back = run('vmmap', '--all-types', out)
        plain = run('vmmap', '--all-types', os.path.join(out, 'target', 'vmmap.txt'))
        check(c, back.returncode == 0 and back.stdout == plain.stdout and b'warning' not in back.stderr,
              'vmmap of the copy: %d %s' % (back.returncode, back.stderr.decode()))
        no_leftovers(c, s.dir)
    finally:
        s.close()


def case_matches_capture():
    """redact(capture --no-redact) gives the data files capture itself redacts."""
    c = 'matches-capture'
    e = CT.Env()
    try:
        a, b = e.out('redacted'), e.out('raw')
        r1 = e.capture('--pid', str(e.target.pid), '-o', a)
        r2 = e.capture('--pid', str(e.target.pid), '-o', b, '--no-redact')
        check(c, r1.returncode == 0 and r2.returncode == 0, 'capture failed')
        r = run('redact', '-o', e.out('copy'), b)
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        ca, cb = tree_bytes(a), tree_bytes(e.out('copy'))
        for rel in ('target/vmmap.txt', 'kernel/ioreg-root.plist', 'target/footprint.txt',
                    'host/sysctl/kern.bootargs.txt'):
            check(c, ca.get(rel) == cb.get(rel) and ca.get(rel), '%s differs' % rel)
    finally:
        e.close()


def case_idempotent():
    c = 'idempotent'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src)
        r1 = run('redact', '-o', s.path('once'), src)
        r2 = run('redact', '-o', s.path('twice'), s.path('once'))
        check(c, r1.returncode == 0 and r2.returncode == 0, 'exit %d %d: %s' % (
            r1.returncode, r2.returncode, r2.stderr.decode()))
        check(c, tree_bytes(s.path('once')) == tree_bytes(s.path('twice')),
              'redacting a redacted copy changed it')
        check(c, b'nothing to redact' in r2.stderr, 'stderr %r' % r2.stderr)
        # and a bundle that capture already redacted
        e = CT.Env()
        try:
            e.capture('--pid', str(e.target.pid), '-o', e.out())
            r3 = run('redact', '-o', s.path('cap'), e.out())
            check(c, r3.returncode == 0 and b'nothing to redact' in r3.stderr,
                  'capture bundle: %s' % r3.stderr.decode())
            check(c, tree_bytes(e.out()) == tree_bytes(s.path('cap')),
                  'redacting a redacted capture changed it')
        finally:
            e.close()
    finally:
        s.close()


def case_archive():
    c = 'archive'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src, '--archive')
        tgz = src + '.tar.gz'
        before = tree_hash(tgz)
        r = run('redact', tgz)
        out = s.path('raw-redacted.tar.gz')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        check(c, tree_hash(tgz) == before, 'the input was changed')
        files = archive_bytes(out)
        raw = archive_bytes(tgz)
        check(c, sorted(files) == sorted(raw), 'members differ')
        no_planted(c, files)
        check(c, all(n.startswith('raw/') for n in files), 'members %s' % sorted(files))
        check_manifest(c, files, 'raw/')
        # also gunzip the whole archive: nothing hides in a header
        whole = gzip.decompress(open(out, 'rb').read())
        no_planted(c, {'archive': whole})
        back = run('classes', out)
        check(c, back.returncode == 0 and b'warning' not in back.stderr,
              'classes of the copy: %s' % back.stderr.decode())
        # an archive into a folder, a folder into an archive
        r2 = run('redact', '-o', s.path('folder-copy'), tgz)
        check(c, r2.returncode == 0 and os.path.isfile(s.path('folder-copy/manifest.json')),
              'archive to folder: %s' % r2.stderr.decode())
        r3 = run('redact', '-o', s.path('packed.tgz'), src)
        packed = archive_bytes(s.path('packed.tgz')) if r3.returncode == 0 else {}
        check(c, 'packed/manifest.json' in packed, 'folder to archive: %s %s' % (
            r3.stderr.decode(), sorted(packed)))
        no_planted(c, packed)
        no_leftovers(c, s.dir)
    finally:
        s.close()


def case_series():
    c = 'series'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src, '--count', '2', '--interval', '0')
        r = run('redact', src)
        out = s.path('raw-redacted')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        files = tree_bytes(out)
        no_planted(c, files)
        for sample in ('001/', '002/'):
            m = check_manifest(c, files, sample)
            check(c, rule_hits(m).get('serial', 0) > 0, '%s: no serial hits' % sample)
            check(c, all(not f.startswith(sample) for r_ in m['redaction']['rules']
                         for f in r_['files']), '%s: files named with the sample folder' % sample)
        check(c, files['series.json'] == tree_bytes(src)['series.json'], 'series.json changed')
    finally:
        s.close()


def case_file_ioreg():
    """A hand-saved ioreg -l text: the serial found in it, removed everywhere."""
    c = 'file-ioreg'
    s = Scratch()
    try:
        src = s.path('ioreg-l.txt')
        open(src, 'wb').write(IOREG_TEXT)
        r = run('redact', '--word', 'HOSTPLANTED', src)
        out = s.path('ioreg-l-redacted.txt')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        data = open(out, 'rb').read() if os.path.exists(out) else b''
        no_planted(c, {out: data})
        check(c, data.count(b'REDACTED') == 7, 'REDACTED %d times (want 7: 3 keyed values, '
              'the serial elsewhere, the temp path, the word, the user name)' % data.count(b'REDACTED'))
        check(c, b'"IOPlatformSerialNumber" = "REDACTED"' in data, 'key not kept')
        check(c, b'/Users/USER/Library' in data, 'user path')
        check(c, b'"IOUserClientCreator" = "pid 4242, WindowServer"' in data, 'other text changed')
        check(c, open(src, 'rb').read() == IOREG_TEXT, 'the input was changed')
        # the same through standard input, gzip-compressed: plain text on standard output
        r2 = run('redact', '--word', 'HOSTPLANTED', '-', stdin=gzip.compress(IOREG_TEXT))
        check(c, r2.returncode == 0 and r2.stdout == data, 'stdin .gz: %d %s' % (
            r2.returncode, r2.stderr.decode()))
        # a .gz file gives a .gz copy (gzip module reads it back, CRC checked)
        gz = s.path('ioreg-l.txt.gz')
        open(gz, 'wb').write(gzip.compress(IOREG_TEXT))
        r3 = run('redact', '--word', 'HOSTPLANTED', gz)
        gout = s.path('ioreg-l-redacted.txt.gz')
        check(c, r3.returncode == 0 and os.path.exists(gout), 'gz: %s' % r3.stderr.decode())
        if os.path.exists(gout):
            raw = open(gout, 'rb').read()
            check(c, raw[:2] == b'\x1f\x8b' and gzip.decompress(raw) == data, 'gz copy differs')
        back = run('classes', out)
        check(c, back.returncode in (0, 65), 'classes of the copy crashed: %d' % back.returncode)
    finally:
        s.close()


def case_refusals():
    c = 'refusals'
    s = Scratch()
    try:
        src = s.path('a.txt')
        open(src, 'wb').write(IOREG_TEXT)
        open(s.path('a-redacted.txt'), 'wb').write(b'keep me\n')
        r = run('redact', src)
        check(c, r.returncode == 73 and open(s.path('a-redacted.txt'), 'rb').read() == b'keep me\n',
              'existing output: %d %s' % (r.returncode, r.stderr.decode()))
        r = run('redact', '--word', 'ab', src)
        check(c, r.returncode == 64, '--word ab: %d' % r.returncode)
        r = run('redact', s.path('missing.txt'))
        check(c, r.returncode == 66, 'missing input: %d' % r.returncode)
        os.makedirs(s.path('b'))
        open(s.path('b/manifest.json'), 'wb').write(b'{"schema": "iotally.bundle/1", ')
        r = run('redact', s.path('b'))
        check(c, r.returncode == 65 and not os.path.exists(s.path('b-redacted')),
              'broken manifest: %d %s' % (r.returncode, r.stderr.decode()))
        os.makedirs(s.path('l'))
        os.symlink('/etc/passwd', s.path('l/passwd'))
        r = run('redact', s.path('l'))
        check(c, r.returncode == 65 and b'symbolic link' in r.stderr, 'symlink: %d %s' % (
            r.returncode, r.stderr.decode()))
        r = run('redact', '-o', '-', s.path('l'))
        check(c, r.returncode in (64, 65), 'a bundle to stdout: %d' % r.returncode)
        no_leftovers(c, s.dir)
    finally:
        s.close()


def add(t, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))


def case_hostile_archives():
    c = 'hostile-archives'
    s = Scratch()
    try:
        evil = s.path('evil.tar.gz')
        with tarfile.open(evil, 'w:gz') as t:
            add(t, 'b/manifest.json', b'{}')
            add(t, 'b/../../escaped.txt', b'alice\n')
        r = run('redact', '-o', s.path('out'), evil)
        check(c, r.returncode == 65 and b'leaves' in r.stderr, 'escaping member: %d %s' % (
            r.returncode, r.stderr.decode()))
        check(c, not os.path.exists(s.path('out')) and not os.path.exists(
            os.path.join(os.path.dirname(s.dir), 'escaped.txt')), 'something was written')
        absolute = s.path('abs.tar')
        with tarfile.open(absolute, 'w') as t:
            add(t, '/tmp/iotally-absolute-member.txt', b'alice\n')
        r = run('redact', '-o', s.path('out2'), absolute)
        check(c, r.returncode == 65, 'absolute member: %d %s' % (r.returncode, r.stderr.decode()))
        # a real bundle archive cut in the middle
        src = s.path('raw')
        raw_bundle(c, src, '--archive')
        whole = open(src + '.tar.gz', 'rb').read()
        cut = s.path('cut.tar.gz')
        open(cut, 'wb').write(whole[:len(whole) // 2])
        r = run('redact', '-o', s.path('out3.tar.gz'), cut)
        check(c, r.returncode == 65 and not os.path.exists(s.path('out3.tar.gz')),
              'cut archive: %d %s' % (r.returncode, r.stderr.decode()))
        no_leftovers(c, s.dir)
    finally:
        s.close()


def case_tampered():
    """A file changed after the capture keeps its old record: readers still warn."""
    c = 'tampered'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src)
        vm = os.path.join(src, 'target', 'vmmap.txt')
        data = bytearray(open(vm, 'rb').read())
        data[-2] ^= 0x01
        open(vm, 'wb').write(bytes(data))
        old = {s_['id']: s_ for s_ in json.load(open(os.path.join(src, 'manifest.json')))['steps']}
        r = run('redact', src)
        out = s.path('raw-redacted')
        check(c, r.returncode == 0 and b'target/vmmap.txt does not match' in r.stderr,
              'exit %d: %s' % (r.returncode, r.stderr.decode()))
        files = tree_bytes(out)
        no_planted(c, files)
        m = json.loads(files['manifest.json'])
        rec = [s_ for s_ in m['steps'] if s_['id'] == 'target.vmmap'][0]['stdout']
        check(c, rec == old['target.vmmap']['stdout'], 'the record was rewritten')
        check(c, hashlib.sha256(files['target/vmmap.txt']).hexdigest() != rec['sha256'],
              'the changed file now matches its manifest')
        back = run('vmmap', out)
        check(c, b'does not match the bundle manifest' in back.stderr, 'vmmap does not warn')
    finally:
        s.close()


def case_trailing_slash():
    """-o OUTPUT/ names OUTPUT: a folder, or the archive when it ends in .tar.gz."""
    c = 'trailing-slash'
    s = Scratch()
    try:
        src = s.path('raw')
        raw_bundle(c, src)
        r = run('redact', '-o', s.path('copy') + '/', src)
        check(c, r.returncode == 0 and os.path.isfile(s.path('copy/manifest.json')),
              'folder: exit %d %s' % (r.returncode, r.stderr.decode()))
        r = run('redact', '-o', s.path('copy.tar.gz') + '/', src)
        check(c, r.returncode == 0 and os.path.isfile(s.path('copy.tar.gz')),
              'archive: exit %d %s (%s)' % (r.returncode, r.stderr.decode(), os.listdir(s.dir)))
        no_leftovers(c, s.dir)
    finally:
        s.close()


def interrupted_redact(c, args, folder, sig):
    """redact stopped by `sig` once its temporary copy exists: nothing of it is left."""
    p = subprocess.Popen([ARGS.bin, 'redact'] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    seen = False
    end = time.monotonic() + 60
    while time.monotonic() < end and p.poll() is None and not seen:
        seen = any('.partial' in n for n in os.listdir(folder))
        if not seen:
            time.sleep(0.005)
    if not check(c, seen, 'no temporary copy seen (redact exit %r)' % p.poll()):
        p.communicate()
        return
    p.send_signal(sig)
    p.communicate(timeout=60)
    check(c, p.returncode == -sig, 'exit %d' % p.returncode)
    no_leftovers(c, folder)


def case_signal_removes_temporary():
    """SIGTERM/SIGINT/SIGHUP while redact writes: no .OUT.partial-* left (file, folder, archive)."""
    c = 'signal-removes-temporary'
    s = Scratch()
    e = CT.Env(mode='vmmap=big', STANDIN_BIG='150000000')
    try:
        src = s.path('raw')
        r = e.capture('--pid', str(e.target.pid), '-o', src, '--no-redact')
        check(c, r.returncode == 0, 'capture exit %d: %s' % (r.returncode, r.stderr.decode()))
        big = os.path.join(src, 'target', 'vmmap.txt')
        interrupted_redact(c, ['-o', s.path('one.txt'), big], s.dir, signal.SIGTERM)
        interrupted_redact(c, ['-o', s.path('copy'), src], s.dir, signal.SIGINT)
        interrupted_redact(c, ['-o', s.path('copy.tar.gz'), src], s.dir, signal.SIGHUP)
        check(c, not [n for n in os.listdir(s.dir) if n.startswith(('one', 'copy'))],
              'an output appeared: %s' % os.listdir(s.dir))
    finally:
        e.close()
        s.close()



def case_output_signal():
    """SIGTERM/SIGINT/SIGHUP while `report -o` and `diff --junit` hold their temporary
    file (rename() held back by a test shim): the temporary file is removed."""
    c = 'output-signal'
    if not ARGS.slow_rename:
        print('  output-signal: no rename shim on this system (Linux only): skipped')
        return
    s = Scratch()
    try:
        env = dict(os.environ)
        env['LD_PRELOAD'] = ARGS.slow_rename
        env['IOTALLY_TEST_SLOW_RENAME'] = '30'
        # an ASan build wants its runtime first; the shim is only rename()
        env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0'
        vm = os.path.join(ARGS.root, 'tests', 'capture', 'data', 'vmmap.txt')
        runs = (
            (['report', '-o', s.path('report.md'), vm], signal.SIGTERM),
            (['report', '--format', 'html', '-o', s.path('report.html'), vm], signal.SIGINT),
            (['diff', '--junit', s.path('junit.xml'), '--fail-if', 'vmmap:gpu.vsize > +1G', vm, vm],
             signal.SIGHUP),
        )
        for args, sig in runs:
            p = subprocess.Popen([ARGS.bin] + args, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
            seen = False
            end = time.monotonic() + 60
            while time.monotonic() < end and p.poll() is None and not seen:
                seen = any(n.startswith('.') for n in os.listdir(s.dir))
                if not seen:
                    time.sleep(0.01)
            check(c, seen, '%s: no temporary file seen (exit %r)' % (args[0], p.poll()))
            p.send_signal(sig)
            _, err = p.communicate(timeout=60)
            check(c, p.returncode == -sig, '%s: exit %d %s' % (args[0], p.returncode, err.decode()))
            left = os.listdir(s.dir)
            check(c, not left, '%s: left %s' % (args[0], left))
    finally:
        s.close()


CASES = collect_cases(globals())


def main():
    global ARGS, CT
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--case', action='append')
    ap.add_argument('--slow-rename', help='tests/capture/slow-rename.c built as a shared library')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    spec = importlib.util.spec_from_file_location(
        'capture_tests', os.path.join(ARGS.root, 'tests', 'capture', 'capture-tests.py'))
    CT = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(CT)
    CT.ARGS = ARGS
    return run_cases(CASES, ARGS.case, jobs=CASE_JOBS)


if __name__ == '__main__':
    sys.exit(main())
