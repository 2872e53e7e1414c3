#!/usr/bin/env python3
"""Hostile tracking sessions and hostile names in JUnit: each case builds a
session folder (session.json beside copies of the complete fixture bundle)
or a pair of folders with one planted defect, runs the real binary and
checks the exit status, the message and, for JUnit, that a real XML parser
reads the document and that no control byte reaches the terminal. The
truth is the planted defect and util/escape.h's rule as
tests/output-escaping.py reads it (Python's strict UTF-8 decoder).

  untrusted-sessions.py IOTALLY ROOT [--case NAME]...
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

from casecheck import check, collect_cases, fail, run_cases

ARGS = None
ESCAPING = None    # tests/output-escaping.py: escape() and check_text()
UNTRUSTED = None   # tests/untrusted-inputs.py: run(), expect(), fixture(), Scratch

# What the session.json of the cases asks a user to run as root.
PLANTED_STOP = 'rm -rf ~'
OWN_STOP = 'sudo /usr/sbin/ioclasscount --stop'
# A file name that sets the terminal's title, with a byte that is not UTF-8.
HOSTILE = b'x\x1b]0;pwned\x07\xff.txt'


def run(args, timeout=20):
    """None when the run did not end within `timeout` seconds (a hang)."""
    return UNTRUSTED.run(args, timeout=timeout)


def fixture(*parts):
    return UNTRUSTED.fixture(*parts)


def ended(case, r, status):
    """The run ended (no hang) with `status`; its stderr as text, or None."""
    if not UNTRUSTED.expect(case, r, status):
        return None
    return r.stderr.decode('utf-8', 'replace')


def terminal_clean(case, data, what):
    """No C0 control but LF, no DEL, no C1 control, valid UTF-8 (what a
    terminal may be given): output-escaping.py's check."""
    return ESCAPING.check_text(case, data, what)


def make_scratch():
    """untrusted-inputs.py's scratch folder, with a session maker."""
    class Scratch(UNTRUSTED.Scratch):
        def session(self, name='s', left='off', parts=('before', 'after'),
                    steps=('before', 'after')):
            """A session folder as capture --session writes it: session.json
            with a bundle step for each of `steps`, and a copy of the
            complete fixture bundle for each of `parts`."""
            d = self.path(name)
            os.mkdir(d)
            for part in parts:
                self.bundle(os.path.join(name, part))
            index = {
                'schema': 'iotally.session/1', 'complete': True, 'aborted': None,
                'started_utc': '2026-11-29T10:00:00Z',
                'tracking': {'left': left,
                             'stop_failure': 'exit status 1' if left != 'off' else None,
                             'stop_command': PLANTED_STOP, 'io_bootarg': None,
                             'from_boot': False},
                'steps': [{'type': 'bundle', 'id': p, 'dir': p, 'status': 'ok'}
                          for p in steps],
            }
            with open(os.path.join(d, 'session.json'), 'w') as f:
                json.dump(index, f)
            return d
    return Scratch


Scratch = None


# ---- a session's parts: opened like a bundle's members ---------------------

def refused_part(case, s, what):
    """diff, report and the listing each refuse the session at once (65) with
    one message naming the session and what its before/ is."""
    want = ("iotally: %s: error: the session's 'before' bundle is %s, not a folder: a "
            "session's bundles are read only from folders inside it\n" % (s, what))
    for args in (['diff', s], ['report', s], [s]):
        r = run(args, timeout=10)
        err = ended('%s/%s' % (case, args[0] if len(args) > 1 else 'listing'), r, 65)
        if err is not None:
            check(case, want in err, '%r: stderr lacks %r: %s' % (args, want, err[:600]))


def case_session_before_fifo():
    """before/ is a named pipe: diff blocked forever opening it; every
    command refuses it without opening it."""
    with Scratch() as s:
        d = s.session(parts=('after',))
        os.mkfifo(os.path.join(d, 'before'))
        refused_part('session-before-fifo', d, 'a named pipe')


def case_session_before_link_out():
    """before is a symbolic link to a bundle folder outside the session: diff
    and report followed it (redact refused it); now every command refuses it."""
    with Scratch() as s:
        d = s.session(parts=('after',))
        shutil.copytree(fixture('bundle', 'complete'), s.path('elsewhere'))
        os.symlink(os.path.join('..', 'elsewhere'), os.path.join(d, 'before'))
        refused_part('session-before-link-out', d, 'a symbolic link')


def case_session_bundle_unreadable_status():
    """`iotally SESSION` printed an error for a bundle it could not open
    (tracking/ without a manifest) and exited 0; the listing goes on, the
    status is the error's."""
    c = 'session-bundle-unreadable-status'
    with Scratch() as s:
        d = s.session(steps=('before', 'after', 'tracking'))
        os.mkdir(os.path.join(d, 'tracking'))
        r = run([d])
        err = ended(c, r, 65)
        want = 'iotally: %s/tracking: error: not a capture bundle: no manifest.json or ' \
               'series.json\n' % d
        if err is not None:
            check(c, want in err, 'stderr lacks %r: %s' % (want, err[:600]))
            check(c, 'Before and after compared:' in r.stdout.decode(),
                  'the listing stopped at the error: %r' % r.stdout[-600:])


# ---- the command a user is told to run as root -----------------------------

def case_session_stop_command_not_from_input():
    """Tracking left maybe-on, session.json's stop_command 'rm -rf ~': the
    listing, the report's Markdown and HTML said 'run rm -rf ~'; they name
    iotally's own command."""
    c = 'session-stop-command-not-from-input'
    with Scratch() as s:
        d = s.session(left='maybe-on')
        outputs = []
        r = run([d])
        if ended(c + '/listing', r, 0) is not None:
            outputs.append(('listing', r.stdout + r.stderr))
        for fmt in ('markdown', 'html'):
            r = run(['report', '--format', fmt, d])
            if ended(c + '/' + fmt, r, 0) is not None:
                outputs.append((fmt, r.stdout + r.stderr))
        for what, out in outputs:
            text = out.decode('utf-8', 'replace')
            check(c, 'rm -rf' not in text, '%s repeats the planted command' % what)
            check(c, OWN_STOP in text, '%s does not say %r' % (what, OWN_STOP))
        # tracking left off: nothing to run, no command named
        d = s.session(name='off')
        r = run([d])
        if ended(c + '/off', r, 0) is not None:
            check(c, b'ioclasscount --stop' not in r.stderr, 'a stop command for tracking '
                  'left off: %r' % r.stderr[:300])


# ---- JUnit and pair names: one escaping rule --------------------------------

def junit_parsed(case, data, what):
    """The document read by a real XML parser (expat: XML 1.0 well-formedness,
    UTF-8 as declared), and by xmllint when the system has it."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        fail(case, '%s is not well-formed XML: %s' % (what, e))
        return None
    if shutil.which('xmllint'):
        p = subprocess.run(['xmllint', '--noout', '-'], input=data, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        check(case, p.returncode == 0, '%s: xmllint refuses it: %s' %
              (what, p.stderr.decode('utf-8', 'replace')[:300]))
    return root


def junit_strings(root):
    """Every attribute value and text of the document."""
    out = []
    for el in root.iter():
        out.extend(el.attrib.values())
        if el.text:
            out.append(el.text)
    return out


def hostile_folders(s):
    """Two folders whose one pair of classes captures is named HOSTILE."""
    for side, src in (('a', 'classes-before.txt'), ('b', 'classes-after.txt')):
        os.mkdir(s.path(side))
        shutil.copy(fixture('diff', src), os.path.join(s.path(side).encode(), HOSTILE))
    return s.path('a'), s.path('b')


def case_junit_folder_pair_names():
    """A file name with OSC 0 and a byte that is not UTF-8 in diffed folders:
    --junit - wrote it raw (not well-formed XML, the title set on the
    terminal); --junit FILE the same bytes."""
    c = 'junit-folder-pair-names'
    shown = ESCAPING.escape(HOSTILE)
    with Scratch() as s:
        a, b = hostile_folders(s)
        gate = ['--fail-if', 'classes:IOSurface > +1']
        r = run(['diff'] + gate + ['--junit', '-', a, b])
        if ended(c + '/stdout', r, 1) is not None:
            terminal_clean(c, r.stdout, '--junit - standard output')
            terminal_clean(c, r.stderr, 'standard error')
            root = junit_parsed(c, r.stdout, '--junit -')
            if root is not None:
                names = [el.get('name') for el in root.iter('testcase')]
                check(c, any(n.startswith(shown + ': ') for n in names),
                      'no case named after the pair %r: %r' % (shown, names))
        out = s.path('junit.xml')
        r = run(['diff'] + gate + ['--junit', out, a, b])
        if ended(c + '/file', r, 1) is not None and os.path.exists(out):
            with open(out, 'rb') as f:
                data = f.read()
            root = junit_parsed(c, data, '--junit FILE')
            if root is not None:
                check(c, any(shown in t for t in junit_strings(root)),
                      'the file does not name the pair %r' % shown)


def case_junit_class_subjects():
    """classes:* over captures where a class named with OSC 52, C1 CSI or
    Latin-1 grew most: the gate's subject, that name, is escaped in the
    document, the document well-formed."""
    c = 'junit-class-subjects'
    for name in (b'Evil\x1b]52;c;aGVsbG8=\x07Name', b'Csi\xc2\x9b2JName', b'Latin\xe9Name'):
        with Scratch() as s:
            for side, count in (('before.txt', b'1'), ('after.txt', b'50')):
                with open(s.path(side), 'wb') as f:
                    f.write(b'IOService = 10\n' + name + b' = ' + count + b'\n')
            r = run(['diff', '--fail-if', 'classes:* > +0', '--junit', '-',
                     s.path('before.txt'), s.path('after.txt')])
        if ended(c, r, 1) is None:
            continue
        terminal_clean(c, r.stdout, '--junit - standard output')
        terminal_clean(c, r.stderr, 'standard error')
        root = junit_parsed(c, r.stdout, '--junit -')
        if root is not None:
            check(c, any(ESCAPING.escape(name) in t for t in junit_strings(root)),
                  'no subject %r in the document' % ESCAPING.escape(name))


def case_junit_manifest_paths():
    """Two bundles whose manifests record a capture at a path holding OSC 0:
    the path reaches the case names and messages escaped."""
    c = 'junit-manifest-paths'
    planted = 'target/v\x1b]0;pwned\x07map.txt'
    with Scratch() as s:
        for side in ('a', 'b'):
            d = s.path(side)
            shutil.copytree(fixture('bundle', 'complete'), d)
            os.rename(os.path.join(d, 'target', 'vmmap.txt'), os.path.join(d, planted))
            with open(os.path.join(d, 'manifest.json')) as f:
                m = json.load(f)
            for st in m['steps']:
                if (st.get('stdout') or {}).get('path') == 'target/vmmap.txt':
                    st['stdout']['path'] = planted
            with open(os.path.join(d, 'manifest.json'), 'w') as f:
                json.dump(m, f)
        r = run(['diff', '--fail-if', 'vmmap:IOSurface.count > +40%', '--junit', '-',
                 s.path('a'), s.path('b')])
        if not check(c, r is not None, 'the run did not end'):
            return
        terminal_clean(c, r.stdout, '--junit - standard output')
        terminal_clean(c, r.stderr, 'standard error')
        root = junit_parsed(c, r.stdout, '--junit -')
        if root is not None:
            check(c, any(ESCAPING.escape(planted.encode()) in t for t in junit_strings(root)),
                  'the document does not name %r escaped' % planted)


def case_diff_gate_error_pair_names():
    """A gate no pair can answer is said once with the pairs it stopped: the
    pair names were printed with a bare fprintf, ESC and BEL raw on stderr."""
    c = 'diff-gate-error-pair-names'
    with Scratch() as s:
        a, b = hostile_folders(s)
        r = run(['diff', '--fail-if', 'classes:NoSuchClassAnywhere > +5', a, b])
        err = ended(c, r, 64)
        if err is None:
            return
        terminal_clean(c, r.stderr, 'standard error')
        want = "neither capture has a count for class 'NoSuchClassAnywhere' (names are " \
               "matched exactly, case-sensitive) (pair %s)\n" % ESCAPING.escape(HOSTILE)
        check(c, want in err, 'stderr lacks %r: %s' % (want, err[:600]))


CASES = collect_cases(globals())


def load_script(root, name):
    """A script of tests/ as a module: its helpers, one copy."""
    spec = importlib.util.spec_from_file_location(
        name.replace('-', '_'), os.path.join(root, 'tests', name + '.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    global ARGS, ESCAPING, UNTRUSTED, Scratch
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('bin', help='the iotally binary')
    ap.add_argument('root', help='the source tree (fixtures/, tests/)')
    ap.add_argument('--case', action='append', help='run only this case (repeatable)')
    ARGS = ap.parse_args()
    ARGS.bin, ARGS.root = os.path.abspath(ARGS.bin), os.path.abspath(ARGS.root)
    ESCAPING = load_script(ARGS.root, 'output-escaping')
    UNTRUSTED = load_script(ARGS.root, 'untrusted-inputs')
    UNTRUSTED.ARGS = ARGS
    Scratch = make_scratch()
    return run_cases(CASES, ARGS.case)


if __name__ == '__main__':
    sys.exit(main())
