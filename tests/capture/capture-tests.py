#!/usr/bin/env python3
"""`iotally capture` end to end, with stand-in tools named by --tools-dir.

tests/capture/bin/standin plays Apple's tools (linked under their names
into a fresh folder per case, which `capture --tools-dir` names; their
behaviour is in that folder's standin.conf, since iotally gives its tools a
minimal environment) and replays tests/capture/data plus Apple's
documented failure texts, on standard error with Apple's exit statuses. Each case runs the real binary against a live
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
import signal
import subprocess
import sys
import time

TOOLS = ['sw_vers', 'sysctl', 'ioreg', 'ioclasscount', 'ioalloccount', 'footprint', 'vmmap',
         'pgrep', 'ps']
PLANTED = [b'alice', b'C02PLANTED1X', b'PLANTEDUUID1', b'Planted-Example', b'owner=']

from standin_env import (CASE_JOBS, StandinEnv, check, collect_cases, run_cases, signal_and_wait,
                         validate)

ARGS = None


class Env(StandinEnv):
    """A scratch folder, a stand-in tools folder and a live target process."""

    def __init__(self, missing=(), mode='', pids=None, **conf):
        conf = dict({'STANDIN_MODE': mode}, **conf)
        if pids is not None:
            conf['STANDIN_PIDS'] = pids
        super().__init__(ARGS.root, 'iotally-capture-test-',
                         {t: 'standin' for t in TOOLS if t not in missing}, conf)

    def out(self, name='bundle'):
        return os.path.join(self.dir, name)

    def argv(self, args):
        if getattr(ARGS, 'legacy_path', False):
            # a build older than --tools-dir found its tools on PATH
            self.env['PATH'] = self.bin + os.pathsep + '/usr/bin:/bin'
            return [ARGS.bin, 'capture'] + list(args)
        return [ARGS.bin, 'capture', '--tools-dir', self.bin] + list(args)

    def capture(self, *args, **kw):
        return subprocess.run(self.argv(args), env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=kw.get('timeout', 120))

    def popen(self, *args):
        return subprocess.Popen(self.argv(args), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)

    def wait_call(self, tool, timeout=20):
        """Wait until the stand-in `tool` has been started."""
        return self.wait_log(lambda calls: any(l.split()[:1] == [tool] for l in calls),
                             timeout)

    def run(self, *args):
        return self.run_iotally(ARGS.bin, *args)


def manifest(case, bundle):
    path = os.path.join(bundle, 'manifest.json')
    if not check(case, os.path.isfile(path), 'no manifest.json in %s' % bundle):
        return None
    validate(case, ARGS.root, 'bundle.schema.json', path)
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
    """this Env's stand-in `sleep HANG` processes still alive (/proc, else ps).

    Each Env sleeps a number of seconds of its own: other test runs on the
    same machine have hung stand-ins of their own."""
    if not os.path.isdir('/proc'):
        ps = subprocess.run(['ps', '-ax', '-o', 'pid=,stat=,command='], stdout=subprocess.PIPE)
        found = []
        for line in ps.stdout.decode(errors='replace').splitlines():
            f = line.split(None, 2)
            if len(f) == 3 and not f[1].startswith('Z') and f[2] == 'sleep ' + env.hang:
                found.append(f[0])
        return found
    want = b'sleep\x00' + env.hang.encode() + b'\x00'
    found = []
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            cmd = open('/proc/%s/cmdline' % p, 'rb').read()
            stat = open('/proc/%s/stat' % p, 'rb').read()
        except OSError:
            continue
        if cmd == want and b') Z ' not in stat:
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
            check(c, v and v['status'] == 'ok' and
                  v['argv'][:3] == [os.path.join(e.bin, 'vmmap'), '-w', '-noCoalesce'],
                  'vmmap step %r' % v)
            # footprint is not in the tools folder: skipped, never looked up elsewhere
            check(c, step(m, 'target.footprint')['status'] == 'skipped',
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
            check(c, s['status'] == 'failed' and 'not in --tools-dir' in s['reason'], 'step %r' % s)
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
        p = e.popen('--pid', str(e.target.pid), '-o', e.out())
        e.wait_call('ioclasscount')
        time.sleep(0.2)
        signal_and_wait(c, p, sig, timeout=30)
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


def case_sighup():
    interrupt('sighup', signal.SIGHUP, 129)


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
        validate(c, ARGS.root, 'series.schema.json', os.path.join(e.out(), 'series.json'))
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


def case_archive_planted_link():
    """A link planted where the old fixed temporary name was, and at the final
    name, must not be written through: `sudo iotally capture --archive` would
    overwrite any file its target names."""
    c = 'archive-planted-link'
    e = Env()
    try:
        victim = os.path.join(e.dir, 'victim')
        with open(victim, 'w') as f:
            f.write('precious\n')
        os.symlink(victim, e.out() + '.tar.gz.partial')
        r = e.capture('--pid', str(e.target.pid), '-o', e.out(), '--archive')
        check(c, r.returncode == 0, 'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        check(c, open(victim).read() == 'precious\n', 'the file behind the planted link was written')
        check(c, os.path.islink(e.out() + '.tar.gz.partial'), 'the planted link was replaced')
        check(c, os.path.isfile(e.out() + '.tar.gz') and not os.path.islink(e.out() + '.tar.gz'),
              'no archive at the final name')
        left = [n for n in os.listdir(e.dir) if '.partial-' in n]
        check(c, not left, 'temporary files left behind: %r' % left)
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
        e.conf['STANDIN_PIDS'] = '101 202'
        e.write_conf()
        r = e.capture('--process', 'Dup', '-o', e.out('dup'))
        check(c, r.returncode == 64 and b'101 202' in r.stderr and not os.path.exists(e.out('dup')),
              'ambiguous: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        e.conf['STANDIN_PIDS'] = ''
        e.write_conf()
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
    e = Env(STANDIN_PS='/Applications/' + name)
    try:
        r = subprocess.run(e.argv(['--pid', str(e.target.pid)]), env=e.env,
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
        # the default folder keeps only [A-Za-z0-9_-] of the name, byte by byte
        safe = ''.join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in '_-')
                       else '_' for b in name.encode())
        check(c, '-%s-%d' % (safe, e.target.pid) in dirs[0], 'folder name %r' % dirs[0])
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
            check(c, t['argv'] == [os.path.join(e.bin, 'ioclasscount'), '--track', 'IOSurface'],
                  'argv %r' % t['argv'])
        check(c, r.returncode == 0, 'exit %d' % r.returncode)
        calls = open(e.log).read()
        check(c, '--track' not in calls, 'ioclasscount --track ran on a RELEASE kernel')
    finally:
        e.close()


def case_ok_with_denial_words():
    """A successful vmmap (exit 0) whose output holds denial words is ok, not denied."""
    c = 'ok-with-denial-words'
    e = Env(mode='vmmap=wordy', missing=('footprint',))
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        m = manifest(c, e.out())
        if m:
            v = step(m, 'target.vmmap')
            check(c, v['status'] == 'ok' and v['reason'] is None, 'vmmap %r' % v)
            check(c, m['complete'] is True, 'not complete')
        vm = open(os.path.join(e.out(), 'target', 'vmmap.txt'), 'rb').read()
        check(c, b'Operation not permitted' in vm, 'the stand-in did not print the words')
    finally:
        e.close()


def case_denied_texts():
    """Apple's other denial texts, on stderr with a non-zero status."""
    c = 'denied-texts'
    for mode, sid in (('vmmap=unknown', 'target.vmmap'), ('vmmap=oldperm', 'target.vmmap'),
                      ('footprint=denied', 'target.footprint')):
        e = Env(mode=mode)
        try:
            r = e.capture('--pid', str(e.target.pid), '-o', e.out())
            check(c, r.returncode == 77, '%s: exit %d' % (mode, r.returncode))
            m = manifest(c, e.out())
            if m:
                s = step(m, sid)
                check(c, s['status'] == 'denied' and s['exit_status'] != 0, '%s: %r' % (mode, s))
        finally:
            e.close()


def case_name_not_utf8():
    """A target name that is not UTF-8 keeps `target` in the manifest, escaped."""
    c = 'name-not-utf8'
    e = Env(STANDIN_PS=b'/Applications/Demo\xff\xfe.app/demo\xc3(\x1b')
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        m = manifest(c, e.out())
        if m:
            check(c, m.get('target') == {'pid': e.target.pid, 'name': 'demo\\xC3(\x1b'},
                  'target %r' % m.get('target'))
        # the default folder name keeps only [A-Za-z0-9_-] of it
        r = subprocess.run(e.argv(['--pid', str(e.target.pid)]), cwd=e.dir, env=e.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        made = [n for n in os.listdir(e.dir) if n.startswith('iotally-')]
        check(c, r.returncode == 0 and len(made) == 1 and
              made[0].endswith('-demo___-%d' % e.target.pid), 'default name %r' % made)
    finally:
        e.close()


def case_pgrep_not_pids():
    """pgrep's answer is parsed like --pid: anything else is refused (65), nothing runs."""
    c = 'pgrep-not-pids'
    e = Env()
    try:
        for answer in ('12abc', '-1', '0', '99999999999999999999', '2147483648', '+5', '7 x'):
            e.conf['STANDIN_PIDS'] = answer
            e.write_conf()
            open(e.log, 'w').close()
            r = e.capture('--process', 'Demo', '-o', e.out('p'))
            err = r.stderr.decode(errors='replace')
            check(c, r.returncode == 65 and 'not a process id' in err,
                  '%r: exit %d %s' % (answer, r.returncode, err))
            check(c, not os.path.exists(e.out('p')), '%r: a bundle was written' % answer)
            calls = [l.split()[0] for l in open(e.log)]
            check(c, calls == ['pgrep'], '%r: tools ran after pgrep: %s' % (answer, calls))
        e.conf['STANDIN_PIDS'] = '2147483647'
        e.write_conf()
        r = e.capture('--process', 'Demo', '-o', e.out('p'))
        check(c, r.returncode == 69 and b'no process has pid 2147483647' in r.stderr,
              'INT32_MAX: exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
    finally:
        e.close()


def case_trailing_slash():
    """-o DIR/ names DIR, and DIR.tar.gz beside it."""
    c = 'trailing-slash'
    e = Env()
    try:
        r = e.capture('-o', e.out() + '/', '--archive')
        check(c, r.returncode == 0, 'exit %d %s' % (r.returncode, r.stderr.decode(errors='replace')))
        check(c, os.path.isfile(os.path.join(e.out(), 'manifest.json')), 'no bundle at DIR')
        check(c, os.path.isfile(e.out() + '.tar.gz'), 'no DIR.tar.gz: %s' % os.listdir(e.dir))
        check(c, not os.path.exists(os.path.join(e.out(), '.tar.gz')), 'DIR/.tar.gz written')
        no_partial_left(c, e.dir)
    finally:
        e.close()


def case_tools_not_from_path():
    """Without --tools-dir nothing on PATH runs; tools get LC_ALL=C and a minimal environment."""
    c = 'tools-not-from-path'
    e = Env()
    try:
        env = dict(e.env)
        env['PATH'] = e.bin + os.pathsep + env['PATH']
        r = subprocess.run([ARGS.bin, 'capture', '-o', e.out('p')], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        check(c, not os.path.exists(e.log), 'a stand-in on PATH ran: %s' % (
            open(e.log).read() if os.path.exists(e.log) else ''))
        m = manifest(c, e.out('p')) if os.path.exists(e.out('p')) else None
        if m:
            for s in m['steps']:
                check(c, s['argv'][0].startswith(('/usr/bin/', '/usr/sbin/', '/bin/')) or
                      s['status'] in ('failed', 'skipped'), 'step %r' % s)
        envlog = os.path.join(e.dir, 'env.log')
        e.conf['STANDIN_ENVLOG'] = envlog
        e.write_conf()
        env = dict(e.env)
        env.update({'LC_ALL': 'fr_FR.UTF-8', 'IOTALLY_PLANTED_VAR': 'x', 'DYLD_INSERT_LIBRARIES': 'x'})
        r = e.capture('-o', e.out('q'))
        r = subprocess.run([ARGS.bin, 'capture', '--tools-dir', e.bin, '-o', e.out('r')], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        seen = open(envlog).read().split('\n') if os.path.exists(envlog) else []
        check(c, 'LC_ALL=C' in seen, 'LC_ALL not C: %r' % seen)
        check(c, not [l for l in seen if l.startswith(('IOTALLY_PLANTED_VAR=', 'DYLD_', 'HOME='))],
                 'the environment leaked: %r' % seen)
    finally:
        e.close()


def case_late_interrupt_early():
    late_interrupt('late-interrupt-early', (0, 0.01, 0.02, 0.04, 0.08, 0.12, 0.16, 0.2))


def case_late_interrupt_late():
    late_interrupt('late-interrupt-late', (0.3, 0.4, 0.6, 0.8, 1.0, 1.5))


def late_interrupt(c, delays):
    """A signal after the tools ran: either the bundle is complete and the message says
    so, or nothing is left and the message says that; never a bundle and "nothing".
    (Two cases of delays, run side by side.)"""
    e = Env(mode='vmmap=big', STANDIN_BIG='20000000', missing=('footprint',))
    try:
        outcomes = {}
        for i, delay in enumerate(delays):
            open(e.log, 'w').close()
            out = e.out('late%d' % i)
            p = e.popen('--pid', str(e.target.pid), '-o', out, '--archive')
            e.wait_call('vmmap')
            time.sleep(delay)
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=60)
            kept = os.path.exists(out)
            if p.returncode == 0:
                outcome = 'finished'
                check(c, kept and b'complete bundle' in _, 'exit 0 without a complete bundle')
            elif kept:
                outcome = 'kept'
                check(c, b'complete and is kept' in err and b'nothing was left' not in err,
                      'delay %s: a bundle is left, the message says %r' % (delay, err))
                manifest(c, out)
                check(c, json.load(open(os.path.join(out, 'manifest.json')))['complete'],
                      'delay %s: the kept bundle is not complete' % delay)
            else:
                outcome = 'nothing'
                check(c, b'nothing was left behind' in err,
                      'delay %s: nothing left, the message says %r' % (delay, err))
                check(c, not os.path.exists(out + '.tar.gz'), 'an archive without its bundle')
            check(c, p.returncode in (0, -signal.SIGTERM), 'exit %d' % p.returncode)
            no_partial_left(c, e.dir)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        print('  %s outcomes: %r' % (c, outcomes))
    finally:
        e.close()


def case_sigkill_leaves_no_raw_bytes():
    """SIGKILL while a tool runs: what is on disk is already redacted; the tool dies too."""
    c = 'sigkill'
    e = Env(mode='vmmap=stall')
    try:
        p = e.popen('--pid', str(e.target.pid), '-o', e.out())
        e.wait_call('vmmap')

        def vmmap_written():
            """the stalled vmmap's output, as far as it is on disk (redacted chunks)"""
            for root, _, files in os.walk(e.dir):
                if '.partial' in root and 'vmmap.txt' in files:
                    return os.path.getsize(os.path.join(root, 'vmmap.txt'))
            return 0
        end = time.monotonic() + 30
        while vmmap_written() < 1000000 and time.monotonic() < end:
            time.sleep(0.02)
        p.kill()
        p.wait()
        left = [n for n in os.listdir(e.dir) if '.partial' in n]
        check(c, len(left) == 1, 'private folder %r' % left)
        nfiles = 0
        for root, _, files in os.walk(e.dir):
            if '.partial' not in root:
                continue
            for f in files:
                nfiles += 1
                data = open(os.path.join(root, f), 'rb').read()
                for planted in PLANTED:
                    check(c, planted not in data, '%r on disk in %s' % (planted, f))
        vm = [os.path.join(r, f) for r, _, fs in os.walk(e.dir) for f in fs
              if f == 'vmmap.txt' and '.partial' in r]
        check(c, vm and b'/Users/USER/' in open(vm[0], 'rb').read(),
              'the stalled vmmap output is not on disk (nothing checked)')
        if sys.platform.startswith('linux'):
            time.sleep(0.3)
            check(c, not hangers(e), 'the tool outlived iotally (PR_SET_PDEATHSIG)')
    finally:
        for h in hangers(e):
            os.kill(int(h), signal.SIGKILL)
        e.close()


def case_value_learnt_later():
    """A value that only a later output reveals (the console user, in ioreg) is removed
    from the files written before it was known, and their records follow."""
    c = 'value-learnt-later'
    e = Env(mode='sw_vers=leak', missing=('footprint',))
    try:
        r = e.capture('--pid', str(e.target.pid), '-o', e.out())
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')))
        m = manifest(c, e.out())   # sizes and sha256 checked against the rewritten files
        for rel in ('host/sw_vers.txt', 'logs/host.sw_vers.stderr'):
            data = open(os.path.join(e.out(), rel), 'rb').read()
            check(c, b'alice' not in data and b'REDACTED' in data, '%s: %r' % (rel, data))
        if m:
            kv = [x for x in m['redaction']['rules'] if x['rule'] == 'known-value'][0]
            check(c, kv['files'].get('host/sw_vers.txt') == 1 and
                  kv['files'].get('logs/host.sw_vers.stderr') == 1, 'known-value %r' % kv)
        no_partial_left(c, e.dir)
    finally:
        e.close()


def case_series_interrupt():
    """SIGTERM between samples: the complete samples stay, series.json says partial."""
    c = 'series-interrupt'
    e = Env(missing=('footprint',))
    try:
        p = e.popen('--pid', str(e.target.pid), '-o', e.out(), '--count', '3', '--interval', '30')
        end = time.monotonic() + 60
        idx = os.path.join(e.out(), 'series.json')
        while time.monotonic() < end:
            if os.path.exists(idx) and json.load(open(idx))['samples']:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=30)
        check(c, p.returncode == -signal.SIGTERM, 'exit %d' % p.returncode)
        check(c, b'the complete samples are kept' in err, 'stderr %r' % err)
        doc = json.load(open(idx))
        check(c, doc['complete'] is False and [s['dir'] for s in doc['samples']] == ['001'],
              'series.json %r' % doc)
        manifest(c, os.path.join(e.out(), '001'))
        check(c, sorted(os.listdir(e.out())) == ['001', 'series.json'],
              'series folder %r' % os.listdir(e.out()))
        no_partial_left(c, e.dir)
        no_partial_left(c, e.out())
    finally:
        e.close()


def peak_rss(argv, env):
    """Peak RSS of a command, in bytes, measured by /usr/bin/time.

    Not by wait4() here: the child starts as a copy of this Python process
    (vfork or fork, then exec), and Linux carries the larger of the two
    high-water marks into the child's ru_maxrss; time(1)'s own child
    starts from time's small image instead."""
    if sys.platform == 'darwin':
        r = subprocess.run(['/usr/bin/time', '-l'] + argv, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        for line in r.stderr.decode(errors='replace').splitlines():
            if 'maximum resident set size' in line:
                return int(line.split()[0])
    elif os.path.exists('/usr/bin/time'):
        r = subprocess.run(['/usr/bin/time', '-f', 'maxrss-kib %M'] + argv, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for line in r.stderr.decode(errors='replace').splitlines():
            if line.startswith('maxrss-kib '):
                return int(line.split()[1]) * 1024
    # An upper bound: this process's own high-water mark may be in it.
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, _, ru = os.wait4(p.pid, 0)
    p.returncode = 0
    return ru.ru_maxrss * (1 if sys.platform == 'darwin' else 1024)


def case_memory():
    """Peak RSS of a capture stays flat whatever vmmap prints (64 MB here; `--big
    265000000` for the benchmark of docs/capture.md)."""
    c = 'memory'
    size = getattr(ARGS, 'big', None) or 64000000
    e = Env(mode='vmmap=big', STANDIN_BIG=str(size), missing=('footprint',))
    try:
        peak = peak_rss(e.argv(['--pid', str(e.target.pid), '-o', e.out()]), e.env)
        vm = os.path.getsize(os.path.join(e.out(), 'target', 'vmmap.txt'))
        print('  memory: vmmap output %d bytes, peak RSS %.1f MiB' % (vm, peak / 1048576.0))
        check(c, vm >= size * 0.9, 'vmmap output only %d bytes' % vm)
        with open(ARGS.bin, 'rb') as f:
            asan = b'__asan_init' in f.read()
        if asan:
            # AddressSanitizer keeps freed memory in quarantine (256 MB): no bound to check
            print('  memory: sanitizer build, the 32 MiB bound is not checked')
        else:
            check(c, peak <= 32 * 1048576, 'peak RSS %.1f MiB > 32 MiB' % (peak / 1048576.0))
        m = manifest(c, e.out())
        if m:
            hits = {x['rule']: x['hits'] for x in m['redaction']['rules']}
            check(c, hits.get('user-path', 0) > size // 200, 'big output not redacted: %r' % hits)
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


CASES = collect_cases(globals())


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--case', action='append')
    ap.add_argument('--measure', action='store_true')
    ap.add_argument('--big', type=int, help='bytes vmmap prints in the memory case')
    ap.add_argument('--legacy-path', action='store_true',
                    help='stand-ins on PATH, no --tools-dir: to show a case fails on an older build')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    if ARGS.measure:
        measure()
        return 0
    return run_cases(CASES, ARGS.case, jobs=CASE_JOBS)


if __name__ == '__main__':
    sys.exit(main())
