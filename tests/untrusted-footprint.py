#!/usr/bin/env python3
"""Hostile footprint captures: each case builds its input, runs the real
binary (under ASan/UBSan in the sanitizer builds) and checks the exit
status and message, or a resource bound measured at two sizes: the truth
is the defect the case planted or the size the case chose.

  untrusted-footprint.py IOTALLY ROOT [--case NAME]...
"""

import os
import shutil
import subprocess
import sys
import tempfile

from casecheck import (check, collect_cases, iotally_env, parse_bin_root, run_cases,
                       run_iotally)

ARGS = None


class Scratch:
    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix='iotally-untrusted-footprint-')
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        return path


def run(args, timeout=120):
    try:
        return run_iotally(ARGS.bin, args, timeout=timeout, cwd=ARGS.root,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def case_regions_past_int64():
    """A row whose Regions is 2^63 (no process has that many) is refused at
    the reader, naming the file and line, by every format: JSON and NDJSON
    cannot hold it and must not abort."""
    c = 'regions-past-int64'
    with Scratch() as s:
        rows = ('  Dirty      Clean  Reclaimable    Regions    Category\n'
                '   1 MB        0 B          0 B    9223372036854775808    IOSurface\n'
                '   1 MB        0 B          0 B    9223372036854775808    TOTAL\n')
        grep = s.write('grep.txt', '1 MB 0 B 0 B 9223372036854775808 IOSurface\n')
        table = s.write('table.txt', rows)
        # 2^63 - 1 is the largest count read: the bound is exact.
        fits = s.write('fits.txt', rows.replace('9223372036854775808', '9223372036854775807'))
        for path, line in ((grep, 1), (table, 2)):
            for fmt in ('json', 'ndjson', 'text', 'csv'):
                r = run(['footprint', '--format', fmt, path])
                if not check(c, r is not None, '%s: the run did not end' % fmt):
                    continue
                err = r.stderr.decode('utf-8', 'replace')
                check(c, r.returncode == 65, '%s %s: exit %d, want 65: %s' %
                      (os.path.basename(path), fmt, r.returncode, err[:400]))
                want = "iotally: %s:%d: error: a region count past 2^63 - 1: " \
                       "'9223372036854775808'\n" % (path, line)
                check(c, want in err, '%s %s: stderr %r lacks %r' %
                      (os.path.basename(path), fmt, err[:400], want))
        for cmd in (['report', grep], ['diff', grep, table]):
            r = run(cmd)
            check(c, r is not None and r.returncode == 65,
                  '%s: exit %s, want 65' % (cmd[0], r and r.returncode))
        r = run(['footprint', '--format', 'json', fits])
        check(c, r is not None and r.returncode == 0 and b'9223372036854775807' in r.stdout,
              'a count of 2^63 - 1 is not read: exit %s' % (r and r.returncode))


def many_processes(n):
    """n processes, each with four categories of its own name (the sum of the
    capture lists 4n categories): the shape that made the sum O(n^2)."""
    rule = '=' * 70
    out = []
    for i in range(n):
        out += [rule, 'proc%d [%d]: 64-bit    Footprint: 3072 B (16384 bytes per page)'
                % (i, 1000 + i), rule, '',
                '  Dirty      Clean  Reclaimable    Regions    Category',
                '    ---        ---          ---        ---    ---']
        out += ['  768 B        0 B          0 B          1    cat%d_%d' % (i, k)
                for k in range(4)]
        out += ['    ---        ---          ---        ---    ---',
                ' 3072 B        0 B          0 B          4    TOTAL', '',
                'Auxiliary data:', '    phys_footprint: 3072 B',
                '    phys_footprint_peak: 3072 B', '']
    out.append('Summary Footprint: %d B' % (3072 * n))
    return '\n'.join(out) + '\n'


def cpu_of(args):
    """(exit status, user + system CPU seconds) of one run of iotally."""
    p = subprocess.Popen([ARGS.bin] + args, cwd=ARGS.root, env=iotally_env(),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, ru.ru_utime + ru.ru_stime


def case_many_processes_linear():
    """CPU of every reader of a capture of many processes grows with the
    file: 4x the processes may cost at most 9x the CPU (a quadratic reader
    costs 16x; the slack absorbs a loaded machine and sanitizers). Each
    size is run twice and its least CPU kept."""
    c = 'many-processes-linear'
    small, large = 1500, 6000
    with Scratch() as s:
        paths = {n: s.write('fp-%d.txt' % n, many_processes(n)) for n in (small, large)}
        commands = (['footprint', '--format', 'json'], ['report'])
        for cmd in commands + (['diff'],):
            cpu = {}
            for n, path in paths.items():
                args = cmd + [path] + ([path] if cmd == ['diff'] else [])
                runs = [cpu_of(args) for _ in range(2)]
                check(c, all(rc == 0 for rc, _ in runs), '%s %d: exit %r' %
                      (cmd[0], n, [rc for rc, _ in runs]))
                # A floor of 10 ms: timer resolution, not the reader, below it.
                cpu[n] = max(min(t for _, t in runs), 0.01)
            ratio = cpu[large] / cpu[small]
            print('%s: %d processes %.3f s, %d processes %.3f s CPU (x%.1f)' %
                  (cmd[0], small, cpu[small], large, cpu[large], ratio))
            check(c, ratio <= 9, '%s: %d processes take %.1fx the CPU of %d (%.3f s vs '
                  '%.3f s): not linear' % (cmd[0], large, ratio, small, cpu[large],
                                          cpu[small]))


CASES = collect_cases(globals())


def main():
    global ARGS
    ARGS = parse_bin_root()
    return run_cases(CASES, ARGS.case)


if __name__ == '__main__':
    sys.exit(main())
