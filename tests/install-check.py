#!/usr/bin/env python3
"""`meson install` into a scratch DESTDIR installs the binary, the man page and
the bash, zsh and fish completions.

  install-check.py BUILD_DIR
"""

import os
import subprocess
import sys
import tempfile

WANT = [
    'bin/iotally',
    'share/man/man1/iotally.1',
    'share/bash-completion/completions/iotally',
    'share/zsh/site-functions/_iotally',
    'share/fish/vendor_completions.d/iotally.fish',
]


def main():
    build = sys.argv[1]
    prefix = subprocess.run(['meson', 'introspect', '--buildoptions', build],
                            capture_output=True, text=True, check=True).stdout
    import json
    opts = {o['name']: o['value'] for o in json.loads(prefix)}
    with tempfile.TemporaryDirectory() as dest:
        proc = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild',
                               '--destdir', dest], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr)
            return 1
        root = dest + opts['prefix']
        missing = [w for w in WANT if not os.path.isfile(os.path.join(root, w))]
        if missing:
            print('not installed:', ' '.join(missing))
            return 1
    print('meson install puts %d files in place' % len(WANT))
    return 0


if __name__ == '__main__':
    sys.exit(main())
