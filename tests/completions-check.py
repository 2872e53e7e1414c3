#!/usr/bin/env python3
"""Check the generated shell completions against the program itself.

  completions-check.py IOTALLY BASH_FILE ZSH_FILE FISH_FILE

Every command of `iotally --help` and every option of `iotally help COMMAND`
must be completed. The option lists are read from the help texts, and each
option is first checked against the binary: `iotally COMMAND --OPTION` must
not answer "unknown option", so a help text that lists an option the program
does not take fails here too. bash and fish are asked for their completions
for real (the completion function runs); zsh's file is syntax-checked and
its per-command block must name every option. A shell that is not installed
fails the test: tools/dev installs bash, zsh and fish.
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import helptext  # noqa: E402

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL:', msg)


def need(shell):
    path = shutil.which(shell)
    if not path:
        fail('%s is not installed (tools/dev installs it)' % shell)
    return path


def check_options_exist(binary, name, options):
    if not any(o.long == 'help' for o in options):
        fail('%s: no options read from its help text' % name)
    for o in options:
        proc = subprocess.run([binary, name, '--' + o.long], capture_output=True, text=True)
        if 'unknown option' in proc.stderr:
            fail('%s: help lists --%s, which the program does not take' % (name, o.long))


def bash_complete(path, words):
    script = ('source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _iotally; '
              'printf "%%s\\n" "${COMPREPLY[@]}"' %
              (shlex_quote(path), ' '.join(shlex_quote(w) for w in words), len(words) - 1))
    out = subprocess.run(['bash', '-c', script], capture_output=True, text=True)
    if out.returncode != 0:
        fail('bash completion failed for %r: %s' % (words, out.stderr.strip()))
    return set(out.stdout.split())


def fish_complete(path, line):
    out = subprocess.run(['fish', '--no-config', '-c',
                          'source %s; complete -C %s' % (shlex_quote(path), shlex_quote(line))],
                         capture_output=True, text=True)
    if out.returncode != 0:
        fail('fish completion failed for %r: %s' % (line, out.stderr.strip()))
    return {l.split('\t')[0] for l in out.stdout.splitlines() if l}


def shlex_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def check(got, want, what):
    missing = sorted(set(want) - got)
    if missing:
        fail('%s misses %s' % (what, ' '.join(missing)))


def main():
    binary, bash_file, zsh_file, fish_file = sys.argv[1:5]
    commands = helptext.main_help(binary)['commands']
    names = [c[0] for c in commands]
    if not names:
        fail('no commands read from iotally --help')
    opts = {}
    for name in names:
        opts[name] = helptext.command_help(binary, name)['options']
        check_options_exist(binary, name, opts[name])

    if need('bash'):
        check(bash_complete(bash_file, ['iotally', '']), names + ['help'], 'bash: iotally <TAB>')
        check(bash_complete(bash_file, ['iotally', 'help', '']), names, 'bash: iotally help <TAB>')
        for name in names:
            want = ['--' + o.long for o in opts[name]]
            check(bash_complete(bash_file, ['iotally', name, '--']), want,
                  'bash: iotally %s --<TAB>' % name)
            for o in opts[name]:
                if o.choices():
                    check(bash_complete(bash_file, ['iotally', name, '--' + o.long, '']),
                          o.choices(), 'bash: iotally %s --%s <TAB>' % (name, o.long))
    if need('fish'):
        check(fish_complete(fish_file, 'iotally '), names + ['help'], 'fish: iotally <TAB>')
        for name in names:
            want = ['--' + o.long for o in opts[name]]
            check(fish_complete(fish_file, 'iotally %s --' % name), want,
                  'fish: iotally %s --<TAB>' % name)
    if need('zsh'):
        proc = subprocess.run(['zsh', '-n', zsh_file], capture_output=True, text=True)
        if proc.returncode != 0:
            fail('zsh: %s' % proc.stderr.strip())
        with open(zsh_file) as f:
            text = f.read()
        for name in names:
            if "'%s:" % name not in text:
                fail('zsh: command %s is not listed' % name)
            block = text.split('\t%s)\n' % name, 1)
            block = block[1].split(';;', 1)[0] if len(block) == 2 else ''
            for o in opts[name]:
                if '--%s[' % o.long not in block and "--%s}'[" % o.long not in block:
                    fail('zsh: iotally %s does not complete --%s' % (name, o.long))
    if failures:
        print('%d completion problems' % len(failures))
        return 1
    print('completions list every command and option (%d commands, %d options)' %
          (len(names), sum(len(v) for v in opts.values())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
