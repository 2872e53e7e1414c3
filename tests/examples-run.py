#!/usr/bin/env python3
"""Run every example of the help texts, README.md and docs/**/*.md as written.

Help texts: each line starting with "iotally " in a command's Examples section
runs from the project root and must exit 0 and print something; each command
line of `iotally --help`'s Common tasks names a command and options that
exist (they hold the user's names in capitals, so they are not run).

Documents: every fenced code block of README.md, docs/*.md, docs/json/*.md
and docs/commands/*.md (the reference of each command) is accounted for, so
an example cannot drift and a new block cannot slip by:

- a block whose first line is "# PATH" (a file name: no blanks, a '.' or a
  '/') shows a file: it is written to PATH in the sample folder (below),
  where the commands that name it read it. A YAML file (a CI workflow) must
  parse, and each of its `run:` steps that calls iotally runs like a command;
- ```sh blocks, and blocks of "$ command" lines, are commands: each runs (a
  line ending in '|' or '\\' goes on; "# ..." lines and trailing "  # ..."
  comments are dropped) with `sh -c`, in the sample folder, with the binary
  under test first in PATH, and must exit as STATUS below says (0 unless
  listed) and print something unless it redirects its output;
- ```sql blocks are DuckDB queries: each must start with "-- fleet-test: NAME",
  which tests/duckdb-fleet.py runs and checks;
- ```json blocks show the shape of iotally's JSON documents (the schemas of
  docs/json are what the JSON tests validate output against);
- any other block must be marked by an HTML comment on the line before it:
  `<!-- examples-run: output -->`, the output of the command block just
  before it, whose lines up to a "..." line must be how that output starts;
  or `<!-- examples-run: not run: REASON -->` (a synopsis, a diagram, a
  tool this machine does not have). A block neither run nor marked fails.

Commands that need a Mac (Apple's tools, `sudo iotally capture`) are listed
as not run with their reason; so are the build and install commands of
tools/dev and meson, which run the test suite this test is part of.

The sample folder holds the inputs the documents name, each a fixture:
attachments/ (fixtures/fleet/attachments), baseline/ and nightly/ or
current/ (fixtures/diff-folders/before and after), gates.txt
(fixtures/diff-folders/gates-at-boundary.txt), rows/ (empty), fixtures/,
tests/ and .deps/ (DuckDB's npm package, as tools/dev installs it; like the
duckdb test, a missing one is a failure), build/iotally and build-run/iotally
(the binary under test) and pbcopy (cat), so that the commands run unchanged. Blocks run in
document order, so a query finds the rows an earlier block wrote.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# Expected exit statuses other than 0, by (document, command), with why.
STATUS = {
    # gates-past-boundary.txt sets every gate one step past the growth built
    # into fixtures/diff-folders: all five trip, exit 1, as the README shows.
    ('README.md', 'iotally diff --gates fixtures/diff-folders/gates-past-boundary.txt --junit junit.xml fixtures/diff-folders/before fixtures/diff-folders/after'): 1,
    # fixtures/fleet/attachments holds an empty file, a cut capture and a
    # file that is no capture, on purpose: the first error's status (65).
    ('docs/fleet.md', 'iotally vmmap   --format ndjson --all-types attachments/ > vmmap.ndjson'): 65,
    ('docs/fleet.md', 'iotally classes --format ndjson             attachments/ > classes.ndjson'): 65,
    ('docs/fleet.md', 'iotally track   --format ndjson             attachments/ > track.ndjson'): 65,
    # xargs exits 123 when a run it started failed: 0005-cut-bundle.tar.gz.
    ('docs/fleet.md', 'find attachments -name \'*.tar.gz\' -print0 |\n'
     '  xargs -0 -n 200 -P 8 sh -c \'iotally vmmap --format ndjson "$@" > "rows/vmmap-$$.ndjson"\' sh'): 123,
}

# Commands that cannot run here, by their first words, with the reason.
NOT_RUN = [
    ('sudo iotally capture', 'needs a Mac with Apple\'s tools (tests/capture plays them with stand-ins)'),
    ('ioreg ', 'Apple\'s ioreg: macOS only'),
    ('vmmap ', 'Apple\'s vmmap: macOS only'),
    ('tools/dev ', 'builds iotally and runs the test suite this test belongs to'),
    ('tools/bench-', 'a benchmark: minutes of CPU, timings are never asserted'),
    ('tools/gen-', 'a generator of benchmark inputs'),
    ('meson ', 'builds or installs iotally'),
    ('sudo tools/dev', 'installs packages and runs the test suite'),
    ('bq ', 'BigQuery: needs a Google Cloud project'),
]

FILE_HEADER = re.compile(r'^# ([^\s#]*[./][^\s#]*)$')


def help_examples(binary):
    out = subprocess.run([binary, '--help'], capture_output=True, text=True).stdout
    commands = re.findall(r'^  (\w+) ', out.split('Commands:')[1], re.M)
    examples = []
    for cmd in commands:
        text = subprocess.run([binary, cmd, '--help'], capture_output=True, text=True).stdout
        if 'Examples' not in text:
            raise SystemExit('%s --help has no Examples section' % cmd)
        section = text.split('Examples', 1)[1]
        examples += [l.strip() for l in section.splitlines() if l.startswith('  iotally ')]
    return examples


def check_common_tasks(run, binary):
    """The command lines of --help's Common tasks name a command and options
    its help lists. They hold the user's names in capitals (BEFORE AFTER), so
    they are checked, not run; the documents' stories run their commands."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
    import helptext
    main = helptext.main_help(binary)
    names = {name for name, _ in main['commands']}
    lines = [l for _, commands in main['tasks'] for l in commands]
    run.report(len(main['tasks']) >= 4 and len(lines) >= len(main['tasks']),
               'help: the Common tasks block holds a command line for each task (%d tasks)'
               % len(main['tasks']))
    for line in lines:
        words = shlex.split(line)
        if words[0] == 'sudo':
            words = words[1:]
        problems = []
        if words[0] != 'iotally' or len(words) < 2 or words[1] not in names:
            problems.append('names no command of iotally --help')
        else:
            options = helptext.command_help(binary, words[1])['options']
            known = {'--' + o.long for o in options} | {'-' + o.short for o in options if o.short}
            # '--' ends the options: what follows is another program's
            # command line (capture --repeat ... -- COMMAND).
            args = words[2:words.index('--')] if '--' in words else words[2:]
            problems += ['%s is not in iotally help %s' % (w, words[1])
                         for w in args if w.startswith('-') and w not in known]
        run.report(not problems, 'help: Common tasks: %s' % line, ''.join(
            '  %s\n' % p for p in problems))


def check_command_pages(run, binary, root):
    """Every command of --help has its reference page, docs/commands/NAME.md,
    and the index (docs/commands/README.md) links it."""
    out = subprocess.run([binary, '--help'], capture_output=True, text=True).stdout
    commands = re.findall(r'^  (\w+) ', out.split('Commands:')[1], re.M)
    index = open(os.path.join(root, 'docs', 'commands', 'README.md'), encoding='utf-8').read()
    for cmd in commands:
        page = os.path.join(root, 'docs', 'commands', cmd + '.md')
        run.report(os.path.isfile(page) and '](%s.md)' % cmd in index,
                   'docs/commands/%s.md: the reference of iotally %s, linked from the index'
                   % (cmd, cmd), '  write the page and link it from docs/commands/README.md\n')


def blocks(path):
    """(line number, info string, marker or None, body lines) of each fenced block."""
    lines = open(path, encoding='utf-8').read().split('\n')
    i, out = 0, []
    while i < len(lines):
        m = re.match(r'^```(\S*)\s*$', lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith('```'):
            j += 1
        marker = None
        if i > 0:
            mm = re.match(r'^<!-- examples-run: (.*?) -->$', lines[i - 1])
            marker = mm.group(1) if mm else None
        out.append((i + 1, m.group(1), marker, lines[i + 1:j]))
        i = j + 1
    return out


def strip_comment(line):
    """The line without a trailing "  # comment" outside quotes."""
    quote = None
    for k, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in '\'"':
            quote = c
        elif c == '#' and k > 0 and line[k - 1] in ' \t':
            return line[:k].rstrip()
    return line.rstrip()


def commands(body):
    """The commands of a shell block, continuation lines joined."""
    cmds, cur = [], ''
    for raw in body:
        line = raw[2:] if raw.startswith('$ ') else raw
        if not cur and (not line.strip() or line.lstrip().startswith('#')):
            continue
        line = strip_comment(line)
        cur = cur + ('\n' if cur else '') + line
        if not (line.endswith('|') or line.endswith('\\')):
            cmds.append(cur)
            cur = ''
    if cur:
        cmds.append(cur)
    return cmds


def not_run_reason(cmd):
    for prefix, reason in NOT_RUN:
        if cmd.startswith(prefix):
            return reason
    return None


def make_sample(root, binary, sample):
    def link(name, target):
        os.symlink(os.path.join(root, target), os.path.join(sample, name))
    link('fixtures', 'fixtures')
    link('tests', 'tests')        # tests/duckdb-run.cjs, fleet.md's DuckDB without its shell
    link('.deps', '.deps')        # where tools/dev installs DuckDB's npm package
    # A copy, not a link: `find attachments` does not go into a link.
    shutil.copytree(os.path.join(root, 'fixtures/fleet/attachments'),
                    os.path.join(sample, 'attachments'), symlinks=False)
    link('baseline', 'fixtures/diff-folders/before')
    link('nightly', 'fixtures/diff-folders/after')
    link('current', 'fixtures/diff-folders/after')
    link('gates.txt', 'fixtures/diff-folders/gates-at-boundary.txt')
    os.mkdir(os.path.join(sample, 'rows'))
    for build in ('build', 'build-run'):      # tools/dev test's and tools/dev run's
        os.mkdir(os.path.join(sample, build))
        os.symlink(binary, os.path.join(sample, build, 'iotally'))
    bindir = os.path.join(sample, '.bin')
    os.mkdir(bindir)
    with open(os.path.join(bindir, 'pbcopy'), 'w') as f:
        f.write('#!/bin/sh\nexec cat\n')
    os.chmod(os.path.join(bindir, 'pbcopy'), 0o755)
    return bindir


class Run:
    def __init__(self, binary, root, sample, bindir):
        self.root, self.sample = root, sample
        self.env = dict(os.environ, LC_ALL='C',
                        PATH=os.pathsep.join([os.path.dirname(binary), bindir,
                                              os.environ.get('PATH', '')]))
        self.failed = self.count = 0

    def report(self, ok, what, detail=''):
        self.count += 1
        print('%s: %s' % ('ok' if ok else 'FAILED', what))
        if not ok:
            sys.stdout.write(detail)
            self.failed += 1

    def command(self, doc, cmd, cwd):
        expect = STATUS.get((doc, cmd), 0)
        proc = subprocess.run(['sh', '-c', cmd], cwd=cwd, env=self.env, capture_output=True)
        redirected = re.search(r'>\s*"?[\w./$-]', cmd) is not None   # not '> +5': a gate
        ok = proc.returncode == expect and (proc.stdout or redirected)
        self.report(ok, '%s: %s' % (doc, cmd.replace('\n', ' ')),
                    'status %d (expected %d), %d bytes of output\n%s' % (
                        proc.returncode, expect, len(proc.stdout),
                        proc.stderr.decode('utf-8', 'replace')))
        return proc.stdout.decode('utf-8', 'replace')


def check_output(run, doc, line, body, last):
    """The block's lines, up to a '...' line, start the command's output."""
    shown = []
    for l in body:
        if l.strip() == '...':
            break
        shown.append(l)
    got = (last or '').split('\n')[:len(shown)]
    run.report(last is not None and got == shown,
               '%s:%d: the output shown is what the command above prints' % (doc, line),
               ''.join('  shown %r\n  got   %r\n' % (a, b) for a, b in zip(shown, got) if a != b))


def workflow_runs(body):
    import yaml
    doc = yaml.safe_load('\n'.join(body))
    steps = [s for job in doc['jobs'].values() for s in job['steps']]
    return [s['run'] for s in steps if 'run' in s]


def document(run, root, doc):
    last = None
    for line, info, marker, body in blocks(os.path.join(root, doc)):
        where = '%s:%d' % (doc, line)
        header = FILE_HEADER.match(body[0]) if body else None
        if marker and marker.startswith('not run: '):
            print('not run: %s (%s)' % (where, marker[len('not run: '):]))
        elif marker == 'output':
            check_output(run, doc, line, body, last)
        elif marker:
            run.report(False, '%s: unknown marker %r' % (where, marker))
        elif header:
            path = os.path.join(run.sample, header.group(1))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write('\n'.join(body) + '\n')
            if info == 'yaml':
                for cmd in workflow_runs(body):
                    reason = not_run_reason(cmd)
                    if reason:
                        print('not run: %s: %s (%s)' % (where, cmd, reason))
                    elif 'iotally' in cmd:
                        last = run.command(doc, cmd, run.sample)
            else:
                print('file: %s -> %s' % (where, header.group(1)))
        elif info == 'sql':
            run.report(bool(body) and body[0].startswith('-- fleet-test: '),
                       '%s: SQL run by tests/duckdb-fleet.py (-- fleet-test: NAME)' % where)
        elif info == 'json':
            print('shape: %s (JSON output, its schema tested elsewhere)' % where)
        elif info == 'sh' or (body and all(l.startswith('$ ') for l in body if l.strip())):
            for cmd in commands(body):
                reason = not_run_reason(cmd)
                if reason:
                    print('not run: %s: %s (%s)' % (where, cmd, reason))
                else:
                    last = run.command(doc, cmd, run.sample)
        else:
            run.report(False, '%s: a ```%s block that is neither run nor marked' % (where, info))


def main():
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sample = tempfile.mkdtemp(prefix='iotally-examples-')
    try:
        run = Run(binary, root, sample, make_sample(root, binary, sample))
        check_common_tasks(run, binary)
        check_command_pages(run, binary, root)
        for ex in help_examples(binary):
            run.command('help', ex, root)
        docs = ['README.md'] + sorted(
            os.path.relpath(os.path.join(d, f), root)
            for d in (os.path.join(root, 'docs'), os.path.join(root, 'docs', 'json'),
                      os.path.join(root, 'docs', 'commands'))
            if os.path.isdir(d)
            for f in os.listdir(d) if f.endswith('.md'))
        for doc in docs:
            document(run, root, doc)
    finally:
        shutil.rmtree(sample)
    print('%d examples, %d failed' % (run.count, run.failed))
    return 1 if run.failed or not run.count else 0


if __name__ == '__main__':
    sys.exit(main())
