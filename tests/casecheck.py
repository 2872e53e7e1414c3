"""What the test scripts share: one failure list, fail/check keyed by case,
the environment iotally runs in under test, the loop that runs the cases
and gives the exit status, and stop() for the scripts that end at their
first failure.

Used by untrusted-inputs.py and output-escaping.py here, by
capture/standin_env.py (and through it capture-tests.py, session-tests.py
and redact-tests.py), and for stop() by duckdb-fleet.py, duckdb-signatures.py,
report-md-check.py, signature-check.py, vmmap-shapes.py and vmmap-stream.py.
A script in tests/ imports it as it is (Python puts the script's own folder
first on sys.path); one in tests/capture/ gets tests/ on the path from
standin_env.py.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

# Every failure, as 'case: message'. One list for a whole run: a script that
# loads another (redact-tests.py loads capture-tests.py) adds to the same one.
FAILURES = []


def fail(case, msg):
    FAILURES.append('%s: %s' % (case, msg))
    print('FAIL %s: %s' % (case, msg))


def check(case, cond, msg):
    """`cond`, after recording `msg` as a failure of `case` when it is false."""
    if not cond:
        fail(case, msg)
    return cond


def stop(msg):
    """Say `msg` and end the script with status 1: for the scripts that stop
    at their first failure (what follows it would check nothing)."""
    print('FAIL: ' + msg)
    sys.exit(1)


# The signals iotally catches (util/cleanup.c): its rule keeps one ignored
# when it starts ignored (POSIX lets a parent do that: nohup ignores SIGHUP,
# a shell's background job SIGINT), so a test that sends one must start its
# child with the default disposition, whatever started the test.
CAUGHT_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def default_signals_for_children():
    """Give the signals iotally catches their default disposition in every
    child started from here on: SIGTERM and SIGHUP default here too; SIGINT
    keeps Python's KeyboardInterrupt handler (reset to default by exec), so
    Ctrl-C still ends the script with its cleanup."""
    for sig in CAUGHT_SIGNALS:
        if sig == signal.SIGINT:
            if signal.getsignal(sig) == signal.SIG_IGN:
                signal.signal(sig, signal.default_int_handler)
        else:
            signal.signal(sig, signal.SIG_DFL)


def iotally_env(**override):
    """The environment iotally runs in: the caller's, in the C locale and UTC
    (messages and dates the same on every machine), with `override` on top."""
    env = dict(os.environ)
    env.update({'LC_ALL': 'C', 'TZ': 'UTC'})
    env.update(override)
    return env


def run_iotally(binary, args, env=None, **kw):
    """`binary` with `args`, standard output and error captured; `kw` goes to
    subprocess.run (cwd, stdin, timeout: 120 s unless given)."""
    kw.setdefault('timeout', 120)
    return subprocess.run([binary] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE,
                          env=iotally_env() if env is None else env, **kw)


def collect_cases(namespace):
    """{name: function} of the `case_*` functions in `namespace` (a module's
    globals()): case_bundle_folder is the case 'bundle-folder'. (So no name
    this module exports starts with case_.)"""
    return {name[5:].replace('_', '-'): fn for name, fn in list(namespace.items())
            if name.startswith('case_') and callable(fn)}


def run_cases(cases, names=None, jobs=1):
    """Run `names` (all of `cases`, sorted, when None), one 'ok'/'FAIL' line
    each and a count at the end: the exit status, 1 when any failed.

    `jobs` > 1 runs that many cases at once, each in a forked process of its
    own: for scripts whose cases mostly wait (on stand-ins, timeouts,
    signals), so that their wall time is not the sum of those waits. A case
    must then keep to its own scratch folder, as every case here does."""
    names = sorted(cases) if not names else names
    # IOTALLY_CASE_JOBS=1 runs one case at a time, in this process (to debug one).
    jobs = int(os.environ.get('IOTALLY_CASE_JOBS', jobs))
    if jobs > 1 and len(names) > 1 and hasattr(os, 'fork'):
        failed = _run_cases_forked(cases, names, jobs)
    else:
        failed = 0
        for name in names:
            before = len(FAILURES)
            start = time.monotonic()
            cases[name]()
            ok = len(FAILURES) == before
            failed += 0 if ok else 1
            _say_case(name, ok, time.monotonic() - start)
    print('%d passed, %d failed' % (len(names) - failed, failed))
    return 1 if FAILURES else 0


def _say_case(name, ok, seconds):
    # The seconds each case took: where a slow script spends its time.
    print('%s %s (%.1f s)' % ('ok  ' if ok else 'FAIL', name, seconds), flush=True)


def _run_case_child(fn, log):
    """In a forked child: run the case with its output into `log`; never return."""
    status = 2
    try:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        fn()
        status = 1 if FAILURES else 0
    except BaseException:  # noqa: B902 -- the parent reports it as the case's failure
        import traceback
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def _run_cases_forked(cases, names, jobs):
    """run_cases() with `jobs` cases at a time: each case's output is printed
    whole when it ends; the number of cases that failed."""
    import tempfile
    waiting = list(names)
    running = {}
    failed = 0
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            log = tempfile.TemporaryFile()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _run_case_child(cases[name], log)
            running[pid] = (name, log, time.monotonic())
        pid, status = os.wait()
        if pid not in running:
            continue
        name, log, start = running.pop(pid)
        log.seek(0)
        out = log.read().decode(errors='replace')
        log.close()
        sys.stdout.write(out)
        ok = os.waitstatus_to_exitcode(status) == 0
        if not ok:
            failed += 1
            FAILURES.append('%s: failed (status %d)' % (name, os.waitstatus_to_exitcode(status)))
        _say_case(name, ok, time.monotonic() - start)
    return failed


def parse_bin_root():
    """The arguments of a case script run as `SCRIPT IOTALLY ROOT [--case
    NAME]...`: .bin and .root made absolute, .case the names asked for."""
    ap = argparse.ArgumentParser()
    ap.add_argument('bin')
    ap.add_argument('root')
    ap.add_argument('--case', action='append')
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.root = os.path.abspath(args.root)
    return args


def finish():
    """The exit status of a script that checks without cases: 1 when anything failed."""
    if FAILURES:
        print('%d failure(s)' % len(FAILURES))
        return 1
    print('ok')
    return 0
