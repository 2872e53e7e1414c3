#!/usr/bin/env python3
"""`iotally capture --session` end to end, with a stateful stand-in ioclasscount.

tests/capture/bin/ioclasscount-session plays ioclasscount(8) with kernel
tracking state in a file (--reset, --start, --stop), refuses tracking flags
on a RELEASE kernel as the real tool does, prints the track/leaks/maps
outputs of tests/capture/data/session-*.txt, and logs every call; the other
tools are tests/capture/bin/standin. Each case checks from outside: the
order of the calls in the log, the tracking state file, session.json and the
three bundles' manifests against their schemas, what is left on disk, and
the messages.

  session-tests.py --bin build/iotally --root SOURCE_ROOT [--case NAME]
"""

import argparse
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import standin_env
from standin_env import StandinEnv, check, run_cases, signal_and_wait

TOOLS = ['sw_vers', 'sysctl', 'ioreg', 'ioalloccount', 'footprint', 'vmmap', 'pgrep', 'ps']
DEV_KERNEL = ('Darwin Kernel Version 23.0.0: stand-in; '
              'root:xnu-10002.1.13~1/DEVELOPMENT_ARM64_T6000')
REL_KERNEL = ('Darwin Kernel Version 23.0.0: stand-in; '
              'root:xnu-10002.1.13~1/RELEASE_ARM64_T6000')
ARGS = None


class Env(StandinEnv):
    """A scratch folder, the stand-ins, a tracking state file and a live target."""

    def __init__(self, **conf):
        links = {t: 'standin' for t in TOOLS}
        links['ioclasscount'] = 'ioclasscount-session'
        super().__init__(ARGS.root, 'iotally-session-test-', links, {}, mode=0o755)
        self.state = os.path.join(self.dir, 'state')
        self.hangdir = os.path.join(self.dir, 'hang')
        os.mkdir(self.hangdir)
        self.hangif = os.path.join(self.dir, 'hangif')
        seq = os.path.join(self.dir, 'ioreg')
        shutil.copy(os.path.join(self.capdir, 'data', 'ioreg-root.plist'), seq + '.1')
        shutil.copy(os.path.join(self.capdir, 'data', 'session-ioreg-after.plist'), seq + '.2')
        self.conf.update({
            'STANDIN_KERNEL': DEV_KERNEL,
            'STANDIN_IOREG_SEQ': seq,
            'STANDIN_HANGIF': self.hangif,
            'SESSION_STATE': self.state,
            'SESSION_HANGDIR': self.hangdir,
        })
        self.conf.update(conf)
        self.write_conf()
        self.env.pop('SUDO_UID', None)
        self.env.pop('SUDO_GID', None)

    def out(self):
        return os.path.join(self.dir, 'session')

    def argv(self, args):
        return [getattr(self, 'binary', ARGS.bin), 'capture', '--session', '--tools-dir',
                self.bin, '-o', self.out()] + list(args)

    def binary_for_anyone(self):
        """Run a copy of iotally in the scratch folder (mode 755): the build
        folder may sit under a folder only root can enter (a clone in a
        mktemp -d), and the refusal must come from iotally, not from exec."""
        self.binary = os.path.join(self.dir, 'iotally')
        shutil.copy(ARGS.bin, self.binary)
        os.chmod(self.binary, 0o755)

    def session(self, *args, **kw):
        return subprocess.run(self.argv(args), env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=kw.get('timeout', 120), preexec_fn=kw.get('preexec'))

    def popen(self, *args):
        return subprocess.Popen(self.argv(args), env=self.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def run(self, *args):
        return self.run_iotally(ARGS.bin, *args)

    def tracking_calls(self):
        return [c for c in self.calls() if c.startswith('ioclasscount --')]

    def state_now(self):
        try:
            with open(self.state) as f:
                return f.read().strip()
        except FileNotFoundError:
            return 'never'

    def leftovers(self):
        return sorted(n for n in os.listdir(self.dir) if n.startswith('.session'))



def validate(case, schema, path):
    return standin_env.validate(case, ARGS.root, schema, path)


def read_session(case, e):
    path = os.path.join(e.out(), 'session.json')
    if not check(case, os.path.isfile(path), 'no session.json'):
        return None
    validate(case, 'session.schema.json', path)
    for sub in ('before', 'after', 'tracking'):
        m = os.path.join(e.out(), sub, 'manifest.json')
        if os.path.exists(m):
            validate(case, 'bundle.schema.json', m)
    with open(path) as f:
        return json.load(f)


def in_order(calls, wanted):
    """Are `wanted` (prefixes) found in this order in calls? The index past each, or None."""
    at = 0
    for w in wanted:
        while at < len(calls) and not calls[at].startswith(w):
            at += 1
        if at == len(calls):
            return None
        at += 1
    return at


def assert_stopped_last(case, e):
    t = e.tracking_calls()
    check(case, t and t[-1] == 'ioclasscount --stop', 'last tracking call %r' % t[-1:])
    check(case, e.state_now() == 'off', 'tracking state %r' % e.state_now())


# ------------------------------------------------------------------ cases

def case_sequence():
    c = 'sequence'
    e = Env()
    try:
        r = e.session('--pid', str(e.target.pid), '--duration', '1', 'IOSurface')
        err = r.stderr.decode()
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, err))
        calls = e.calls()
        pid = str(e.target.pid)
        # The preflight changes nothing: every check comes before the first tracking command.
        check(c, in_order(calls, ['sysctl kern.version', 'sysctl kern.bootargs',
                                  'ioclasscount --help', 'ioclasscount --reset']) is not None,
              'preflight order: %r' % calls[:6])
        want = ['ioclasscount --reset', 'ioclasscount --start', 'ioreg -a -l -d 1',
                'ioclasscount', 'ioalloccount', 'footprint -f bytes -p ' + pid,
                'vmmap -w -noCoalesce ' + pid, 'ioreg -a -l -d 1', 'vmmap -w -noCoalesce ' + pid,
                'ioclasscount --track IOSurface', 'ioclasscount --leaks IOSurface',
                'ioclasscount --maps=' + pid, 'ioclasscount --stop']
        check(c, in_order(calls, want) is not None, 'sequence: %r' % calls)
        check(c, e.tracking_calls() == ['ioclasscount --help', 'ioclasscount --reset',
                                        'ioclasscount --start',
                                        'ioclasscount --track IOSurface',
                                        'ioclasscount --leaks IOSurface',
                                        'ioclasscount --maps=' + pid, 'ioclasscount --stop'],
              'tracking calls: %r' % e.tracking_calls())
        assert_stopped_last(c, e)
        # The one command that stops tracking by hand comes first.
        notes = [l for l in err.splitlines() if 'session' in l]
        check(c, notes and 'stop kernel tracking by hand: sudo %s/ioclasscount --stop' % e.bin
              in notes[0], 'first line: %r' % notes[:1])
        s = read_session(c, e)
        if s:
            check(c, s['complete'] and s['aborted'] is None, 'complete %r' % s['complete'])
            check(c, [x['id'] for x in s['steps']] == [
                'tracking.reset', 'tracking.start', 'before', 'wait', 'after', 'tracking',
                'tracking.stop'], 'steps %r' % [x['id'] for x in s['steps']])
            check(c, s['tracking']['left'] == 'off' and s['tracking']['io_bootarg'] == 0x400000
                  and not s['tracking']['from_boot'], 'tracking %r' % s['tracking'])
            check(c, s['flags']['names'] == ['IOSurface'] and s['flags']['maps'] == pid and
                  s['flags']['duration_s'] == 1, 'flags %r' % s['flags'])
            check(c, s['target'] == {'pid': e.target.pid, 'name': 'shared_library_demo'},
                  'target %r' % s['target'])
        with open(os.path.join(e.out(), 'tracking', 'kernel', 'maps.txt')) as f:
            check(c, '[0x1045a8000, 0x4000] sleep(%s) [0]' % pid in f.read(), 'maps.txt')
        # Redaction as for every capture: the planted user is nowhere in the session.
        for root, _, files in os.walk(e.out()):
            for n in files:
                with open(os.path.join(root, n), 'rb') as f:
                    check(c, b'alice' not in f.read(), 'planted user in %s' % n)
        # Every command reads it: the listing, diff of its before and after.
        ls = e.run(e.out())
        text = ls.stdout.decode()
        check(c, ls.returncode == 0 and 'complete tracking session' in text and
              'tracking left off' in text, 'listing: %s %s' % (text, ls.stderr.decode()))
        for sub in ('before', 'after', 'tracking'):
            check(c, os.path.join(e.out(), sub) + ': complete capture' in text,
                  'listing lacks %s' % sub)
    finally:
        e.close()


# The --track site of the stand-in's IOSurface growth (tests/capture/bin/
# ioclasscount-session): charged to its kext's frame, and its backtrace as
# ioclasscount printed it, innermost first.
SITE = 'com.apple.iokit.IOSurface: IOSurfaceRoot::createSurface(task*, OSDictionary*)'
BACKTRACE = ['IOSurface::init(IOSurfaceRoot*, task*, OSDictionary*) (kernel.development)',
             'IOSurfaceRoot::createSurface(task*, OSDictionary*) (com.apple.iokit.IOSurface)',
             'IOSurface::gMetaClass (kernel.development)']


def check_session_sites(c, e, path):
    """The session page names its call site, module and backtrace, on the page and in its JSON."""
    r = e.run('report', '--format', 'html', path)   # nothing written beside the session
    if not check(c, r.returncode == 0, 'report html exit %d: %s' % (r.returncode,
                                                                     r.stderr.decode())):
        return
    text = r.stdout.decode('utf-8')
    check(c, '<h1>iotally report: tracking session</h1>' in text, 'session title')
    body = html.unescape(re.sub(r'<[^>]+>', '', text.split('<script', 1)[0]))
    summary = text.split('<ul class="summary"', 1)[-1].split('</ul>', 1)[0]
    check(c, 'IOSurface +120' in summary and html.escape(SITE, quote=False) in summary,
          'the summary leads with the class and its site:\n%s' % summary[:800])
    for frame in BACKTRACE:
        check(c, frame in body, 'backtrace frame %r not on the page' % frame)
    # The tracking table is the first section after the summary.
    first = re.search(r'<section id="([a-z]+)"', text)
    check(c, first and first.group(1) == 'session', 'first section: %r' %
          (first.group(1) if first else None))
    data = json.loads(text.split('<script type="application/json" id="iotally-data">',
                                 1)[1].split('</script>', 1)[0])
    where = [l for l in data.get('summary', []) if l['line'] == 'where']
    check(c, len(where) == 1 and SITE in where[0]['text'] and
          where[0]['backtrace'] == BACKTRACE and data['summary'][0]['line'] == 'where',
          'JSON summary: %r' % data.get('summary'))
    rows = [t for s in data['sections'] for t in s['tables'] if t['id'] == 'session-growth']
    check(c, rows and rows[0]['rows'][0][2] == SITE and
          rows[0]['rows'][0][3] == 'com.apple.iokit.IOSurface',
          'JSON session table: %r' % (rows[0]['rows'][0] if rows else None))


def check_session_figures(c, e, path, before, after, files):
    """diff, the listing and report of the session at `path` show the constructed deltas."""
    d = e.run('diff', path)
    out = d.stdout.decode()
    check(c, d.returncode == 0, 'diff exit %d: %s' % (d.returncode, d.stderr.decode()))
    for row in (('IOSurface', '1204', '1324', '+120'),
                ('IOSurfaceRootUserClient', '97', '100', '+3'),
                # diff's text writes bytes in binary units: 33554432 -> 34603008
                ('IOMalloc allocation', '32 MiB', '33 MiB', '+1 MiB')):
        check(c, any(re.split(r'\s{2,}', l.strip())[-3:] == list(row[1:]) and
                     l.startswith(row[0])
                     for l in out.splitlines()), 'no row %r in:\n%s' % (row, out))
    check(c, all(f in out for f in files), 'diff names the two bundles\' files:\n%s' % out)
    # The classes that grew, with the sites charged to them: IOSurface (+120)
    # beside the 120-allocation --track site (0x1e000 bytes) and the 16 leaks (0x4000).
    lr = e.run(path)
    ls = lr.stdout.decode()
    check(c, lr.returncode == 0 and 'complete tracking session' in ls,
          'listing exit %d: %s%s' % (lr.returncode, ls, lr.stderr.decode()))
    # The summary block leads, as on the report's page: where (the tracked
    # class and its call site) first, before the listing; no Cost line, as
    # the session's bundles hold kernel captures only (no GPU figure).
    head = ls.split('\n\n', 1)[0].splitlines()
    check(c, 1 <= len(head) <= 4 and head[0].startswith('Where: IOSurface +120; ') and
          SITE in head[0] and not any(h.startswith('Cost: ') for h in head) and
          'tracking session' in ls.split('\n\n', 1)[1].splitlines()[0],
          'listing does not lead with the summary block:\n%s' % ls)
    for sub in (before, after):
        check(c, sub + ': complete capture' in ls, 'listing lacks %s:\n%s' % (sub, ls))
    rows = [l.split() for l in ls.splitlines()]
    check(c, ['IOSurface', '+120', '122880', '120', '16384', '16'] in rows,
          'growth beside sites:\n%s' % ls)
    check(c, ['IOSurfaceRootUserClient', '+3', '768', '3', '0', '0'] in rows,
          'growth beside sites:\n%s' % ls)
    # report SESSION is the two-bundle report of before/ and after/, with
    # the same growth table in its classes section and the largest class
    # that grew with sites charged to it in the headline.
    rep = e.run('report', path)
    md = rep.stdout.decode()
    check(c, rep.returncode == 0, 'report exit %d: %s' % (rep.returncode,
                                                           rep.stderr.decode()))
    headline = md.split('\n\n', 2)[1] if md.count('\n\n') >= 2 else md
    check(c, 'tracking: IOSurface +120 with 1 call site (120 KiB) and 16 potential '
          'leaks charged to it' in md, 'headline:\n%s' % headline)
    # 0x1e000 = 120 KiB tracked in 120 allocations, 0x4000 = 16 KiB in 16 leaks.
    check(c, re.search(r'\| `?IOSurface`? \| \+120 \| `?com\.apple\.iokit\.IOSurface: '
                       r'IOSurfaceRoot::createSurface\(task\\?\*, OSDictionary\\?\*\)`? \| '
                       r'`?com\.apple\.iokit\.IOSurface`? \| 120 KiB \| 120 \| 16 KiB \| 16 \|', md),
          'growth table row:\n%s' % md)
    check_session_sites(c, e, path)
    check(c, 'Classes that grew, beside the call sites tracking charged to them' in md,
          'growth table title')
    check(c, 'IOSurfaceRootUserClient' in md, 'IOSurfaceRootUserClient row')


def case_diff_deltas():
    # construction: session-ioreg-after.plist = ioreg-root.plist with IOSurface
    # 1204 -> 1324, IOSurfaceRootUserClient 97 -> 100, IOMalloc 33554432 -> 34603008.
    c = 'diff-session'
    e = Env()
    try:
        r = e.session('--duration', '1')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        before, after = os.path.join(e.out(), 'before'), os.path.join(e.out(), 'after')
        check_session_figures(c, e, e.out(), before, after, (before + '/', after + '/'))
    finally:
        e.close()


def case_archive_deltas():
    # The same construction packed with --archive and read in place: the
    # archive's bundles are ARCHIVE:before and ARCHIVE:after, the figures
    # those of the folder, and nothing is unpacked beside it.
    c = 'archive-session'
    e = Env()
    try:
        r = e.session('--duration', '1', '--archive')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        arc = e.out() + '.tar.gz'
        if not check(c, os.path.isfile(arc), 'no %s' % arc):
            return
        if os.path.isdir(e.out()):
            shutil.rmtree(e.out())   # only the archive is read
        made = sorted(os.listdir(e.dir))
        # Files inside an archive are named ARCHIVE:MEMBER, the top folder being 'session'.
        check_session_figures(c, e, arc, arc + ':before', arc + ':after',
                              (arc + ':session/before/', arc + ':session/after/'))
        check(c, sorted(os.listdir(e.dir)) == made, 'reading unpacked files beside it')
        # Each bundle is a bundle by that name; the archive alone is not one of them.
        t = e.run('track', arc + ':tracking')
        check(c, t.returncode == 0 and 'IOSurface' in t.stdout.decode(),
              'track ARCHIVE:tracking exit %d: %s' % (t.returncode, t.stderr.decode()))
        v = e.run('classes', arc)
        check(c, v.returncode == 65 and b'is a tracking session: name one of its bundles'
              in v.stderr, 'classes ARCHIVE exit %d: %s' % (v.returncode, v.stderr.decode()))
        n = e.run('classes', arc + ':during')
        check(c, n.returncode == 66 and b'its bundles are' in n.stderr,
              'classes ARCHIVE:during exit %d: %s' % (n.returncode, n.stderr.decode()))
    finally:
        e.close()


def case_flags():
    c = 'flags'
    e = Env()
    try:
        r = e.session('--keep', '--capsize', '4096', '--exclude', '--size', '0x1000',
                      '--maps-all', '--duration', '1', 'OSData', 'OSString')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        # --capsize is a run of its own: ioclasscount keeps only its last command option.
        check(c, e.tracking_calls() == [
            'ioclasscount --help', 'ioclasscount --capsize=4096', 'ioclasscount --start',
            'ioclasscount --track --exclude --size=4096 OSData OSString',
            'ioclasscount --leaks --exclude OSData OSString',
            'ioclasscount --maps=-1 --size=4096', 'ioclasscount --stop'],
            'calls %r' % e.tracking_calls())
        s = read_session(c, e)
        if s:
            check(c, s['flags']['keep'] and s['flags']['capsize'] == 4096 and
                  s['flags']['size'] == 4096 and s['flags']['maps'] == '-1' and
                  s['flags']['exclude'], 'flags %r' % s['flags'])
    finally:
        e.close()


def refusal(name, conf, args, status, words, preexec=None, env=None, drop=()):
    c = 'refuse-' + name
    e = Env(**conf)
    try:
        for t in drop:
            os.unlink(os.path.join(e.bin, t))
        if env:
            e.env.update(env)
        if preexec:
            e.binary_for_anyone()
        r = e.session(*args, preexec=preexec)
        err = r.stderr.decode()
        check(c, r.returncode == status, 'exit %d (want %d): %s' % (r.returncode, status, err))
        check(c, 'cannot start a tracking session: ' in err and '; to change: ' in err,
              'message form: %s' % err)
        for w in words:
            check(c, w in err, '%r not in: %s' % (w, err))
        check(c, not any(x.split()[1:2] in (['--reset'], ['--start'], ['--stop'])
                         for x in e.tracking_calls()), 'touched: %r' % e.tracking_calls())
        check(c, e.state_now() == 'never', 'state %r' % e.state_now())
        check(c, not os.path.exists(e.out()) and not e.leftovers(), 'left something')
    finally:
        e.close()


def as_nobody():
    os.setgid(65534)
    os.setuid(65534)


def workflow_greps():
    """The words the macOS workflow's session step greps for in the refusal."""
    import re
    with open(os.path.join(ARGS.root, '.github', 'workflows', 'macos.yml')) as f:
        text = f.read()
    step = text.split('capture --session', 1)[1].split('- name:', 1)[0]
    return re.findall(r'grep -q "([^"]+)" "\$RUNNER_TEMP/session.log"', step)


def case_refusals():
    greps = workflow_greps()
    check('refuse-release-kernel', len(greps) == 2, 'workflow greps %r' % greps)
    refusal('not-root', {}, ['--duration', '1'], 77,
            ['not root', 'to change: sudo iotally capture --session'], preexec=as_nobody)
    # What the macOS runner's step greps for is what a RELEASE kernel gets.
    refusal('release-kernel', {'STANDIN_KERNEL': REL_KERNEL}, ['--duration', '1'], 69,
            ['RELEASE kernel', 'RELEASE_ARM64_T6000',
             'to change: install and boot a DEVELOPMENT or DEBUG kernel'] + greps)
    refusal('no-io-bootarg', {'STANDIN_BOOTARGS': '-v keepsyms=1'}, ['--duration', '1'], 69,
            ['io boot-arg missing', 'kern.bootargs: -v keepsyms=1',
             'to change: add io=0x00400000 to the boot-args'])
    # "audio=0x400000" is not the io boot-arg (the word rule)
    refusal('io-inside-a-word', {'STANDIN_BOOTARGS': 'audio=0x400000'}, ['--duration', '1'],
            69, ['io boot-arg missing'])
    refusal('io-without-tracking-bit', {'STANDIN_BOOTARGS': 'io=0x80'}, ['--duration', '1'],
            69, ['io boot-arg missing'])
    refusal('old-tool', {'SESSION_TOOL': 'old'}, ['--duration', '1'], 69,
            ['does not list --track --leaks --reset --start --stop --maps --exclude --size '
             'in its usage text'])
    refusal('no-tool', {}, ['--duration', '1'], 69, ['ioclasscount is not in --tools-dir'],
            drop=['ioclasscount'])
    refusal('command-without-sudo', {}, ['--', 'true'], 64,
            ['SUDO_UID or SUDO_GID is not set', 'or wait with --duration SECONDS'])
    refusal('command-sudo-root', {}, ['--', 'true'], 64, ['SUDO_UID or SUDO_GID'],
            env={'SUDO_UID': '0', 'SUDO_GID': '0'})


def case_usage():
    c = 'usage'
    e = Env()
    try:
        for args, words in ((['--count', '2'], '--session runs its own --track'),
                            (['--duration', '1', '--', 'true'], 'not both'),
                            ([], 'waits for Enter on a terminal')):
            r = e.session(*args)
            check(c, r.returncode == 64 and words in r.stderr.decode(),
                  '%r: exit %d %s' % (args, r.returncode, r.stderr.decode()))
        r = e.run('capture', '--tools-dir', e.bin, '--keep', '-o', e.out())
        check(c, r.returncode == 64 and b'go with --session' in r.stderr, 'keep alone')
        check(c, e.tracking_calls() == [], 'usage errors ran tools')
    finally:
        e.close()


def case_command():
    c = 'command'
    e = Env()
    try:
        shared = os.path.join(e.dir, 'shared')
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        e.env.update({'SUDO_UID': '65534', 'SUDO_GID': '65534'})
        r = e.session('--', 'sh', '-c', 'id -u > %s/uid; id -g > %s/gid; exit 3'
                      % (shared, shared))
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        with open(os.path.join(shared, 'uid')) as f:
            check(c, f.read().strip() == '65534', 'the command ran as root')
        with open(os.path.join(shared, 'gid')) as f:
            check(c, f.read().strip() == '65534', 'the command kept root group')
        s = read_session(c, e)
        if s:
            w = [x for x in s['steps'] if x['id'] == 'wait'][0]
            check(c, w['how'] == 'command' and w['exit_status'] == 3 and w['uid'] == 65534,
                  'wait %r' % w)
        assert_stopped_last(c, e)
    finally:
        e.close()


def interrupt(stage, setup, reached, sig=signal.SIGINT, args=('--duration', '1'), env=None,
              delay=0.2):
    """Send `sig` once `reached(calls)` holds; --stop must have run, nothing be left."""
    c = 'signal-%s-%s' % (signal.Signals(sig).name, stage)
    e = Env()
    try:
        if env:
            e.env.update(env)
        setup(e)
        p = e.popen('--pid', str(e.target.pid), '--timeout', '60', *args)
        ok = e.wait_log(reached)
        check(c, ok, 'stage not reached: %r' % e.calls()[-3:])
        time.sleep(delay)
        err = signal_and_wait(c, p, sig)
        assert_stopped_last(c, e)
        check(c, 'tracking was stopped (ioclasscount --stop exited 0)' in err, 'message: %s' % err)
        check(c, not os.path.exists(e.out()) and not e.leftovers(),
              'left %r' % os.listdir(e.dir))
        return e
    finally:
        e.close()


def hang(name):
    def setup(e):
        open(os.path.join(e.hangdir, name), 'w').close()
    return setup


def hang_tool(tool):
    def setup(e):
        open(e.hangif + '.' + tool, 'w').close()
    return setup


def has(prefix, n=1):
    return lambda calls: sum(1 for x in calls if x.startswith(prefix)) >= n


def after_stage_setup(e):
    # The first ioreg (before) runs; the second (after) hangs: the file appears once
    # the before snapshot has passed ioreg.
    def arm():
        if e.wait_log(has('ioalloccount')):
            open(e.hangif + '.ioreg', 'w').close()
    import threading
    threading.Thread(target=arm, daemon=True).start()


# One case a stage: each waits for its stage and for the capture to end, so
# that run_cases() runs them side by side.
def case_signal_reset():
    interrupt('reset', hang('--reset'), has('ioclasscount --reset'))


def case_signal_start():
    interrupt('start', hang('--start'), has('ioclasscount --start'))


def case_signal_before():
    interrupt('before', hang_tool('ioreg'), has('ioreg'))


def case_signal_wait():
    interrupt('wait', lambda e: None, has('vmmap'), args=('--duration', '300'), delay=1.5)


def case_signal_after():
    interrupt('after', after_stage_setup, has('ioreg', 2), args=('--duration', '1'))


def case_signal_track():
    interrupt('track', hang('--track'), has('ioclasscount --track'))


def case_signal_leaks():
    interrupt('leaks', hang('--leaks'), has('ioclasscount --leaks'))


def case_signal_term_hup():
    interrupt('wait', lambda e: None, has('vmmap'), sig=signal.SIGTERM,
              args=('--duration', '300'), delay=1.5)
    interrupt('wait', lambda e: None, has('vmmap'), sig=signal.SIGHUP,
              args=('--duration', '300'), delay=1.5)


def case_signal_command():
    # The command is stopped too (SIGTERM from the session) and --stop runs.
    interrupt('command', lambda e: None, has('vmmap'), delay=1.5,
              args=('--', 'sleep', '300'), env={'SUDO_UID': '65534', 'SUDO_GID': '65534'})


def case_signal_maps():
    # --maps=PID hangs: the argument holds the target's pid, so the hang file is named after it.
    c = 'signal-maps'
    e = Env()
    try:
        open(os.path.join(e.hangdir, '--maps=%d' % e.target.pid), 'w').close()
        p = e.popen('--pid', str(e.target.pid), '--duration', '1')
        check(c, e.wait_log(has('ioclasscount --maps')), 'maps not reached')
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=60)
        check(c, p.returncode == -signal.SIGINT, 'exit %r' % p.returncode)
        assert_stopped_last(c, e)
        check(c, not os.path.exists(e.out()) and not e.leftovers(), 'left something')
    finally:
        e.close()


def case_timeout_track():
    # --timeout 4, not 1: the tools before the hung one must finish inside it on
    # a loaded machine, under a sanitizer, with other cases running beside this one.
    c = 'timeout-track'
    e = Env()
    try:
        open(os.path.join(e.hangdir, '--track'), 'w').close()
        r = e.session('--timeout', '4', '--duration', '1')
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        assert_stopped_last(c, e)
        check(c, in_order(e.tracking_calls(), ['ioclasscount --track', 'ioclasscount --leaks',
                                               'ioclasscount --stop']) is not None,
              'calls %r' % e.tracking_calls())
        s = read_session(c, e)
        if s:
            t = [x for x in s['steps'] if x['id'] == 'tracking'][0]
            check(c, not s['complete'] and t['status'] == 'partial' and
                  t['missed'][0]['step'] == 'kernel.track' and
                  t['missed'][0]['status'] == 'timeout', 'tracking step %r' % t)
            check(c, s['tracking']['left'] == 'off', 'left %r' % s['tracking'])
    finally:
        e.close()


def case_timeout_start():
    c = 'timeout-start'
    e = Env()
    try:
        open(os.path.join(e.hangdir, '--start'), 'w').close()
        r = e.session('--timeout', '4', '--duration', '1')
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        assert_stopped_last(c, e)
        check(c, e.tracking_calls()[-2:] == ['ioclasscount --start', 'ioclasscount --stop'],
              'calls %r' % e.tracking_calls())
        s = read_session(c, e)
        if s:
            check(c, s['aborted'] == 'ioclasscount --start failed' and not s['complete'],
                  'aborted %r' % s['aborted'])
            st = [x for x in s['steps'] if x['id'] == 'tracking.start'][0]
            check(c, st['status'] == 'timeout', 'start %r' % st)
    finally:
        e.close()


def case_failed_snapshot():
    c = 'failed-snapshot'
    e = Env(STANDIN_MODE='ioreg=fail')
    try:
        r = e.session('--duration', '1')
        err = r.stderr.decode()
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, err))
        check(c, 'stopped early: the before snapshot is not complete' in err, err)
        assert_stopped_last(c, e)
        check(c, not any(x.startswith('ioclasscount --track') for x in e.calls()),
              'tracked after a failed snapshot')
        s = read_session(c, e)
        if s:
            b = [x for x in s['steps'] if x['id'] == 'before'][0]
            check(c, b['status'] == 'partial' and b['missed'][0]['step'] == 'kernel.ioreg_root',
                  'before %r' % b)
            check(c, s['tracking']['left'] == 'off' and not s['complete'], 'session %r' % s)
    finally:
        e.close()


def case_stop_fails():
    c = 'stop-fails'
    e = Env(SESSION_FAIL='--stop')
    try:
        r = e.session('--duration', '1')
        err = r.stderr.decode()
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, err))
        check(c, 'KERNEL TRACKING MAY STILL BE ON' in err and
              'stop it by hand now: sudo %s/ioclasscount --stop' % e.bin in err, err)
        check(c, e.state_now() == 'on', 'the stand-in stopped: %r' % e.state_now())
        s = read_session(c, e)
        if s:
            check(c, s['tracking']['left'] == 'maybe-on' and not s['complete'] and
                  'check boot-arg' in s['tracking']['stop_failure'], 'tracking %r' % s['tracking'])
    finally:
        e.close()


def case_count_progress():
    c = 'count-progress'
    e = Env()
    try:
        out = os.path.join(e.dir, 'series')
        r = e.run('capture', '--tools-dir', e.bin, '--count', '2', '--interval', '0', '-o', out)
        lines = [l for l in r.stderr.decode().splitlines() if 'sample ' in l]
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr.decode()))
        check(c, len(lines) == 2 and lines[0].startswith('iotally: %s/001: note: sample 1/2 at 00:00:'
                                                         % out)
              and lines[0].endswith(': complete') and ' sample 2/2 at ' in lines[1],
              'progress %r' % lines)
    finally:
        e.close()


def case_count_progress_tty():
    # On a terminal: one line rewritten in place ("\r" + erase line), a newline after the last.
    import pty
    c = 'count-progress-tty'
    e = Env()
    try:
        out = os.path.join(e.dir, 'series')
        master, slave = pty.openpty()
        p = subprocess.Popen([ARGS.bin, 'capture', '--tools-dir', e.bin, '--count', '2',
                              '--interval', '0', '-o', out], env=e.env, stdout=subprocess.PIPE,
                             stderr=slave)
        os.close(slave)
        got = b''
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        p.communicate(timeout=120)
        os.close(master)
        check(c, p.returncode == 0, 'exit %d' % p.returncode)
        check(c, b'\r\x1b[Kiotally: sample 1/2 at 00:00:' in got and
              b'\r\x1b[Kiotally: sample 2/2 at 00:00:' in got and
              got.count(b'sample ') == 2 and
              got.split(b'sample 2/2', 1)[-1].split(b'\n', 1)[0].endswith(b': complete\r'),
              'terminal progress %r' % got)
        check(c, out.encode() not in got, 'the folder name reached the terminal line')
    finally:
        e.close()


def case_enter():
    """Without --duration or a command, on a terminal, the wait ends at Enter:
    other keys do not end it, the newline does, and session.json says how."""
    import pty
    c = 'enter'
    e = Env()
    try:
        master, slave = pty.openpty()
        p = subprocess.Popen(e.argv(['--pid', str(e.target.pid)]), env=e.env, stdin=slave,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(slave)
        # The before snapshot, then the wait asks for Enter on standard error.
        import select
        said, end = b'', time.monotonic() + 60
        while b'then press Enter' not in said and time.monotonic() < end:
            if select.select([p.stderr], [], [], 0.2)[0]:
                chunk = os.read(p.stderr.fileno(), 4096)
                if not chunk:
                    break
                said += chunk
        check(c, b'then press Enter' in said, 'no prompt: %s' % said.decode())
        os.write(master, b'abc')
        time.sleep(1.0)
        check(c, p.poll() is None, 'the session ended before Enter (exit %r)' % p.returncode)
        after_calls = len(e.calls())
        os.write(master, b'\n')
        out, err = p.communicate(timeout=120)
        os.close(master)
        check(c, p.returncode == 0, 'exit %d: %s' % (p.returncode, (said + err).decode()))
        check(c, len(e.calls()) > after_calls, 'no after snapshot once Enter was pressed')
        s = read_session(c, e)
        if s:
            waits = [x for x in s['steps'] if x['id'] == 'wait']
            check(c, s['complete'] and len(waits) == 1 and waits[0].get('how') == 'enter' and
                  waits[0]['duration_ms'] >= 1000,
                  'complete %r, wait %r' % (s['complete'], waits))
        assert_stopped_last(c, e)
    finally:
        e.close()


CASES = {
    'enter': case_enter,
    'sequence': case_sequence, 'diff-session': case_diff_deltas,
    'archive-session': case_archive_deltas, 'flags': case_flags,
    'refusals': case_refusals, 'usage': case_usage, 'command': case_command,
    'signal-reset': case_signal_reset, 'signal-start': case_signal_start,
    'signal-before': case_signal_before, 'signal-wait': case_signal_wait,
    'signal-after': case_signal_after, 'signal-track': case_signal_track,
    'signal-leaks': case_signal_leaks, 'signal-term-hup': case_signal_term_hup,
    'signal-command': case_signal_command,
    'signal-maps': case_signal_maps,
    'timeout-track': case_timeout_track, 'timeout-start': case_timeout_start,
    'failed-snapshot': case_failed_snapshot, 'stop-fails': case_stop_fails,
    'count-progress': case_count_progress, 'count-progress-tty': case_count_progress_tty,
}


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--case', action='append')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    if os.geteuid() != 0:
        print('SKIP: the session needs root (the tests run it as root and as nobody)')
        return 77
    return run_cases(CASES, ARGS.case, jobs=standin_env.CASE_JOBS)


if __name__ == '__main__':
    sys.exit(main())
