#!/usr/bin/env python3
"""Negative tests of tools/include-check.py: each plants one include that
breaks the layer rule in a temporary copy of src/ and requires the check to
fail with exactly that file, line and include (and nothing else); the
unchanged copy must pass.

    include-check-planted.py CHECK SRC_DIR
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from planted_check import clean_passes, copy_src, run_plants  # noqa: E402

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


def main(argv):
    if len(argv) != 3:
        print('usage: include-check-planted.py CHECK SRC_DIR', file=sys.stderr)
        return 64
    check, src = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_src(src, tmp)
        if not clean_passes(check, copy):
            return 1
        failures = run_plants(check, copy, PLANTS)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
