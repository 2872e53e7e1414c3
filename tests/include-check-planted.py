#!/usr/bin/env python3
"""Negative tests of tools/include-check.py: each plants one include that
breaks the layer rule in a temporary copy of src/ and requires the check to
fail with exactly that file, line and include (and nothing else); the
unchanged copy must pass.

    include-check-planted.py CHECK SRC_DIR
"""

import os
import shutil
import subprocess
import sys
import tempfile

# (file under src/, line appended, the message expected for it: {line} is
# the planted line's number). Headers too: a dependency that lives only in a
# header (an enum, a macro, an inline function) is what the link check
# cannot see.
PLANTS = [
    ('report/vmmap_text.h', '#include "ingest/detect.h"',
     'src/report/vmmap_text.h:{line}: #include "ingest/detect.h": '
     'report/ may include only model/, report/, util/'),
    ('ingest/detect.c', '#  include "report/ndjson.h"',
     'src/ingest/detect.c:{line}: #include "report/ndjson.h": '
     'ingest/ may include only bundle/, ingest/, model/, util/'),
    ('model/vmmap.h', '#include "ingest/vmmap_read.h"',
     'src/model/vmmap.h:{line}: #include "ingest/vmmap_read.h": '
     'model/ may include only model/, util/'),
    ('util/strbuf.h', '#include "model/vmmap.h"',
     'src/util/strbuf.h:{line}: #include "model/vmmap.h": util/ may include only util/'),
    ('capture/redact.h', '#include "model/track.h"',
     'src/capture/redact.h:{line}: #include "model/track.h": '
     'capture/ may include only bundle/, capture/, util/'),
    ('bundle/manifest.c', '#include "ingest/bundle.h"',
     'src/bundle/manifest.c:{line}: #include "ingest/bundle.h": '
     'bundle/ may include only bundle/, util/'),
    ('bundle/member.h', '#include "capture/files.h"',
     'src/bundle/member.h:{line}: #include "capture/files.h": '
     'bundle/ may include only bundle/, util/'),
    ('app/kind.h', '#include "cli/msgs.h"',
     'src/app/kind.h:{line}: #include "cli/msgs.h": '
     'app/ may include only app/, bundle/, ingest/, model/, report/, util/'),
    ('app/sources.c', '#include "capture/redact.h"',
     'src/app/sources.c:{line}: #include "capture/redact.h": '
     'app/ may include only app/, bundle/, ingest/, model/, report/, util/'),
    ('report/texttable.h', '#include "app/kind.h"',
     'src/report/texttable.h:{line}: #include "app/kind.h": '
     'report/ may include only model/, report/, util/'),
    ('cli/options.c', '#include "cli/inputs.h"',
     'src/cli/options.c:{line}: #include "cli/inputs.h": '
     'cli/options.c may include only cli/options.h, util/'),
    ('report/texttable.c', '#include "texttable.h"',
     'src/report/texttable.c:{line}: #include "texttable.h": '
     'names no layer: write it as "<layer>/<file>" from src/'),
    ('model/trend.c', '#include "model/no_such_module.h"',
     'src/model/trend.c:{line}: #include "model/no_such_module.h": no such file under src/'),
    ('model/trend.c', '#include <pcre2.h>',
     'src/model/trend.c:{line}: #include <pcre2.h>: only util/regex.c may include it'),
]


def run_check(check, src):
    return subprocess.run([sys.executable, check, src], capture_output=True, text=True)


def main(argv):
    if len(argv) != 3:
        print('usage: include-check-planted.py CHECK SRC_DIR', file=sys.stderr)
        return 64
    check, src = argv[1], argv[2]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'src')
        shutil.copytree(src, copy, ignore=shutil.ignore_patterns('*.build', '*.txt'))
        clean = run_check(check, copy)
        if clean.returncode != 0 or clean.stdout:
            print('FAIL: the unchanged tree does not pass:\n' + clean.stdout + clean.stderr)
            return 1
        for rel, planted, expect in PLANTS:
            path = os.path.join(copy, rel)
            with open(path, 'rb') as f:
                original = f.read()
            text = original if original.endswith(b'\n') else original + b'\n'
            line = text.count(b'\n') + 1
            with open(path, 'wb') as f:
                f.write(text + planted.encode() + b'\n')
            got = run_check(check, copy)
            with open(path, 'wb') as f:
                f.write(original)
            want = expect.format(line=line) + '\n'
            if got.returncode != 1 or got.stdout != want:
                failures += 1
                print('FAIL: %s planted in %s: status %d, stdout:\n%s(wanted status 1 and:\n%s)'
                      % (planted, rel, got.returncode, got.stdout, want))
            else:
                print('ok: ' + want.rstrip())
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
