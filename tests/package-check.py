#!/usr/bin/env python3
"""The packages, built and checked as users get them (tools/dev package).

  package-check.py SOURCE_ROOT BUILD_DIR OUT_DIR

1. The source tarball: `meson dist` of the committed tree (BUILD_DIR is a
   configured build folder of SOURCE_ROOT), unpacked into OUT_DIR.
2. The unpacked tarball builds the Debian package the way Debian builds
   it: `dpkg-buildpackage -b` with the nocheck profile, which builds the
   executable, its man page and completions alone (debian/rules).
3. The unpacked tarball passes a subset of the suites, with the binary
   built from it: every golden case (one command each, its output byte
   for byte) and the man page against the binary's help texts. The goldens
   read fixtures, stand-in tools and documents from all over the tree, so a
   file the tarball lacks fails one of them; the whole suite is not run
   again (the `test` stage ran it on the same commit, and a second run
   costs as much as the stage itself: docs/testing.md).
4. The .deb installed with dpkg -i: `iotally --version`, `man iotally` and
   the bash completion from the installed files, then removed with dpkg -r,
   leaving no file behind. It needs root, and refuses to run where iotally
   is already installed as a package.
5. The Homebrew formula (packaging/homebrew/iotally.rb): `ruby -c` where
   Ruby is installed (said when it is not), its version and tarball name
   those of meson.build, a Homebrew formula for every library meson.build
   asks for.

Each step prints its time; the first failure stops the check.
"""

import concurrent.futures
import contextlib
import glob
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

STEP_TIMES = []


class Failed(Exception):
    pass


def run(cmd, **kw):
    """Run cmd; its output is shown only when it fails."""
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-6000:])
        raise Failed('%s: exit status %d' % (' '.join(cmd), proc.returncode))
    return proc.stdout


@contextlib.contextmanager
def step(name):
    start = time.monotonic()
    print('== %s' % name, flush=True)
    try:
        yield
    finally:
        took = time.monotonic() - start
        STEP_TIMES.append((name, took))
        print('   %s: %.1f s' % (name, took), flush=True)


def project_version(root):
    text = open(os.path.join(root, 'meson.build'), encoding='utf-8').read()
    m = re.search(r"project\('iotally'.*?version\s*:\s*'([^']+)'", text, re.S)
    if not m:
        raise Failed('meson.build: no project version')
    return m.group(1)


def debian_version(root):
    first = open(os.path.join(root, 'debian', 'changelog'), encoding='utf-8').readline()
    m = re.match(r'^iotally \(([^)]+)\) ', first)
    if not m:
        raise Failed('debian/changelog: first line is not "iotally (VERSION) ..."')
    return m.group(1)


def make_dist(build, version):
    """meson dist of the committed tree; the tarball's path."""
    run(['meson', 'dist', '-C', build, '--no-tests', '--formats', 'gztar', '--allow-dirty'])
    tarball = os.path.join(build, 'meson-dist', 'iotally-%s.tar.gz' % version)
    if not os.path.isfile(tarball):
        raise Failed('meson dist wrote no %s' % tarball)
    return tarball


def unpack(tarball, out):
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        top = {n.split('/', 1)[0] for n in names}
        if len(top) != 1:
            raise Failed('%s: not one top folder: %s' % (tarball, sorted(top)[:5]))
        tar.extractall(out, filter='data') if hasattr(tarfile, 'data_filter') \
            else tar.extractall(out)
    tree = os.path.join(out, top.pop())
    print('   %s: %d members, %.1f MiB' % (os.path.basename(tarball), len(names),
                                          os.path.getsize(tarball) / 1048576))
    return tree


def build_deb(tree, out, version):
    env = dict(os.environ, DEB_BUILD_OPTIONS='nocheck parallel=%d' % (os.cpu_count() or 1))
    run(['dpkg-buildpackage', '-b', '-us', '-uc', '-Pnocheck'], cwd=tree, env=env)
    arch = run(['dpkg-architecture', '-qDEB_HOST_ARCH']).strip()
    deb = os.path.join(out, 'iotally_%s_%s.deb' % (version, arch))
    if not os.path.isfile(deb):
        raise Failed('dpkg-buildpackage wrote no %s' % deb)
    return deb


def built_binary(tree):
    found = glob.glob(os.path.join(tree, 'obj-*', 'iotally'))
    if len(found) != 1:
        raise Failed('no single obj-*/iotally in %s: %s' % (tree, found))
    return found[0]


_golden = None


def golden_case(binary, tree, case):
    """One golden case through tests/golden-run.py of the tree: (case, status, output)."""
    global _golden
    if _golden is None:
        spec = importlib.util.spec_from_file_location(
            'golden_run', os.path.join(tree, 'tests', 'golden-run.py'))
        _golden = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_golden)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = _golden.run_case(binary, tree, case)
    return case, status, out.getvalue()


def check_goldens(binary, tree):
    golden = os.path.join(tree, 'tests', 'golden')
    cases = sorted('tests/golden/%s/%s' % (kind, case)
                   for kind in os.listdir(golden) if os.path.isdir(os.path.join(golden, kind))
                   for case in os.listdir(os.path.join(golden, kind))
                   if os.path.isdir(os.path.join(golden, kind, case)))
    if not cases:
        raise Failed('the tarball holds no golden case')
    env_keep = os.environ.get('IOTALLY_REGEN')
    os.environ.pop('IOTALLY_REGEN', None)
    failed = []
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for case, status, text in pool.map(golden_case, [binary] * len(cases),
                                               [tree] * len(cases), cases, chunksize=8):
                if status not in (0, 77):
                    failed.append(case)
                    sys.stdout.write(text)
    finally:
        if env_keep is not None:
            os.environ['IOTALLY_REGEN'] = env_keep
    print('   %d golden cases, %d failed' % (len(cases), len(failed)))
    if failed:
        raise Failed('golden cases failed from the tarball: %s' % ' '.join(failed[:10]))


def check_man_page(binary, tree):
    run([sys.executable, os.path.join(tree, 'tools', 'gen-man.py'), binary, '--check',
         os.path.join(tree, 'docs', 'iotally.1')])


def dpkg_status(package):
    proc = subprocess.run(['dpkg-query', '-W', '-f', '${Status}', package],
                          capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else 'unknown'


def installed_files():
    """The files (not folders) the installed package holds."""
    listed = [p for p in run(['dpkg', '-L', 'iotally']).splitlines()
              if p.startswith('/') and p != '/.']
    return [p for p in listed if not os.path.isdir(p)], [p for p in listed if os.path.isdir(p)]


def expect(ok, what):
    if not ok:
        raise Failed(what)
    print('   ok: %s' % what)


def check_installed(version):
    files, _ = installed_files()
    for want in ['/usr/bin/iotally', '/usr/share/man/man1/iotally.1.gz',
                 '/usr/share/bash-completion/completions/iotally',
                 '/usr/share/zsh/vendor-completions/_iotally',
                 '/usr/share/fish/vendor_completions.d/iotally.fish',
                 '/usr/share/doc/iotally/copyright']:
        expect(want in files, 'the package installs %s' % want)
    out = run(['iotally', '--version'], env=dict(os.environ, PATH='/usr/bin:/bin'))
    expect(out.split() == ['iotally', version], "`iotally --version` says 'iotally %s' (%r)" %
           (version, out.strip()))
    expect(run(['man', '-w', 'iotally']).strip() == '/usr/share/man/man1/iotally.1.gz',
           '`man -w iotally` finds the installed page')
    page = run(['man', 'iotally'], env=dict(os.environ, MANPAGER='cat', MANWIDTH='100',
                                             LC_ALL='C.UTF-8'))
    expect('offline analyzer for macOS memory diagnostics' in page and
           'iotally %s' % version in page and 'EXIT STATUS' in page,
           '`man iotally` shows the page (%d lines)' % page.count('\n'))
    comp = '/usr/share/bash-completion/completions/iotally'
    for words, want in [(['iotally', 'di'], 'diff'), (['iotally', 'diff', '--ju'], '--junit'),
                        (['iotally', 'help', 'vm'], 'vmmap')]:
        script = ('source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _iotally; '
                  'printf "%%s\\n" "${COMPREPLY[@]}"' %
                  (comp, ' '.join("'%s'" % w for w in words), len(words) - 1))
        got = run(['bash', '--norc', '--noprofile', '-c', script]).split()
        expect(want in got, 'bash completes %r with %s (%s)' % (' '.join(words), want,
                                                               ' '.join(got[:8])))


def check_deb(deb, version):
    if os.geteuid() != 0:
        raise Failed('dpkg -i needs root: run tools/dev package as root')
    before = dpkg_status('iotally')
    if 'installed' in before.split() and 'not-installed' not in before.split():
        raise Failed('iotally is installed on this machine as a package (%s): the check '
                     'installs and removes its own; remove it first (dpkg -r iotally)' % before)
    contents = run(['dpkg-deb', '--contents', deb])
    print('   %s: %d entries' % (os.path.basename(deb), contents.count('\n')))
    files, folders = [], []
    try:
        run(['dpkg', '-i', deb])
        files, folders = installed_files()
        check_installed(version)
    finally:
        # removed whatever happened, also after a failed or partial install
        if not files and dpkg_status('iotally') != 'unknown':
            with contextlib.suppress(Failed):
                files, folders = installed_files()
        if dpkg_status('iotally') != 'unknown':
            run(['dpkg', '-r', 'iotally'])
    left = [f for f in files if os.path.lexists(f)]
    expect(not left, 'dpkg -r leaves none of the %d files (%s)' % (len(files), ' '.join(left)))
    # a folder that stays must belong to another package
    mine = [d for d in folders if os.path.isdir(d) and
            subprocess.run(['dpkg-query', '-S', d], capture_output=True).returncode != 0]
    expect(not mine, 'dpkg -r leaves no folder of its own (%s)' % ' '.join(mine))
    status = dpkg_status('iotally')
    expect('installed' not in status.split(), 'dpkg knows iotally as removed (%s)' % status)


# meson dependency name -> Homebrew formula, and those macOS provides.
def brew_formulas():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location(
        'workflow_check', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                       'workflow-check.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.BREW_FORMULA, mod.meson_dependencies


def check_formula(root, version):
    path = os.path.join(root, 'packaging', 'homebrew', 'iotally.rb')
    text = open(path, encoding='utf-8').read()
    ruby = shutil.which('ruby')
    if ruby:
        expect(run([ruby, '-c', path]).strip() == 'Syntax OK', 'ruby -c: Syntax OK')
    else:
        print('   not checked: no ruby here (tools/dev package installs it); the rest is')
    url = re.search(r'^\s*url "([^"]+)"', text, re.M)
    expect(url and url.group(1).endswith('/iotally-%s.tar.gz' % version),
           "the formula's url names meson dist's tarball iotally-%s.tar.gz" % version)
    expect(re.search(r'^\s*license "BSD-3-Clause"$', text, re.M), 'the license is meson.build\'s')
    depends = set(re.findall(r'^\s*depends_on "([^"]+)"\s*$', text, re.M)) | \
        set(re.findall(r'^\s*uses_from_macos "([^"]+)"', text, re.M))
    table, meson_dependencies = brew_formulas()
    for dep in sorted(meson_dependencies(root)):
        if dep == 'cmocka':
            continue      # the tests' only: the formula builds with -Dtests=false
        formula = table.get(dep, '?')
        if formula == '?':
            raise Failed('meson dependency %s has no Homebrew formula in '
                         'tests/workflow-check.py' % dep)
        if formula:
            expect(formula in depends, 'the formula depends on %s (meson: %s)' % (formula, dep))
    expect('-Dtests=false' in text, 'the formula builds without the tests')


def main():
    root, build, out = [os.path.abspath(a) for a in sys.argv[1:4]]
    version = project_version(root)
    deb_version = debian_version(root)
    try:
        if deb_version.rsplit('-', 1)[0] != version:
            raise Failed('debian/changelog is at %s, meson.build at %s: add a changelog entry'
                         % (deb_version, version))
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        with step('meson dist'):
            tarball = make_dist(build, version)
            tree = unpack(tarball, out)
        with step('the .deb built from the tarball'):
            deb = build_deb(tree, out, deb_version)
        binary = built_binary(tree)
        with step('the tarball: every golden case, the man page'):
            check_goldens(binary, tree)
            check_man_page(binary, tree)
        with step('the .deb installed, used, removed'):
            check_deb(deb, version)
        with step('the Homebrew formula'):
            check_formula(root, version)
    except Failed as e:
        print('FAILED: %s' % e)
        return 1
    print('packages: ok (%s)' % ', '.join('%s %.0f s' % t for t in STEP_TIMES))
    return 0


if __name__ == '__main__':
    sys.exit(main())
