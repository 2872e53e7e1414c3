#!/usr/bin/env python3
"""Generate synthetic IOKitDiagnostics captures with a consistent class hierarchy.

One seeded class tree (OSObject at the root) with direct instance counts is
turned into the kernel's adjusted counts (count = direct + direct subclasses
with count >= 1), then written as:

  xml        `ioreg -a -l -d1`: top-level <dict> of the root entry, keys in
             CoreFoundation's order, &lt;/&gt; escapes, negative <integer>s
  kextinfo   OSKextCopyLoadedKextInfo as XML: bundle id -> OSBundleClasses
  text       `ioreg -l -w0 -d1` root entry (one IOKitDiagnostics line)

The output is deterministic for a given --classes and --seed.

  tools/gen-classes.py --classes 3000 xml > fixtures/classes/synthetic-ioreg-a-3000.plist
"""

import argparse
import random
import sys

PREFIXES = ['IO', 'Apple', 'AGX', 'IOAccel', 'IOSurface', 'AppleUSB', 'IONetwork',
            'com_apple_driver_', 'IOHID', 'AppleARM', 'IOAudio', 'IOSkywalk']
STEMS = ['Device', 'Controller', 'UserClient', 'Queue', 'Buffer', 'Family', 'Port',
         'Engine', 'Interface', 'Service', 'Notifier', 'Command', 'WorkLoop', 'Map']
VALUE_TYPES = ['void*', 'unsigned int', 'KeyboardReserved', 'PMAssertStruct',
               'AsyncReportParam', 'IOPMPowerState']


def make_names(n, rng):
    names, seen = [], {'OSObject'}
    fixed = ['_IOServiceNotifier', '_IOConfigThread', 'hv_vmx_vcpua_t', 'IOPCIDevice',
             'IORegistryEntry', 'IOService', 'IONetworkController', 'IOEthernetController',
             'OSAction_IOUserNetworkEthernet__RxSQDataAvailable', 'IOKitDiagnostics']
    fixed += ['OSValueObject<%s>' % t for t in VALUE_TYPES]
    for f in fixed:
        if len(names) < n:
            names.append(f)
            seen.add(f)
    i = 0
    while len(names) < n:
        name = '%s%s%s' % (rng.choice(PREFIXES), rng.choice(STEMS), i)
        i += 1
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def build_tree(n, seed):
    rng = random.Random(seed)
    names = ['OSObject'] + make_names(n - 1, rng)
    parent = {'OSObject': None}
    order = ['OSObject']
    fixed_parents = {'IORegistryEntry': 'OSObject', 'IOService': 'IORegistryEntry',
                     'IOPCIDevice': 'IOService', 'IONetworkController': 'IOService',
                     'IOEthernetController': 'IONetworkController'}
    for name in names[1:]:
        if name in fixed_parents and fixed_parents[name] in parent:
            p = fixed_parents[name]
        elif name.startswith('OSValueObject') or name.startswith('OSAction'):
            p = 'OSObject'
        elif rng.random() < 0.5 and len(order) > 10:
            p = rng.choice(order[:max(10, len(order) // 10)])
        else:
            p = rng.choice(order)
        parent[name] = p
        order.append(name)
    direct = {}
    for name in order:
        r = rng.random()
        direct[name] = 0 if r < 0.55 else rng.randint(1, 3) if r < 0.9 else rng.randint(4, 5000)
    direct['OSObject'] = 0
    children = {name: [] for name in order}
    for name in order[1:]:
        children[parent[name]].append(name)
    count = {}
    for name in reversed(order):
        count[name] = direct[name] + sum(1 for c in children[name] if count[c] >= 1)
    # One over-released object: a leaf whose counter went below zero.
    for name in reversed(order):
        if not children[name] and direct[name] == 0 and name != 'OSObject':
            count[name] = -1
            break
    return order, parent, count


def esc(s):
    return s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def cf_sorted(keys):
    return sorted(keys, key=lambda k: k.encode('utf-16-be'))


HEADER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
          '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
          '<plist version="1.0">\n')


def write_xml(out, order, count):
    alloc = {'Container allocation': 4820395, 'IOMalloc allocation': -341995139,
             'Instance allocation': 1843336, 'Pageable allocation': 30097408}
    out.write(HEADER + '<dict>\n')
    root = [
        ('IOKitBuildVersion', 'string', 'Darwin Kernel Version 12.2.1: synthetic; '
         'root:xnu-2050.20.9~2/RELEASE_X86_64'),
        ('IOKitDiagnostics', None, None),
        ('IOObjectClass', 'string', 'IORegistryEntry'),
        ('IOObjectRetainCount', 'integer', '33'),
        ('IORegistryEntryID', 'integer', '4294967552'),
        ('IORegistryEntryName', 'string', 'Root'),
        ('OSKernelCPUSubtype', 'integer', '-1073741822'),
    ]
    for key, kind, value in root:
        out.write('\t<key>%s</key>\n' % key)
        if kind:
            out.write('\t<%s>%s</%s>\n' % (kind, esc(value), kind))
            continue
        out.write('\t<dict>\n\t\t<key>Classes</key>\n\t\t<dict>\n')
        for name in cf_sorted(order):
            out.write('\t\t\t<key>%s</key>\n\t\t\t<integer>%d</integer>\n'
                      % (esc(name), count[name]))
        out.write('\t\t</dict>\n')
        for k in cf_sorted(alloc):
            out.write('\t\t<key>%s</key>\n\t\t<integer>%d</integer>\n' % (k, alloc[k]))
        out.write('\t</dict>\n')
    out.write('</dict>\n</plist>\n')


def write_kextinfo(out, order, parent, count):
    kexts = {}
    for i, name in enumerate(order):
        bundle = 'com.apple.kpi.iokit' if i < len(order) // 4 else \
            'com.apple.driver.Synthetic%d' % (i * 7 // len(order))
        kexts.setdefault(bundle, []).append(name)
    out.write(HEADER + '<dict>\n')
    for tag, bundle in enumerate(cf_sorted(kexts)):
        out.write('\t<key>%s</key>\n\t<dict>\n' % bundle)
        out.write('\t\t<key>CFBundleIdentifier</key>\n\t\t<string>%s</string>\n' % bundle)
        out.write('\t\t<key>OSBundleClasses</key>\n\t\t<array>\n')
        for name in kexts[bundle]:
            out.write('\t\t\t<dict>\n')
            out.write('\t\t\t\t<key>OSMetaClassName</key>\n\t\t\t\t<string>%s</string>\n'
                      % esc(name))
            if parent[name]:
                out.write('\t\t\t\t<key>OSMetaClassSuperclassName</key>\n'
                          '\t\t\t\t<string>%s</string>\n' % esc(parent[name]))
            out.write('\t\t\t\t<key>OSMetaClassTrackingCount</key>\n'
                      '\t\t\t\t<integer>%d</integer>\n' % count[name])
            out.write('\t\t\t</dict>\n')
        out.write('\t\t</array>\n')
        out.write('\t\t<key>OSBundleLoadTag</key>\n\t\t<integer>%d</integer>\n' % tag)
        out.write('\t</dict>\n')
    out.write('</dict>\n</plist>\n')


def write_text(out, order, count):
    classes = ','.join('"%s"=%d' % (n, count[n] % 2**64) for n in order)
    out.write('+-o Root  <class IORegistryEntry, id 0x100000100, retain 33>\n    {\n')
    out.write('      "IOKitBuildVersion" = "Darwin Kernel Version 12.2.1: synthetic"\n')
    out.write('      "IOKitDiagnostics" = {"Container allocation"=4820395,'
              '"Instance allocation"=1843336,"Pageable allocation"=30097408,'
              '"Classes"={%s},"IOMalloc allocation"=%d}\n' % (classes, -341995139 % 2**64))
    out.write('    }\n    \n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--classes', type=int, default=3000)
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('format', choices=['xml', 'kextinfo', 'text'])
    args = ap.parse_args()
    order, parent, count = build_tree(args.classes, args.seed)
    out = sys.stdout
    if args.format == 'xml':
        write_xml(out, order, count)
    elif args.format == 'kextinfo':
        write_kextinfo(out, order, parent, count)
    else:
        write_text(out, order, count)


if __name__ == '__main__':
    main()
