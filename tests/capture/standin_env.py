"""What capture-tests.py and session-tests.py share (redact-tests.py through
capture-tests.py): a scratch folder of stand-in tools with a live target,
schema validation, and a signal sent to a running capture; the failure list,
fail/check and the case loop are tests/casecheck.py's, shared with the
scripts in tests/ and exported from here too.

The stand-ins (tests/capture/bin/) read their behaviour from the folder's
standin.conf, since iotally gives its tools a minimal environment.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

# tests/casecheck.py sits one folder up: the scripts here run with this
# folder, not tests/, first on sys.path.
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from casecheck import (FAILURES, check, collect_cases, default_signals_for_children,  # noqa: E402,F401
                       fail, iotally_env, run_cases, run_iotally)

# Cases run at once by the capture scripts: a case mostly waits on stand-ins,
# timeouts and signals, not on a core (casecheck.run_cases).
CASE_JOBS = 4

# Every script here sends iotally signals (capture, session and redact cases).
default_signals_for_children()

_HANG_SEQ = [0]


class StandinEnv:
    """A scratch folder, a folder of stand-in tools and a live target process.

    `links` maps each tool's name to its stand-in under tests/capture/bin;
    `conf` is added to (or overrides) the stand-ins' configuration."""

    def __init__(self, root, prefix, links, conf, mode=None):
        self.dir = tempfile.mkdtemp(prefix=prefix)
        if mode is not None:
            os.chmod(self.dir, mode)
        self.bin = os.path.join(self.dir, 'bin')
        os.mkdir(self.bin)
        self.capdir = os.path.join(root, 'tests', 'capture')
        for tool, standin in links.items():
            os.symlink(os.path.join(self.capdir, 'bin', standin), os.path.join(self.bin, tool))
        self.target = subprocess.Popen(['sleep', '300'])
        self.log = os.path.join(self.dir, 'calls.log')
        # `hang` sleeps this long: a number no other run uses, to find them by
        _HANG_SEQ[0] += 1
        self.hang = '1000.%d%03d' % (os.getpid(), _HANG_SEQ[0])
        self.conf = {
            'STANDIN_DATA': os.path.join(self.capdir, 'data'),
            'STANDIN_LOG': self.log,
            'STANDIN_PIDS': str(self.target.pid),
            'STANDIN_HANG': self.hang,
        }
        self.conf.update(conf)
        self.write_conf()
        # iotally's own environment: the stand-ins are NOT on PATH; only --tools-dir finds them
        self.env = iotally_env(PATH='/usr/bin:/bin')

    def write_conf(self):
        with open(os.path.join(self.bin, 'standin.conf'), 'wb') as f:
            for k, v in sorted(self.conf.items()):
                if isinstance(v, str):
                    v = v.encode()
                # printf keeps any byte (a name that is not UTF-8) exactly
                f.write(b"%s=$(printf '%%b' '%s')\n" % (k.encode(), b''.join(
                    b'\\0%03o' % c for c in v)))

    def calls(self):
        """The stand-ins' calls so far, one line each."""
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [l.rstrip('\n').rstrip() for l in f]

    def wait_log(self, pred, timeout=30):
        """Wait until `pred(calls)` holds: True, or False after `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred(self.calls()):
                return True
            time.sleep(0.01)
        return False

    def run_iotally(self, binary, *args):
        return run_iotally(binary, args, env=self.env)

    def close(self):
        self.target.kill()
        self.target.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def validate(case, root, schema, path):
    """`path` against docs/json/`schema` (tests/json-validate.py): True when it passes."""
    v = subprocess.run([sys.executable, os.path.join(root, 'tests', 'json-validate.py'),
                        os.path.join(root, 'docs', 'json', schema), path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return check(case, v.returncode == 0, '%s fails %s: %s' % (path, schema, v.stdout.decode()))


def signal_and_wait(case, p, sig, timeout=60):
    """Send `sig` to the running capture `p` and wait for its end: it must be
    killed by the signal itself (the shell's 128+N) after saying that nothing
    was left behind. Its standard error, decoded."""
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        fail(case, 'did not end after the signal')
    err = err.decode(errors='replace')
    check(case, p.returncode == -sig, 'exit %r: %s' % (p.returncode, err))
    check(case, 'nothing was left behind' in err, 'message: %s' % err)
    return err
