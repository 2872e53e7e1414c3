#!/usr/bin/env python3
"""The layer rule for #include lines, for every .c and .h file under src/.

The link check (src/meson.build, layer-check-<layer>) sees calls only; a
dependency that lives in a header (an enum, a struct, a macro, an inline
function) is invisible to it. This check reads every `#include "..."` line
and refuses one that reaches a layer the including file's layer may not use,
and every `#include <...>` of a third-party library whose types the
architecture confines to a few files (docs/testing.md, "The layer checks").

    tools/include-check.py [SRC_DIR]     (default: src/ beside tools/)

Prints `PATH:LINE: #include "X": why` for each violation, exit 1; exit 0 and
nothing on stdout when the tree holds the rule.
"""

import os
import re
import sys

# The layer rule: which top-level folders of src/ a file in each may include.
# util < model < ingest, report (siblings: neither includes the other)
# < app; util < bundle (the bundle format) < ingest, capture; capture
# uses bundle and util only; cli uses everything. Kept in step with the
# link_with lists of src/*/meson.build and the layer_checks table of
# src/meson.build.
LAYERS = {
    'util': {'util'},
    'bundle': {'bundle', 'util'},
    'model': {'model', 'util'},
    'ingest': {'ingest', 'model', 'bundle', 'util'},
    'report': {'report', 'model', 'util'},
    'capture': {'capture', 'bundle', 'util'},
    'app': {'app', 'ingest', 'report', 'model', 'bundle', 'util'},
    'cli': {'cli', 'app', 'capture', 'ingest', 'report', 'model', 'bundle', 'util'},
}

# Files whose library is narrower than their folder's layer. cli_lib
# (src/cli/meson.build: msgs.c, formats.c, options.c) links util only, so
# that unit tests can link option parsing and messages without the rest of
# cli/.
FILES = {
    'cli/formats.c': {'util', 'cli/formats.h', 'cli/options.h'},
    'cli/formats.h': {'util'},
    'cli/msgs.c': {'util', 'cli/msgs.h', 'util/outbuf.h'},
    'cli/msgs.h': {'util'},
    'cli/options.c': {'util', 'cli/options.h'},
    'cli/options.h': {'util'},
}

# Quoted includes that name no layer: the header meson generates
# (iotally-config.h: the lazy-library sonames and the version), on the
# include path of the targets that use it.
GENERATED = {'iotally-config.h'}

# Third-party headers confined to the files that own them
# (docs/testing.md, "The layer checks"): PCRE2 types stay in util/regex.c; libxml2 in the
# property-list reader, the JUnit writer and the lazy import table;
# libarchive in the archive reader, the bundle writer and its import table.
THIRD_PARTY = {
    'pcre2.h': {'util/regex.c'},
    'libxml/': {'ingest/plist.c', 'report/junit.c', 'util/lazylib_xml.c'},
    'archive.h': {'util/arcread.c', 'util/lazylib_archive.c', 'capture/files.c'},
    'archive_entry.h': {'util/arcread.c', 'util/lazylib_archive.c', 'capture/files.c'},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]*)"|<([^>]*)>)')


def allowed_quoted(rel, inc, src):
    """Why the quoted include INC of file REL (relative to src/) breaks the
    rule, or None when it holds."""
    layer = rel.split('/')[0]
    if inc in GENERATED:
        return None
    if '/' not in inc:
        return 'names no layer: write it as "<layer>/<file>" from src/'
    target = inc.split('/')[0]
    if target not in LAYERS:
        return 'is not in a layer of src/ (%s)' % ', '.join(sorted(LAYERS))
    if not os.path.isfile(os.path.join(src, inc)):
        return 'no such file under src/'
    if rel in FILES:
        allow = FILES[rel]
        if target in allow or inc in allow:
            return None
        return '%s may include only %s' % (rel, ', '.join(
            a if a.endswith('.h') else a + '/' for a in sorted(allow)))
    allow = LAYERS[layer]
    if target in allow:
        return None
    return '%s/ may include only %s' % (
        layer, ', '.join(d + '/' for d in sorted(allow)))


def allowed_angled(rel, inc):
    for prefix, owners in THIRD_PARTY.items():
        if inc == prefix or (prefix.endswith('/') and inc.startswith(prefix)):
            if rel in owners:
                return None
            return 'only %s may include it' % ', '.join(sorted(owners))
    return None


def check_file(src, rel):
    problems = []
    with open(os.path.join(src, rel), 'rb') as f:
        for number, raw in enumerate(f, 1):
            line = raw.decode('utf-8', 'replace')
            m = INCLUDE.match(line)
            if not m:
                continue
            if m.group(1) is not None:
                why = allowed_quoted(rel, m.group(1), src)
                shown = '"%s"' % m.group(1)
            else:
                why = allowed_angled(rel, m.group(2))
                shown = '<%s>' % m.group(2)
            if why:
                problems.append('src/%s:%d: #include %s: %s' % (rel, number, shown, why))
    return problems


def check_tree(src):
    problems = []
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            rel = os.path.relpath(os.path.join(root, name), src).replace(os.sep, '/')
            if '/' not in rel:
                # src/layer_check.c, the link check's main(): includes nothing.
                if rel != 'layer_check.c':
                    problems.append('src/%s:1: a source file outside every layer' % rel)
                continue
            if rel.split('/')[0] not in LAYERS:
                problems.append('src/%s:1: a source file outside every layer' % rel)
                continue
            problems.extend(check_file(src, rel))
    return problems


def main(argv):
    if len(argv) > 2:
        print('usage: include-check.py [SRC_DIR]', file=sys.stderr)
        return 64
    src = argv[1] if len(argv) == 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'src')
    if not os.path.isdir(src):
        print('include-check: %s: no such folder' % src, file=sys.stderr)
        return 66
    problems = check_tree(src)
    for p in problems:
        print(p)
    if problems:
        print('include-check: %d include(s) break the layer rule '
              '(docs/architecture.md)' % len(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
