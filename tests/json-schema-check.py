#!/usr/bin/env python3
"""Run iotally commands and validate their JSON output against a JSON Schema.

Implements the subset of JSON Schema the project's schemas use: type (also
lists of types), const, enum, required, properties, additionalProperties
(false or a schema), items, minItems, maxItems, minimum. An unsupported
keyword is an error, so a schema cannot silently check less than it says.

  json-schema-check.py --bin build/iotally --root . --schema docs/json/classes.schema.json \
      --run 'classes --format json fixtures/...' [--run ...] [--expect-invalid FILE]
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

KNOWN = {'$schema', '$id', 'title', 'description', 'type', 'const', 'enum', 'required',
         'properties', 'additionalProperties', 'items', 'minItems', 'maxItems', 'minimum'}

TYPES = {
    'object': lambda v: isinstance(v, dict),
    'array': lambda v: isinstance(v, list),
    'string': lambda v: isinstance(v, str),
    'integer': lambda v: isinstance(v, int) and not isinstance(v, bool),
    'number': lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    'boolean': lambda v: isinstance(v, bool),
    'null': lambda v: v is None,
}


def validate(value, schema, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        errors.append('%s: unsupported schema keywords %s' % (path, sorted(unknown)))
    if 'type' in schema:
        types = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(TYPES[t](value) for t in types):
            errors.append('%s: %r is not of type %s' % (path, value, types))
            return
    if 'const' in schema and value != schema['const']:
        errors.append('%s: %r is not %r' % (path, value, schema['const']))
    if 'enum' in schema and value not in schema['enum']:
        errors.append('%s: %r not in %r' % (path, value, schema['enum']))
    if 'minimum' in schema and TYPES['number'](value) and value < schema['minimum']:
        errors.append('%s: %r below %r' % (path, value, schema['minimum']))
    if isinstance(value, dict):
        for key in schema.get('required', []):
            if key not in value:
                errors.append('%s: missing %r' % (path, key))
        props = schema.get('properties', {})
        extra = schema.get('additionalProperties', True)
        for key, item in value.items():
            if key in props:
                validate(item, props[key], path + '.' + key, errors)
            elif extra is False:
                errors.append('%s: unexpected key %r' % (path, key))
            elif isinstance(extra, dict):
                validate(item, extra, path + '.' + key, errors)
    if isinstance(value, list):
        if len(value) < schema.get('minItems', 0):
            errors.append('%s: fewer than %d items' % (path, schema['minItems']))
        if 'maxItems' in schema and len(value) > schema['maxItems']:
            errors.append('%s: more than %d items' % (path, schema['maxItems']))
        for i, item in enumerate(value):
            if 'items' in schema:
                validate(item, schema['items'], '%s[%d]' % (path, i), errors)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', required=True)
    ap.add_argument('--schema', required=True)
    ap.add_argument('--run', action='append', default=[])
    ap.add_argument('--expect-invalid', action='append', default=[],
                    help='a JSON file the schema must reject (proves the check can fail)')
    args = ap.parse_args()
    with open(args.schema, encoding='utf-8') as f:
        schema = json.load(f)
    failed = 0
    for bad in args.expect_invalid:
        with open(os.path.join(args.root, bad), encoding='utf-8') as f:
            errors = []
            validate(json.load(f), schema, '$', errors)
        print('%s: %s' % (bad, 'rejected: ' + errors[0] if errors else 'ACCEPTED (should fail)'))
        failed += not errors
    for run in args.run:
        proc = subprocess.run([os.path.abspath(args.bin)] + shlex.split(run), cwd=args.root,
                              stdout=subprocess.PIPE, env={'LC_ALL': 'C', 'TZ': 'UTC'})
        if proc.returncode != 0:
            print('%s: exit status %d' % (run, proc.returncode))
            failed += 1
            continue
        errors = []
        validate(json.loads(proc.stdout), schema, '$', errors)
        for e in errors[:20]:
            print('%s: %s' % (run, e))
        failed += bool(errors)
        print('%s: %s' % (run, 'FAIL' if errors else 'ok'))
    return 1 if failed or not args.run else 0


if __name__ == '__main__':
    sys.exit(main())
