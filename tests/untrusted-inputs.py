#!/usr/bin/env python3
"""Hostile attachments: each case builds its input from a fixture plus one
known defect, runs the real binary (under ASan/UBSan in the sanitizer
builds, where a use-after-free or leak aborts the run) and checks the exit
status and the exact message: the truth is the defect the case planted.

  untrusted-inputs.py IOTALLY ROOT [--case NAME]...
"""

import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

from casecheck import check, collect_cases, fail, parse_bin_root, run_cases, run_iotally

ARGS = None


def run(args, timeout=60, stdin=None, cwd=None):
    """None when the run did not end within `timeout` seconds."""
    try:
        return run_iotally(ARGS.bin, args, timeout=timeout, cwd=cwd or ARGS.root,
                           stdin=stdin if stdin is not None else subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def fixture(*parts):
    return os.path.join(ARGS.root, 'fixtures', *parts)


def expect(case, r, status, stderr_has=None, stderr_is=None):
    """The run ended (no hang), with `status`, and its stderr says what was planted."""
    if not check(case, r is not None, 'the run did not end within its time limit'):
        return False
    err = r.stderr.decode('utf-8', 'replace')
    ok = check(case, r.returncode == status, 'exit %d, want %d; stderr: %s' %
               (r.returncode, status, err[:600]))
    if stderr_has is not None:
        ok &= check(case, stderr_has in err, 'stderr lacks %r: %s' % (stderr_has, err[:600]))
    if stderr_is is not None:
        ok &= check(case, err == stderr_is, 'stderr %r, want %r' % (err[:600], stderr_is))
    return ok


class Scratch:
    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix='iotally-untrusted-')
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def bundle(self, name='b'):
        """A copy of the complete fixture bundle, to plant one defect in."""
        dst = self.path(name)
        shutil.copytree(fixture('bundle', 'complete'), dst, symlinks=True)
        return dst


# ---- memory safety: messages that outlive what they name -------------------

def case_report_bundle_missing_capture():
    """The manifest lists target/vmmap.txt; the folder lacks it. The message
    names the file after the bundle was released (read freed memory)."""
    c = 'report-bundle-missing-capture'
    with Scratch() as s:
        b = s.bundle()
        os.unlink(os.path.join(b, 'target', 'vmmap.txt'))
        r = run(['report', b])
        expect(c, r, 66, stderr_is='iotally: %s/target/vmmap.txt: error: cannot open: '
               'No such file or directory\n' % b)


def case_report_archive_missing_capture():
    """The same in a .tar.gz bundle whose archive lacks the listed member."""
    c = 'report-archive-missing-capture'
    with Scratch() as s:
        src = fixture('bundle', 'complete.tar.gz')
        out = s.path('b.tar.gz')
        with tarfile.open(src) as tin, tarfile.open(out, 'w:gz') as tout:
            for m in tin.getmembers():
                if m.name.endswith('target/vmmap.txt'):
                    continue
                tout.addfile(m, tin.extractfile(m) if m.isfile() else None)
        r = run(['report', out])
        expect(c, r, 66, stderr_has='vmmap.txt')
        if r is not None:
            check(c, r.stderr.decode('utf-8', 'replace').startswith('iotally: %s:' % out),
                  'the message does not name the archive: %r' % r.stderr[:300])


def case_output_dev_full():
    """-o/--junit on a device that cannot be written: the name and the reason."""
    c = 'output-dev-full'
    if not os.path.exists('/dev/full'):
        print('skip %s: this system has no /dev/full' % c)
        return
    want = 'iotally: /dev/full: error: cannot be written: No space left on device\n'
    sample = fixture('vmmap', 'synthetic-gpu-purge-states.txt')
    expect(c + '/report', run(['report', '-o', '/dev/full', sample]), 74, stderr_is=want)
    r = run(['diff', '--junit', '/dev/full', fixture('diff', 'vmmap-before.txt'),
             fixture('diff', 'vmmap-after.txt')])
    expect(c + '/diff-junit', r, 74, stderr_has=want)
    leak = sorted(os.path.join(fixture('trend', 'leak'), f)
                  for f in os.listdir(fixture('trend', 'leak')))
    expect(c + '/trend-junit', run(['trend', '--junit', '/dev/full'] + leak), 74,
           stderr_has=want)


# ---- bundle folders: nothing outside them, nothing that is not a file -------

def planted_member(c, make, want):
    """A folder bundle whose target/vmmap.txt `make` replaces; report, vmmap and
    diff (against an untouched copy, either side) end at once (no hang on a
    pipe or /dev/zero) with exit 65 and `want`: every reader opens a bundle's
    members through bundle/member.h, as redact does."""
    with Scratch() as s:
        b = s.bundle()
        good = s.bundle('good')
        vm = os.path.join(b, 'target', 'vmmap.txt')
        make(s, b, vm)
        for cmd in (['report', b], ['vmmap', b], [b], ['vmmap', '--format', 'ndjson', b],
                    ['diff', good, b], ['diff', b, good]):
            r = run(cmd, timeout=20)
            expect('%s/%s' % (c, cmd[0]), r, 65, stderr_has='%s: error: %s' % (vm, want))
            if r is not None and cmd in (['report', b], ['vmmap', b]):
                check(c, not r.stdout, '%s wrote output: %r' % (cmd[0], r.stdout[:200]))


def case_bundle_member_fifo():
    def make(s, b, vm):
        os.unlink(vm)
        os.mkfifo(vm)
    planted_member('bundle-member-fifo', make, 'is a named pipe, not a file')


def case_bundle_member_link_to_fifo():
    def make(s, b, vm):
        os.unlink(vm)
        os.mkfifo(s.path('fifo'))
        os.symlink(s.path('fifo'), vm)
    planted_member('bundle-member-link-to-fifo', make, 'is a symbolic link, not a file')


def case_bundle_member_link_to_dev_zero():
    def make(s, b, vm):
        os.unlink(vm)
        os.symlink('/dev/zero', vm)
    planted_member('bundle-member-link-to-dev-zero', make, 'is a symbolic link, not a file')


def case_bundle_member_link_outside():
    """A link to a copy of the real capture outside the bundle: never opened
    (the checksum would even match)."""
    def make(s, b, vm):
        shutil.move(vm, s.path('outside.txt'))
        os.symlink(s.path('outside.txt'), vm)
    planted_member('bundle-member-link-outside', make, 'is a symbolic link, not a file')


def case_bundle_folder_link_outside():
    def make(s, b, vm):
        shutil.move(os.path.join(b, 'target'), s.path('elsewhere'))
        os.symlink(s.path('elsewhere'), os.path.join(b, 'target'))
    planted_member('bundle-folder-link-outside', make,
                   "is not read: the folder 'target' on its way is a symbolic link")


def case_bundle_manifest_link():
    c = 'bundle-manifest-link'
    with Scratch() as s:
        b = s.bundle()
        m = os.path.join(b, 'manifest.json')
        shutil.move(m, s.path('manifest.json'))
        os.symlink(s.path('manifest.json'), m)
        expect(c, run(['report', b], timeout=20), 65,
               stderr_has='%s: error: is a symbolic link, not a file' % m)


def case_bundle_record_spellings():
    """A manifest's file path goes through the one member-name rule
    (bundle/manifest.h): "./target//vmmap.txt" is target/vmmap.txt, read and
    named in that form; "target/../../x" and "/x" leave the bundle and are
    refused; "" names no file."""
    c = 'bundle-record-spellings'

    def set_path(b, path):
        m = os.path.join(b, 'manifest.json')
        with open(m) as f:
            doc = json.load(f)
        for step in doc['steps']:
            if step.get('capture_kind') == 'vmmap' and step.get('stdout'):
                step['stdout']['path'] = path
        with open(m, 'w') as f:
            json.dump(doc, f, indent=2, sort_keys=True)

    def with_path(s, path):
        b = s.bundle()
        set_path(b, path)
        return b

    with Scratch() as s:
        # The same folder read twice, so the outputs compare byte for byte.
        b = with_path(s, './target//vmmap.txt')
        r = run(['report', b], timeout=20)
        set_path(b, 'target/vmmap.txt')
        want = run(['report', b], timeout=20)
        expect(c + '/normal', r, 0)
        if r is not None and want is not None:
            # vmmap's 1185K = 1213440 bytes, rounded by vmmap: ~1.16 MiB (Markdown: \~)
            check(c, b'Physical footprint: \\~1.16 MiB' in r.stdout and r.stdout == want.stdout,
                  'a second spelling reads differently: %r' % r.stdout[:300])
    bad = 'is not an iotally.bundle/1 document: '
    for path, why in (('target/../../vmmap.txt', "a step's file path leaves the bundle"),
                      ('/etc/passwd', "a step's file path leaves the bundle"),
                      ('', "a step's file path names no file"),
                      ('./', "a step's file path names no file")):
        with Scratch() as s:
            b = with_path(s, path)
            expect('%s/%r' % (c, path), run(['report', b], timeout=20), 65,
                   stderr_is='iotally: %s: error: manifest.json %s%s\n' % (b, bad, why))


# ---- archive member names: one rule, no second spelling ---------------------

def tar_with(path, members):
    """A .tar.gz of (name, bytes) in the order given, names written as they are."""
    with tarfile.open(path, 'w:gz') as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            t.addfile(info, io.BytesIO(data))


def complete_members():
    """The complete fixture bundle's files as (name under 'b/', bytes)."""
    root = fixture('bundle', 'complete')
    out = []
    for d, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            full = os.path.join(d, f)
            out.append(('b/' + os.path.relpath(full, root), open(full, 'rb').read()))
    return out


def case_archive_second_spelling():
    """b//target/vmmap.txt and b/./target/vmmap.txt after the real one: the
    last (7 bytes) used to replace the capture in the redacted copy, whose
    manifest still recorded the original's size and sha256."""
    c = 'archive-second-spelling'
    for spelling in ('b//target/vmmap.txt', 'b/./target/vmmap.txt', './b/target/vmmap.txt',
                     'b/target/./vmmap.txt'):
        with Scratch() as s:
            arc = s.path('in.tar.gz')
            tar_with(arc, complete_members() + [(spelling, b'forged\n')])
            want = "iotally: %s: error: the member '%s' is there twice: not read\n" % (arc, spelling)
            expect('%s/redact %s' % (c, spelling), run(['redact', arc, '-o', s.path('out.tar.gz')]),
                   65, stderr_is=want)
            check(c, not os.path.exists(s.path('out.tar.gz')), 'redact wrote an output')
            check(c, os.listdir(s.dir) == ['in.tar.gz'], 'files left: %r' % os.listdir(s.dir))
            expect('%s/report %s' % (c, spelling), run(['report', arc]), 65, stderr_is=want)
            expect('%s/vmmap %s' % (c, spelling), run(['vmmap', arc]), 65, stderr_is=want)


def case_archive_file_and_folder():
    """A member that is a file and a folder at once is an input defect (65), not 73."""
    c = 'archive-file-and-folder'
    with Scratch() as s:
        arc = s.path('in.tar.gz')
        tar_with(arc, complete_members() + [('b/target/vmmap.txt/x', b'x\n')])
        want = ("iotally: %s: error: the member 'b/target/vmmap.txt/x' is both a file and a "
                "folder: not read\n" % arc)
        expect(c, run(['redact', arc, '-o', s.path('out')]), 65, stderr_is=want)


def case_archive_special_member():
    """A link, a pipe or a device inside a bundle archive: redact used to leave
    it out of the copy without a word; every reader now refuses it (65), as a
    folder bundle's readers do."""
    c = 'archive-special-member'
    kinds = ((tarfile.SYMTYPE, 'a symbolic link'), (tarfile.LNKTYPE, 'a hard link'),
             (tarfile.FIFOTYPE, 'a named pipe'), (tarfile.CHRTYPE, 'a character device'))
    for kind, what in kinds:
        with Scratch() as s:
            arc = s.path('in.tar.gz')
            with tarfile.open(arc, 'w:gz') as t:
                for name, data in complete_members():
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
                info = tarfile.TarInfo('b/target/extra')
                info.type = kind
                info.linkname = 'b/target/vmmap.txt' if kind in (tarfile.SYMTYPE,
                                                                  tarfile.LNKTYPE) else ''
                t.addfile(info)
            r = run(['redact', arc, '-o', s.path('out.tar.gz')])
            want = ("iotally: %s: error: the member 'b/target/extra' is %s, not a file: a "
                    "bundle holds only files and folders\n" % (arc, what))
            expect('%s/redact %s' % (c, what), r, 65, stderr_is=want)
            check(c, not os.path.exists(s.path('out.tar.gz')), 'redact wrote an output')
            expect('%s/report %s' % (c, what), run(['report', arc]), 65, stderr_is=want)


def case_archive_leaves_folder():
    c = 'archive-leaves-folder'
    for name, why in (('b/../../etc/x', "leaves its folder ('..')"),
                      ('/etc/x', 'is an absolute path')):
        with Scratch() as s:
            arc = s.path('in.tar.gz')
            tar_with(arc, complete_members() + [(name, b'x\n')])
            want = "iotally: %s: error: the member '%s' %s: not read\n" % (arc, name, why)
            expect('%s/%s' % (c, name), run(['redact', arc, '-o', s.path('out')]), 65,
                   stderr_is=want)


def case_archive_many_members_redacted():
    """2,000 members through the name rule, the lookups (a hash set grown
    several times over) and the archive writer: every one of them is in the
    redacted copy. (This checks what is copied, not how fast: the time of
    20,000 and 100,000 members is a benchmark, not a timed test.)"""
    c = 'archive-many-members'
    with Scratch() as s:
        arc = s.path('in.tar.gz')
        extra = [('b/extra/%05d.txt' % i, b'%d\n' % i) for i in range(2000)]
        tar_with(arc, complete_members() + extra)
        out = s.path('out.tar.gz')
        r = run(['redact', arc, '-o', out], timeout=240)
        if expect(c, r, 0):
            with tarfile.open(out) as t:
                names = set(t.getnames())
            check(c, all(n in names for n, _ in extra), 'members missing from the copy')


# ---- output bounded by the input's size -------------------------------------

def case_classes_tree_deep_chain():
    """A 5,000-deep superclass chain (one ioreg -i line): every class printed
    once, the indent capped at 32 levels (64 spaces) with the level written
    out, so the output grows with the input, not with the square of the depth."""
    c = 'classes-tree-deep-chain'
    n = 5000
    names = ['C%d' % i for i in range(n)]
    text = ('+-o Root  <class IORegistryEntry, id 0x100000100, retain 16>\n'
            '  | {\n'
            '  |   "IOKitDiagnostics" = {"Classes"={%s}}\n'
            '  | }\n'
            '  | \n'
            '  +-o Deep  <class %s, id 0x100000110, registered, matched, active, busy 0 (1 ms), '
            'retain 3>\n' % (','.join('"%s"=1' % x for x in names), ':'.join(names)))
    with Scratch() as s:
        path = s.path('deep.txt')
        with open(path, 'w') as f:
            f.write(text)
        r = run(['classes', '--tree', path])
        if not expect(c, r, 0):
            return
        lines = r.stdout.decode().splitlines()
        by_name = {l.strip().split('] ')[-1].split(' = ')[0]: l for l in lines}
        check(c, all(x in by_name for x in names), 'a class of the chain is missing')
        check(c, len(lines) == n + 2, '%d lines for %d classes, OSObject and IORegistryEntry' % (len(lines), n))
        want = ' ' * 64 + '[level %d] C%d = 1 (direct 1)' % (n, n - 1)
        check(c, by_name['C%d' % (n - 1)] == want, 'deepest line %r' % by_name['C%d' % (n - 1)][:120])
        check(c, by_name['C31'] == ' ' * 64 + 'C31 = 1 (direct 0)', 'C31 line %r' % by_name['C31'])
        check(c, len(r.stdout) < 100 * n, '%d bytes of output for %d classes' % (len(r.stdout), n))


def zeros_gz(path, nbytes, tar_member=None):
    """A gzip (or tar.gz with one member) of `nbytes` zero bytes: about 1,000
    times smaller than what it decodes to."""
    block = bytes(1 << 20)
    if tar_member is None:
        with gzip.open(path, 'wb', compresslevel=6) as f:
            for _ in range(nbytes >> 20):
                f.write(block)
        return

    class Zeros(io.RawIOBase):
        def __init__(self, n):
            self.left = n

        def readable(self):
            return True

        def readinto(self, b):
            k = min(len(b), self.left)
            b[:k] = bytes(k)
            self.left -= k
            return k

    with tarfile.open(path, 'w:gz') as t:
        info = tarfile.TarInfo(tar_member)
        info.size = nbytes
        t.addfile(info, io.BufferedReader(Zeros(nbytes)))


def case_redact_expansion_limit():
    """40 MiB of zeros in a ~40 KB .tar.gz and .gz: refused (65) before a
    byte is written, past max(64 x its size, 32 MiB)."""
    c = 'redact-expansion-limit'
    n = 40 << 20
    with Scratch() as s:
        for name, member in (('bomb.tar.gz', 'b/target/vmmap.txt'), ('bomb.txt.gz', None)):
            src = s.path(name)
            zeros_gz(src, n, member)
            size = os.path.getsize(src)
            out = s.path('out-' + name)
            r = run(['redact', src, '-o', out], timeout=120)
            want = ('iotally: %s: error: expands to more than %d bytes (64 times its %d bytes): '
                    'no capture bundle compresses that well; not copied (--max-expansion RATIO '
                    'raises the limit)\n' % (src, 32 << 20, size))
            expect('%s/%s' % (c, name), r, 65, stderr_is=want)
            check(c, sorted(os.listdir(s.dir)) == sorted(x for x in os.listdir(s.dir)
                                                           if x.startswith('bomb')),
                  'something was written: %r' % os.listdir(s.dir))
        r = run(['redact', '--max-expansion', '0', s.path('bomb.txt.gz')])
        expect(c + '/usage', r, 64, stderr_has="--max-expansion takes a whole number from 1 to "
               "4294967295, not '0'")


# ---- series and manifests: a sample missing, a step or sample listed twice -----

def series_copy(s, name='s'):
    dst = s.path(name)
    shutil.copytree(fixture('bundle', 'series'), dst, symlinks=True)
    return dst


def case_series_sample_folder_missing():
    """series.json lists 001; the folder is gone. The sample's half-opened
    record leaked (LeakSanitizer: 2 allocations from open_at) and the file
    was called "not readable JSON (line -1)" with 65: it is missing (66)."""
    c = 'series-sample-folder-missing'
    with Scratch() as s:
        b = series_copy(s)
        shutil.rmtree(os.path.join(b, '001'))
        for cmd in ('report', 'trend'):
            r = run([cmd, b])
            expect('%s/%s' % (c, cmd), r, 66, stderr_is='iotally: %s/001/manifest.json: error: '
                   'cannot open: No such file or directory\n' % b)


def case_series_archive_sample_missing():
    """The same in a .tar.gz series: the archive lacks leak/003/."""
    c = 'series-archive-sample-missing'
    with Scratch() as s:
        out = s.path('leak.tar.gz')
        with tarfile.open(fixture('series-bundle', 'leak.tar.gz')) as tin, \
                tarfile.open(out, 'w:gz') as tout:
            for m in tin.getmembers():
                if not m.name.startswith('leak/003/'):
                    tout.addfile(m, tin.extractfile(m) if m.isfile() else None)
        r = run(['trend', out])
        expect(c, r, 66, stderr_is="iotally: %s: error: the archive holds no file "
               "'leak/003/manifest.json'\n" % out)


def case_series_sample_is_a_file():
    """The sample's folder is a plain file: said so (it was called "a device")."""
    c = 'series-sample-is-a-file'
    with Scratch() as s:
        b = series_copy(s)
        shutil.rmtree(os.path.join(b, '001'))
        open(os.path.join(b, '001'), 'w').close()
        r = run(['report', b])
        expect(c, r, 65, stderr_is="iotally: %s/001/manifest.json: error: is not read: the "
               "folder '001' on its way is a file (a bundle's captures are read only from "
               "regular files inside it)\n" % b)


def case_manifest_step_twice():
    """The manifest lists its first step a second time: refused, naming it."""
    c = 'manifest-step-twice'
    with Scratch() as s:
        b = s.bundle()
        mp = os.path.join(b, 'manifest.json')
        with open(mp) as f:
            m = json.load(f)
        step = m['steps'][0]
        m['steps'].append(step)
        with open(mp, 'w') as f:
            json.dump(m, f)
        want = ("iotally: %s: error: manifest.json lists the step '%s' twice (a bundle iotally "
                "wrote lists each step once)\n" % (b, step['id']))
        for cmd in (['report', b], [b], ['vmmap', b]):
            expect('%s/%s' % (c, cmd[0] if len(cmd) > 1 else 'bundle'), run(cmd), 65,
                   stderr_is=want)


def case_series_sample_twice():
    """series.json lists its first sample a second time: refused, naming it."""
    c = 'series-sample-twice'
    with Scratch() as s:
        b = series_copy(s)
        mp = os.path.join(b, 'series.json')
        with open(mp) as f:
            m = json.load(f)
        m['samples'].append(dict(m['samples'][0]))
        with open(mp, 'w') as f:
            json.dump(m, f)
        want = ("iotally: %s: error: series.json lists the sample '%s' twice (samples[%d])\n"
                % (b, m['samples'][0]['dir'], len(m['samples']) - 1))
        for cmd in ('report', 'trend'):
            expect('%s/%s' % (c, cmd), run([cmd, b]), 65, stderr_is=want)


# ---- one line-length limit for ioclasscount in every command ----------------

def case_classes_long_line_every_command():
    """A 2 MiB class-names line (150,000 classes): classes read it, while
    diff, trend and report cut it at 1 MiB (the line reader's default) and
    lost the class planted at its end. The after file raises the last class
    by 5. Twice the default is enough to be cut; the readers' own limit,
    CLASSES_MAX_LINE (16 MiB), is the unit test's (unit/linereader)."""
    c = 'classes-long-line-every-command'
    n = 150000
    with Scratch() as s:
        line = ', '.join('C%07d = %d' % (i, i % 50) for i in range(n))
        last = 'C%07d = %d' % (n - 1, (n - 1) % 50)
        assert len(line) > 2 << 20 and line.endswith(last)
        a, b = s.path('before.txt'), s.path('after.txt')
        with open(a, 'w') as f:
            f.write(line + '\n')
        with open(b, 'w') as f:
            f.write(line[:-len(last)] + 'C%07d = %d' % (n - 1, (n - 1) % 50 + 5) + '\n')
        want = ['C%07d' % (n - 1), str((n - 1) % 50), str((n - 1) % 50 + 5), '+5']
        r = run(['diff', a, b], timeout=120)
        if expect(c + '/diff', r, 0):
            rows = [ln.split() for ln in r.stdout.decode().splitlines()]
            check(c + '/diff', want in rows, 'no +5 row: %r' % r.stdout[:400])
        r = run(['report', a, b], timeout=120)
        if expect(c + '/report', r, 0):
            check(c + '/report', ('C%07d' % (n - 1)) in r.stdout.decode(),
                  'the report lacks the class: %r' % r.stdout[:400])


# ---- inputs given the wrong way: a bundle on stdin, CR-only line ends --------

def case_bundle_on_stdin():
    """The complete bundle's .tar.gz, and the same tar uncompressed, piped in:
    it was "binary data" (or, uncompressed, read as a vmmap dump from inside
    the archive, exit 0); now it says bundles are not read from stdin."""
    c = 'bundle-on-stdin'
    want = ('iotally: <stdin>: error: is a tar archive: capture bundles are not read from '
            'standard input; save it to a file and name the file (or its unpacked folder)\n')
    with Scratch() as s:
        src = fixture('bundle', 'complete.tar.gz')
        plain = s.path('b.tar')
        with gzip.open(src) as fin, open(plain, 'wb') as fout:
            shutil.copyfileobj(fin, fout)
        for path in (src, plain):
            for cmd in ([], ['report'], ['vmmap'], ['classes'], ['track']):
                with open(path, 'rb') as f:
                    r = run(cmd + ['-'], stdin=f)
                expect('%s/%s/%s' % (c, os.path.basename(path), cmd[0] if cmd else 'auto'), r,
                       65, stderr_is=want)


def case_cr_only_line_ends():
    """A vmmap dump and an ioclasscount listing with every LF turned into a CR
    were "the input is empty" (the first line, a comment, held all of it) or
    "no ioclasscount output lines": the line ends are named instead."""
    c = 'cr-only-line-ends'
    with Scratch() as s:
        for kind, name in (('vmmap', 'synthetic-gpu-purge-states.txt'),
                           ('classes', 'synthetic-ioclasscount-runs.txt')):
            with open(fixture(kind, name), 'rb') as f:
                data = f.read()
            path = s.path('cr-' + name)
            with open(path, 'wb') as f:
                f.write(data.replace(b'\n', b'\r'))
            want = ("iotally: %s: error: its lines end in CR alone (classic Mac OS line ends), "
                    "which no vmmap, ioreg or ioclasscount writes: the file was converted on "
                    "its way; restore the line ends (tr '\\r' '\\n' < FILE > FIXED) and read "
                    "that\n" % path)
            for cmd in ([path], ['report', path], [kind, path]):
                expect('%s/%s/%s' % (c, kind, cmd[0] if len(cmd) > 1 else 'auto'), run(cmd), 65,
                       stderr_is=want)
            # The same bytes with CRLF line ends are read as before.
            crlf = s.path('crlf-' + name)
            with open(crlf, 'wb') as f:
                f.write(data.replace(b'\n', b'\r\n'))
            expect('%s/%s/crlf' % (c, kind), run([kind, crlf]), 0)


# ---- redact: a defect of the input is 65 (73 is only for the output) ---------

def case_redact_input_defects():
    """redact of a bundle whose manifest lists a step twice was copied
    (exit 0); a member whose name no file can have (a 300-byte part) was
    73, "cannot be written", naming the output. Both are the input's: 65,
    naming the input, and nothing is left beside the output."""
    c = 'redact-input-defects'
    with Scratch() as s:
        b = s.bundle()
        mp = os.path.join(b, 'manifest.json')
        with open(mp) as f:
            m = json.load(f)
        m['steps'].append(m['steps'][-1])
        with open(mp, 'w') as f:
            json.dump(m, f)
        r = run(['redact', b, '-o', s.path('out')])
        expect(c + '/step-twice', r, 65, stderr_is="iotally: %s: error: manifest.json lists the "
               "step '%s' twice (a bundle iotally wrote lists each step once)\n"
               % (b, m['steps'][-1]['id']))
        long_name = 'b/' + 'a' * 300
        src = s.path('long.tar.gz')
        tar_with(src, complete_members() + [(long_name, b'x\n')])
        r = run(['redact', src, '-o', s.path('out.tar.gz')])
        expect(c + '/long-name', r, 65, stderr_is="iotally: %s: error: the member '%s' has a "
               "name too long for a file on this system: not copied\n" % (src, long_name))
        check(c, sorted(os.listdir(s.dir)) == ['b', 'long.tar.gz'],
              'something was written: %r' % os.listdir(s.dir))


CASES = collect_cases(globals())


def main():
    global ARGS
    ARGS = parse_bin_root()
    return run_cases(CASES, ARGS.case)


if __name__ == '__main__':
    sys.exit(main())
