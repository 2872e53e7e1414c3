#!/usr/bin/env python3
"""The CI workflows under .github/workflows, checked where they cannot run.

No macOS runner is reachable from here, so the macOS workflow is checked
for what can be known without one (PyYAML, Debian package python3-yaml,
installed by tools/dev):

- every file is YAML with `on` and `jobs`; every job has `runs-on` and
  steps; every step has exactly one of `uses` and `run`;
- every library meson.build asks for with dependency('X') has its
  Homebrew formula in a `brew install` line (zlib comes with macOS), and
  so do the programs the tests run (fish, bash 4+, cmark-gfm), and a
  Chromium (Google Chrome on the runner image) is put on PATH;
- every `build/iotally CMD ...` in a `run` script names a command of
  `iotally --help` and only options that `iotally CMD --help` lists;
- a macOS job runs the tracking session's preflight (`capture --session`)
  on the runner's RELEASE kernel and checks the refusal's words
  (SESSION_REFUSAL; tests/capture/session-tests.py checks that the words
  the workflow greps are what iotally prints for a RELEASE stand-in).

  workflow-check.py BINARY SOURCE_ROOT
"""

import glob
import os
import re
import shlex
import subprocess
import sys

import yaml

# meson dependency name -> Homebrew formula (None: part of macOS).
BREW_FORMULA = {
    'libxml-2.0': 'libxml2', 'jansson': 'jansson', 'libpcre2-8': 'pcre2', 'cmocka': 'cmocka',
    'libarchive': 'libarchive', 'nettle': 'nettle', 'zlib': None,
    'threads': None,   # meson's name for the system's pthreads (libSystem)
}
# Programs the test suite runs that macOS lacks (or ships too old: bash 3.2).
TEST_PROGRAMS = ['fish', 'bash', 'cmark-gfm', 'meson', 'ninja', 'pkg-config']

FAILED = []

# The refusal the session preflight prints on a RELEASE kernel, in the words the workflow greps.
SESSION_REFUSAL = ['cannot start a tracking session: RELEASE kernel: allocation tracking needs '
                   'a DEVELOPMENT or DEBUG kernel',
                   'to change: install and boot a DEVELOPMENT or DEBUG kernel']


def fail(msg):
    FAILED.append(msg)
    print('FAIL', msg)


def meson_dependencies(root):
    deps = set()
    for path in glob.glob(os.path.join(root, '**', 'meson.build'), recursive=True):
        if '/build' in path[len(root):]:
            continue
        deps |= set(re.findall(r"dependency\('([^']+)'", open(path).read()))
    return deps


def help_options(binary, command):
    text = subprocess.run([binary, command, '--help'], capture_output=True, text=True).stdout
    block = text.split('Options:', 1)[1].split('\n\n', 1)[0] if 'Options:' in text else ''
    return set(re.findall(r'(--[a-z][a-z0-9-]*|-[a-zA-Z])\b', block))


def check_iotally_lines(binary, name, script, commands):
    for line in script.splitlines():
        m = re.search(r'build/iotally\s+(.*)', line)
        if not m:
            continue
        words = shlex.split(m.group(1).split('||')[0].split('>')[0])
        if not words or words[0].startswith('"') or '/' in words[0] or '$' in words[0]:
            continue   # `iotally BUNDLE`: a path, not a command
        cmd = words[0]
        if cmd not in commands:
            fail('%s: build/iotally %s: no such command' % (name, cmd))
            continue
        known = help_options(binary, cmd) | {'--help', '-h'}
        for w in words[1:]:
            opt = w.split('=', 1)[0]
            if opt.startswith('-') and opt != '-' and opt not in known:
                fail('%s: build/iotally %s: option %s is not in its help' % (name, cmd, opt))


def main():
    binary, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    out = subprocess.run([binary, '--help'], capture_output=True, text=True).stdout
    commands = set(re.findall(r'^  (\w+) ', out.split('Commands:')[1], re.M))
    deps = meson_dependencies(root)
    files = sorted(glob.glob(os.path.join(root, '.github', 'workflows', '*.yml')))
    if not files:
        fail('no workflow files')
    for path in files:
        name = os.path.relpath(path, root)
        doc = yaml.safe_load(open(path))
        # YAML 1.1 reads the key `on` as true.
        if not isinstance(doc, dict) or not ({'on', True} & set(doc)) or 'jobs' not in doc:
            fail('%s: no `on` or no `jobs`' % name)
            continue
        brew = set()
        for jid, job in doc['jobs'].items():
            if 'runs-on' not in job or not job.get('steps'):
                fail('%s: job %s has no runs-on or no steps' % (name, jid))
                continue
            for i, step in enumerate(job['steps']):
                if ('uses' in step) == ('run' in step):
                    fail('%s: job %s step %d needs exactly one of uses and run' % (name, jid, i))
                script = step.get('run', '')
                for m in re.finditer(r'brew install ([^\n]+)', script):
                    brew |= set(m.group(1).split())
                check_iotally_lines(binary, '%s job %s' % (name, jid), script, commands)
            if 'macos' not in str(job['runs-on']):
                continue
            for dep in sorted(deps):
                if dep not in BREW_FORMULA:
                    fail('%s: meson dependency %s has no Homebrew formula in this check' %
                         (name, dep))
                elif BREW_FORMULA[dep] and BREW_FORMULA[dep] not in brew:
                    fail('%s: job %s does not brew install %s (meson dependency %s)' %
                         (name, jid, BREW_FORMULA[dep], dep))
            for prog in TEST_PROGRAMS:
                if prog not in brew:
                    fail('%s: job %s does not brew install %s, which the tests run' %
                         (name, jid, prog))
            scripts = ''.join(step.get('run', '') for step in job['steps'])
            if not re.search(r'build/iotally capture --session\b', scripts):
                fail('%s: job %s does not run the session preflight (capture --session)' %
                     (name, jid))
            for words in SESSION_REFUSAL:
                if 'grep -q "%s"' % words not in scripts:
                    fail('%s: job %s does not check the session refusal %r' % (name, jid, words))
            if not re.search(r'\bbin/(google-chrome|chromium)\b', scripts):
                fail('%s: job %s puts no chromium or google-chrome on PATH for the HTML '
                     'report test' % (name, jid))
        print('%s: %s' % ('FAILED' if FAILED else 'ok', name))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
