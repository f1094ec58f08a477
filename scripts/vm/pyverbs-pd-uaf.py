#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""In the guest: show that pyverbs keeps no reference to a parent domain's
ParentDomainContext while a CQ allocated through it lives.

Usage: pyverbs-pd-uaf.py DEV keep|drop

Creates a PD, a parent domain with Python allocators and one extended CQ
on it, then destroys the CQ.  With "keep" the script holds the context
and the CQ's buffers are freed through it; with "drop" it lets go of its
only reference first, and libmlx5's free of the CQ buffer runs pyverbs'
pd_free() on freed memory, here reused (SIGSEGV; under PYTHONMALLOC=debug
the object reads 0xdd).  Nothing here depends on the device beyond creating those
three objects: see Documentation/design.rst, "rdma-core's own suite".
"""
import gc
import sys

from pyverbs.device import Context
from pyverbs.pd import PD, ParentDomain, ParentDomainContext, \
    ParentDomainInitAttr
from pyverbs.cq import CQEX, CqInitAttrEx
import pyverbs.enums as e
import pyverbs.mem_alloc as mem

calls = []


def alloc(pd, pd_ctx, size, alignment, rtype):
    calls.append(('alloc', size, hex(rtype)))
    return mem.posix_memalign(size, alignment)


def free(pd, pd_ctx, ptr, rtype):
    calls.append(('free', hex(rtype)))
    mem.free(ptr)


def main():
    dev, mode = sys.argv[1], sys.argv[2]
    ctx = Context(name=dev)
    pd = PD(ctx)
    pdc = ParentDomainContext(pd, alloc, free)
    pdom = ParentDomain(ctx, attr=ParentDomainInitAttr(pd=pd,
                                                       pd_context=pdc))
    cia = CqInitAttrEx(cqe=64, wc_flags=e.IBV_WC_STANDARD_FLAGS,
                       parent_domain=pdom,
                       comp_mask=e.IBV_CQ_INIT_ATTR_MASK_FLAGS |
                       e.IBV_CQ_INIT_ATTR_MASK_PD)
    cq = CQEX(ctx, cia)
    print('allocator calls after CQ creation:', calls, flush=True)
    # getrefcount() counts its argument and our variable
    print('references to the ParentDomainContext besides ours:',
          sys.getrefcount(pdc) - 2, flush=True)
    if mode == 'drop':
        del pdc
        gc.collect()
        # reuse the freed object's memory, as a program goes on doing
        junk = [bytearray(64) for _ in range(1000)]
        print('allocated', len(junk), 'objects', flush=True)
    print('destroying the CQ', flush=True)
    cq.close()
    print('allocator calls after CQ destruction:', calls, flush=True)
    pdom.close()
    pd.close()
    ctx.close()
    print('done', flush=True)


if __name__ == '__main__':
    main()
