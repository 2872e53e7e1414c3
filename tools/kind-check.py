#!/usr/bin/env python3
"""A kind is decided on only in its own modules and its registry row.

The kind registry (src/app/kind.h, docs/architecture.md) is meant to be the
one place that knows which kinds exist: adding a kind is its row
(app/kind_<name>.c), its own modules and the row list. A place elsewhere
that decides by a kind's name has to be found and edited by hand for the
next kind, and is where the last hand-written lists forgot footprint. This
check reads every .c and .h file under src/ and refuses, outside a kind's
own modules:

  - a comparison with the kind's name: strcmp/strncmp/strcasecmp/streq(...,
    "classes") — a decision that belongs in a row field or hook;
  - a `case INPUT_X:` label for an input kind that is one kind's raw input
    (the row's .raw list) — the same decision made by switch;
  - a hand-written list of kinds: one initializer or one string literal that
    names two kinds or more ("vmmap, classes or track").

Every row must also be named in the one list of kinds, CAPTURE_KINDS of
util/capture_kinds.h, which the registry's table (app/kind.c), the bundle
kinds and the report sections expand: a row left out of it is never seen.

A kind's own modules are the files whose name holds the kind's name
(ingest/vmmap_read.c, model/diff_vmmap.h, app/kind_vmmap.c) and the headers
its row includes that no other row includes, with their .c files (the
modules the row binds, e.g. ingest/ioreg_text.h for classes). The kinds are
read from the rows (src/app/kind_*.c with a `const struct kind kind_<name>`),
not written here.

    tools/kind-check.py [SRC_DIR]     (default: src/ beside tools/)

Prints `PATH:LINE: why` for each violation, exit 1; exit 0 and nothing on
stdout when the tree holds the rule.
"""

import os
import re
import sys

# The one list of kinds and its entries, X(ID, name).
KIND_LIST = 'util/capture_kinds.h'
KIND_LIST_RE = re.compile(r'#\s*define\s+CAPTURE_KINDS\(X\)((?:[^\n]*\\\n)*[^\n]*)')
ROW_RE = re.compile(r'\bconst\s+struct\s+kind\s+kind_(\w+)\s*=\s*{')
NAME_RE = re.compile(r'\.name\s*=\s*"([^"]+)"')
RAW_RE = re.compile(r'\.raw\s*=\s*{([^}]*)}')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
COMPARE_RE = re.compile(r'\b(?:strcmp|strncmp|strcasecmp|streq|str_eq)\s*\(')
CASE_RE = re.compile(r'\bcase\s+(INPUT_\w+)\s*:')


# A string or character literal (to its closing quote or the line's end), a
# block comment (to its end or the file's) or a line comment: one scan, the
# literals kept, the comments blanked.
LEXEME_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\'(?:[^\'\\\n]|\\.)*\'?|/\*.*?(?:\*/|\Z)|//[^\n]*',
                       re.S)


def blank_comment(m):
    text = m.group(0)
    if text.startswith(('/*', '//')):
        return re.sub(r'[^\n]', ' ', text)
    return text


def strip_comments(text):
    """The text with comments blanked (newlines kept, so lines still count)."""
    return LEXEME_RE.sub(blank_comment, text)


def read_sources(src):
    files = {}
    for root, _dirs, names in os.walk(src):
        for name in names:
            if name.endswith(('.c', '.h')):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, src).replace(os.sep, '/')
                with open(path, encoding='utf-8', errors='replace') as f:
                    files[rel] = strip_comments(f.read())
    return files


def read_rows(files):
    """{kind name: (row file, [raw input enum names], set of included headers)}"""
    rows = {}
    for rel, text in files.items():
        for m in ROW_RE.finditer(text):
            body = text[m.end():]
            name = NAME_RE.search(body)
            raw = RAW_RE.search(body)
            if not name:
                continue
            inputs = re.findall(r'INPUT_\w+', raw.group(1)) if raw else []
            inputs = [i for i in inputs if i != 'INPUT_EMPTY']
            rows[name.group(1)] = (rel, inputs, set(INCLUDE_RE.findall(text)))
    return rows


def own_modules(rows):
    """{kind: set of files under src/ that are the kind's own}"""
    owners = {}
    for kind, (row, _inputs, includes) in rows.items():
        others = set()
        for k2, (_r, _i, inc2) in rows.items():
            if k2 != kind:
                others |= inc2
        own = {row}
        for h in includes - others:
            own.add(h)
            if h.endswith('.h'):
                own.add(h[:-2] + '.c')
        owners[kind] = own
    return owners


# Places that rank two kinds by a rule written down in the docs, each with
# where the rule is written. Keep it short: a new entry needs a rule a user
# reads, not a convenience.
RULES = {
    'model/summary.c': 'the cost rule of docs/gpu.md: footprint\'s figure before vmmap\'s',
}



def is_own(rel, kind, owners):
    return kind in os.path.basename(rel) or rel in owners[kind] or rel in RULES


def is_exempt(rel):
    return rel in RULES


def read_kind_list(files):
    """The kinds CAPTURE_KINDS names, or None when the list is not found."""
    m = KIND_LIST_RE.search(files.get(KIND_LIST, ''))
    return re.findall(r'\bX\(\s*\w+\s*,\s*(\w+)\s*\)', m.group(1)) if m else None


def unlisted_rows(files, listed):
    """(file, line, name) of each row whose kind CAPTURE_KINDS leaves out."""
    found = []
    for rel, text in files.items():
        for m in ROW_RE.finditer(text):
            name = NAME_RE.search(text[m.end():])
            if name and name.group(1) not in listed:
                found.append((rel, line_of(text, m.start()), name.group(1)))
    return found


def line_of(text, pos):
    return text.count('\n', 0, pos) + 1


def kinds_listed(literal, kinds):
    """The kinds a string lists: two kind names or more side by side,
    joined by ", ", " or ", " and ", "/" or "|" (each may carry a metric,
    "vmmap:footprint"). A kind's name inside another word, after a ':'
    (the vmmap metric "vmmap:footprint") or alone is no list."""
    name = '(?:' + '|'.join(re.escape(k) for k in kinds) + ')'
    item = r'(?<![\w.:-])' + name + r'(?::[^\s,|/]*)?(?![\w-])'
    run = re.compile(item + r'(?:(?:, (?:or |and )?| or | and |/|\|)' + item + r')+')
    named = []
    for m in run.finditer(literal):
        for k in re.findall(r'(?<![\w.:-])' + name + r'(?![\w-])', m.group(0)):
            if k not in named:
                named.append(k)
    return named


def check_file(rel, text, rows, owners, input_owner):
    found = []
    kinds = sorted(rows)
    # comparisons with a kind's name
    for m in COMPARE_RE.finditer(text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {'(': 1, ')': -1}.get(text[j], 0)
            j += 1
        for s in STRING_RE.finditer(text, m.end(), j):
            if s.group(1) in rows and not is_own(rel, s.group(1), owners):
                found.append((line_of(text, m.start()),
                              f'compares with the kind name "{s.group(1)}": '
                              'a field or hook of its registry row'))
    # switch cases on one kind's inputs
    for m in CASE_RE.finditer(text):
        kind = input_owner.get(m.group(1))
        if kind and not is_own(rel, kind, owners):
            found.append((line_of(text, m.start()),
                          f'case {m.group(1)}: decides on a {kind} input outside '
                          f'its modules: a field or hook of its registry row'))
    # hand-written lists: one string literal naming two kinds or more
    for s in STRING_RE.finditer(text) if not is_exempt(rel) else ():
        named = kinds_listed(s.group(1), kinds)
        if len(named) >= 2:
            found.append((line_of(text, s.start()),
                          'a string that lists kinds (' + ', '.join(named) +
                          '): generate it from the registry rows'))
    # ... or one initializer of kind names
    for m in re.finditer(r'{([^{}]*)}', text) if not is_exempt(rel) else ():
        names = [s.group(1) for s in STRING_RE.finditer(m.group(1))
                 if s.group(1) in rows]
        if len(set(names)) >= 2:
            found.append((line_of(text, m.start()),
                          'a hand-written list of kinds (' + ', '.join(dict.fromkeys(names)) +
                          '): iterate the registry rows'))
    return found


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    src = argv[1] if len(argv) > 1 else os.path.join(here, '..', 'src')
    files = read_sources(src)
    rows = read_rows(files)
    if len(rows) < 2:
        print(f'{src}: found {len(rows)} registry rows (const struct kind kind_<name> '
              'with a .name) under app/: the check would check nothing')
        return 1
    listed = read_kind_list(files)
    if listed is None:
        print(f'{src}: found no list of kinds (#define CAPTURE_KINDS(X) in {KIND_LIST})')
        return 1
    owners = own_modules(rows)
    input_owner = {}
    for kind, (_row, inputs, _inc) in rows.items():
        for i in inputs:
            input_owner[i] = kind
    bad = 0
    for rel, line, name in sorted(unlisted_rows(files, listed)):
        print(f'src/{rel}:{line}: the row of "{name}" is not in CAPTURE_KINDS ({KIND_LIST}): '
              'the registry would never see it')
        bad += 1
    for rel in sorted(files):
        for line, why in sorted(set(check_file(rel, files[rel], rows, owners, input_owner))):
            print(f'src/{rel}:{line}: {why}')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
