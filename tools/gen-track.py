#!/usr/bin/env python3
"""Generate ioclasscount --track captures (IOKitTools-125 layout) on stdout.

  tools/gen-track.py --records 50000 --frames 16 [--seed N]
      a realistic large capture for tools/bench-track: records largest first,
      classes, IOMalloc and IOWire sites, a few dozen kexts, user backtraces,
      a Binary Images section and the total line.
  tools/gen-track.py --hostile NAME
      inputs for the golden tests that are too large to commit:
      frame-1mb       one record whose frame line is 1,000,000 bytes long
      frame-2mb       a frame line of 2 MiB, past the line reader's 1 MiB limit
      frames-100k     one record with 100,000 frames

Layout: formats/ioclasscount.md section 4.4 (format strings of IOKitTools-125).
"""

import argparse
import random
import sys

KERNEL = 'kernel.development'
KEXTS = ['com.apple.iokit.IOSurface', 'com.apple.AGXG13X', 'com.apple.driver.AppleHDA',
         'com.apple.iokit.IOAcceleratorFamily2', 'com.apple.filesystems.apfs',
         'com.apple.iokit.IONetworkingFamily', 'com.apple.driver.AppleUSBHostController',
         'com.apple.iokit.IOHIDFamily', 'com.apple.security.sandbox',
         'com.apple.driver.AppleSEPManager'] + \
        ['com.example.driver.Vendor%02d' % i for i in range(30)]
CLASSES = ['OSData', 'OSDictionary', 'OSArray', 'OSString', 'OSSymbol', 'IOUserClient',
           'IOMachPort', 'IOBufferMemoryDescriptor', 'OSSet', 'OSNumber']


def frame(i, module, address, symbol, offset=0):
    s = '%2d %-36s    %#018x %s' % (i, module, address, symbol)
    if offset:
        s += ' + 0x%x' % offset
    return s


def header(argv):
    h = "kernel memory allocations ('%s')" % argv
    return h + '\n' + '-' * len(h) + '\n'


def record(rng, index, size, nframes, out, stack_rng=None):
    # stack_rng draws the call stack: with --sites, one of a fixed set.
    srng = stack_rng or rng
    kind = srng.random()
    count = rng.randint(1, 4000)
    acc = 0 if kind < 0.5 else size // 4
    live = size - acc
    out.append('\n0x%x bytes (0x%x + 0x%x), %d call%s [%d]\n' % (
        size, live, acc, count, '' if count == 1 else 's', index))
    kext = srng.choice(KEXTS)
    cls = srng.choice(CLASSES) if kind < 0.6 else None
    kframes = nframes if not cls else nframes - 1
    for i in range(kframes):
        if i == 0:
            sym = ('%s::initWithCapacity(unsigned int)' % cls) if cls else \
                srng.choice(['IOMalloc_external(unsigned long)',
                            'IOGeneralMemoryDescriptor::wireVirtual(IODirection)'])
            mod = KERNEL
        elif i % 3 == 1:
            mod = kext
            sym = '%s::method%d(IOService*, unsigned int)' % (kext.split('.')[-1], srng.randint(0, 40))
        else:
            mod = KERNEL
            sym = 'IOService::func%d(OSDictionary*)' % srng.randint(0, 60)
        out.append(frame(i, mod, 0xfffffff007000000 + srng.randint(0, 1 << 24), sym,
                         srng.randint(4, 0x400)) + '\n')
    if cls:
        out.append(frame(kframes, KERNEL, 0xfffffff007e20000 + CLASSES.index(cls) * 0x100,
                         '%s::gMetaClass' % cls) + '\n')


def gen_capture(records, frames, seed, sites=0):
    rng = random.Random(seed)
    sizes = sorted((rng.randint(1, 1 << 12) * 16 for _ in range(records)), reverse=True)
    w = sys.stdout.write
    w(header('/usr/sbin/ioclasscount --track'))
    total = 0
    for index, size in enumerate(sizes):
        out = []
        stack_rng = random.Random(seed * 1000003 + index % sites) if sites else None
        record(rng, index, size, frames, out, stack_rng)
        w(''.join(out))
        total += size
    w('\n0x%x bytes total\n' % total)
    w('\nBinary Images:\n')
    for n, k in enumerate([KERNEL] + KEXTS):
        base = 0xfffffff007004000 + n * 0x100000
        w('%#x - %#x %s <%08X-0000-4000-8000-%012X> /System/Library/Extensions/%s\n' % (
            base, base + 0x80000, k, n, n, k))


def gen_hostile(name):
    w = sys.stdout.write
    w(header('ioclasscount --track'))
    if name in ('frame-1mb', 'frame-2mb'):
        length = 1000000 if name == 'frame-1mb' else 2 * 1024 * 1024
        w('\n0x1000 bytes (0x1000 + 0x0), 1 call [0]\n')
        w(frame(0, KERNEL, 0xfffffff0076f1a2c, 'IOMalloc_external(unsigned long)', 0x24) + '\n')
        prefix = frame(1, 'com.example.driver.Vendor00', 0xfffffff009600000, 'Vendor::f<')
        suffix = '>() + 0x10'
        w(prefix + 'A' * (length - len(prefix) - len(suffix)) + suffix + '\n')
        w(frame(2, KERNEL, 0xfffffff0078b0100, 'IOService::start(IOService*)', 0x6c) + '\n')
        w('\n0x1000 bytes total\n')
    elif name == 'frames-100k':
        w('\n0x2000 bytes (0x2000 + 0x0), 2 calls [0]\n')
        mods = [KERNEL, 'com.example.driver.Vendor01']
        for i in range(100000):
            w(frame(i, mods[i % 7 == 3], 0xfffffff007000000 + i * 16,
                    'deep::recursion%d(unsigned int)' % (i % 5), 0x10) + '\n')
        w('\n0x2000 bytes total\n')
    else:
        sys.exit('gen-track.py: unknown hostile input %r' % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--records', type=int, default=50000)
    ap.add_argument('--frames', type=int, default=16)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--hostile')
    ap.add_argument('--sites', type=int, default=0,
                    help='draw the call stacks from this many distinct ones '
                         '(default: every record its own call site)')
    a = ap.parse_args()
    if a.hostile:
        gen_hostile(a.hostile)
    else:
        gen_capture(a.records, a.frames, a.seed, a.sites)


if __name__ == '__main__':
    main()
