#!/usr/bin/env python3
"""Print the file name a program linked against a library loads it by.

    tools/lib-soname.py PKG-CONFIG MODULE SYMBOL -- CC [ARG...]

Links two probe programs with CC: one that uses nothing, and one that takes
the address of SYMBOL and is linked with `PKG-CONFIG --libs MODULE` under
--as-needed (so only the library that defines SYMBOL is kept). The one
DT_NEEDED entry the second probe has and the first has not is the library's
soname as the linker chose it (libxml2.so.2, libarchive.so.13): what the
program must dlopen to get the same library. Anything else (no such entry,
several, a link that fails, a file that is not ELF) is an error: exit 1 with
the reason on standard error.

meson.build runs it at configure time when the lazy_libs option is on.
"""
import os
import shlex
import struct
import subprocess
import sys
import tempfile

SHT_DYNAMIC = 6
DT_NULL = 0
DT_NEEDED = 1


class ElfError(Exception):
    pass


def elf_needed(path):
    """The DT_NEEDED entries of an ELF file, in order."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF':
        raise ElfError(f'{path} is not an ELF file')
    cls, enc = data[4], data[5]
    if cls not in (1, 2) or enc not in (1, 2):
        raise ElfError(f'{path}: unknown ELF class or byte order')
    end = '<' if enc == 1 else '>'
    if cls == 2:
        shoff, = struct.unpack_from(end + 'Q', data, 0x28)
        shentsize, shnum = struct.unpack_from(end + 'HH', data, 0x3a)
        shdr, dyn = end + 'IIQQQQIIQQ', end + 'qQ'
    else:
        shoff, = struct.unpack_from(end + 'I', data, 0x20)
        shentsize, shnum = struct.unpack_from(end + 'HH', data, 0x2e)
        shdr, dyn = end + 'IIIIIIIIII', end + 'iI'
    sections = [struct.unpack_from(shdr, data, shoff + i * shentsize) for i in range(shnum)]
    needed = []
    for sec in sections:
        if sec[1] != SHT_DYNAMIC:
            continue
        offset, size, link = sec[4], sec[5], sec[6]
        stroff = sections[link][4]
        step = struct.calcsize(dyn)
        for pos in range(offset, offset + size, step):
            tag, val = struct.unpack_from(dyn, data, pos)
            if tag == DT_NULL:
                break
            if tag == DT_NEEDED:
                name_end = data.index(b'\0', stroff + val)
                needed.append(data[stroff + val:name_end].decode())
    return needed


def link(cc, source, out, args, workdir):
    src = os.path.join(workdir, out + '.c')
    with open(src, 'w') as f:
        f.write(source)
    exe = os.path.join(workdir, out)
    cmd = cc + ['-o', exe, src] + args
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise ElfError('cannot link a probe: ' + shlex.join(cmd) + '\n' + res.stderr)
    return elf_needed(exe)


def soname(pkg_config, module, symbol, cc):
    res = subprocess.run([pkg_config, '--libs', module], capture_output=True, text=True)
    if res.returncode != 0:
        raise ElfError(f'{pkg_config} --libs {module} failed: {res.stderr.strip()}')
    libs = shlex.split(res.stdout)
    with tempfile.TemporaryDirectory() as workdir:
        base = link(cc, 'int main(void) { return 0; }\n', 'probe-none', [], workdir)
        # A volatile pointer keeps the reference (and so the library) at -O2 too.
        used = link(cc, f'extern void {symbol}(void);\n'
                        f'int main(void) {{ void (*volatile p)(void) = {symbol}; return p == 0; }}\n',
                    'probe-lib', ['-Wl,--as-needed'] + libs, workdir)
    extra = [n for n in used if n not in base]
    if len(extra) != 1:
        raise ElfError(f'linking {symbol} from {module} ({shlex.join(libs)}) added '
                       f'{len(extra)} libraries, not one: {extra}')
    return extra[0]


def main(argv):
    if len(argv) < 6 or argv[4] != '--':
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 64
    try:
        print(soname(argv[1], argv[2], argv[3], argv[5:]))
    except (ElfError, OSError, struct.error, IndexError, ValueError) as e:
        print(f'lib-soname.py: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
