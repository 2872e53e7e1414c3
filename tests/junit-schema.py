#!/usr/bin/env python3
"""The JUnit XML of `iotally diff` and `iotally trend`, as CI systems read it.

Each document written by the runs below must:
- validate against tests/junit.xsd (the schema Jenkins' xUnit plugin checks
  JUnit files with; its comment says where it comes from), with xmllint;
- give every test case its own classname + name (GitLab keeps only the first
  of two cases that share them; Jenkins merges their history): two folders
  holding two vmmap pairs and one classes pair with the same gates;
- carry tests, failures and errors on <testsuites> and on every <testsuite>,
  equal to the cases counted here, and `skipped` on a suite that has some;
- put each message in the `message` attribute and the element's text (GitLab
  shows the text only);
- write byte figures with binary units beside the exact digits, and the units
  must say the same amount: "+100663296 (+96 MiB)", "~" when rounded.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


UNITS = {'B': 1, 'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30, 'TiB': 1 << 40}
FIGURE = re.compile(r'([+-]?\d+) \((~?)([+-]?\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB)\)')


def check_units(message, where):
    """Every "N (X UNIT)" of a message: X UNIT is N to two decimals, "~" iff inexact."""
    found = FIGURE.findall(message)
    for digits, tilde, value, unit in found:
        exact = int(digits)
        scaled = float(value) * UNITS[unit]
        check(abs(exact - scaled) <= 0.005 * UNITS[unit] + 1e-9,
              f'{where}: {digits} is not {value} {unit}')
        hundredths = exact * 100 / UNITS[unit]
        check((tilde == '~') == (hundredths != int(hundredths)),
              f'{where}: {digits} ({tilde}{value} {unit}): "~" must mark a rounded figure')
        check(UNITS[unit] == 1 or abs(exact) >= UNITS[unit],
              f'{where}: {digits} in {unit}: the unit is the largest with a value of at least 1')
    return len(found)


def check_document(path, label, expect_units):
    proc = subprocess.run(['xmllint', '--noout', '--schema', SCHEMA, path],
                          capture_output=True, text=True)
    check(proc.returncode == 0, f'{label}: not valid against tests/junit.xsd:\n{proc.stderr}')
    root = ET.parse(path).getroot()
    check(root.tag == 'testsuites', f'{label}: the root is <{root.tag}>')
    seen, total = set(), {'tests': 0, 'failures': 0, 'errors': 0}
    units = 0
    for suite in root.iter('testsuite'):
        counts = {'tests': 0, 'failures': 0, 'errors': 0, 'skipped': 0}
        for case in suite.findall('testcase'):
            key = (case.get('classname'), case.get('name'))
            check(key not in seen, f'{label}: two test cases are {key}')
            seen.add(key)
            counts['tests'] += 1
            for element, count in (('failure', 'failures'), ('error', 'errors'),
                                   ('skipped', 'skipped')):
                for e in case.findall(element):
                    counts[count] += 1
                    check(e.get('message') and e.text == e.get('message'),
                          f'{label}: {key}: <{element}> text differs from its message')
                    units += check_units(e.get('message'), f'{label}: {key}')
            for e in case.findall('system-out'):
                units += check_units(e.text or '', f'{label}: {key}')
        for k in ('tests', 'failures', 'errors'):
            check(suite.get(k) == str(counts[k]),
                  f'{label}: suite {suite.get("name")!r}: {k}={suite.get(k)}, cases say {counts[k]}')
            total[k] += counts[k]
        check(suite.get('skipped') == (str(counts['skipped']) if counts['skipped'] else None),
              f'{label}: suite {suite.get("name")!r}: skipped={suite.get("skipped")}, '
              f'cases say {counts["skipped"]}')
    for k, v in total.items():
        check(root.get(k) == str(v), f'{label}: <testsuites {k}={root.get(k)!r}>, cases say {v}')
    check(not expect_units or units > 0, f'{label}: no byte figure with its binary unit')
    return root


def run(args, junit, label, expect_units=True):
    proc = subprocess.run([BINARY] + args[:1] + ['--junit', junit] + args[1:], cwd=ROOT,
                          capture_output=True, env=dict(os.environ, LC_ALL='C'))
    check(os.path.exists(junit), f'{label}: no JUnit file (status {proc.returncode})')
    if os.path.exists(junit):
        return check_document(junit, label, expect_units)
    return None


def main():
    global BINARY, ROOT, SCHEMA
    BINARY, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    SCHEMA = os.path.join(ROOT, 'tests', 'junit.xsd')
    if not shutil.which('xmllint'):
        print('xmllint (Debian: libxml2-utils) is needed to check the JUnit schema')
        return 1
    tmp = tempfile.mkdtemp(prefix='iotally-junit-')
    try:
        # Two vmmap pairs and a classes pair under the same gates.
        for side in ('before', 'after'):
            d = os.path.join(tmp, side)
            os.mkdir(d)
            for name in ('app-vmmap.txt', 'second-app-vmmap.txt'):
                shutil.copy(os.path.join(ROOT, 'fixtures', 'diff', f'vmmap-{side}.txt'),
                            os.path.join(d, name))
            shutil.copy(os.path.join(ROOT, 'fixtures', 'diff', f'classes-{side}.txt'),
                        os.path.join(d, 'ioreg.txt'))
        with open(os.path.join(tmp, 'after', 'only-after.txt'), 'w') as f:
            f.write('not a capture\n')
        gates = ['--fail-if', 'vmmap:gpu.dirty > +256M', '--fail-if',
                 'vmmap:IOAccelerator (graphics):N.vsize > +100M', '--fail-if',
                 'vmmap:IOSurface.count > +50', '--fail-if', 'classes:* > +100',
                 '--fail-if', 'alloc:instance > +1MiB', '--fail-if', 'track:total > +1M']
        before, after = os.path.join(tmp, 'before'), os.path.join(tmp, 'after')
        root = run(['diff'] + gates + [before, after], os.path.join(tmp, 'folders.xml'),
                   'two vmmap pairs')
        if root is not None:
            names = [c.get('name') for c in root.iter('testcase')
                     if c.get('classname') == 'iotally.diff.vmmap']
            check('app-vmmap.txt: vmmap:gpu.dirty > +256M' in names and
                  'second-app-vmmap.txt: vmmap:gpu.dirty > +256M' in names,
                  f'two vmmap pairs: the cases do not name their pair: {names}')
            check(root.get('tests') == '10' and root.get('failures') == '2' and
                  root.get('errors') == '0',
                  f'two vmmap pairs: totals {root.attrib} (10 cases: 3 vmmap gates on 2 pairs, '
                  '2 gates on the classes pair, the skipped track gate and the unpaired file; '
                  'the IOAccelerator gate trips on both vmmap pairs (+384 MiB over +100M); '
                  'alloc:instance grew by exactly its +1MiB, which passes)')
        run(['diff', '--strict'] + gates + [before, after], os.path.join(tmp, 'strict.xml'),
            'errors with --strict')
        run(['diff'] + gates + [os.path.join(ROOT, 'fixtures/diff-folders/before'),
                                os.path.join(ROOT, 'fixtures/diff-folders/after-unpaired')],
            os.path.join(tmp, 'fixtures.xml'), 'the diff-folders fixtures')
        run(['diff', '--fail-if', 'vmmap:IOSurface.count > +1', '--fail-if',
             'vmmap:gpu.vsize > +1M', 'fixtures/diff/vmmap-before.txt',
             'fixtures/diff/vmmap-after.txt'], os.path.join(tmp, 'files.xml'), 'two files')
        run(['diff', '--fail-if', 'vmmap:IOSurface.count > +1',
             'fixtures/diff/vmmap-before.txt', 'fixtures/diff/track-after.txt'],
            os.path.join(tmp, 'kinds.xml'), 'a pair of two kinds', expect_units=False)
        run(['trend', '--fail-on', 'leak', '--fail-if', 'vmmap:IOSurface.dirty slope > 10MiB/h']
            + sorted(os.path.join('fixtures/trend/leak', f)
                     for f in os.listdir(os.path.join(ROOT, 'fixtures/trend/leak'))),
            os.path.join(tmp, 'trend.xml'), 'trend', expect_units=False)
    finally:
        shutil.rmtree(tmp)
    for f in failures:
        print('FAILED:', f)
    print('%d problems' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
