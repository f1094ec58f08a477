#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""KCOV coverage of mlx5x.ko per source file, from the PCs the fuzzer
covered (mlx5x_fuzz with MLX5X_FUZZ_PCS=FILE: offsets in .text, hex, a
line each; or a log with guest-fuzz.sh's line "# kcov-pcs OFFSET...",
whose last such line is taken).

Usage: fuzz-cover.py KO PCS [REGEX]
Prints "# cover FILE: COVERED of SITES call sites" for each source file
whose name matches REGEX (default: every file with a site), where a site
is a call into KCOV in .text (a relocation to __sanitizer_cov_trace_pc)
and it is covered when the fuzzer saw its return address.  Without debug
information: a function's file is the FILE symbol its local symbols
follow in the module's symbol table (the objects of KO's .mod, in link
order, tell files of one name apart); a global function's, the object
of the build tree beside the module that defines it (KO's directory, as
scripts/build.sh leaves it).
"""
import os
import re
import subprocess
import sys
from bisect import bisect_right


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def text_index(ko):
    """The index of .text among KO's sections."""
    for line in run('readelf', '-SW', ko).splitlines():
        m = re.match(r'\s*\[\s*(\d+)\]\s+\.text\s', line)
        if m:
            return m.group(1)
    sys.exit('fuzz-cover: no .text in ' + ko)


def objects(ko):
    """The module's object files in link order (KO's .mod, from kbuild)."""
    with open(ko[:-3] + '.mod') as fh:
        return [o for o in fh.read().split() if o.endswith('.o')]


def short(obj, objdir):
    """An object's source file, relative to the driver's directory."""
    rel = os.path.relpath(obj[:-2] + '.c', objdir)
    return rel.replace('drivers/infiniband/hw/mlx5x/', '', 1)


def functions(ko, objdir):
    """[(start, end, file)] of the functions in KO's .text, sorted."""
    objs = objects(ko)
    queue = {}  # basename -> its objects not yet met, in link order
    for o in objs:
        queue.setdefault(os.path.basename(o)[:-2] + '.c', []).append(o)
    glob = {}
    cur = None
    # one nm for all (a process each is slow in a TCG guest)
    for line in run('nm', '--defined-only', *objs).splitlines():
        if line.endswith('.o:'):
            cur = short(line[:-1], objdir)
            continue
        p = line.split()
        if len(p) == 3 and p[1] == 'T':
            glob[p[2]] = cur
    sec = text_index(ko)
    cur = '?'
    out = []
    for line in run('readelf', '-sW', ko).splitlines():
        p = line.split()
        if len(p) < 8 or not p[0].endswith(':'):
            continue
        typ, bind, ndx = p[3], p[4], p[6]
        if typ == 'FILE':
            q = queue.get(p[7])
            cur = short(q.pop(0), objdir) if q else p[7]
            continue
        if typ != 'FUNC' or ndx != sec:
            continue
        start, size = int(p[1], 16), int(p[2])
        src = cur if bind == 'LOCAL' else glob.get(p[7], '?')
        out.append((start, start + max(size, 1), src))
    out.sort()
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ko, pcs = sys.argv[1], sys.argv[2]
    want = re.compile(sys.argv[3] if len(sys.argv) > 3 else '.')
    objdir = os.path.dirname(os.path.realpath(ko))
    funcs = functions(ko, objdir)
    starts = [f[0] for f in funcs]

    def file_of(off):
        i = bisect_right(starts, off) - 1
        if i >= 0 and off < funcs[i][1]:
            return funcs[i][2]
        return '?'

    sites, covered = {}, {}
    rets = set()
    for line in run('objdump', '-r', '-j', '.text', ko).splitlines():
        p = line.split()
        if len(p) == 3 and p[2].startswith('__sanitizer_cov_trace_pc'):
            ret = int(p[0], 16) + 4  # the call's return address
            rets.add(ret)
            f = file_of(ret - 5)
            sites[f] = sites.get(f, 0) + 1
    offs = []
    with open(pcs, errors='replace') as fh:
        for line in fh:
            if line.startswith('# kcov-pcs '):
                offs = line.split()[2:]
            elif re.fullmatch(r'[0-9a-f]+\n?', line):
                offs.append(line)
    for off in {int(o, 16) for o in offs}:
        if off in rets:
            f = file_of(off - 5)
            covered[f] = covered.get(f, 0) + 1
    for f in sorted(sites):
        if want.search(f):
            print('# cover %s: %d of %d call sites' %
                  (f, covered.get(f, 0), sites[f]))


if __name__ == '__main__':
    main()
