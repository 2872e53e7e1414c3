#!/usr/bin/env python3
"""Write bash, zsh or fish completions for iotally from its own help texts.

  tools/gen-completions.py BUILD/iotally bash|zsh|fish > FILE

Commands come from `iotally --help`, options (and whether they take a value,
and the values a description lists as 'a (default), b or c') from each
`iotally help COMMAND`, through tools/helptext.py: a command or option added
to a help text is completed without editing this file. meson builds the
three files next to the binary and installs them;
tests/completions-check.py checks them against the help texts.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helptext  # noqa: E402

HEADER = 'iotally completion, generated from the help texts by tools/gen-completions.py'
MAIN_OPTIONS = [('help', 'h', 'show the commands'), ('version', None, 'print the version')]


def short_desc(text, width=60):
    text = ' '.join(text.split()).split('; ')[0]
    if len(text) <= width:
        return text
    cut = text[:width].rsplit(' ', 1)[0]
    return cut.rstrip(',;:(') + '...'


def load(binary):
    main = helptext.main_help(binary)
    commands = []
    for name, summary in main['commands']:
        commands.append((name, summary, helptext.command_help(binary, name)['options']))
    return commands


def bash(commands):
    out = ['# bash ' + HEADER, '', '_iotally()', '{',
           '\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}',
           '\tlocal cmd="" i',
           '\tfor ((i = 1; i < COMP_CWORD; i++)); do',
           '\t\tcase ${COMP_WORDS[i]} in',
           '\t\t-*) ;;',
           '\t\t*) cmd=${COMP_WORDS[i]}; break ;;',
           '\t\tesac',
           '\tdone',
           '\tlocal opts="" fileopts="" argopts=""',
           '\tcase $cmd in']
    names = ' '.join(c[0] for c in commands)
    out += ['\t"")',
            '\t\tif [[ $cur == -* ]]; then',
            '\t\t\tCOMPREPLY=($(compgen -W "%s" -- "$cur"))' %
            ' '.join(['--help', '-h', '--version']),
            '\t\telse',
            '\t\t\tCOMPREPLY=($(compgen -W "%s help" -- "$cur") $(compgen -f -- "$cur"))' % names,
            '\t\tfi',
            '\t\treturn ;;',
            '\thelp)',
            '\t\tCOMPREPLY=($(compgen -W "%s" -- "$cur"))' % names,
            '\t\treturn ;;']
    for name, _, options in commands:
        flags = []
        for o in options:
            flags.append('--' + o.long)
            if o.short:
                flags.append('-' + o.short)
        files = ['--' + o.long for o in options if o.takes_file()]
        values = ['--' + o.long for o in options if o.arg and not o.takes_file()]
        out += ['\t%s)' % name,
                '\t\topts="%s"' % ' '.join(flags),
                '\t\tfileopts="%s"' % ' '.join(files),
                '\t\targopts="%s"' % ' '.join(values)]
        for o in options:
            if o.choices():
                out += ['\t\t[[ $prev == --%s ]] && { COMPREPLY=($(compgen -W "%s" -- "$cur")); '
                        'return; }' % (o.long, ' '.join(o.choices()))]
        out += ['\t\t;;']
    out += ['\tesac',
            '\tif [[ " $fileopts " == *" $prev "* ]]; then',
            '\t\tCOMPREPLY=($(compgen -f -- "$cur"))',
            '\telif [[ " $argopts " == *" $prev "* ]]; then',
            '\t\tCOMPREPLY=()',
            '\telif [[ $cur == -* ]]; then',
            '\t\tCOMPREPLY=($(compgen -W "$opts" -- "$cur"))',
            '\telse',
            '\t\tCOMPREPLY=($(compgen -f -- "$cur"))',
            '\tfi',
            '}',
            'complete -o filenames -F _iotally iotally']
    return '\n'.join(out) + '\n'


def zsh_quote(text):
    return text.replace('\\', '\\\\').replace("'", "'\\''").replace('[', '\\[') \
        .replace(']', '\\]').replace(':', '\\:')


def zsh(commands):
    out = ['#compdef iotally', '# zsh ' + HEADER, '', '_iotally() {',
           '\tlocal -a commands',
           '\tcommands=(']
    for name, summary, _ in commands:
        out.append("\t\t'%s:%s'" % (name, zsh_quote(short_desc(summary))))
    out += ["\t\t'help:the help of a command'",
            '\t)',
            '\tif (( CURRENT == 2 )); then',
            "\t\t_alternative 'commands:command:_describe -t commands command commands' "
            "'files:capture:_files' 'options:option:(--help -h --version)'",
            '\t\treturn',
            '\tfi',
            '\tcase $words[2] in',
            '\thelp)',
            "\t\t_describe -t commands command commands ;;"]
    for name, _, options in commands:
        specs = []
        for o in options:
            desc = zsh_quote(short_desc(o.full))
            action = ''
            if o.arg:
                meta = zsh_quote(o.arg.strip("'"))
                if o.takes_file():
                    action = ':%s:_files' % meta
                elif o.choices():
                    action = ':%s:(%s)' % (meta, ' '.join(o.choices()))
                else:
                    action = ':%s: ' % meta
            if o.short:
                specs.append("'(-%s --%s)'{-%s,--%s}'[%s]%s'" % (o.short, o.long, o.short,
                                                                  o.long, desc, action))
            else:
                specs.append("'--%s[%s]%s'" % (o.long, desc, action))
        out.append('\t%s)' % name)
        out.append('\t\t_arguments -S \\')
        out += ['\t\t\t%s \\' % s for s in specs]
        out.append("\t\t\t'*:capture:_files' ;;")
    out += ['\t*)',
            "\t\t_files ;;",
            '\tesac',
            '}',
            '',
            '_iotally "$@"']
    return '\n'.join(out) + '\n'


def fish_quote(text):
    return "'" + text.replace('\\', '\\\\').replace("'", "\\'") + "'"


def fish(commands):
    names = ' '.join(c[0] for c in commands)
    out = ['# fish ' + HEADER,
           'complete -c iotally -f',
           "complete -c iotally -n '__fish_use_subcommand' -F",
           "complete -c iotally -n '__fish_use_subcommand' -s h -l help -d 'show the commands'",
           "complete -c iotally -n '__fish_use_subcommand' -l version -d 'print the version'",
           "complete -c iotally -n '__fish_use_subcommand' -a help -d 'the help of a command'",
           "complete -c iotally -n '__fish_seen_subcommand_from help' -a '%s'" % names]
    for name, summary, options in commands:
        out.append("complete -c iotally -n '__fish_use_subcommand' -a %s -d %s" %
                   (name, fish_quote(short_desc(summary))))
        cond = "-n '__fish_seen_subcommand_from %s'" % name
        out.append('complete -c iotally %s -F' % cond)
        for o in options:
            parts = ['complete -c iotally', cond]
            if o.short:
                parts.append('-s ' + o.short)
            parts.append('-l ' + o.long)
            if o.arg:
                parts.append('-r' if o.takes_file() else '-x')
                if o.choices():
                    parts.append("-a '%s'" % ' '.join(o.choices()))
            parts.append('-d ' + fish_quote(short_desc(o.full)))
            out.append(' '.join(parts))
    return '\n'.join(out) + '\n'


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ('bash', 'zsh', 'fish'):
        sys.stderr.write('usage: gen-completions.py IOTALLY bash|zsh|fish [OUTPUT]\n')
        return 64
    text = {'bash': bash, 'zsh': zsh, 'fish': fish}[sys.argv[2]](load(sys.argv[1]))
    if len(sys.argv) == 4:
        tmp = sys.argv[3] + '.tmp'
        with open(tmp, 'w') as f:
            f.write(text)
        os.replace(tmp, sys.argv[3])
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
