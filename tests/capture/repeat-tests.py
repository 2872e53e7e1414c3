#!/usr/bin/env python3
"""`iotally capture --repeat` end to end, and `iotally rate` of what it wrote.

The action is tests/capture/bin/bump, which adds one to a state file per run;
tests/capture/bin/standin-grow plays footprint and ioclasscount with figures
that follow the state: the IOSurface category grows by a set amount per run
(or fills like a cache and stops), plus noise that is a seeded function of
the run count. So the rate per iteration is known by construction, and
`iotally rate` of the series must recover it inside its interval (a leak),
give NONE (no growth) or WARMS UP THEN STOPS (a cache). The other tools are
tests/capture/bin/standin. Also: the command runs as the invoking user (as
root, SUDO_UID), a failing command stops the series or, with --keep-going,
is recorded; SIGINT at each stage (a warm-up run, an iteration's command,
a snapshot) keeps what was taken and says so; usage errors.

  repeat-tests.py --bin build/iotally --root SOURCE_ROOT [--case NAME]
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from standin_env import CASE_JOBS, StandinEnv, check, collect_cases, run_cases, validate

ARGS = None
MiB = 1024 * 1024
TOOLS = {t: 'standin' for t in ('sw_vers', 'sysctl', 'ioreg', 'ioalloccount', 'vmmap', 'pgrep',
                                'ps')}
TOOLS.update({'footprint': 'standin-grow', 'ioclasscount': 'standin-grow'})
# The user the action runs as when the tests run as root (nobody).
NOBODY = 65534


class Env(StandinEnv):
    """Stand-ins with a state file the action and the tools share."""

    def __init__(self, **conf):
        super().__init__(ARGS.root, 'iotally-repeat-test-', TOOLS, {})
        # The action may run as another user: a folder and a file it can write.
        self.statedir = os.path.join(self.dir, 'state')
        os.mkdir(self.statedir)
        os.chmod(self.dir, 0o755)
        os.chmod(self.statedir, 0o777)
        self.state = os.path.join(self.statedir, 'runs')
        self.conf.update({'STANDIN_STATE': self.state}, **conf)
        self.write_conf()
        if os.geteuid() == 0:
            self.env.update({'SUDO_UID': str(NOBODY), 'SUDO_GID': str(NOBODY)})
        # A copy in the test's own folder (mode 755): the user the action
        # runs as may not reach the source tree (a checkout in a 0700 folder).
        self.bump = os.path.join(self.dir, 'bump')
        shutil.copy(os.path.join(self.capdir, 'bin', 'bump'), self.bump)
        os.chmod(self.bump, 0o755)

    def out(self):
        return os.path.join(self.dir, 'series')

    def argv(self, args, action):
        return [ARGS.bin, 'capture', '--tools-dir', self.bin, '--pid', str(self.target.pid),
                '-o', self.out()] + list(args) + ['--'] + list(action)

    def capture(self, *args, action=None):
        return subprocess.run(self.argv(args, action or [self.bump, self.state]), env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)

    def popen(self, *args, action):
        return subprocess.Popen(self.argv(args, action), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)

    def runs(self):
        try:
            return int(open(self.state).read())
        except (OSError, ValueError):
            return 0

    def rate(self, *args):
        r = self.run_iotally(ARGS.bin, 'rate', '--format', 'json', *args, self.out())
        try:
            return r, json.loads(r.stdout)
        except ValueError:
            return r, None


def metric(doc, name):
    for k in doc['kinds']:
        for m in k['metrics']:
            if m['name'] == name:
                return m
    return None


def series_index(c, e):
    path = os.path.join(e.out(), 'series.json')
    if not check(c, os.path.isfile(path), 'no series.json'):
        return None
    validate(c, ARGS.root, 'series.schema.json', path)
    return json.load(open(path))


def check_manifests(c, e, idx, statuses=None):
    """Each sample's manifest valid, recording its iteration (and the command's status)."""
    for s in idx['samples']:
        path = os.path.join(e.out(), s['dir'], 'manifest.json')
        validate(c, ARGS.root, 'bundle.schema.json', path)
        m = json.load(open(path))
        want = (statuses or {}).get(s['iteration'], 0)
        check(c, m['series'].get('iteration') == s['iteration'] == s['index'] and
              m['series'].get('command_status') == want == s['command_status'],
              'sample %s: series %r, index entry %r' % (s['dir'], m['series'], s))
        steps = [st['id'] for st in m['steps']]
        host = [i for i in steps if i.startswith('host.')]
        check(c, [i for i in steps if i not in host] == ['target.footprint'],
              'sample %s steps %r: footprint only by default' % (s['dir'], steps))
        check(c, bool(host) == (s['iteration'] == 1), 'sample %s: host facts %r, only in the '
              'first sample' % (s['dir'], host))


def case_leak():
    """+1 MiB per run with noise: LEAKS PER OPERATION, the interval holding 1 MiB."""
    c = 'leak'
    e = Env(STANDIN_GROW=str(MiB), STANDIN_NOISE='8', STANDIN_SEED='3')
    try:
        r = e.capture('--repeat', '10', '--warmup', '2')
        err = r.stderr.decode(errors='replace')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, err))
        check(c, e.runs() == 12, 'the action ran %d times, not 2 + 10' % e.runs())
        if os.geteuid() == 0:
            who = set(open(e.state + '.who').read().split())
            check(c, who == {str(NOBODY)}, 'the action ran as %r, not the sudo user' % who)
        check(c, 'warm-up run 2/2: exit status 0' in err and 'iteration 10/10' in err,
              'progress: %s' % err)
        check(c, b'series of 10 iterations after 2 warm-up runs (complete)' in r.stdout,
              'summary %r' % r.stdout)
        idx = series_index(c, e)
        if idx:
            check(c, idx['complete'] and [s['iteration'] for s in idx['samples']] ==
                  list(range(1, 11)), 'index %r' % idx)
            check_manifests(c, e, idx)
        r, doc = e.rate()
        if check(c, r.returncode == 0 and doc, 'rate: exit %d %s' % (r.returncode, r.stderr)):
            m = metric(doc, 'footprint:IOSurface.dirty')
            check(c, m and m['verdict'] == 'LEAKS PER OPERATION' and
                  m['low'] <= MiB <= m['high'], 'IOSurface %r' % m)
            check(c, doc['summary'].startswith('IOSurface dirty +1'), doc['summary'])
        # `report` of a series of iterations leads with the rate.
        rep = e.run_iotally(ARGS.bin, 'report', '--format', 'markdown', e.out())
        head = rep.stdout.decode(errors='replace').split('\n\n')[1] if rep.stdout else ''
        check(c, rep.returncode == 0 and
              head.startswith('- **Verdict:** IOSurface dirty +1') and
              'per iteration' in head.split('\n')[0], 'report headline %r' % head[:200])
        # The gate on the lower bound: over 512 KiB per iteration it trips, over 2 MiB not.
        g = e.run_iotally(ARGS.bin, 'rate', '--fail-if', 'rate:footprint:IOSurface.dirty > 512KiB',
                          e.out())
        check(c, g.returncode == 1 and b'lower bound' in g.stderr, 'gate: %d %r' %
              (g.returncode, g.stderr))
        g = e.run_iotally(ARGS.bin, 'rate', '--fail-if', 'rate:footprint:gpu.dirty > 2MiB',
                          e.out())
        check(c, g.returncode == 0, 'gate 2MiB: %d %r' % (g.returncode, g.stderr))
    finally:
        e.close()


def case_no_leak():
    """Noise only: every changing metric NONE."""
    c = 'no-leak'
    e = Env(STANDIN_NOISE='8', STANDIN_SEED='4')
    try:
        r = e.capture('--repeat', '10', '--kinds', 'footprint,classes')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr))
        r, doc = e.rate()
        if check(c, r.returncode == 0 and doc, 'rate: exit %d %s' % (r.returncode, r.stderr)):
            kinds = [k['kind'] for k in doc['kinds']]
            check(c, kinds == ['classes', 'footprint'], 'kinds %r' % kinds)
            verdicts = {m['name']: m['verdict'] for k in doc['kinds'] for m in k['metrics']}
            check(c, verdicts and set(verdicts.values()) == {'NONE'}, 'verdicts %r' % verdicts)
            check(c, doc['leaks'] == 0 and doc['summary'].startswith('No leak per operation'),
                  doc['summary'])
    finally:
        e.close()


def case_cache():
    """4 MiB per run for the first 5 runs, then nothing: WARMS UP THEN STOPS."""
    c = 'cache'
    e = Env(STANDIN_WARM=str(4 * MiB), STANDIN_WARM_RUNS='5', STANDIN_NOISE='4',
            STANDIN_SEED='5')
    try:
        r = e.capture('--repeat', '16')
        check(c, r.returncode == 0, 'exit %d: %s' % (r.returncode, r.stderr))
        r, doc = e.rate()
        if check(c, r.returncode == 0 and doc, 'rate: exit %d %s' % (r.returncode, r.stderr)):
            m = metric(doc, 'footprint:IOSurface.dirty')
            check(c, m and m['verdict'] == 'WARMS UP THEN STOPS' and
                  5 <= m['flat_from_iteration'] <= 7 and m['low'] <= 0 <= m['high'],
                  'IOSurface %r' % m)
            check(c, doc['leaks'] == 0, 'leaks %r' % doc['leaks'])
    finally:
        e.close()


def case_failing_command():
    """The 4th run fails: the series stops after 2 iterations (2 warm-up), exit 69."""
    c = 'failing-command'
    e = Env(STANDIN_GROW=str(MiB))
    try:
        r = e.capture('--repeat', '6', '--warmup', '1', action=[e.bump, e.state, '4'])
        err = r.stderr.decode(errors='replace')
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, err))
        check(c, 'the series stopped early: iteration 3 failed (exit status 3)' in err, err)
        check(c, b'series of 2 iterations after 1 warm-up run (partial)' in r.stdout,
              'summary %r' % r.stdout)
        check(c, e.runs() == 4, 'runs %d' % e.runs())
        idx = series_index(c, e)
        if idx:
            check(c, not idx['complete'] and [s['dir'] for s in idx['samples']] ==
                  ['001', '002'], 'index %r' % idx)
    finally:
        e.close()


def case_keep_going():
    """--keep-going: the failed run is recorded and its snapshot taken; exit 69."""
    c = 'keep-going'
    e = Env(STANDIN_GROW=str(MiB))
    try:
        r = e.capture('--repeat', '5', '--keep-going', action=[e.bump, e.state, '3'])
        err = r.stderr.decode(errors='replace')
        check(c, r.returncode == 69, 'exit %d: %s' % (r.returncode, err))
        check(c, 'iteration 3/5: the command failed (exit status 3)' in err and
              'the command failed in 1 of 5 iterations' in err, err)
        idx = series_index(c, e)
        if idx:
            check(c, not idx['complete'] and len(idx['samples']) == 5, 'index %r' % idx)
            check_manifests(c, e, idx, statuses={3: 3})
    finally:
        e.close()


def interrupt(c, args, action, ready, want_samples):
    """SIGINT once `ready(env)` holds: killed by it, saying what is kept."""
    e = Env(STANDIN_GROW=str(MiB))
    try:
        act = [a.replace('STATE', e.state).replace('HANG', e.hang) for a in action]
        p = e.popen(*args, action=act)
        end = time.monotonic() + 60
        while time.monotonic() < end and not ready(e):
            time.sleep(0.02)
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        err = err.decode(errors='replace')
        check(c, p.returncode == -signal.SIGINT, 'exit %r: %s' % (p.returncode, err))
        check(c, 'the complete samples are kept in' in err, 'message: %s' % err)
        idx = json.load(open(os.path.join(e.out(), 'series.json')))
        check(c, not idx['complete'] and [s['dir'] for s in idx['samples']] == want_samples,
              'series.json %r' % idx)
        check(c, sorted(os.listdir(e.out())) == sorted(want_samples + ['series.json']),
              'series folder %r' % os.listdir(e.out()))
        time.sleep(0.3)
        alive = subprocess.run(['pgrep', '-f', 'sleep ' + e.hang], stdout=subprocess.PIPE)
        check(c, alive.returncode != 0, 'the action still runs: %r' % alive.stdout)
    finally:
        e.close()


def case_sigint_warmup():
    """During a warm-up run: nothing taken yet, the series folder lists none."""
    interrupt('sigint-warmup', ['--repeat', '4', '--warmup', '2'],
              ['sh', '-c', 'echo 1 > STATE; exec sleep HANG'],
              lambda e: e.runs() == 1, [])


def case_sigint_command():
    """During iteration 3's command: iterations 1 and 2 are kept."""
    interrupt('sigint-command', ['--repeat', '5'],
              ['sh', '-c', 'n=$(( $(cat STATE 2>/dev/null || echo 0) + 1 )); echo $n > STATE; '
               '[ $n -eq 3 ] && exec sleep HANG; exit 0'],
              lambda e: e.runs() == 3, ['001', '002'])


def case_sigint_snapshot():
    """During iteration 2's snapshot (vmmap hangs from then): iteration 1 is kept."""
    c = 'sigint-snapshot'
    e = Env(STANDIN_GROW=str(MiB))
    try:
        e.conf['STANDIN_HANGIF'] = os.path.join(e.dir, 'hangif')
        e.write_conf()
        p = e.popen('--repeat', '4', '--kinds', 'vmmap', action=[e.bump, e.state])
        end = time.monotonic() + 60
        while time.monotonic() < end and e.runs() < 1:
            time.sleep(0.02)
        # From the second snapshot on, vmmap hangs until killed.
        while time.monotonic() < end and not os.path.exists(os.path.join(e.out(), '001')):
            time.sleep(0.02)
        open(os.path.join(e.dir, 'hangif.vmmap'), 'w').close()
        e.wait_log(lambda calls: sum(1 for l in calls if l.startswith('vmmap')) >= 2, 60)
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        err = err.decode(errors='replace')
        check(c, p.returncode == -signal.SIGINT, 'exit %r: %s' % (p.returncode, err))
        check(c, 'the complete samples are kept in' in err, 'message: %s' % err)
        idx = json.load(open(os.path.join(e.out(), 'series.json')))
        check(c, [s['dir'] for s in idx['samples']] == ['001'], 'series.json %r' % idx)
        check(c, sorted(os.listdir(e.out())) == ['001', 'series.json'],
              'series folder %r' % os.listdir(e.out()))
        left = [n for n in os.listdir(e.out()) + os.listdir(e.dir) if '.partial' in n]
        check(c, not left, 'temporary folders left: %r' % left)
    finally:
        e.close()


def case_usage():
    """What --repeat refuses, before running anything."""
    c = 'usage'
    e = Env()
    try:
        base = [ARGS.bin, 'capture', '--tools-dir', e.bin]
        tgt = ['--pid', str(e.target.pid)]
        cases = [
            (['--repeat', '5'] + tgt, 'needs the action to repeat'),
            (['--repeat', '5', '--', 'true'], 'needs the process to snapshot'),
            (['--repeat', '2'] + tgt + ['--', 'true'], 'between 3 and 999'),
            (['--warmup', '2'] + tgt, 'go with --repeat'),
            (['--repeat', '5', '--count', '3'] + tgt + ['--', 'true'], 'does not go with'),
            (['--repeat', '5', '--kinds', 'heap'] + tgt + ['--', 'true'], "--kinds 'heap'"),
        ]
        for args, want in cases:
            r = subprocess.run(base + args, env=e.env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            check(c, r.returncode == 64 and want.encode() in r.stderr,
                  '%r: exit %d %r' % (args, r.returncode, r.stderr))
        if os.geteuid() == 0:
            env = dict(e.env)
            env.pop('SUDO_UID', None)
            r = subprocess.run(base + ['--repeat', '5'] + tgt + ['--', 'true'], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            check(c, r.returncode == 64 and b'SUDO_UID' in r.stderr,
                  'root without SUDO_UID: exit %d %r' % (r.returncode, r.stderr))
        check(c, not os.path.exists(e.out()), 'a usage error left a series folder')
    finally:
        e.close()


CASES = collect_cases(globals())


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--case', action='append')
    ARGS = ap.parse_args()
    ARGS.bin = os.path.abspath(ARGS.bin)
    ARGS.root = os.path.abspath(ARGS.root)
    return run_cases(CASES, ARGS.case, jobs=CASE_JOBS)


if __name__ == '__main__':
    sys.exit(main())
