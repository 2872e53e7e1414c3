#!/usr/bin/env python3
"""The generated bundle fixtures are what their generator writes today.

    fixtures-regenerate.py ROOT

Goldens over fixtures/bundle and fixtures/series-bundle are justified by
their construction in tests/capture/make-bundle-fixtures.py ("complete.tar.gz
packs complete/ byte for byte"). That holds only while the committed files
are the generator's output: a folder regenerated without its archive (or the
other way round) breaks the claim silently. This runs the generator on a copy
of fixtures/ and compares every file it writes with the committed one: plain
files byte for byte, archives by their uncompressed bytes (the gzip stream
itself depends on the zlib build). hostile-truncated.tar.gz is checked to be
the first 6000 bytes of complete.tar.gz, as tests/meson.build describes it.
"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

TRUNCATED_AT = 6000


def tree(root):
    out = {}
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            full = os.path.join(dirpath, name)
            out[os.path.relpath(full, root)] = full
    return out


def content(path):
    data = open(path, 'rb').read()
    return gzip.decompress(data) if path.endswith('.gz') else data


def compare(committed, regenerated, failures):
    have, want = tree(committed), tree(regenerated)
    for rel in sorted(set(have) | set(want)):
        if rel not in have:
            failures.append('%s: the generator writes it, the tree lacks it' % rel)
        elif rel not in want:
            failures.append('%s: in the tree, but the generator does not write it' % rel)
        elif content(have[rel]) != content(want[rel]):
            failures.append('%s: differs from what the generator writes' % rel)


# What make-bundle-fixtures.py writes, per folder; the rest is hand-made.
GENERATED = {
    'fixtures/bundle': ('complete', 'tampered', 'partial', 'hostile-names', 'series',
                        'complete.tar.gz'),
    'fixtures/series-bundle': ('leak', 'leak.tar.gz'),
}


def main():
    root = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory(prefix='iotally-fixgen-') as tmp:
        shutil.copytree(os.path.join(root, 'fixtures'), os.path.join(tmp, 'fixtures'))
        for sub, names in GENERATED.items():
            for name in names:   # only what the generator writes may come back
                p = os.path.join(tmp, sub, name)
                if os.path.isdir(p):
                    shutil.rmtree(p)
                elif os.path.exists(p):
                    os.unlink(p)
        gen = os.path.join(root, 'tests', 'capture', 'make-bundle-fixtures.py')
        r = subprocess.run([sys.executable, gen], cwd=tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            print('FAIL the generator exited %d: %s' % (r.returncode, r.stderr.decode()[-2000:]))
            return 1
        for sub, names in GENERATED.items():
            for name in names:
                have = os.path.join(root, sub, name)
                want = os.path.join(tmp, sub, name)
                if os.path.isdir(want) or os.path.isdir(have):
                    compare(have, want, failures)
                elif not os.path.exists(have):
                    failures.append('%s/%s: the generator writes it, the tree lacks it'
                                    % (sub, name))
                elif content(have) != content(want):
                    failures.append('%s/%s: differs from what the generator writes'
                                    % (sub, name))
    bundle = os.path.join(root, 'fixtures', 'bundle')
    whole = open(os.path.join(bundle, 'complete.tar.gz'), 'rb').read()
    cut = open(os.path.join(bundle, 'hostile-truncated.tar.gz'), 'rb').read()
    if cut != whole[:TRUNCATED_AT]:
        failures.append('hostile-truncated.tar.gz: not the first %d bytes of complete.tar.gz'
                        % TRUNCATED_AT)
    for f in failures:
        print('FAIL ' + f)
    if not failures:
        print('ok: the generated fixtures are the generator\'s output')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
