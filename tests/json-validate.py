#!/usr/bin/env python3
"""Validate JSON documents against the project's JSON Schemas.

Implements the subset of JSON Schema (draft 2020-12) that docs/json/*.schema.json
use: type (with unions and "null"), const, enum, properties, required,
additionalProperties (boolean or schema), items, minimum, maximum, $ref to
#/$defs/...; anything else in a schema is an error, so a schema cannot
silently promise more than is checked.

  json-validate.py SCHEMA -- COMMAND...   run COMMAND, validate its stdout
  json-validate.py SCHEMA --rows STATUS -- COMMAND...
                                          run COMMAND, expect exit status STATUS,
                                          validate every line of its stdout (NDJSON
                                          rows) and print how many there were
  json-validate.py SCHEMA FILE...         validate files
  json-validate.py SCHEMA --rejects MESSAGE FILE
                                          pass only when the schema rejects FILE
                                          with exactly MESSAGE (one of its errors),
                                          so a missing file or a rejection for
                                          another reason fails
"""

import json
import subprocess
import sys

KNOWN = {'$schema', '$id', 'title', 'description', 'type', 'const', 'enum',
         'properties', 'required', 'additionalProperties', 'items', 'minimum',
         'maximum', '$ref', '$defs', 'anyOf'}

TYPES = {
    'object': lambda v: isinstance(v, dict),
    'array': lambda v: isinstance(v, list),
    'string': lambda v: isinstance(v, str),
    'integer': lambda v: isinstance(v, int) and not isinstance(v, bool),
    'number': lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    'boolean': lambda v: isinstance(v, bool),
    'null': lambda v: v is None,
}


def check(schema, value, root, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise SystemExit('schema keyword(s) not supported: %s' % sorted(unknown))
    if '$ref' in schema:
        ref = schema['$ref']
        assert ref.startswith('#/$defs/'), ref
        check(root['$defs'][ref[len('#/$defs/'):]], value, root, path, errors)
    if 'anyOf' in schema:
        # Valid when one branch is; else the errors of the branch that came closest.
        tries = []
        for branch in schema['anyOf']:
            branch_errors = []
            check(branch, value, root, path, branch_errors)
            if not branch_errors:
                break
            tries.append(branch_errors)
        else:
            errors.extend(min(tries, key=len))
    if 'type' in schema:
        types = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(TYPES[t](value) for t in types):
            errors.append('%s: %r is not of type %s' % (path, value, types))
            return
    if 'const' in schema and value != schema['const']:
        errors.append('%s: %r is not %r' % (path, value, schema['const']))
    if 'enum' in schema and value not in schema['enum']:
        errors.append('%s: %r is not one of %r' % (path, value, schema['enum']))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if 'minimum' in schema and value < schema['minimum']:
            errors.append('%s: %r < %r' % (path, value, schema['minimum']))
        if 'maximum' in schema and value > schema['maximum']:
            errors.append('%s: %r > %r' % (path, value, schema['maximum']))
    if isinstance(value, dict):
        props = schema.get('properties', {})
        for key in schema.get('required', []):
            if key not in value:
                errors.append('%s: missing %r' % (path, key))
        extra = schema.get('additionalProperties', True)
        for key, item in value.items():
            if key in props:
                check(props[key], item, root, '%s.%s' % (path, key), errors)
            elif extra is False:
                errors.append('%s: unexpected key %r' % (path, key))
            elif isinstance(extra, dict):
                check(extra, item, root, '%s.%s' % (path, key), errors)
    if isinstance(value, list) and 'items' in schema:
        for i, item in enumerate(value):
            check(schema['items'], item, root, '%s[%d]' % (path, i), errors)


def rejects(schema, message, path):
    with open(path, 'rb') as f:
        doc = json.loads(f.read())
    errors = []
    check(schema, doc, schema, '$', errors)
    if message in errors:
        print('%s: rejected as expected: %s' % (path, message))
        return 0
    print('%s: expected the error %r' % (path, message))
    for e in errors or ['(the document is valid)']:
        print('  got: %s' % e)
    return 1


def rows(schema, schema_path, expect, command):
    proc = subprocess.run(command, stdout=subprocess.PIPE)
    if proc.returncode != expect:
        print('command exited with status %d, expected %d' % (proc.returncode, expect))
        return 1
    lines = proc.stdout.split(b'\n')
    if lines[-1] != b'':
        print('the output does not end in a newline')
        return 1
    lines = lines[:-1]
    if not lines:
        print('the command wrote no rows')
        return 1
    status = 0
    for no, line in enumerate(lines, 1):
        errors = []
        check(schema, json.loads(line), schema, '$', errors)
        for e in errors[:20]:
            print('row %d: %s' % (no, e))
        status |= bool(errors)
    if not status:
        print('%d rows valid against %s' % (len(lines), schema_path))
    return status


def main():
    schema_path = sys.argv[1]
    with open(schema_path) as f:
        schema = json.load(f)
    if len(sys.argv) == 5 and sys.argv[2] == '--rejects':
        return rejects(schema, sys.argv[3], sys.argv[4])
    if len(sys.argv) > 5 and sys.argv[2] == '--rows' and sys.argv[4] == '--':
        return rows(schema, schema_path, int(sys.argv[3]), sys.argv[5:])
    if len(sys.argv) > 2 and sys.argv[2] == '--':
        proc = subprocess.run(sys.argv[3:], stdout=subprocess.PIPE)
        if proc.returncode != 0:
            print('command failed with status %d' % proc.returncode)
            return 1
        docs = [(' '.join(sys.argv[3:]), proc.stdout)]
    else:
        docs = [(p, open(p, 'rb').read()) for p in sys.argv[2:]]
    status = 0
    for name, data in docs:
        errors = []
        check(schema, json.loads(data), schema, '$', errors)
        for e in errors[:50]:
            print('%s: %s' % (name, e))
        if errors:
            status = 1
        else:
            print('%s: valid against %s' % (name, schema_path))
    return status


if __name__ == '__main__':
    sys.exit(main())
