#!/usr/bin/env python3
"""Write the iotally(1) man page from the program's own help texts.

  tools/gen-man.py BUILD/iotally > docs/iotally.1

The page is made from `iotally --help` and `iotally help COMMAND`, so it
says exactly what the binary says. A test (tests/man-check) fails when
docs/iotally.1 no longer matches; IOTALLY_REGEN=1 rewrites it.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402


def roff_escape(line):
    line = line.replace('\\', '\\e').replace('-', '\\-')
    if line.startswith(('.', "'")):
        line = '\\&' + line
    return line


def preformatted(text):
    out = ['.nf']
    out += [roff_escape(l) for l in text.rstrip('\n').split('\n')]
    out.append('.fi')
    return out


def paragraph(text):
    return [roff_escape(' '.join(text.split()))]


def synopsis_line(usage):
    """"iotally <command> [options] FILE|-" as .B iotally plus italic operands."""
    words = usage.split('(')[0].split()
    out = ['.B ' + words[0]]
    for w in words[1:]:
        if w.startswith('-') or w in ('help',) or re.match(r'^[a-z]+$', w):
            out.append('.B ' + roff_escape(w))
        else:
            out.append('.I ' + roff_escape(w.strip('<>')))
    return out + ['.br']


def page(binary):
    main = helptext.main_help(binary)
    version = helptext.run(binary, '--version').split()[-1]
    lines = [
        '.TH IOTALLY 1 "" "iotally %s" "User Commands"' % version,
        '.SH NAME',
        'iotally \\- offline analyzer for macOS memory diagnostics',
        '.SH SYNOPSIS',
    ]
    for usage in main['usage']:
        lines += synopsis_line(usage)
    for name, _ in main['commands']:
        lines += synopsis_line(helptext.command_help(binary, name)['usage'])
    lines += ['.SH DESCRIPTION'] + paragraph(main['intro'])
    if main['tasks']:
        lines.append('.SS Common tasks')
        for title, commands in main['tasks']:
            lines += ['.TP'] + paragraph(title) + preformatted('\n'.join(commands))
    for p in main['after']:
        lines += ['.PP'] + paragraph(p)
    lines.append('.SH COMMANDS')
    examples = []
    for name, summary in main['commands']:
        cmd = helptext.command_help(binary, name)
        examples += cmd['examples']
        lines += ['.SS %s' % name, roff_escape(summary)] + preformatted(cmd['text'])
    lines.append('.SH EXIT STATUS')
    for code, meaning in main['exit_codes']:
        lines += ['.TP', '.B %s' % code, roff_escape(meaning)]
    lines += ['.SH ENVIRONMENT', '.TP', '.B TMPDIR'] + \
        paragraph(main['environment'].split(' is ', 1)[-1] if main['environment'].startswith('TMPDIR')
                  else main['environment'])
    lines += ['.SH EXAMPLES']
    for ex in examples:
        lines += ['.PP'] + preformatted(ex)
    lines += [
        '.SH FILES',
        'Shell completions generated from the same help texts are installed with',
        'the program: bash (\\fIshare/bash\\-completion/completions/iotally\\fR), zsh',
        '(\\fIshare/zsh/site\\-functions/_iotally\\fR) and fish',
        '(\\fIshare/fish/vendor_completions.d/iotally.fish\\fR).',
        '.SH LICENSE',
        'BSD\\-3\\-Clause; see the LICENSE file of the source distribution.',
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
