#!/usr/bin/env python3
"""Generate a fleet of before/after capture pairs with planted leaks.

Writes OUT/before/NAME and OUT/after/NAME (paired by name, as `iotally diff`
and `iotally signatures` pair two folders) and OUT/truth.json: for every pair
the sorted list of families planted in it ([] for a pair with no leak).

Each pair is one machine's capture of one kind (vmmap, ioclasscount or
ioclasscount --track). A family is one leak: a GPU type, purge state and
region size (vmmap), an IOKit class (classes) or a kext call site (track).
Every pair gets noise that must not count as a leak: small regions that
come and go, volatile regions that grow, class counts that drift by a few
percent, containers that grow beside a leaking class, small call sites
that are new or grow; and machine-specific details that must not reach a
signature: pids, process names, user names in paths, capture times, OS
builds, kernel slides (every address), symbol offsets (a rebuilt kext),
and the baseline size of the process.

Two family sets never share a family: `eval` (the fleet the rates in
docs/signatures.md are measured on) and `test` (the reduced fleet of the
test suite), and they are run with different seeds.

    tools/gen-fleet.py --pairs 2000 --seed 27 --families eval OUT
"""

import argparse
import json
import os
import random
import zlib
import sys

MiB = 1 << 20
KiB = 1 << 10

# (name, kind, spec). vmmap: (type, purge, unit bytes, min units, max units);
# classes: (class, min delta, max delta); track: (module, symbol, unit, min, max).
FAMILIES = {
    "eval": [
        ("gpu-agx-128M", "vmmap", ("IOAccelerator (graphics)", "N", 128 * MiB, 1, 6)),
        ("gpu-agx-8M", "vmmap", ("IOAccelerator (graphics)", "N", 8 * MiB, 8, 40)),
        ("gpu-surface-1M", "vmmap", ("IOSurface", "N", 1 * MiB, 12, 80)),
        ("gpu-accel-32M", "vmmap", ("IOAccelerator", "-", 32 * MiB, 2, 8)),
        ("gpu-surface-16M", "vmmap", ("IOSurface", "N", 16 * MiB, 3, 12)),
        ("class-surface-uc", "classes", ("IOSurfaceRootUserClient", 40, 3000)),
        ("class-agx-queue", "classes", ("AGXG13XFamilyCommandQueue", 20, 800)),
        ("class-hid-queue", "classes", ("IOHIDEventQueue", 30, 1500)),
        ("class-vendor-stream", "classes", ("VendorAudioStream", 50, 5000)),
        ("track-audio-ring", "track", ("com.example.driver.VendorAudio",
                                       "VendorAudio::allocRing(unsigned int, bool)", 256 * KiB, 6, 60)),
        ("track-agx-wire", "track", ("com.apple.AGXG13X", "AGXResource::wire()", 1 * MiB, 2, 30)),
        ("track-surface-create", "track", ("com.apple.iokit.IOSurface",
                                           "IOSurfaceRootUserClient::s_create_surface(IOSurfaceRootUserClient*, void*, IOExternalMethodArguments*)",
                                           512 * KiB, 3, 40)),
    ],
    "test": [
        ("t-gpu-agx-64M", "vmmap", ("IOAccelerator (graphics)", "N", 64 * MiB, 1, 5)),
        ("t-gpu-surface-4M", "vmmap", ("IOSurface", "N", 4 * MiB, 9, 30)),
        ("t-gpu-accel-16M", "vmmap", ("IOAccelerator", "-", 16 * MiB, 3, 10)),
        ("t-class-net-buf", "classes", ("IONetworkBufferPool", 30, 900)),
        ("t-class-usb-pipe", "classes", ("AppleUSBHostPipe", 25, 600)),
        ("t-track-wifi-rx", "track", ("com.example.driver.WiFi", "WiFiRx::allocBuffer(unsigned long)",
                                      128 * KiB, 10, 50)),
        ("t-track-gpu-heap", "track", ("com.apple.AGXG13X", "AGXHeap::grow<unsigned int>(unsigned long)",
                                       2 * MiB, 1, 12)),
    ],
}

OS_VERSIONS = ["macOS 14.6.1 (23G93)", "macOS 15.3 (24D60)", "macOS 15.5 (24F74)",
               "macOS 26.0 (25A354)", "macOS 26.5 (25F71)", "macOS 26.6 (25G72)"]
MODELS = ["Mac14,2", "Mac14,7", "Mac15,3", "Mac15,6", "Mac16,1", "MacBookPro18,3", "Mac13,1"]
USERS = ["alice", "bob", "chen", "dana", "erik", "fatima", "gus", "hana"]
PROCS = ["GPUStress", "Preview", "Safari", "Finder", "ImageViewer", "GameLoop"]
GPU_TYPES = ["IOAccelerator (graphics)", "IOAccelerator", "IOSurface"]
NOISE_SIZES = [16 * KiB, 48 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB]
PAGE = 16 * KiB


def vm_size(n):
    """vmmap's rounded size column."""
    if n < 10000 * KiB:
        return "%dK" % (n // KiB)
    if n < 1000 * MiB:
        return "%.1fM" % (n / MiB)
    return "%.1fG" % (n / (1 << 30))


def jitter_unit(rng, unit):
    """A leak unit as allocated on one machine: within 5 %, whole pages."""
    u = int(unit * rng.uniform(0.95, 1.05))
    return max(PAGE, u // PAGE * PAGE)


class Machine:
    def __init__(self, rng, i):
        self.name = "m%04d" % i
        self.model = rng.choice(MODELS)
        self.os = rng.choice(OS_VERSIONS)
        self.user = rng.choice(USERS)


def vmmap_text(rng, m, regions, pid, proc, when):
    lines = [
        "Process:         %s [%d]" % (proc, pid),
        "Path:            /Users/%s/Applications/%s.app/Contents/MacOS/%s" % (m.user, proc, proc),
        "Identifier:      com.example.%s" % proc.lower(),
        "Code Type:       ARM64",
        "Parent Process:  launchd [1]",
        "",
        "Date/Time:       %s" % when,
        "OS Version:      %s" % m.os,
        "Report Version:  7",
        "Analysis Tool:   /usr/bin/vmmap",
        "",
        "----",
        "",
        "Virtual Memory Map of process %d (%s)" % (pid, proc),
        "Output report format:  2.4  -- 64-bit process",
        "VM page size:  16384 bytes",
        "",
        "==== Writable regions for process %d" % pid,
        "REGION TYPE                    START - END         [ VSIZE  RSDNT  DIRTY   SWAP] PRT/MAX SHRMOD PURGE    REGION DETAIL",
    ]
    addr = 0x100000000 + rng.randrange(0, 1 << 20) * PAGE   # a new slide per capture
    for typ, size, purge in regions:
        start, end = addr, addr + size
        addr = end + PAGE * rng.randrange(1, 4)
        res = size if purge != "E" else 0
        pstate = "" if purge == "-" else "PURGE=" + purge
        lines.append("%-24s    %x-%x    [%6s %6s %6s %6s] rw-/rw- SM=SHM %s" % (
            typ, start, end, vm_size(size), vm_size(res), vm_size(res if purge == "N" else 0),
            "0K", pstate))
    lines.append("")
    return "\n".join(lines) + "\n"


def when(rng, day, hour):
    return "2026-%02d-%02d %02d:%02d:%02d.%03d +0000" % (
        1 + day // 28 % 12, 1 + day % 28, hour, rng.randrange(60), rng.randrange(60), rng.randrange(1000))


def gen_vmmap(rng, m, fams):
    base = []
    for _ in range(rng.randrange(20, 200)):     # the process's own baseline size
        typ = rng.choice(GPU_TYPES + ["MALLOC_SMALL", "CoreAnimation"])
        base.append((typ, rng.choice(NOISE_SIZES + [8 * MiB]), rng.choice("NNV-E")))
    after = list(base)
    # Noise: up to 3 small regions gone and 3 come per GPU type, whatever state.
    for typ in GPU_TYPES:
        for _ in range(rng.randrange(0, 4)):
            idx = [i for i, r in enumerate(after) if r[0] == typ]
            if idx:
                del after[rng.choice(idx)]
        for _ in range(rng.randrange(0, 4)):
            after.append((typ, rng.choice(NOISE_SIZES), rng.choice("NV-")))
    # Volatile memory the system may take back grows freely: not a leak.
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            after.append(("IOAccelerator (graphics)", 64 * MiB, "V"))
    for _, _, (typ, purge, unit, lo, hi) in fams:
        u = jitter_unit(rng, unit)
        for _ in range(rng.randint(lo, hi)):
            after.append((typ, u, purge))
    rng.shuffle(after)
    proc = rng.choice(PROCS)
    day, hour = rng.randrange(300), rng.randrange(0, 20)
    b = vmmap_text(rng, m, base, rng.randrange(100, 99999), proc, when(rng, day, hour))
    a = vmmap_text(rng, m, after, rng.randrange(100, 99999), proc, when(rng, day, hour + 3))
    return b, a


BASE_CLASSES = ["IOService", "IORegistryEntry", "IOPCIDevice", "IOSurface", "IOUserClient",
                "AppleARMIODevice", "IOHIDDevice", "IOAccelDevice", "IOBufferMemoryDescriptor",
                "IOGeneralMemoryDescriptor", "IOMemoryMap", "IOCommandGate", "IOTimerEventSource",
                "IOWorkLoop", "IONotifier", "_IOServiceNotifier", "IOPMrootDomain",
                "AGXG13XFamilyDevice", "IOSurfaceSharedEvent", "IONetworkInterface"]
CONTAINERS = ["OSDictionary", "OSArray", "OSData", "OSString", "OSSymbol", "OSNumber"]
LEAK_CLASSES = sorted({f[2][0] for s in FAMILIES.values() for f in s if f[1] == "classes"})


def gen_classes(rng, m, fams):
    counts = {}
    for c in BASE_CLASSES:
        counts[c] = rng.randrange(0, 6000)
    for c in CONTAINERS:
        counts[c] = rng.randrange(2000, 90000)
    for c in LEAK_CLASSES:      # every class exists, leaking or not
        counts[c] = rng.randrange(0, 60)
    after = dict(counts)
    for c, n in counts.items():
        drift = max(3, n * 2 // 100)     # a few percent of churn
        after[c] = max(0, n + rng.randint(-drift, drift))
    for _, _, (cls, lo, hi) in fams:
        d = rng.randint(lo, hi)
        after[cls] = counts[cls] + d
        for c in ("OSDictionary", "OSData"):   # side effects of the leaking object
            after[c] += d * rng.randint(1, 3)
    names = sorted(counts, key=lambda _: rng.random())
    b = "".join("%s = %d\n" % (c, counts[c]) for c in names)
    a = "".join("%s = %d\n" % (c, after[c]) for c in names)
    return b, a


KERNEL_ALLOC = ["IOMallocAligned_internal(kalloc_heap*, unsigned long, unsigned long)",
                "IOMallocZero_external(unsigned long)", "kalloc_ext(kalloc_heap*, unsigned long, int, void*)"]
BASE_SITES = [("com.apple.iokit.IOHIDFamily", "IOHIDEventQueue::start()"),
              ("com.apple.driver.AppleUSBHostController", "AppleUSBHostPipe::init(unsigned int)"),
              ("com.apple.iokit.IONetworkingFamily", "IONetworkBufferPool::refill()"),
              ("com.apple.filesystems.apfs", "apfs_alloc_buf(unsigned long)"),
              ("com.apple.driver.AppleSMC", "SMCClient::readKey(unsigned int)"),
              ("com.apple.iokit.IOGraphicsFamily", "IOFramebuffer::allocCursor()"),
              ("com.apple.AGXG13X", "AGXContext::allocScratch(unsigned long)"),
              ("com.example.driver.Camera", "Camera::queueFrame(unsigned int)")]


def track_record(rng, i, nbytes, calls, frames):
    out = ["0x%x bytes (0x%x + 0x0), %d call%s [%d]" % (nbytes, nbytes, calls,
                                                        "" if calls == 1 else "s", i)]
    for j, (mod, addr, sym, off) in enumerate(frames):
        out.append(" %d %-40s 0x%x %s + 0x%x" % (j, mod, addr, sym, off))
    return "\n".join(out) + "\n"


def track_text(rng, sites):
    slide = 0xfffffff007000000 + rng.randrange(0, 1 << 16) * 0x4000   # a new kernel slide
    recs = []
    for i, (mod, sym, off, nbytes, calls) in enumerate(sites):
        frames = [("kernel.release", slide + 0x7a0010, rng.choice(KERNEL_ALLOC), 0x24),
                  (mod, slide + 0x2000000 + (zlib.crc32((mod + sym).encode()) & 0xffff0), sym, off)]
        recs.append(track_record(rng, i, nbytes, calls, frames))
    total = sum(s[3] for s in sites)
    return ("kernel memory allocations ('/usr/sbin/ioclasscount --track')\n"
            + "-" * 60 + "\n\n" + "\n".join(recs) + "\n0x%x bytes total\n" % total)


def gen_track(rng, m, fams):
    build = rng.randrange(1 << 12) * 4     # a rebuilt kext moves every offset
    sites = {}
    for mod, sym in rng.sample(BASE_SITES, rng.randrange(3, len(BASE_SITES) + 1)):
        sites[(mod, sym)] = [rng.randrange(1, 64) * 4 * KiB, rng.randrange(1, 40)]
    after = {k: list(v) for k, v in sites.items()}
    for k in after:                        # small growth and shrinkage, below the threshold
        after[k][0] = max(4 * KiB, after[k][0] + rng.randint(-8, 40) * 4 * KiB)
    if rng.random() < 0.5:                 # a small new site
        after[("com.apple.driver.AppleSMC", "SMCClient::cacheKeys()")] = [rng.randrange(1, 32) * 4 * KiB, 2]
    for _, _, (mod, sym, unit, lo, hi) in fams:
        k = rng.randint(lo, hi)
        u = jitter_unit(rng, unit) if unit >= PAGE else unit
        base = sites.get((mod, sym), [0, 0]) if rng.random() < 0.5 else None
        if base is not None and base[0]:
            after[(mod, sym)] = [base[0] + k * u, base[1] + k]
        else:
            sites.pop((mod, sym), None)
            after[(mod, sym)] = [k * u, k]
    def listing(d):
        keys = sorted(d, key=lambda _: rng.random())
        return track_text(rng, [(mod, sym, 0x40 + build + (zlib.crc32(sym.encode()) & 0x3f0), d[(mod, sym)][0],
                                 d[(mod, sym)][1]) for mod, sym in keys])
    return listing(sites), listing(after)


GEN = {"vmmap": gen_vmmap, "classes": gen_classes, "track": gen_track}
EXT = {"vmmap": "vmmap.txt", "classes": "ioclasscount.txt", "track": "track.txt"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--families", choices=sorted(FAMILIES), default="eval")
    ap.add_argument("--machines", type=int, default=400)
    ap.add_argument("--no-leak", type=float, default=0.35, help="share of pairs without a leak")
    ap.add_argument("--two-leaks", type=float, default=0.10, help="share of pairs with two leaks")
    ap.add_argument("out")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    fams = FAMILIES[a.families]
    machines = [Machine(rng, i) for i in range(a.machines)]
    for side in ("before", "after"):
        os.makedirs(os.path.join(a.out, side), exist_ok=True)
    truth, meta = {}, {}
    for i in range(a.pairs):
        m = rng.choice(machines)
        r = rng.random()
        if r < a.no_leak:
            kind, planted = rng.choice(sorted(GEN)), []
        else:
            f = rng.choice(fams)
            kind, planted = f[1], [f]
            if r < a.no_leak + a.two_leaks:
                others = [g for g in fams if g[1] == kind and g[0] != f[0] and
                          not (kind == "vmmap" and g[2][:3] == f[2][:3])]
                planted.append(rng.choice(others))
        b, af = GEN[kind](rng, m, planted)
        name = "%s-%05d-%s" % (m.name, i, EXT[kind])
        with open(os.path.join(a.out, "before", name), "w") as fp:
            fp.write(b)
        with open(os.path.join(a.out, "after", name), "w") as fp:
            fp.write(af)
        truth[name] = sorted(f[0] for f in planted)
        meta[name] = [kind, m.model, m.os]
    with open(os.path.join(a.out, "truth.json"), "w") as fp:
        json.dump({"seed": a.seed, "families": a.families, "pairs": truth,
                   "machines": meta}, fp, indent=0,
                  sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
