#!/usr/bin/env python3
"""Time commands side by side: CPU time (user + system), wall time, peak RSS.

    tools/bench-run.py [--runs N] [--warmup N] [--ratio A/B ...] NAME=COMMAND ...

The commands run interleaved so that the machine's load falls on each
alike, and each round starts one command later (A B C, B C A, C A B, ...):
a command's place in the round moves its time (under load the first place
was measured 5-10 % apart from the second with one binary in both), so
every command takes every place equally often over a multiple of the
number of commands. Every run's user and system CPU come from wait4(2),
its wall time from a monotonic clock, its context switches (voluntary:
the program waited, e.g. a thread for another; involuntary: the scheduler
took the processor) from wait4(2) too; peak RSS from one more run under GNU
time. Prints, per command, the median CPU time with min and max (the
noise), median wall time and peak RSS; then each --ratio A/B as
median(A) / median(B) of CPU time, and the same ratio taken per round (one
run of each, back to back: median, min, max). Standard output of the
commands goes to a pipe that is read and dropped (not /dev/null: GNU grep
stops at its first match there); standard error to /dev/null.
--json FILE also writes every figure as JSON.

COMMAND is a shell-free word list (split like a shell would, no expansion).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    # Output goes to a pipe that is read and dropped: GNU grep stops at its
    # first match when its output is /dev/null, even with -c.
    t0 = time.monotonic()
    rfd, wfd = os.pipe()
    null = os.open(os.devnull, os.O_WRONLY)
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, wfd, 1), (os.POSIX_SPAWN_DUP2, null, 2),
        (os.POSIX_SPAWN_CLOSE, rfd)])
    os.close(null)
    os.close(wfd)
    while os.read(rfd, 1 << 16):
        pass
    os.close(rfd)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime, wall, code, (ru.ru_nvcsw, ru.ru_nivcsw)


def peak_rss(argv):
    """KiB, from GNU time: wait4's figure would carry this interpreter's own
    peak across the child's exec."""
    r = subprocess.run(['/usr/bin/time', '-f', '%M'] + argv, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def fig(v):
    return '%.1f ms' % (v * 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=20)
    ap.add_argument('--warmup', type=int, default=2)
    ap.add_argument('--ratio', action='append', default=[],
                    help='NAME_A/NAME_B: CPU time of A over B')
    ap.add_argument('--ok-status', type=int, action='append', default=[0])
    ap.add_argument('--json', help='write the figures to this file too')
    ap.add_argument('commands', nargs='+', metavar='NAME=COMMAND')
    a = ap.parse_args()

    cmds = []
    for c in a.commands:
        name, sep, cmd = c.partition('=')
        if not sep:
            sys.exit('bench-run: expected NAME=COMMAND, got %r' % c)
        cmds.append((name, shlex.split(cmd)))

    cpu = {n: [] for n, _ in cmds}
    wall = {n: [] for n, _ in cmds}
    rss = {n: 0 for n, _ in cmds}
    csw = {n: [] for n, _ in cmds}
    for i in range(a.warmup + a.runs):
        k = i % len(cmds)
        for name, argv in cmds[k:] + cmds[:k]:
            c, w, code, sw = run_once(argv)
            if code not in a.ok_status:
                sys.exit('bench-run: %s exited with %d' % (name, code))
            if i >= a.warmup:
                cpu[name].append(c)
                wall[name].append(w)
                csw[name].append(sw)

    for name, argv in cmds:
        rss[name] = peak_rss(argv)
    width = max(len(n) for n, _ in cmds)
    print('%d runs each, interleaved; CPU = user + system' % a.runs)
    for name, _ in cmds:
        v = cpu[name]
        print('%-*s  CPU median %s (min %s, max %s)  wall median %s  peak RSS %d KiB'
              '  context switches median %d voluntary, %d involuntary' %
              (width, name, fig(statistics.median(v)), fig(min(v)), fig(max(v)),
               fig(statistics.median(wall[name])), rss[name],
               statistics.median(s[0] for s in csw[name]),
               statistics.median(s[1] for s in csw[name])))
    out = {'runs': a.runs, 'commands': {}, 'ratios': {}}
    for name, argv in cmds:
        v = cpu[name]
        out['commands'][name] = {'argv': argv, 'cpu_median': statistics.median(v),
                                 'cpu_min': min(v), 'cpu_max': max(v),
                                 'wall_median': statistics.median(wall[name]),
                                 'peak_rss_kib': rss[name],
                                 'voluntary_csw_median':
                                     statistics.median(s[0] for s in csw[name]),
                                 'involuntary_csw_median':
                                     statistics.median(s[1] for s in csw[name])}
    for r in a.ratio:
        x, _, y = r.partition('/')
        if x not in cpu or y not in cpu:
            sys.exit('bench-run: unknown name in --ratio %s' % r)
        per = [p / q for p, q in zip(cpu[x], cpu[y]) if q > 0]
        ratio = statistics.median(cpu[x]) / statistics.median(cpu[y])
        print('%s / %s: %.2fx (medians of CPU); per round: median %.2fx, min %.2fx, max %.2fx' %
              (x, y, ratio, statistics.median(per), min(per), max(per)))
        # Wall time too: what several processors (-j N) shorten is the wait.
        wper = [p / q for p, q in zip(wall[x], wall[y]) if q > 0]
        wratio = statistics.median(wall[x]) / statistics.median(wall[y])
        print('%s / %s: %.2fx (medians of wall); per round: median %.2fx, min %.2fx, max %.2fx' %
              (x, y, wratio, statistics.median(wper), min(wper), max(wper)))
        out['ratios'][r] = {'of_medians': ratio, 'per_round_median': statistics.median(per),
                            'per_round_min': min(per), 'per_round_max': max(per),
                            'wall_of_medians': wratio,
                            'wall_per_round_median': statistics.median(wper)}
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(out, f, indent=1)


if __name__ == '__main__':
    main()
