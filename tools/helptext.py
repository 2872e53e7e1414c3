"""Read iotally's own help texts into commands and options.

The man page (tools/gen-man.py), the shell completions
(tools/gen-completions.py) and their test (tests/completions-check.py) all
start here, so a command or option added to a help text reaches all of
them without a hand-kept list.

  main_help(binary)     -> {'usage': [...], 'intro': str,
                            'tasks': [(title, [command line, ...])],
                            'commands': [(name, summary)], 'after': str, 'exit': str}
  command_help(binary, name) -> {'text': str, 'usage': str, 'options': [Option],
                                 'examples': [str]}

An option line in a help text's "Options:" block starts with two spaces and
'-': "  --name ARG   what it does", "  -h, --help   ...", "  --tag, --zsize ...";
an ARG written in capitals (or quoted) means the option takes a value.
"""

import re
import subprocess


class Option:
    def __init__(self, long, short, arg, desc):
        self.long = long      # 'match' (without '--')
        self.short = short    # 'h' or None
        self.arg = arg        # 'REGEX', 'FILE', ... or None
        self.desc = desc      # first line of the description
        self.full = desc      # the whole description

    def choices(self):
        """The values a description lists as 'a (default), b or c'; [] otherwise."""
        m = re.match(r'([a-z]+) \(default\)((?:, [a-z]+)*) or ([a-z]+)\b', self.full)
        if not self.arg or not m:
            return []
        return [m.group(1)] + [w.strip() for w in m.group(2).split(',') if w.strip()] + \
            [m.group(3)]

    def takes_file(self):
        return self.arg is not None and re.search(r'FILE|DIR|PATH', self.arg) is not None

    def __repr__(self):
        return 'Option(%r, %r, %r)' % (self.long, self.short, self.arg)


def run(binary, *args):
    return subprocess.run([binary] + list(args), capture_output=True, text=True,
                          check=True).stdout


def main_help(binary):
    text = run(binary, '--help')
    usage, rest = text.split('\n\n', 1)
    intro, after = rest.split('Commands:', 1)
    intro, tasks = intro.split('Common tasks:\n', 1) if 'Common tasks:\n' in intro \
        else (intro, '')
    commands = re.findall(r'^  ([\w-]+) +(.*)$', after.split('\n\n', 1)[0], re.M)
    tail = after.split('\n\n', 1)[1] if '\n\n' in after else ''
    paragraphs = [p.strip() for p in tail.split('\n\n') if p.strip()]

    def labelled(label):
        for p in paragraphs:
            if p.startswith(label):
                return p[len(label):].strip()
        return ''

    exit_text = labelled('Exit status:')
    return {
        'usage': [re.sub(r'^usage: ', '', l.strip()) for l in usage.splitlines()],
        'intro': intro.strip(),
        'tasks': common_tasks(tasks),
        'commands': commands,
        'after': [p for p in paragraphs if not p.startswith(('Exit status:', 'Environment:'))],
        'environment': labelled('Environment:'),
        'exit': exit_text,
        # "0 success, 1 a gate tripped, ..." -> [('0', 'success'), ...]
        'exit_codes': re.findall(r'(\d+) ([^,]+?)(?:,|\.$)', ' '.join(exit_text.split())),
    }


def common_tasks(block):
    """The "Common tasks:" block: a title ("  Gate CI: ...", two spaces, may go
    on over several lines) over its command lines (four spaces)."""
    tasks = []
    for line in block.rstrip('\n').splitlines():
        if line.startswith('    '):
            tasks[-1][1].append(line.strip())
        elif line.startswith('  '):
            if tasks and not tasks[-1][1]:
                tasks[-1] = (tasks[-1][0] + ' ' + line.strip(), [])
            else:
                tasks.append((line.strip(), []))
    return tasks


OPTION_LINE = re.compile(r'^  (-[\w?], )?(--[\w-]+(?:, --[\w-]+)*)(?:[ =]((?:\'[^\']*\')|\S+))?'
                         r'(?: {2,}(.*))?$')


def parse_options(text):
    """Every option of a help text's Options: block, in order."""
    if '\nOptions:\n' not in text:
        return []
    block = text.split('\nOptions:\n', 1)[1].split('\n\n', 1)[0]
    options = []
    names = []
    for line in block.splitlines():
        m = OPTION_LINE.match(line)
        if not m:
            if options and line.startswith('   '):
                if not options[-1].desc:
                    options[-1].desc = line.strip()
                for o in options[-len(names):]:
                    o.full = (o.full + ' ' + line.strip()).strip()
            continue
        short = m.group(1)[1] if m.group(1) else None
        arg = m.group(3)
        if arg is not None and not (arg.isupper() or arg.startswith("'")):
            arg = None      # a lower-case word starts the description
        desc = (m.group(4) or '').strip()
        names = [n.strip()[2:] for n in m.group(2).split(',')]
        for name in names:
            options.append(Option(name, short if name == names[-1] else None, arg, desc))
    return options


def command_help(binary, name):
    text = run(binary, 'help', name)
    examples = []
    if 'Examples' in text:
        section = text.split('Examples', 1)[1].split(':', 1)[1]
        for line in section.split('\n\n', 1)[0].splitlines():
            if line.startswith('  iotally ') or line.startswith('  ') and '| iotally ' in line:
                examples.append(line.strip())
    return {
        'text': text,
        'usage': text.splitlines()[0].replace('usage: ', '', 1),
        'options': parse_options(text),
        'examples': examples,
    }
