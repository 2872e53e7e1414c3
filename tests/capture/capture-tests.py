#!/usr/bin/env python3
"""`iotally capture` end to end, with stand-in tools first on PATH.

tests/capture/bin/standin plays Apple's tools (linked under their names
into a fresh folder per case) and replays tests/capture/data plus Apple's
documented failure texts. Each case runs the real binary against a live
target (a `sleep` started here) and checks the bundle from outside:
manifest.json against docs/json/bundle.schema.json, every sha256 recomputed
with hashlib, the planted user name and serial number searched in every
byte of the bundle, and the bundle read back by iotally's own commands.

  capture-tests.py --bin build/iotally --root SOURCE_ROOT [--case NAME] [--measure]
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOOLS = ['sw_vers', 'sysctl', 'ioreg', 'ioclasscount', 'ioalloccount', 'footprint', 'vmmap',
         'pgrep', 'ps']
PLANTED = [b'alice', b'C02PLANTED1X', b'PLANTEDUUID1', b'Planted-Example', b'owner=']

ARGS = None
FAILURES = []


def fail(case, msg):
    FAILURES.append('%s: %s' % (case, msg))
    print('FAIL %s: %s' % (case, msg))


def check(case, cond, msg):
    if not cond:
        fail(case, msg)
    return cond


class Env:
    """A scratch folder, a stand-in bin folder and a live target process."""

    def __init__(self, missing=(), mode='', pids=None):
        self.dir = tempfile.mkdtemp(prefix='iotally-capture-test-')
        self.bin = os.path.join(self.dir, 'bin')
        os.mkdir(self.bin)
        standin = os.path.join(ARGS.root, 'tests', 'capture', 'bin', 'standin')
        for t in TOOLS:
            if t not in missing:
                os.symlink(standin, os.path.join(self.bin, t))
        self.target = subprocess.Popen(['sleep', '300'])
        self.log = os.path.join(self.dir, 'calls.log')
        self.env = dict(os.environ)
        self.env.update({
            'PATH': self.bin + os.pathsep + '/usr/bin:/bin',
            'STANDIN_DATA': os.path.join(ARGS.root, 'tests', 'capture', 'data'),
            'STANDIN_MODE': mode,
            'STANDIN_LOG': self.log,
            'STANDIN_PIDS': str(self.target.pid) if pids is None else pids,
            'LC_ALL': 'C', 'TZ': 'UTC',
        })

    def out(self, name='bundle'):
        return os.path.join(self.dir, name)

    def capture(self, *args, **kw):
        return subprocess.run([ARGS.bin, 'capture'] + list(args), env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=kw.get('timeout', 120))

    def run(self, *args):
        return subprocess.run([ARGS.bin] + list(args), env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)

    def close(self):
        self.target.kill()
        self.target.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def manifest(case, bundle):
    path = os.path.join(bundle, 'manifest.json')
    if not check(case, os.path.isfile(path), 'no manifest.json in %s' % bundle):
        return None
    schema = os.path.join(ARGS.root, 'docs', 'json', 'bundle.schema.json')
    v = subprocess.run([sys.executable, os.path.join(ARGS.root, 'tests', 'json-validate.py'),
                        schema, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check(case, v.returncode == 0, 'manifest fails the schema: %s' % v.stdout.decode())
    with open(path) as f:
        m = json.load(f)
    for s in m['steps']:
        for key in ('stdout', 'stderr'):
            e = s.get(key)
            if not e:
                continue
            data = open(os.path.join(bundle, e['path']), 'rb').read()
            check(case, hashlib.sha256(data).hexdigest() == e['sha256'],
                  '%s: sha256 differs from the file' % e['path'])
            check(case, len(data) == e['bytes'], '%s: byte count differs' % e['path'])
    return m


def step(m, sid):
    for s in m['steps']:
        if s['id'] == sid:
            return s
    return None


def no_partial_left(case, parent):
    left = [n for n in os.listdir(parent) if '.partial' in n]
    check(case, not left, 'temporary folders left behind: %s' % left)


def hangers(env):
    """this Env's stand-in `sleep 1000` processes still alive (Linux /proc only).

    Only those started with this Env's STANDIN_LOG count: other test runs on
    the same machine have hung stand-ins of their own."""
    if not os.path.isdir('/proc'):
        return []
    mark = ('STANDIN_LOG=%s' % env.log).encode() + b'\0'
    found = []
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            cmd = open('/proc/%s/cmdline' % p, 'rb').read()
            environ = open('/proc/%s/environ' % p, 'rb').read() + b'\0'
        except OSError:
            continue
        if cmd == b'sleep\x001000\x00' and mark in environ:
            found.append(p)
    return found


# ------------------------------------------------------------------ cases

def case_complete():
    c = 'complete'
    e = Env(missing=('footprint',))
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        m = manifest(c, e.out())
        if m:
            check(c, m['complete'] is True, 'not complete')
            check(c, m['target'] == {'pid': e.target.pid, 'name': 'shared_library_demo'},
                  'target %r' % m['target'])
            check(c, m['host']['os_build'] == '23A344', 'os_build %r' % m['host']['os_build'])
            check(c, m['host']['kernel_variant'] == 'RELEASE', 'kernel_variant')
            check(c, m['host']['page_size'] == 16384, 'page_size')
            v = step(m, 'target.vmmap')
            check(c, v and v['status'] == 'ok' and v['argv'][:3] == ['vmmap', '-w', '-noCoalesce'],
                  'vmmap step %r' % v)
            # footprint is left off PATH here; macOS has its own in /usr/bin
            real_footprint = shutil.which('footprint', path='/usr/bin:/bin')
            check(c, real_footprint or step(m, 'target.footprint')['status'] == 'skipped',
                  'footprint not skipped')
            t = step(m, 'kernel.track')
            check(c, t['status'] == 'skipped' and t['stdout'] is None, 'track %r' % t)
        order = [l.split()[0] for l in open(e.log)]
        check(c, order[-1] == 'vmmap', 'vmmap is not the last tool run: %s' % order)
        check(c, order.count('sysctl') == 9, 'sysctl runs: %d' % order.count('sysctl'))
        back = e.run('vmmap', '--all-types', e.out())
        plain = e.run('vmmap', '--all-types', os.path.join(e.out(), 'target', 'vmmap.txt'))
        check(c, back.returncode == 0 and back.stdout == plain.stdout and back.stdout,
              'vmmap BUNDLE differs from vmmap of its file: %s' % back.stderr.decode())
        cl = e.run('classes', e.out())
        check(c, cl.returncode == 0 and b'IOSurface = 1204' in cl.stdout,
              'classes BUNDLE: %s %s' % (cl.stdout[:200], cl.stderr.decode()))
        no_partial_left(c, e.dir)
    finally:
        e.close()


def case_redaction():
    c = 'redaction'
    e = Env()
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        m = manifest(c, e.out())
        for root, _, files in os.walk(e.out()):
            for f in files:
                data = open(os.path.join(root, f), 'rb').read()
                for p in PLANTED:
                    check(c, p not in data, '%r found in %s' % (p, os.path.join(root, f)))
        if m:
            hits = {x['rule']: x['hits'] for x in m['redaction']['rules']}
            for rule in ('console-user', 'serial', 'user-path', 'temp-path', 'bootargs',
                         'known-value'):
                check(c, hits.get(rule, 0) > 0, 'rule %s has no hits: %r' % (rule, hits))
            check(c, m['redaction']['enabled'] is True and m['redaction']['warning'] is None,
                  'redaction block %r' % m['redaction'])
        boot = open(os.path.join(e.out(), 'host/sysctl/kern.bootargs.txt')).read()
        check(c, boot == 'kern.bootargs: io=0x400000 debug=0x8\n', 'bootargs %r' % boot)
        plist = open(os.path.join(e.out(), 'kernel/ioreg-root.plist')).read()
        check(c, '<key>kCGSSessionUserNameKey</key>\n\t\t\t<string>REDACTED</string>' in plist,
              'user name key not kept with a REDACTED value')
        vm = open(os.path.join(e.out(), 'target/vmmap.txt')).read()
        check(c, '/Users/USER/Documents/' in vm, 'vmmap paths not /Users/USER/')
        raw = e.capture('--pid', str(e.target.pid), '-o', e.out('raw'), '--no-redact')
        check(c, raw.returncode == 0 and b'redaction is OFF' in raw.stderr,
              '--no-redact not said loudly: %s' % raw.stderr.decode())
        m2 = manifest(c, e.out('raw'))
        if m2:
            check(c, m2['redaction']['enabled'] is False and m2['redaction']['warning'],
                  'manifest does not warn about --no-redact')
        vm = open(os.path.join(e.out('raw'), 'target/vmmap.txt'), 'rb').read()
        check(c, b'/Users/alice/' in vm, '--no-redact still redacted')
    finally:
        e.close()


def case_denied():
    c = 'denied'
    e = Env(mode='vmmap=denied')
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 77, 'exit %d' % r.returncode)
        err = r.stderr.decode(errors='replace')
        check(c, 'appropriate privileges' in err and 'sudo' in err, 'stderr %r' % err)
        m = manifest(c, e.out())
        if m:
            check(c, m['complete'] is False, 'complete')
            v = step(m, 'target.vmmap')
            check(c, v['status'] == 'denied' and v['exit_status'] == 255, 'vmmap %r' % v)
            check(c, step(m, 'kernel.ioreg_root')['status'] == 'ok', 'other steps lost')
        back = e.run('vmmap', e.out())
        check(c, back.returncode == 66 and b'was denied' in back.stderr,
              'vmmap BUNDLE: %d %s' % (back.returncode, back.stderr.decode()))
    finally:
        e.close()


def case_target_gone():
    c = 'target-gone'
    e = Env(mode='vmmap=gone')
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 69, 'exit %d' % r.returncode)
        m = manifest(c, e.out())
        if m:
            v = step(m, 'target.vmmap')
            check(c, v['status'] == 'target-gone' and 'no longer appears' in v['reason'],
                  'vmmap %r' % v)
        dead = subprocess.Popen(['true'])
        dead.wait()
        r = e.capture('--pid', str(dead.pid), '-o', e.out('dead'))
        check(c, r.returncode == 69 and not os.path.exists(e.out('dead')),
              'dead pid: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
    finally:
        e.close()


def case_tool_missing():
    c = 'tool-missing'
    e = Env(missing=('ioalloccount',))
    try:
        r = e.capture('-o', e.out())
        check(c, r.returncode == 69, 'exit %d' % r.returncode)
        m = manifest(c, e.out())
        if m:
            s = step(m, 'kernel.ioalloccount')
            check(c, s['status'] == 'failed' and 'not on PATH' in s['reason'], 'step %r' % s)
            check(c, m['target'] is None and step(m, 'target.vmmap') is None,
                  'system-wide capture ran target steps')
            check(c, step(m, 'kernel.ioclasscount')['status'] == 'ok', 'others lost')
    finally:
        e.close()


def case_hung_tool():
    c = 'hung-tool'
    e = Env(mode='ioclasscount=hang')
    try:
        t0 = time.monotonic()
        r = e.capture('--timeout', '1', '--pid', str(e.target.pid), '-o', e.out())
        took = time.monotonic() - t0
        check(c, r.returncode == 69, 'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        check(c, took < 20, 'took %.1f s' % took)
        m = manifest(c, e.out())
        if m:
            s = step(m, 'kernel.ioclasscount')
            check(c, s['status'] == 'timeout' and s['exit_status'] is None, 'step %r' % s)
            check(c, step(m, 'target.vmmap')['status'] == 'ok', 'capture did not go on')
        check(c, not hangers(e), 'the hung tool is still running')
    finally:
        e.close()


def interrupt(c, sig, want):
    e = Env(mode='ioclasscount=hang')
    try:
        p = subprocess.Popen([ARGS.bin, 'capture', '--pid', str(e.target.pid), '-o', e.out()],
                             env=e.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(400):
            if os.path.exists(e.log) and 'ioclasscount' in open(e.log).read():
                break
            time.sleep(0.05)
        time.sleep(0.2)
        p.send_signal(sig)
        out, err = p.communicate(timeout=30)
        check(c, p.returncode == want, 'exit %d (%s)' % (p.returncode, err.decode()))
        check(c, not os.path.exists(e.out()), 'the bundle folder exists after an interrupt')
        no_partial_left(c, e.dir)
        time.sleep(0.2)
        check(c, not hangers(e), 'the running tool was not stopped')
    finally:
        e.close()


def case_sigint():
    interrupt('sigint', signal.SIGINT, 130)


def case_sigterm():
    interrupt('sigterm', signal.SIGTERM, 143)


def case_existing_dir():
    c = 'existing-dir'
    e = Env()
    try:
        os.mkdir(e.out())
        r = e.capture('-o', e.out())
        check(c, r.returncode == 73 and b'exists' in r.stderr,
              'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        check(c, os.listdir(e.out()) == [], 'the existing folder was written to')
        no_partial_left(c, e.dir)
    finally:
        e.close()


def case_unwritable_dir():
    c = 'unwritable-dir'
    e = Env()
    try:
        blocker = os.path.join(e.dir, 'a-file')
        open(blocker, 'w').close()
        r = e.capture('-o', os.path.join(blocker, 'bundle'))
        check(c, r.returncode == 73, 'under a file: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        if os.geteuid() != 0:
            ro = os.path.join(e.dir, 'read-only')
            os.mkdir(ro, 0o555)
            r = e.capture('-o', os.path.join(ro, 'bundle'))
            check(c, r.returncode == 73 and not os.listdir(ro),
                  'read-only: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
    finally:
        e.close()


def case_checksum_mismatch():
    c = 'checksum-mismatch'
    e = Env()
    try:
        e.capture('--pid', str(e.target.pid), '-o', e.out())
        p = os.path.join(e.out(), 'target', 'vmmap.txt')
        data = bytearray(open(p, 'rb').read())
        data[data.index(b'Process:')] = ord('p')
        open(p, 'wb').write(bytes(data))
        r = e.run('vmmap', e.out())
        err = r.stderr.decode(errors='replace')
        check(c, 'target/vmmap.txt: warning: this file does not match the bundle manifest' in err,
              'no warning naming the file: %s' % err)
    finally:
        e.close()


def case_series():
    c = 'series'
    e = Env()
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out(), '--count', '3',
                      '--interval', '1')
        check(c, r.returncode == 0, 'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        idx = json.load(open(os.path.join(e.out(), 'series.json')))
        schema = os.path.join(ARGS.root, 'docs', 'json', 'series.schema.json')
        v = subprocess.run([sys.executable, os.path.join(ARGS.root, 'tests', 'json-validate.py'),
                            schema, os.path.join(e.out(), 'series.json')],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        check(c, v.returncode == 0, 'series.json fails its schema: %s' % v.stdout.decode())
        check(c, idx['complete'] and [s['dir'] for s in idx['samples']] == ['001', '002', '003'],
              'index %r' % idx)
        starts = []
        for s in idx['samples']:
            m = manifest(c, os.path.join(e.out(), s['dir']))
            if m:
                check(c, m['series']['index'] == s['index'], 'sample index')
                starts.append(m['started_utc'])
        check(c, starts == sorted(starts), 'samples not in time order')
        listing = e.run(e.out())
        check(c, listing.returncode == 0 and b'series of 3 samples' in listing.stdout,
              'iotally SERIES: %s' % listing.stdout.decode())
        # Each sample holds a vmmap and an ioreg capture: trend follows vmmap
        # unless --kind names the other; track was not captured (skipped).
        for kind, want in ((None, 'vmmap'), ('classes', 'classes')):
            args = ['trend', '--format', 'json'] + (['--kind', kind] if kind else []) + [e.out()]
            t = e.run(*args)
            try:
                doc = json.loads(t.stdout)
            except ValueError:
                doc = {}
            check(c, t.returncode == 0 and doc.get('kind') == want and doc.get('samples') == 3,
                  'trend %s: exit %d, kind %r, samples %r: %s' % (kind, t.returncode, doc.get('kind'),
                  doc.get('samples'), t.stderr.decode(errors='replace')))
        t = e.run('trend', '--kind', 'track', e.out())
        check(c, t.returncode != 0 and t.stderr.count(b'holds no track capture: its step') == 3,
              'trend --kind track: exit %d: %s' % (t.returncode, t.stderr.decode(errors='replace')))
    finally:
        e.close()


def case_archive():
    c = 'archive'
    e = Env()
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out(), '--archive')
        check(c, r.returncode == 0 and os.path.isfile(e.out() + '.tar.gz'),
              'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        a = e.run('vmmap', '--all-types', e.out() + '.tar.gz')
        b = e.run('vmmap', '--all-types', e.out())
        check(c, a.returncode == 0 and a.stdout == b.stdout and a.stdout,
              'the archive reads differently: %s' % a.stderr.decode())
        import tarfile
        with tarfile.open(e.out() + '.tar.gz') as t:
            names = t.getnames()
        check(c, 'bundle/manifest.json' in names, 'archive members %r' % names[:5])
    finally:
        e.close()


def case_process_name():
    c = 'process-name'
    e = Env()
    try:
        r = e.capture('--process', 'shared_library_demo', '-o', e.out())
        m = manifest(c, e.out())
        check(c, r.returncode == 0 and m and m['target']['pid'] == e.target.pid,
              'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        e.env['STANDIN_PIDS'] = '101 202'
        r = e.capture('--process', 'Dup', '-o', e.out('dup'))
        check(c, r.returncode == 64 and b'101 202' in r.stderr and not os.path.exists(e.out('dup')),
              'ambiguous: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        e.env['STANDIN_PIDS'] = ''
        r = e.capture('--process', 'Nope', '-o', e.out('none'))
        check(c, r.returncode == 69 and b'no running process' in r.stderr,
              'unknown: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
    finally:
        e.close()


def controls(data):
    """The control characters of bytes decoded as UTF-8 (invalid UTF-8 counts)."""
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return ['invalid UTF-8']
    return ['U+%04X' % ord(ch) for ch in text
            if (ord(ch) < 0x20 and ch != '\n') or 0x7f <= ord(ch) <= 0x9f]


def case_hostile_process_name():
    """ps names the target with terminal controls and a formula: nothing reaches the
    terminal or the folder name; the manifest keeps the exact name."""
    c = 'hostile-process-name'
    name = 'Evil\x1b]52;c;aGVsbG8=\x07 =HYPERLINK("x")\u009b2J\x7f'
    e = Env()
    try:
        e.env['STANDIN_PS'] = '/Applications/' + name
        r = subprocess.run([ARGS.bin, 'capture', '--pid', str(e.target.pid)], env=e.env,
                           cwd=e.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
        check(c, r.returncode == 0, 'exit %d %s' % (r.returncode, r.stderr[:300]))
        check(c, not controls(r.stdout) and not controls(r.stderr),
              'controls on the terminal: %s %s' % (controls(r.stdout), controls(r.stderr)))
        dirs = [n for n in os.listdir(e.dir) if n.startswith('iotally-')]
        if not check(c, len(dirs) == 1, 'bundle folders: %r' % dirs):
            return
        check(c, not controls(dirs[0].encode('utf-8', 'surrogateescape')),
              'control bytes in the folder name %r' % dirs[0])
        check(c, '-Evil_x1b' not in dirs[0] and '-Evil_]52;c;aGVsbG8=_' in dirs[0],
              'folder name %r' % dirs[0])
        m = manifest(c, os.path.join(e.dir, dirs[0]))
        if m:
            check(c, m['target']['name'] == name, 'manifest target %r' % m['target'])
        ls = e.run(os.path.join(e.dir, dirs[0]))
        check(c, not controls(ls.stdout) and not controls(ls.stderr),
              'bundle listing: %s %s' % (controls(ls.stdout), controls(ls.stderr)))
        check(c, b'of Evil\\x1b]52;c;aGVsbG8=\\x07 =HYPERLINK("x")\\xc2\\x9b2J\\x7f started'
              in ls.stdout, 'listing: %r' % ls.stdout[:300])
    finally:
        e.close()


def case_track_skipped():
    c = 'track-skipped'
    e = Env()
    try:
        r = e.capture('--track', 'IOSurface', '-o', e.out())
        m = manifest(c, e.out())
        if m:
            t = step(m, 'kernel.track')
            check(c, t['status'] == 'skipped' and 'RELEASE kernel' in t['reason'],
                  'track %r' % t)
            check(c, t['argv'] == ['ioclasscount', '--track', 'IOSurface'], 'argv %r' % t['argv'])
        check(c, r.returncode == 0, 'exit %d' % r.returncode)
        calls = open(e.log).read()
        check(c, '--track' not in calls, 'ioclasscount --track ran on a RELEASE kernel')
    finally:
        e.close()


def measure():
    """iotally's own time besides the tools, from 10 captures with stand-ins."""
    e = Env(missing=('footprint',))
    try:
        rows = []
        for i in range(10):
            out = e.out('m%d' % i)
            t0 = time.monotonic()
            e.capture('--pid', str(e.target.pid), '-o', out)
            wall = (time.monotonic() - t0) * 1000
            m = json.load(open(os.path.join(out, 'manifest.json')))
            tools = sum(s['duration_ms'] for s in m['steps'])
            size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(out) for f in fs)
            rows.append((wall, tools, size))
        rows.sort()
        wall, tools, size = rows[len(rows) // 2]
        print('capture wall %.0f ms (median of 10), tools %d ms, iotally %.0f ms, '
              'bundle %d bytes, %d steps' % (wall, tools, wall - tools, size, len(m['steps'])))
    finally:
        e.close()


CASES = {name[5:].replace('_', '-'): fn for name, fn in globals().items()
         if name.startswith('case_')}


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--case', action='append')
    ap.add_argument('--measure', action='store_true')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    if ARGS.measure:
        measure()
        return 0
    for name in ARGS.case or sorted(CASES):
        before = len(FAILURES)
        CASES[name]()
        print('%s %s' % ('ok  ' if len(FAILURES) == before else 'FAIL', name))
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
