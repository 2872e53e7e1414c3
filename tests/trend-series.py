"""Verdicts of `iotally trend` on series built by construction.

tools/gen-trend.py writes real vmmap captures whose IOSurface (PURGE=N)
bytes follow a known shape plus seeded noise; IOAccelerator (graphics) is
noise only and IOSurface (PURGE=V) grows only in the leak shape. For each
shape and several seeds the key metrics must get the verdict of their
construction, and the whole analysis (every metric's verdict, slopes and
tests) must be the same when the arguments are shuffled: samples are
ordered by the captures' Date/Time, not by argument order.

usage: trend-series.py IOTALLY ROOT
"""

import json
import os
import random
import subprocess
import sys
import tempfile

SURFACE = 'vmmap:IOSurface:N.dirty'
VOLATILE = 'vmmap:IOSurface:V.dirty'
NOISE = 'vmmap:IOAccelerator (graphics):-.dirty'
REGIONS = 'vmmap:IOAccelerator (graphics):N.dirty'

EXPECTED = {
    'leak': {SURFACE: 'LEAK', VOLATILE: 'GROWING', NOISE: 'STABLE'},
    'plateau': {SURFACE: 'PLATEAU', VOLATILE: 'STABLE', NOISE: 'STABLE'},
    'step': {SURFACE: 'STEP', VOLATILE: 'STABLE', NOISE: 'STABLE'},
    'flat': {SURFACE: 'STABLE', VOLATILE: 'STABLE', NOISE: 'STABLE'},
    # Issue 24: 128 MiB regions added over the first 10 of 24 samples, then flat.
    'rise-flat': {REGIONS: 'PLATEAU', SURFACE: 'STABLE'},
}
SAMPLES = {'rise-flat': 24}
SEEDS = [1, 2, 3, 4, 5]


def generate(root, outdir, shape, seed, samples):
    subprocess.run([sys.executable, os.path.join(root, 'tools', 'gen-trend.py'),
                    '--shape', shape, '--seed', str(seed), '--samples', str(samples),
                    outdir], check=True)
    return sorted(os.path.join(outdir, f) for f in os.listdir(outdir))


def run(binary, paths):
    proc = subprocess.run([binary, 'trend', '--format', 'json'] + paths,
                          capture_output=True, env=dict(os.environ, LC_ALL='C'))
    return proc.returncode, proc.stdout, proc.stderr.decode('utf-8', 'replace')


def analysis(doc):
    """What must not depend on argument order: every metric, in report order."""
    return [(m['name'], m['verdict'], m['slope_per_hour'], m['mann_kendall'], m['values'])
            for m in doc['metrics']]


def check_series(binary, root, tmp, shape, seed, failures):
    paths = generate(root, os.path.join(tmp, '%s-%d' % (shape, seed)), shape, seed,
                     SAMPLES.get(shape, 20))
    status, out, err = run(binary, paths)
    if status != 0:
        failures.append('%s seed %d: status %d: %s' % (shape, seed, status, err))
        return
    doc = json.loads(out)
    verdicts = {m['name']: m['verdict'] for m in doc['metrics']}
    for name, want in EXPECTED[shape].items():
        got = verdicts.get(name)
        if got != want:
            failures.append('%s seed %d: %s is %s, expected %s' % (shape, seed, name, got, want))
    if doc['order'] != 'capture-time':
        failures.append('%s seed %d: order %s' % (shape, seed, doc['order']))
    base = analysis(doc)
    rng = random.Random(seed)
    for _ in range(3):
        shuffled = paths[:]
        rng.shuffle(shuffled)
        status, out, err = run(binary, shuffled)
        if status != 0 or analysis(json.loads(out)) != base:
            failures.append('%s seed %d: shuffled arguments change the analysis' % (shape, seed))
            return


def check_few(binary, root, tmp, failures):
    paths = generate(root, os.path.join(tmp, 'few'), 'leak', 7, 4)
    status, out, _ = run(binary, paths)
    doc = json.loads(out) if status == 0 else {'metrics': []}
    if status != 0 or not doc['metrics'] or \
            any(m['verdict'] != 'INSUFFICIENT' for m in doc['metrics']):
        failures.append('four samples: every metric should be INSUFFICIENT (status %d)' % status)
    status, _, err = run(binary, paths[:2])
    if status != 65 or 'at least 3' not in err:
        failures.append('two samples: expected status 65 naming the minimum, got %d: %s'
                        % (status, err))


def main():
    binary, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in EXPECTED:
            for seed in SEEDS:
                check_series(binary, root, tmp, shape, seed, failures)
        check_few(binary, root, tmp, failures)
    for f in failures:
        print('FAIL:', f)
    print('%d series checked, %d failures' % (len(EXPECTED) * len(SEEDS) + 1, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
