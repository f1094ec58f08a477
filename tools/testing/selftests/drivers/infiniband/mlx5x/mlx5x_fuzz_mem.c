// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5x_fuzz: the memory the device reaches, as an unprivileged process
 * hands it over (the DEVX queues made over it: mlx5x_fuzz_queue.c).
 *
 * - regions: a worker's buffers, made anew after each context is closed:
 *   plain anonymous memory of a random size; 4 MiB aligned on 2 MiB with
 *   MADV_HUGEPAGE, touched, so that transparent huge pages back it where
 *   the kernel has them; anonymous memory filled with a pattern, then
 *   made PROT_READ; a memfd filled with a pattern and mapped PROT_READ
 *   through a read-only descriptor (as a file the process may only read);
 *   each between two PROT_NONE pages (region_fence()).
 *   Nothing may change a read-only region: once the context is closed
 *   (every umem, queue and mkey over it gone) each is checked against its
 *   pattern, and a change is a finding (FZ_RO_WRITTEN).
 * - UMEMs (MLX5_IB_METHOD_DEVX_UMEM_REG/DEREG) over them: page size
 *   bitmaps of every shape (none, one bit, only sizes larger than the
 *   buffer, 4 KiB and 2 MiB, random), addresses and offsets inside the
 *   regions or not, lengths of 0, 1, across a page, to the end, past it,
 *   huge, and access flags of every combination, none included.
 */#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "mlx5x_fuzz.h"
#include "mlx5x_test.h"

#define PAGE		4096UL
#define HUGE		(2UL << 20)
#define REGION_FENCE	PAGE	/* PROT_NONE each side of a region */
#define RG_PLAIN	0
#define RG_HUGE		1
#define RG_RO		2
#define RG_RO_FILE	3
#define ACCESS_ANY	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_RELAXED_ORDERING)
#define M		(w.mem)

static uint8_t pattern(uint8_t seed, size_t i)
{
	return seed + i * 7 + (i >> 12) * 13;
}

/*
 * @len bytes of address space, PROT_NONE, with a PROT_NONE page left on
 * each side (@huge: starting on a 2 MiB boundary): the fuzzer's umems and
 * MRs run past the end of their regions on purpose, and one that pinned
 * the mapping beside it (the process's heap, a ring of libmlx5's, another
 * region) would let the device write there, through keys the process
 * holds, into memory no check expects to change; no pin crosses a
 * PROT_NONE page.  Returns the start, or NULL.
 */
static uint8_t *region_fence(size_t len, bool huge)
{
	size_t room = len + 2 * REGION_FENCE + (huge ? HUGE : 0), k = 0;
	uint8_t *p;

	p = mmap(NULL, room, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (huge) {
		k = -(uintptr_t)(p + REGION_FENCE) & (HUGE - 1);
		if (k)
			munmap(p, k);
		munmap(p + k + len + 2 * REGION_FENCE, HUGE - k);
	}
	return p + k + REGION_FENCE;
}

/* The pattern in a memfd of @len bytes, mapped read-only at @at. */
static bool ro_file(uint8_t *at, size_t len, uint8_t seed)
{
	uint8_t buf[PAGE];
	char path[64];
	size_t i, off;
	void *p = MAP_FAILED;
	int fd, ro;

	fd = memfd_create("mlx5x_fuzz", 0);
	if (fd < 0)
		return p;
	for (off = 0; off < len; off += sizeof(buf)) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = pattern(seed, off + i);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			goto out;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY);
	if (ro >= 0) {
		p = mmap(at, len, PROT_READ, MAP_SHARED | MAP_FIXED, ro, 0);
		close(ro);
	}
out:
	close(fd);
	return p != MAP_FAILED;
}

/* Map region @i, of its kind, unless it is. */
static bool region_map(unsigned int i)
{
	struct fz_region *r = &M.rg[i];
	uint8_t *p;
	size_t k;

	if (r->base)
		return true;
	r->ro = i >= RG_RO;
	r->seed = rnd();
	switch (i) {
	case RG_PLAIN:
		r->len = below(4) ? PAGE * (1 + below(256)) : 1 + below(1 << 20);
		break;
	case RG_HUGE:
		r->len = 2 * HUGE;
		break;
	case RG_RO:
		r->len = PAGE * (1 + below(64));
		break;
	default:
		r->len = PAGE * (1 + below(32));
		break;
	}
	r->map = (r->len + PAGE - 1) & ~(PAGE - 1);
	p = region_fence(r->map, i == RG_HUGE);
	if (!p)
		return false;
	if (i == RG_RO_FILE) {
		if (!ro_file(p, r->map, r->seed))
			goto fail;
	} else if (mprotect(p, r->map, PROT_READ | PROT_WRITE)) {
		goto fail;
	} else if (i == RG_HUGE) {
		madvise(p, r->map, MADV_HUGEPAGE);
		memset(p, 0, r->map);
	} else if (r->ro) {
		for (k = 0; k < r->map; k++)
			p[k] = pattern(r->seed, k);
		mprotect(p, r->map, PROT_READ);
	}
	r->base = p;
	return true;
fail:
	munmap(p - REGION_FENCE, r->map + 2 * REGION_FENCE);
	return false;
}

/* Memory for a umem or an MR: mostly in a region, now and then not. */
uint8_t *region_pick(uint64_t *len, bool *ro)
{
	static const uint8_t kinds[] = {
		RG_PLAIN, RG_PLAIN, RG_PLAIN, RG_HUGE, RG_HUGE, RG_RO,
		RG_RO_FILE,
	};
	struct fz_region *r = &M.rg[kinds[below(MT_ARRAY_SIZE(kinds))]];
	uint64_t off, left;

	*ro = false;
	*len = rnd();
	if (!region_map(r - M.rg))
		return NULL;
	*ro = r->ro;
	switch (below(6)) {
	case 0:
		off = 0;
		break;
	case 1:		/* a page, or a 2 MiB boundary, or just before */
		off = below(r->map / PAGE) * PAGE;
		if (r == &M.rg[RG_HUGE] && below(2))
			off = HUGE;
		off -= off && below(2) ? 1 + below(64) : 0;
		break;
	case 2:
		off = r->len - 1;
		break;
	default:
		off = below(r->len);
		break;
	}
	left = r->len - off;
	switch (below(10)) {
	case 0:
		*len = below(4) ? 0 : 1;
		break;
	case 1:		/* across a page boundary */
		*len = PAGE - ((uintptr_t)r->base + off) % PAGE + 1 + below(64);
		break;
	case 2:
		*len = left;
		break;
	case 3:		/* past the buffer, or huge */
		*len = below(2) ? left + 1 + below(2 * PAGE) : rnd();
		break;
	case 4:
		*len = PAGE << below(10);
		break;
	case 5:
		*len = 1 + below(left);
		break;
	default:	/* pinning is costly: mostly a few pages */
		*len = 1 + below(left < 16 * PAGE ? left : 16 * PAGE);
		break;
	}
	return r->base + off;
}

/* Whether [@p, @p + @len) is all in one region, and whether that is RO. */
bool region_holds(const uint8_t *p, uint64_t len, bool *ro)
{
	unsigned int i;

	for (i = 0; i < REGIONS; i++) {
		struct fz_region *r = &M.rg[i];

		if (r->base && p >= r->base && len <= r->map &&
		    (uint64_t)(p - r->base) <= r->map - len) {
			*ro = r->ro;
			return true;
		}
	}
	return false;
}

/*
 * The context is closed: check the read-only regions, unmap them all,
 * forget its umems, queues and lab.  Each region is made anew, of a new
 * size, when next needed.
 */
void mem_reset(void)
{
	unsigned int i, bad;
	size_t k, first;

	for (i = 0; i < REGIONS; i++) {
		struct fz_region *r = &M.rg[i];

		if (!r->base)
			continue;
		for (k = 0, bad = 0, first = 0; r->ro && k < r->map; k++)
			if (r->base[k] != pattern(r->seed, k) && !bad++)
				first = k;
		if (bad) {
			fprintf(stderr, "fuzz: FINDING: read-only region %u (%s, %zu bytes) changed: %u bytes, the first at offset %#zx\n",
				i, i == RG_RO_FILE ? "a file" : "anonymous",
				r->map, bad, first);
			stat_add(FZ_RO_WRITTEN, 1);
		}
		munmap(r->base - REGION_FENCE, r->map + 2 * REGION_FENCE);
		r->base = NULL;
	}
	M.numems = M.nq = 0;
	M.lab = false;
	M.lab_tries = 0;
}

static uint64_t pgsz_bitmap(uint64_t len)
{
	unsigned int order = 64 - __builtin_clzll(len | 1);

	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return 1ULL << below(64);
	case 2:
		return 1ULL << (12 + below(10));
	case 3:		/* only sizes larger than the buffer */
		return order < 63 ? ~0ULL << (order + below(3)) : 0;
	case 4:
		return rnd();
	case 5:
		return PAGE | HUGE;
	default:
		return below(2) ? PAGE : ~0ULL << 12;
	}
}

static uint64_t access_flags(bool ro)
{
	static const uint64_t sets[] = {
		0, IBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_REMOTE_READ,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
		IBV_ACCESS_REMOTE_WRITE,	/* without local write */
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING,
		IBV_ACCESS_REMOTE_ATOMIC, IBV_ACCESS_MW_BIND,
	};

	if (!below(8))
		return rnd();
	if (ro && below(2))
		return below(2) ? 0 : IBV_ACCESS_REMOTE_READ;
	return below(2) ? sets[below(MT_ARRAY_SIZE(sets))] :
	       (below(4) ? IBV_ACCESS_LOCAL_WRITE : rnd() & ACCESS_ANY);
}

static void umem_dereg(void)
{
	struct fz_umem *u = M.numems && below(8) ? &M.umems[below(M.numems)] :
			    NULL;
	uint32_t h = u ? u->handle : rnd() % 200;
	struct call c;

	call_init(&c, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_DEREG);
	attr_val(&c, MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE, h);
	run(&c);
	/* one a queue or mkey still uses stays (EBUSY) */
	if (u && (w.ok || errno != EBUSY))
		*u = M.umems[--M.numems];
}

/**
 * op_umem() - register or deregister a UMEM
 *
 * ADDR and LEN in a region (region_pick()), now and then any address;
 * ACCESS; PGSZ_BITMAP, or none (any size from 4 KiB).
 */
void op_umem(void)
{
	uint64_t addr, len, acc;
	uint32_t id = 0;
	struct call c;
	uint8_t *p;
	bool ro;

	w.group = FZ_UMEM;
	if (M.numems && (M.numems == MAX_UMEMS || !below(3))) {
		umem_dereg();
		return;
	}
	p = region_pick(&len, &ro);
	addr = (uintptr_t)p;
	if (!p || !below(32))
		addr = below(2) ? rnd() : rnd() & ~(PAGE - 1);
	acc = access_flags(ro);
	call_init(&c, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_REG);
	attr_val(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE, 0);
	attr_in(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, &addr, sizeof(addr));
	attr_in(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, &len, sizeof(len));
	if (below(16))
		attr_num(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, acc, 8);
	if (below(4))
		attr_num(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP,
			 pgsz_bitmap(len), below(16) ? 8 : 4);
	attr_out(&c, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, &id, sizeof(id));
	run(&c);
	if (!w.ok || M.numems == MAX_UMEMS)
		return;
	M.umems[M.numems++] = (struct fz_umem){
		.handle = c.attrs[0].data, .id = id,
		.addr = (uint8_t *)(uintptr_t)addr, .len = len,
		.wr = acc & IBV_ACCESS_LOCAL_WRITE,
	};
}
