// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The data path's access to the memory of a umem: the bytes of a queue's
 * buffer, its doorbell record, or what an mkey translates to.
 *
 * A umem lists its pages by the address the device reaches them at.  On
 * the simulated device (virtual DMA, like rxe and siw) that address is the
 * kernel's own mapping of the page the driver pinned, and it stays valid
 * for as long as the umem exists: the driver unpins only after firmware
 * destroyed the umem, and a umem a queue or mkey uses cannot be destroyed.
 * The model holds its lock across every access, so no umem goes away
 * under one.
 */
#include <linux/mm.h>
#include <linux/string.h>
#include "../sim_priv.h"
#include "datapath.h"

/* The MTT entry's address bits: the access bits sit below bit 8. */
#define SIM_UMEM_ADDR_MASK	(~0xffULL)

/* One page's part of an access: false when the entry refuses it. */
static bool sim_umem_page_io(u64 ent, u64 at, void *buf, u64 chunk,
			     bool write)
{
	void *page;

	if (!(ent & (write ? SIM_MTT_WR : SIM_MTT_RD)))
		return false;
	page = (void *)(uintptr_t)(ent & SIM_UMEM_ADDR_MASK);
	if (!virt_addr_valid(page))
		return false;
	if (write)
		memcpy(page + at, buf, chunk);
	else
		memcpy(buf, page + at, chunk);
	return true;
}

/**
 * sim_umem_io() - copy bytes to or from a umem
 * @umem: the umem
 * @off: the first byte, from the umem's first byte (page_offset in)
 * @buf: the other side
 * @len: bytes to copy
 * @write: into the umem (else out of it)
 *
 * Each page is checked against its MTT entry's access bits, as a
 * ConnectX checks them on DMA: a read needs rd_en, a write wr_en.  The
 * driver sets wr_en only on pages it pinned writable, so no access the
 * process did not permit (a read-only mapping of a file, say) is ever
 * made here.
 *
 * The entries of an ODP umem are read, and their pages copied, under
 * the model's ODP lock (mem/odp.c); an entry that does not permit the
 * access raises a page fault there, when one is armed.
 *
 * Return: true, or false when the range is not all inside the umem, a
 * page is not one the model can reach, or its entry does not permit the
 * access (nothing is copied then from that page on).
 */
bool sim_umem_io(struct sim_umem *umem, u64 off, void *buf, size_t len,
		 bool write)
{
	u64 psize = BIT_ULL(umem->log_page);
	u64 abs, chunk;
	bool ok;

	if (!sim_umem_holds(umem, off, len))
		return false;
	abs = off + umem->page_offset;
	while (len) {
		u64 i = abs >> umem->log_page;

		chunk = min_t(u64, len, psize - (abs & (psize - 1)));
		if (umem->odp) {
			/* mem/odp.c: the notifier takes pages back under it */
			spin_lock(&umem->odp->odp_lock);
			ok = sim_umem_page_io(sim_umem_mtt(umem, i),
					      abs & (psize - 1), buf, chunk,
					      write);
			spin_unlock(&umem->odp->odp_lock);
			if (!ok) {
				sim_odp_fault(umem, abs, len, write);
				return false;
			}
		} else if (!sim_umem_page_io(umem->mtt[i], abs & (psize - 1),
					     buf, chunk, write)) {
			return false;
		}
		buf += chunk;
		abs += chunk;
		len -= chunk;
	}
	return true;
}

/**
 * sim_umem_va() - the kernel address of a range of a umem, to access it
 * in place
 * @umem: the umem
 * @off: the first byte, from the umem's first byte (page_offset in)
 * @len: bytes, nonzero
 * @write: the access will write (else read)
 *
 * Only for a range inside one page of a umem that is not ODP: its pages
 * stay pinned, and its MTT as created, for the umem's life, so the
 * address is good for as long as the caller holds the umem (a queue's
 * reference).  An ODP umem's pages come and go under its notifier: those
 * are accessed through sim_umem_io() only.
 *
 * Return: the address, or NULL when the range is not all inside the umem
 * or one page, the umem is ODP, the page is not one the model can reach,
 * or its entry does not permit the access (as sim_umem_io() refuses).
 */
void *sim_umem_va(const struct sim_umem *umem, u64 off, size_t len,
		  bool write)
{
	u64 psize = BIT_ULL(umem->log_page);
	u64 abs, ent;
	void *page;

	if (umem->odp || !len || !sim_umem_holds(umem, off, len))
		return NULL;
	abs = off + umem->page_offset;
	if ((abs & (psize - 1)) + len > psize)
		return NULL;
	ent = umem->mtt[abs >> umem->log_page];
	if (!(ent & (write ? SIM_MTT_WR : SIM_MTT_RD)))
		return NULL;
	page = (void *)(uintptr_t)(ent & SIM_UMEM_ADDR_MASK);
	if (!virt_addr_valid(page))
		return NULL;
	return page + (abs & (psize - 1));
}

/**
 * sim_umem_rec_rd32() - read a word of a doorbell record
 * @umem: the record's umem (NULL: there is none)
 * @va: its address from sim_umem_va(), or NULL to go through @umem
 * @rec: where the record starts in @umem
 * @off: the word's offset in the record
 * @val: the value, in CPU order
 *
 * Return: true, or false when there is no record or it may not be read.
 */
bool sim_umem_rec_rd32(struct sim_umem *umem, const __be32 *va, u64 rec,
		       u32 off, u32 *val)
{
	if (va) {
		*val = be32_to_cpu(READ_ONCE(va[off / 4]));
		return true;
	}
	return umem && sim_umem_rd32(umem, rec + off, val);
}

/* Whether the entries of the pages of byte @abs to page @last are rw. */
static bool sim_umem_rw_ok(struct sim_umem *umem, u64 abs, u64 last)
{
	const u64 rw = SIM_MTT_RD | SIM_MTT_WR;

	for (; abs >> umem->log_page <= last;
	     abs = (abs | (BIT_ULL(umem->log_page) - 1)) + 1)
		if ((sim_umem_mtt(umem, abs >> umem->log_page) & rw) != rw)
			return false;
	return true;
}

/**
 * sim_umem_touch() - whether the pages of a range are there to be read
 * and written, before an access that must not stop half way (an atomic)
 * @umem: the umem
 * @off: the first byte, from the umem's first byte (page_offset in)
 * @len: bytes
 *
 * On an ODP umem, an entry without both rights raises its page fault
 * (mem/odp.c).  Nothing is copied.
 *
 * Return: true when every entry has rd_en and wr_en.
 */
bool sim_umem_touch(struct sim_umem *umem, u64 off, size_t len)
{
	u64 abs, last;
	bool ok;

	if (!len || !sim_umem_holds(umem, off, len))
		return false;
	abs = off + umem->page_offset;
	last = (abs + len - 1) >> umem->log_page;
	if (!umem->odp)
		return sim_umem_rw_ok(umem, abs, last);
	spin_lock(&umem->odp->odp_lock);
	ok = sim_umem_rw_ok(umem, abs, last);
	spin_unlock(&umem->odp->odp_lock);
	if (!ok)
		sim_odp_fault(umem, abs, len, true);
	return ok;
}

/**
 * sim_umem_rd32() - read a big-endian 32-bit word (a doorbell record)
 * @umem: the umem
 * @off: where
 * @val: the value, in CPU order
 *
 * Return: true, or false when it is not inside the umem.
 */
bool sim_umem_rd32(struct sim_umem *umem, u64 off, u32 *val)
{
	__be32 v;

	if (!sim_umem_io(umem, off, &v, sizeof(v), false))
		return false;
	*val = be32_to_cpu(v);
	return true;
}
