#!/usr/bin/env python3
"""Run every example shown in `iotally <command> --help` and in README.md.

An example is a line starting with "iotally " in a help text's Examples
section or in one of README.md's fenced code blocks (a trailing "# comment" is
dropped). Each runs from the project root with the binary under test first in
PATH and must exit 0 and print something: documentation that shows a
command which fails is a defect.
"""

import os
import re
import subprocess
import sys


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


def readme_examples(root):
    examples, in_code = [], False
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                in_code = not in_code
                continue
            if in_code and line.startswith('iotally ') and 'FILE' not in line \
                    and '<command>' not in line:
                examples.append(re.sub(r'\s+#.*$', '', line.strip()))
    return examples


def main():
    binary, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    env = dict(os.environ, LC_ALL='C',
               PATH=os.path.dirname(binary) + os.pathsep + os.environ.get('PATH', ''))
    examples = help_examples(binary) + readme_examples(root)
    failed = 0
    for ex in examples:
        proc = subprocess.run(['sh', '-c', ex], cwd=root, env=env, capture_output=True)
        ok = proc.returncode == 0 and proc.stdout
        print('%s: %s' % ('ok' if ok else 'FAILED (status %d)' % proc.returncode, ex))
        if not ok:
            sys.stdout.write(proc.stderr.decode('utf-8', 'replace'))
            failed += 1
    print('%d examples, %d failed' % (len(examples), failed))
    return 1 if failed or not examples else 0


if __name__ == '__main__':
    sys.exit(main())
