#!/usr/bin/env python3
"""Write the iotally(1) man page from the program's own help texts.

  tools/gen-man.py BUILD/iotally > docs/iotally.1

The page is made from `iotally --help` and `iotally help COMMAND`, so it
says exactly what the binary says. A test (tests/man-check) fails when
docs/iotally.1 no longer matches; IOTALLY_REGEN=1 rewrites it.
"""

import re
import subprocess
import sys


def roff_escape(line):
    line = line.replace('\\', '\\e')
    if line.startswith(('.', "'")):
        line = '\\&' + line
    return line


def preformatted(text):
    out = ['.nf']
    out += [roff_escape(l) for l in text.rstrip('\n').split('\n')]
    out.append('.fi')
    return out


def page(binary):
    main_help = subprocess.run([binary, '--help'], capture_output=True, text=True,
                               check=True).stdout
    version = subprocess.run([binary, '--version'], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
    commands = re.findall(r'^  (\w+) +(.*)$', main_help.split('Commands:')[1], re.M)
    usage, rest = main_help.split('\n\n', 1)
    intro = rest.split('Commands:')[0].strip()
    lines = [
        '.TH IOTALLY 1 "" "iotally %s" "User Commands"' % version,
        '.SH NAME',
        'iotally \\- offline analyzer for macOS memory diagnostics',
        '.SH SYNOPSIS',
    ] + preformatted(usage) + [
        '.SH DESCRIPTION',
        roff_escape(' '.join(intro.split())),
        '.SH COMMANDS',
    ]
    for name, summary in commands:
        text = subprocess.run([binary, 'help', name], capture_output=True, text=True,
                              check=True).stdout
        lines += ['.SS %s' % name, roff_escape(summary)] + preformatted(text)
    lines += [
        '.SH EXIT STATUS',
    ] + preformatted(main_help.split('Exit status:', 1)[1].strip()) + [
        '.SH SEE ALSO',
        '.BR vmmap (1),',
        '.BR ioclasscount (8),',
        '.BR ioalloccount (8),',
        '.BR ioreg (8)',
    ]
    return '\n'.join(lines) + '\n'


def main():
    if len(sys.argv) == 4 and sys.argv[2] == '--check':
        want = page(sys.argv[1])
        path = sys.argv[3]
        import os
        if os.environ.get('IOTALLY_REGEN') == '1':
            with open(path, 'w') as f:
                f.write(want)
            print('regenerated', path)
            return 0
        with open(path) as f:
            have = f.read()
        if have != want:
            print('%s is out of date: run tools/gen-man.py %s > %s' % (path, sys.argv[1], path))
            return 1
        print('%s matches the help texts' % path)
        return 0
    sys.stdout.write(page(sys.argv[1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
