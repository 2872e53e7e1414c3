#!/usr/bin/env python3
"""libxml2 and libarchive are loaded on first use (util/lazylib.h).

    lazy-libs.py --bin IOTALLY --root SRC --xml SONAME --archive SONAME

1. Which libraries a run loads, from the dynamic linker's own account
   (LD_DEBUG=libs, glibc): --version, vmmap of a text dump (plain, gzip, a
   folder of them) and classes of ioclasscount text load neither; classes of
   an XML property list loads libxml2 and not libarchive; classes of a
   tar.gz bundle loads libarchive. The runs that must load a library show
   that the check sees a load when there is one.
2. A library that cannot be loaded: a folder on LD_LIBRARY_PATH holds a
   file of each soname that is not a library (a binary linked with them
   does not start at all). The runs that do not need them succeed with the
   same output as without; classes of XML and of a tar.gz bundle stop with
   one message naming the library and the loader's reason, status 69; a
   diff --junit FILE stopped while writing leaves no file behind. The same
   for a real library under libxml2's soname that lacks its functions.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

VMMAP = 'fixtures/vmmap/synthetic-gpu-purge-states.txt'
VMMAP_GZ = 'fixtures/gzip/synthetic-gpu-purge-states.txt.gz'
CLASSES_TEXT = 'fixtures/ioclasscount/apple-manpage_ioalloccount.8_example.txt'
CLASSES_XML = 'fixtures/classes/synthetic-ioreg-a-3000.plist'
BUNDLE = 'fixtures/bundle/complete.tar.gz'
DIFF = ['fixtures/diff/vmmap-before.txt', 'fixtures/diff/vmmap-after.txt']

failures = []


def check(ok, what):
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def run(args, root, env_extra=None):
    env = dict(os.environ, LC_ALL='C', TZ='UTC')
    env.pop('LD_DEBUG', None)
    env.pop('LD_LIBRARY_PATH', None)
    env.update(env_extra or {})
    return subprocess.run(args, cwd=root, env=env, capture_output=True)


def linker_log(binary, args, root):
    """What the dynamic linker says it did (LD_DEBUG=libs) in a run."""
    res = run([binary] + args, root, {'LD_DEBUG': 'libs'})
    log = res.stderr.decode(errors='replace')
    if not re.search(r'calling init: \S*libc\.so', log):
        print('LD_DEBUG=libs says nothing (not glibc?): skipped')
        sys.exit(77)
    return log


def loaded(binary, args, root, sonames):
    """The sonames of `sonames` that the run's dynamic linker looked for."""
    log = linker_log(binary, args, root)
    # "find library=libxml2.so.2 [0]; searching" for a DT_NEEDED entry or a dlopen.
    return {s for s in sonames if re.search(r'find library=' + re.escape(s) + r' ', log)}


def check_loads(binary, root, xml, archive, tmp):
    folder = os.path.join(tmp, 'dumps')
    os.mkdir(folder)
    shutil.copy(os.path.join(root, VMMAP), folder)
    shutil.copy(os.path.join(root, VMMAP_GZ), folder)
    both = {xml, archive}
    cases = [
        (['--version'], set()),
        (['vmmap', VMMAP], set()),
        (['vmmap', VMMAP_GZ], set()),
        (['vmmap', '--format', 'ndjson', folder], set()),
        (['classes', CLASSES_TEXT], set()),
        (['classes', CLASSES_XML], {xml}),
        (['classes', BUNDLE], both),
    ]
    for args, want in cases:
        got = loaded(binary, args, root, both)
        check(got == want, f'iotally {" ".join(args)} loads {sorted(want) or "neither"}'
              f' (got {sorted(got) or "neither"})')


def check_unloadable(binary, root, xml, archive, tmp):
    libdir = os.path.join(tmp, 'broken')
    os.mkdir(libdir)
    for soname in (xml, archive):
        with open(os.path.join(libdir, soname), 'w') as f:
            f.write('not a shared library\n')
    broken = {'LD_LIBRARY_PATH': libdir}

    for args in (['--version'], ['vmmap', VMMAP], ['vmmap', VMMAP_GZ], ['classes', CLASSES_TEXT]):
        good, res = run([binary] + args, root), run([binary] + args, root, broken)
        check(res.returncode == 0 and (res.stdout, res.stderr) == (good.stdout, good.stderr),
              f'iotally {" ".join(args)} runs without them (status {res.returncode})')

    def stops(args, soname, libdir=libdir, reason=r'[^\n]+'):
        res = run([binary] + args, root, {'LD_LIBRARY_PATH': libdir})
        err = res.stderr.decode(errors='replace')
        # dlerror() names the file it refused.
        pattern = (r'iotally: error: cannot load ' + re.escape(soname) + r' \(for [^)]+\): ' +
                   re.escape(os.path.join(libdir, soname)) + r': ' + reason + r'\n')
        check(res.returncode == 69 and re.fullmatch(pattern, err) is not None,
              f'iotally {" ".join(args)} stops: status {res.returncode}, {err.strip()!r}')

    stops(['classes', CLASSES_XML], xml)
    stops(['classes', BUNDLE], archive)
    # The JUnit file is written through libxml2 into a temporary file: gone after the stop.
    outdir = os.path.join(tmp, 'out')
    os.mkdir(outdir)
    stops(['diff', '--junit', os.path.join(outdir, 'gates.xml')] + DIFF, xml)
    check(os.listdir(outdir) == [], f'no file left behind in the --junit folder: {os.listdir(outdir)}')

    # A library of that name without the functions (zlib under libxml2's soname).
    libz = re.search(r'calling init: (\S*/libz\.so\.1)\n', linker_log(binary, ['--version'], root))
    check(libz is not None, 'iotally is linked with zlib (the stand-in library)')
    if libz:
        other = os.path.join(tmp, 'other')
        os.mkdir(other)
        shutil.copy(libz.group(1), os.path.join(other, xml))
        stops(['classes', CLASSES_XML], xml, other, r'undefined symbol: xml\w+')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--xml', required=True, help="libxml2's soname")
    ap.add_argument('--archive', required=True, help="libarchive's soname")
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    with tempfile.TemporaryDirectory() as tmp:
        check_loads(binary, a.root, a.xml, a.archive, tmp)
        check_unloadable(binary, a.root, a.xml, a.archive, tmp)
    if failures:
        print(f'{len(failures)} checks failed', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
