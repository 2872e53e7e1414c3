"""What the planted tests of the source checks share (include-check-planted.py,
kind-check-planted.py): a copy of src/ that must pass unchanged, then each
plant appended to one file of the copy, the check run, the file restored.

A plant is (file under src/, line appended, expected message or None); the
message's {line} is the planted line's number. With a message the check must
exit 1 and print exactly it; with None it must pass (exit 0, nothing printed).
"""

import os
import shutil
import subprocess
import sys


def run_check(check, src):
    return subprocess.run([sys.executable, check, src], capture_output=True, text=True)


def copy_src(src, tmp):
    copy = os.path.join(tmp, 'src')
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns('*.build', '*.txt'))
    return copy


def clean_passes(check, copy):
    clean = run_check(check, copy)
    if clean.returncode != 0 or clean.stdout:
        print('FAIL: the unchanged tree does not pass:\n' + clean.stdout + clean.stderr)
        return False
    return True


def run_plants(check, copy, plants):
    """The number of plants the check answered wrongly (each said)."""
    failures = 0
    for rel, planted, expect in plants:
        path = os.path.join(copy, rel)
        with open(path, 'rb') as f:
            original = f.read()
        text = original if original.endswith(b'\n') else original + b'\n'
        line = text.count(b'\n') + 1
        with open(path, 'wb') as f:
            f.write(text + planted.encode() + b'\n')
        got = run_check(check, copy)
        with open(path, 'wb') as f:
            f.write(original)
        want_status, want = (1, expect.format(line=line) + '\n') if expect else (0, '')
        if got.returncode != want_status or got.stdout != want:
            failures += 1
            print('FAIL: %s planted in %s: status %d, stdout:\n%s(wanted status %d and:\n%s)'
                  % (planted, rel, got.returncode, got.stdout, want_status, want))
        else:
            print('ok: %s in %s: %s' % (planted, rel, want.rstrip() or 'passes'))
    return failures
