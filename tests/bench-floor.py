#!/usr/bin/env python3
"""The benchmark's floors (tools/bench-floor.c) count what they say.

    bench-floor.py SOURCE_ROOT CC...

tools/bench-vmmap times every dump shape against `bench-floor` (every line
end found) and judges the shapes of table rows against `bench-floor
--fields` (every line split into fields, the last one's leading digits
read). A floor that skipped work would flatter every ratio over it, so each
case checks its output against a count made here by Python's own split, and
the generated shapes also against `wc -l` and `wc -w` (in the C locale:
their bytes are printable ASCII, blanks and line ends, so wc's words are
these fields). The program is built as tools/bench-vmmap builds it, with
the C compiler, outside the project's build.
"""

import os
import subprocess
import sys
import tempfile

from casecheck import check, collect_cases, run_cases

ROOT, CC = sys.argv[1], sys.argv[2:]   # CC: the compiler's command (meson's cmd_array)
TMP = EXE = None   # set by main(): a temporary folder, the program built in it
BLOCK = 1 << 18   # tools/bench-floor.c's read size: lines must cross it


def truth(data):
    """(lines, fields, sum) of data: lines as wc -l (the '\\n' bytes), every
    line, the last one too when it has no '\\n', split on blanks and tabs."""
    lines = data.count(b'\n')
    parts = data.split(b'\n')
    if parts and parts[-1] == b'':
        parts.pop()
    fields = total = 0
    for line in parts:
        words = line.replace(b'\t', b' ').split()
        fields += len(words)
        if words:
            digits = b''
            for c in words[-1]:
                if not 48 <= c <= 57:
                    break
                digits += bytes([c])
            total = (total + int(digits or b'0')) % (1 << 64)
    return lines, fields, total


def floor(args):
    return subprocess.run([EXE] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def check_counts(case, files):
    """Both modes over `files` ({name: bytes}) against truth()."""
    paths = [write(name, data) for name, data in files.items()]
    want = [0, 0, 0]
    for data in files.values():
        t = truth(data)
        want = [want[0] + t[0], want[1] + t[1], (want[2] + t[2]) % (1 << 64)]
    r = floor(paths)
    check(case, r.returncode == 0 and r.stdout == b'%d\n' % want[0],
          'lines: %r %r, want %d' % (r.returncode, r.stdout, want[0]))
    r = floor(['--fields'] + paths)
    got = r.stdout.split()
    check(case, r.returncode == 0 and [int(x) for x in got] == want,
          'fields: %r %r, want %r' % (r.returncode, r.stdout, want))


def case_table_rows():
    check_counts('table-rows', {'t': b'REGION TYPE   SIZE COUNT\n'
                                     b'IOAccelerator 48.8G 2445\n'
                                     b'\tMemory Tag 251 \t 0K   7  \n'
                                     b'\n   \n'
                                     b'TOTAL 1.2G 12x\n'})


def case_no_final_newline():
    # The last line is split and summed, and not counted as a line (wc -l).
    check_counts('no-final-newline', {'t': b'a 1\nb 22'})


def case_empty_files():
    check_counts('empty-files', {'e': b'', 'f': b'\n\n', 'g': b' \t '})


def case_lines_across_blocks():
    # One line longer than two blocks, and line ends on each side of a
    # block's edge: the carry joins what each read cut.
    long_line = b'x ' * (BLOCK + 7) + b'123\n'
    edge = b'y' * (BLOCK - 3) + b' 45\nz 6\n'
    check_counts('lines-across-blocks', {'a': long_line + edge, 'b': edge + long_line})


def case_several_files():
    # A file's last line (no '\n') is not joined to the next file's first.
    check_counts('several-files', {'a': b'p 1\nq 2', 'b': b'3 r 4\n'})


def case_shapes_against_wc():
    env = dict(os.environ, LC_ALL='C')
    printable = set(range(32, 127)) | {9, 10}
    for shape in ('independent', 'summary-heavy', 'corpus'):
        data = subprocess.run([sys.executable, ROOT + '/tools/gen-vmmap-shapes.py',
                               '--shape', shape, '--regions', '3000', '--seed', '5'],
                              check=True, stdout=subprocess.PIPE).stdout
        path = write(shape, data)
        r = floor(['--fields', path])
        got = r.stdout.split()
        check('shapes-against-wc', r.returncode == 0 and [int(x) for x in got] == list(truth(data)),
              '%s: %r, the split here says %r' % (shape, r.stdout, truth(data)))
        # wc -w in the C locale also ends words at \r, \v and \f and
        # counts no byte outside printable ASCII as part of one: the real
        # captures of the corpus shape hold such bytes, the generated none.
        if shape == 'corpus':
            continue
        check('shapes-against-wc', set(data) <= printable,
              shape + ': a byte outside printable ASCII, blank and line end')
        wc = subprocess.run(['wc', '-l', '-w', path], env=env, check=True,
                            stdout=subprocess.PIPE).stdout.split()
        check('shapes-against-wc', got[:2] == wc[:2],
              '%s: %r, wc -l -w says %r' % (shape, r.stdout, wc[:2]))


def case_usage_and_missing_file():
    r = floor([])
    check('usage-and-missing-file', r.returncode == 64 and b'usage' in r.stderr,
          'no file: %r %r' % (r.returncode, r.stderr))
    r = floor(['--fields'])
    check('usage-and-missing-file', r.returncode == 64, '--fields alone: %r' % r.returncode)
    missing = os.path.join(TMP, 'missing')
    for args in ([missing], ['--fields', missing]):
        r = floor(args)
        check('usage-and-missing-file', r.returncode == 66 and missing.encode() in r.stderr,
              '%r: %r %r' % (args, r.returncode, r.stderr))


def main():
    global TMP, EXE
    with tempfile.TemporaryDirectory(prefix='bench-floor-') as TMP:
        EXE = os.path.join(TMP, 'bench-floor')
        subprocess.run(CC + ['-O2', '-std=c11', '-Wall', '-Wextra', '-Werror', '-o', EXE,
                             ROOT + '/tools/bench-floor.c'], check=True)
        return run_cases(collect_cases(globals()))


if __name__ == '__main__':
    sys.exit(main())
