#!/usr/bin/env python3
"""The CI integrations, run here as the CI systems would run them.

tools/ci-gate is what the GitHub action (.github/actions/gate/action.yml)
and the GitLab template (ci/gitlab/iotally-gate.yml) run. Each case runs it
with the environment a GitHub runner gives a step (GITHUB_STEP_SUMMARY,
GITHUB_OUTPUT, RUNNER_TEMP: temporary files here) over the fixtures' folders,
whose growth is known from how they were built (fixtures/diff-folders/
README.md: every gate of gates-past-boundary.txt trips by one step, every
gate of gates-at-boundary.txt passes at exactly its limit), and checks what
it wrote: the step outputs as GitHub parses them, the job summary, the
JUnit file, the exit status, and that the scratch folder is gone.

The action and the template are read as YAML (python3-yaml) and checked for
what can be known without a runner: a composite action whose gate step
takes every input through the environment (an input spliced into a script
is a shell injection), that runs tools/ci-gate; a GitLab job with a JUnit
report on every exit.

  ci-gate.py BINARY SOURCE_ROOT
"""

import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

from casecheck import stop

FOLDERS = 'fixtures/diff-folders'
PAST = FOLDERS + '/gates-past-boundary.txt'
AT = FOLDERS + '/gates-at-boundary.txt'
# fixtures/diff-folders/gates-past-boundary.txt: one gate per built growth.
PAST_TRIPPED = ['app-vmmap.txt: vmmap:IOAccelerator (graphics):N.vsize >= +384M',
                'app-vmmap.txt: vmmap:IOSurface.count >= +5',
                'ioreg.txt: alloc:instance >= +1MiB',
                'ioreg.txt: classes:IOSurface >= +5',
                'track.txt: track:total >= +1044480']


def github_outputs(text):
    """GITHUB_OUTPUT as GitHub reads it: NAME=VALUE, or NAME<<DELIM ... DELIM."""
    out, lines, i = {}, text.split('\n'), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        m = re.fullmatch(r'([A-Za-z0-9_-]+)<<(\S+)', line)
        if m:
            value = []
            while i < len(lines) and lines[i] != m.group(2):
                value.append(lines[i])
                i += 1
            if i == len(lines):
                stop('GITHUB_OUTPUT: %s has no closing delimiter' % m.group(1))
            i += 1
            out[m.group(1)] = '\n'.join(value)
            continue
        name, sep, value = line.partition('=')
        if not sep:
            stop('GITHUB_OUTPUT: line %r is neither NAME=VALUE nor NAME<<DELIM' % line)
        out[name] = value
    return out


def run_gate(iotally, root, tmp, name, baseline, current, gates, extra=()):
    """tools/ci-gate as a GitHub step runs it; (status, outputs, summary, junit path)."""
    case = os.path.join(tmp, name)
    runner_temp = os.path.join(case, 'runner-temp')
    os.makedirs(runner_temp)
    summary = os.path.join(case, 'step-summary.md')
    outputs = os.path.join(case, 'github-output')
    junit = os.path.join(case, 'junit.xml')
    env = dict(os.environ, IOTALLY=iotally, GITHUB_STEP_SUMMARY=summary,
               GITHUB_OUTPUT=outputs, RUNNER_TEMP=runner_temp, LC_ALL='C')
    proc = subprocess.run([os.path.join(root, 'tools', 'ci-gate'), baseline, current, gates,
                           junit] + list(extra), cwd=root, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if os.listdir(runner_temp):
        stop('%s: scratch files left in RUNNER_TEMP: %r' % (name, os.listdir(runner_temp)))
    with open(outputs) as f:
        out = github_outputs(f.read())
    text = open(summary).read() if os.path.exists(summary) else ''
    return proc.returncode, out, text, junit


def junit_counts(path):
    root = ET.parse(path).getroot()
    return int(root.get('failures')), int(root.get('errors'))


def expect(name, got, want):
    if got != want:
        stop('%s: got %r, expected %r' % (name, got, want))


def check_tripping(iotally, root, tmp):
    status, out, summary, junit = run_gate(iotally, root, tmp, 'past', FOLDERS + '/before',
                                           FOLDERS + '/after', PAST)
    expect('past: status', (status, out['status'], out['verdict']), (1, '1', 'fail'))
    expect('past: tripped', out['tripped'], str(len(PAST_TRIPPED)))
    expect('past: tripped-gates', sorted(out['tripped-gates'].split('\n')), sorted(PAST_TRIPPED))
    if not summary.startswith('**Summary:**') or 'gates tripped' not in out['summary']:
        stop('past: the job summary does not open with the Summary line: %r' % summary[:200])
    if out['summary'] not in summary:
        stop('past: the summary output is not the report\'s Summary line')
    expect('past: junit output', out['junit'], junit)
    expect('past: JUnit failures, errors', junit_counts(junit), (len(PAST_TRIPPED), 0))
    print('ok   a tripped budget: exit 1, the five gates named, summary and JUnit written')


def check_passing(iotally, root, tmp):
    status, out, summary, junit = run_gate(iotally, root, tmp, 'at', FOLDERS + '/before',
                                           FOLDERS + '/after', AT)
    expect('at: status', (status, out['status'], out['verdict'], out['tripped']),
           (0, '0', 'pass', '0'))
    expect('at: tripped-gates', out['tripped-gates'], '')
    expect('at: JUnit failures, errors', junit_counts(junit), (0, 0))
    if '0 gates tripped' not in summary:
        stop('at: the job summary does not say no gate tripped')
    print('ok   budgets held: exit 0, nothing tripped')


def check_empty_current(iotally, root, tmp):
    empty = os.path.join(tmp, 'empty-current')
    os.makedirs(empty)
    status, out, summary, junit = run_gate(iotally, root, tmp, 'empty', FOLDERS + '/before',
                                           empty, PAST)
    expect('empty: status', (status, out['status'], out['verdict']), (65, '65', 'error'))
    if not out['summary'].startswith('error (exit 65): no gate was evaluated'):
        stop('empty: summary output %r' % out['summary'])
    if 'iotally diff stopped (exit 65)' not in summary or \
            '    iotally: error: no gate was evaluated' not in summary:
        stop('empty: the job summary does not say why the run stopped: %r' % summary)
    expect('empty: JUnit errors', junit_counts(junit)[1] >= 1, True)
    print('ok   an empty artifact folder: exit 65, said in the summary, never green')


def check_missing_gates(iotally, root, tmp):
    status, out, _, junit = run_gate(iotally, root, tmp, 'nogates', FOLDERS + '/before',
                                     FOLDERS + '/after', os.path.join(tmp, 'no-such-gates.txt'))
    expect('no gates file: status', (status, out['verdict']), (66, 'error'))
    expect('no gates file: JUnit written with its error', junit_counts(junit), (0, 1))
    print('ok   a missing gates file: exit 66, JUnit still written')


def check_action(root):
    with open(os.path.join(root, '.github', 'actions', 'gate', 'action.yml')) as f:
        action = yaml.safe_load(f)
    runs = action.get('runs', {})
    expect('action: runs.using', runs.get('using'), 'composite')
    for name in ('baseline', 'current', 'gates', 'junit', 'args'):
        if name not in action.get('inputs', {}):
            stop('action: no input %r' % name)
    steps = runs.get('steps', [])
    for step in steps:
        if ('uses' in step) == ('run' in step):
            stop('action: step %r has not exactly one of uses and run' % step.get('name'))
        if 'run' in step:
            expect('action: step %r shell' % step.get('name'), step.get('shell'), 'bash')
            if '${{' in step['run']:
                stop('action: step %r splices an expression into its script (inputs go '
                     'through env)' % step.get('name'))
    gate = [s for s in steps if s.get('id') == 'gate']
    if len(gate) != 1 or 'tools/ci-gate' not in gate[0]['run']:
        stop('action: no step "gate" running tools/ci-gate')
    for name, out in action.get('outputs', {}).items():
        if out.get('value') != '${{ steps.gate.outputs.%s }}' % name:
            stop('action: output %r is not the gate step\'s' % name)
    written = set(re.findall(r'echo "([a-z-]+)[=<]', open(os.path.join(root, 'tools',
                                                                        'ci-gate')).read()))
    expect('action: outputs are what tools/ci-gate writes',
           sorted(action.get('outputs', {})), sorted(written))
    print('ok   the GitHub action: composite, inputs through env, outputs from tools/ci-gate')


def check_gitlab(root):
    with open(os.path.join(root, 'ci', 'gitlab', 'iotally-gate.yml')) as f:
        doc = yaml.safe_load(f)
    job = doc.get('.iotally-gate')
    if not job:
        stop('gitlab: no hidden job .iotally-gate')
    art = job.get('artifacts', {})
    expect('gitlab: artifacts.when', art.get('when'), 'always')
    expect('gitlab: JUnit report', art.get('reports', {}).get('junit'), '$IOTALLY_JUNIT')
    if not any('tools/ci-gate' in line for line in job.get('script', [])):
        stop('gitlab: the script does not run tools/ci-gate')
    print('ok   the GitLab template: JUnit report on every exit, tools/ci-gate')


def main():
    iotally, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    check_action(root)
    check_gitlab(root)
    with tempfile.TemporaryDirectory() as tmp:
        check_tripping(iotally, root, tmp)
        check_passing(iotally, root, tmp)
        check_empty_current(iotally, root, tmp)
        check_missing_gates(iotally, root, tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
