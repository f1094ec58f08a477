// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MEMIC operation windows, mlx5dv_dm_map_op_addr(3): what a ConnectX
 * does with an access to one.  A store of N to byte X of the atomic
 * increment window (op 0) adds N to byte X of the DM; a load of byte X
 * of the test-and-set window (op 1) returns the DM's byte and sets all
 * its bits (0xff, what rdma-core 44's test_mlx5_dm_ops expects); each is
 * one atomic operation, whatever else runs.  Operand
 * sizes are the ones the device memory caps advertise
 * (memic_atomic_increment, memic_atomic_test_and_set: bit n, 2^n bytes)
 * and rdma-core's test_mlx5_dm_ops asks for one byte.
 *
 * What a device does not decode is no memory: a byte past the DM, a
 * size the caps do not advertise, an SSE or string instruction, a locked
 * read-modify-write, a load of the increment window, a store to the
 * test-and-set window is SIGBUS; the kernel's own access is EFAULT.  A
 * window is its context's alone, survives ibv_free_dm() and fork() as
 * the DM's mapping does, and an unprivileged user has it too.
 *
 * The accesses are written in assembly so that each instruction form
 * is the one meant; x86-64 only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <infiniband/mlx5dv.h>
#include "mlx5x_test.h"
#include "mlx5x_fixtures.h"
#include "mlx5x_dm.h"

#define OP_INC		0	/* MEMIC_ATOMIC_INCREMENT */
#define OP_TAS		1	/* MEMIC_ATOMIC_TEST_AND_SET */
#define DM_LEN		256
#define MMAP_DEVICE_MEM	8	/* libmlx5's mmap command for device memory */

static int need_ops(void)
{
#ifndef __x86_64__
	return mt_skip("the accesses are written for x86-64");
#endif
	if (read_caps())
		return mt_skip("no device memory capability page");
	if (!dmc.memic || (dmc.ops & 3) != 3)
		return mt_skip("no MEMIC atomic operations");
	if (!(dmc.inc_sizes & dmc.tas_sizes & 1))
		return mt_skip("no one-byte MEMIC atomic operations");
	return KSFT_PASS;
}

/* A DM of @len bytes and its two windows. */
struct dmw {
	struct ibv_dm *dm;
	uint8_t *inc, *tas;
	size_t len;
};

static bool dmw_open(struct ibv_context *ctx, size_t len, struct dmw *w)
{
	struct ibv_alloc_dm_attr attr = { .length = len };
	uint8_t *zero = calloc(1, len);

	memset(w, 0, sizeof(*w));
	w->len = len;
	w->dm = ibv_alloc_dm(ctx, &attr);
	if (!CHECK(w->dm) || !CHECK(zero))
		goto fail;
	CHECK_EQ(ibv_memcpy_to_dm(w->dm, 0, zero, len), 0);
	w->inc = mlx5dv_dm_map_op_addr(w->dm, OP_INC);
	w->tas = mlx5dv_dm_map_op_addr(w->dm, OP_TAS);
	if (!CHECK(w->inc) || !CHECK(w->tas))
		goto fail;
	free(zero);
	return true;
fail:
	free(zero);
	return false;
}

/* The mapping @p is in: libmlx5 maps the DM's length from the page. */
static void unmap_window(uint8_t *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	if (p)
		munmap((void *)(a & ~(uintptr_t)(PAGE - 1)),
		       len + (a & (PAGE - 1)));
}

static void dmw_close(struct dmw *w)
{
	unmap_window(w->inc, w->len);
	unmap_window(w->tas, w->len);
	if (w->dm)
		CHECK_EQ(ibv_free_dm(w->dm), 0);
}

/* Byte @off of the DM, through its own mapping (whole words, libmlx5). */
static uint8_t dm_byte(struct ibv_dm *dm, size_t off)
{
	uint32_t word = 0xdeadbeef;

	if (ibv_memcpy_from_dm(&word, dm, off & ~3UL, 4))
		return 0xee;
	return ((uint8_t *)&word)[off & 3];
}

static void dm_set(struct ibv_dm *dm, size_t off, uint8_t v)
{
	uint32_t word = 0;

	ibv_memcpy_from_dm(&word, dm, off & ~3UL, 4);
	((uint8_t *)&word)[off & 3] = v;
	ibv_memcpy_to_dm(dm, off & ~3UL, &word, 4);
}

/* --- the accesses --------------------------------------------------- */

#ifdef __x86_64__
static void st8(uint8_t *p, uint8_t v)		/* 88 /r */
{
	asm volatile("movb %1, %0" : "=m"(*p) : "q"(v) : "memory");
}

static void st8_imm1(uint8_t *p)		/* c6 /0 ib */
{
	asm volatile("movb $1, %0" : "=m"(*p) : : "memory");
}

static void st8_ah(uint8_t *p, uint8_t v)	/* 88 /r, AH */
{
	asm volatile("movb %%ah, %0" : "=m"(*p) : "a"((unsigned long)v << 8)
		     : "memory");
}

static void st8_r9b(uint8_t *p, uint8_t v)	/* REX 88 /r */
{
	asm volatile("movb %1, %%r9b\n\tmovb %%r9b, %0" : "=m"(*p) : "q"(v)
		     : "r9", "memory");
}

static uint32_t ld_movzbl(uint8_t *p)		/* 0f b6 */
{
	uint32_t r;

	asm volatile("movzbl %1, %0" : "=r"(r) : "m"(*p) : "memory");
	return r;
}

static uint64_t ld_movsbq(uint8_t *p)		/* REX.W 0f be */
{
	uint64_t r;

	asm volatile("movsbq %1, %0" : "=r"(r) : "m"(*p) : "memory");
	return r;
}

/* 8a /r into AL and into AH: the rest of RAX stays */
static uint64_t ld_al(uint8_t *p)
{
	uint64_t r = 0x1122334455667788ULL;

	asm volatile("movb %1, %%al" : "+a"(r) : "m"(*p) : "memory");
	return r;
}

static uint64_t ld_ah(uint8_t *p)
{
	uint64_t r = 0x1122334455667788ULL;

	asm volatile("movb %1, %%ah" : "+a"(r) : "m"(*p) : "memory");
	return r;
}

static uint64_t ld_r10b(uint8_t *p)		/* REX 8a /r */
{
	uint64_t r = 0x1122334455667788ULL;

	asm volatile("mov %2, %%r10\n\tmovb %1, %%r10b\n\tmov %%r10, %0"
		     : "=r"(r) : "m"(*p), "r"(r) : "r10", "memory");
	return r;
}

/* base, index, scale and displacement: the address decoded right */
static uint32_t ld_sib(uint8_t *base, unsigned long idx)
{
	uint32_t r;

	asm volatile("movzbl 3(%1,%2,2), %0" : "=r"(r) : "r"(base), "r"(idx)
		     : "memory");
	return r;
}

/* what the device does not decode */
static void st16(uint8_t *p)			/* 66 89 */
{
	asm volatile("movw $1, %0" : "=m"(*(uint16_t *)p)
		     : : "memory");
}

static void st_sse(uint8_t *p)			/* movdqu */
{
	asm volatile("pxor %%xmm0, %%xmm0\n\tmovdqu %%xmm0, %0"
		     : "=m"(*(char (*)[16])p) : : "xmm0", "memory");
}

static void st_rep(uint8_t *p)			/* rep stosb */
{
	void *d = (void *)p;
	unsigned long n = 1;

	asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(1) : "memory");
}

static void st_lock(uint8_t *p)		/* lock incb */
{
	asm volatile("lock incb %0" : "+m"(*p) : : "memory");
}

static void ld32(uint8_t *p)			/* 8b, 4 bytes */
{
	uint32_t r;

	asm volatile("movl %1, %0" : "=r"(r)
		     : "m"(*(uint32_t *)p) : "memory");
}
#endif

#ifdef __x86_64__
static void ld8_drop(uint8_t *p)
{
	(void)ld_movzbl(p);
}

static void st8_one(uint8_t *p)
{
	st8(p, 1);
}
#endif

/* --- the cases -------------------------------------------------------- */

MT_CTX_FIXTURE(ops, MT_OPEN_DEFAULT, need_ops);

/* The model advertises both operations on one-byte operands. */
static int test_dm_ops_caps(void)
{
	if (read_caps())
		return mt_skip("no device memory capability page");
	if (mt_sim()) {
		CHECK_EQ(dmc.ops & 3, 3);
		CHECK_EQ(dmc.inc_sizes, 1);
		CHECK_EQ(dmc.tas_sizes, 1);
	}
	return KSFT_PASS;
}

#ifdef __x86_64__
/* Increment and test-and-set, as test_dm_atomic_ops does, every form. */
MT_TEST_F(mt_ctx, dm_ops_inc_tas)
{
	struct dmw w;
	unsigned int i;

	if (!dmw_open(self->ctx, DM_LEN, &w))
		goto out;
	st8(w.inc + 5, 1);
	st8_imm1(w.inc + 5);
	CHECK_EQ(dm_byte(w.dm, 5), 2);
	CHECK_EQ(ld_movzbl(w.tas + 5), 2);
	CHECK_EQ(ld_movzbl(w.tas + 5), 0xff);
	CHECK_EQ(dm_byte(w.dm, 5), 0xff);
	/* an increment adds what is stored, wrapping in its byte */
	st8(w.inc + 6, 200);
	st8_ah(w.inc + 6, 100);
	CHECK_EQ(dm_byte(w.dm, 6), (200 + 100) & 0xff);
	st8_r9b(w.inc + DM_LEN - 1, 7);
	CHECK_EQ(dm_byte(w.dm, DM_LEN - 1), 7);
	/* the neighbours are untouched */
	CHECK_EQ(dm_byte(w.dm, 4), 0);
	CHECK_EQ(dm_byte(w.dm, 7), 0);
	/* a load's value lands in its register as the instruction says */
	dm_set(w.dm, 9, 0x80);
	CHECK_EQ(ld_movsbq(w.tas + 9), (uint64_t)-128);
	dm_set(w.dm, 10, 0x9a);
	CHECK_EQ(ld_al(w.tas + 10), 0x112233445566779aULL);
	CHECK_EQ(ld_al(w.tas + 10), 0x11223344556677ffULL);
	dm_set(w.dm, 11, 0x9b);
	CHECK_EQ(ld_ah(w.tas + 11), 0x1122334455669b88ULL);
	dm_set(w.dm, 12, 0x9c);
	CHECK_EQ(ld_r10b(w.tas + 12), 0x112233445566779cULL);
	dm_set(w.dm, 13 + 2 * 4, 0x33);
	CHECK_EQ(ld_sib(w.tas + 10, 4), 0x33);
	for (i = 9; i <= 12; i++)
		CHECK_EQ(dm_byte(w.dm, i), 0xff);
out:
	dmw_close(&w);
	return KSFT_PASS;
}

#define THREADS	10
#define ROUNDS	25	/* THREADS * ROUNDS stays in a byte */

static void *inc_thread(void *arg)
{
	uint8_t *p = arg;
	unsigned int i, b;

	for (i = 0; i < ROUNDS; i++)
		for (b = 0; b < 8; b++)
			st8(p + b, 1);
	return NULL;
}

static void *tas_thread(void *arg)
{
	uint8_t *p = arg;
	uintptr_t won = 0;
	unsigned int b;

	for (b = 0; b < 64; b++)
		won += !ld_movzbl(p + b);
	return (void *)won;
}

/* Ten threads at once: no increment lost, each test-and-set won once. */
MT_TEST_F(mt_ctx, dm_ops_parallel)
{
	pthread_t t[THREADS];
	uintptr_t won = 0;
	unsigned int i, n;
	struct dmw w;
	void *r;

	if (!dmw_open(self->ctx, DM_LEN, &w))
		goto out;
	for (n = 0; n < THREADS; n++)
		if (!CHECK_EQ(pthread_create(&t[n], NULL, inc_thread, w.inc),
			      0))
			break;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (i = 0; n == THREADS && i < 8; i++)
		CHECK_EQ(dm_byte(w.dm, i), THREADS * ROUNDS);
	for (n = 0; n < THREADS; n++)
		if (!CHECK_EQ(pthread_create(&t[n], NULL, tas_thread,
					     w.tas + 64), 0))
			break;
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &r);
		won += (uintptr_t)r;
	}
	/* each of the 64 bytes was 0 for exactly one thread */
	CHECK_EQ(won, 64);
	for (i = 64; i < 128; i++)
		CHECK_EQ(dm_byte(w.dm, i), 0xff);
out:
	dmw_close(&w);
	return KSFT_PASS;
}

/* What the device does not decode: SIGBUS (or EFAULT), the DM as it was. */
MT_TEST_F(mt_ctx, dm_ops_refused)
{
	uint8_t *inc_end, *tas_end;
	int fds[2] = { -1, -1 };
	struct dmw w;
	size_t i;

	/* 100 bytes: the window's page goes on past them */
	if (!dmw_open(self->ctx, 100, &w))
		goto out;
	inc_end = w.inc + 100;
	tas_end = w.tas + 100;
	CHECK_EQ(mt_signal_of(st8_one, inc_end), SIGBUS);
	CHECK_EQ(mt_signal_of(ld8_drop, tas_end), SIGBUS);
	CHECK_EQ(mt_signal_of(st8_one, w.inc + 1000), SIGBUS);
	CHECK_EQ(mt_signal_of(st16, w.inc), SIGBUS);
	CHECK_EQ(mt_signal_of(st_sse, w.inc), SIGBUS);
	CHECK_EQ(mt_signal_of(st_rep, w.inc), SIGBUS);
	CHECK_EQ(mt_signal_of(st_lock, w.inc), SIGBUS);
	CHECK_EQ(mt_signal_of(ld32, w.tas), SIGBUS);
	/* each window does its own operation only */
	CHECK_EQ(mt_signal_of(ld8_drop, w.inc), SIGBUS);
	CHECK_EQ(mt_signal_of(st8_one, w.tas), SIGBUS);
	/* the kernel's access is no access of the device's */
	if (CHECK_EQ(pipe(fds), 0)) {
		errno = 0;
		CHECK_EQ(write(fds[1], (void *)w.tas, 1), -1);
		CHECK_EQ(errno, EFAULT);
		CHECK_EQ(write(fds[1], "x", 1), 1);
		errno = 0;
		CHECK_EQ(read(fds[0], (void *)w.inc, 1), -1);
		CHECK_EQ(errno, EFAULT);
		close(fds[0]);
		close(fds[1]);
	}
	/* a window is not moved: its trap covers it whole */
	CHECK(mremap((void *)((uintptr_t)w.inc & ~(uintptr_t)(PAGE - 1)),
		     PAGE, 2 * PAGE, MREMAP_MAYMOVE) == MAP_FAILED);
	for (i = 0; i < 100; i++)
		if (!CHECK_EQ(dm_byte(w.dm, i), 0))
			break;
	/* and what is decoded still works */
	st8(w.inc + 99, 3);
	CHECK_EQ(dm_byte(w.dm, 99), 3);
out:
	dmw_close(&w);
	return KSFT_PASS;
}

/*
 * The windows outlive ibv_free_dm() as the DM's mapping does, are the
 * child's after fork(), and are gone with munmap().
 */
MT_TEST_F(mt_ctx, dm_ops_lifetime)
{
	struct dmw w;
	int status = -1;
	pid_t pid;

	if (!dmw_open(self->ctx, DM_LEN, &w))
		goto out;
	pid = mt_fork();
	if (pid == 0) {
		st8(w.inc + 2, 5);
		_exit(ld_movzbl(w.tas + 3) == 0 ? 0 : 1);
	}
	CHECK(pid > 0 && mt_waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(dm_byte(w.dm, 2), 5);
	CHECK_EQ(dm_byte(w.dm, 3), 0xff);
	CHECK_EQ(ibv_free_dm(w.dm), 0);
	w.dm = NULL;
	st8(w.inc + 2, 1);
	CHECK_EQ(ld_movzbl(w.tas + 2), 6);
	unmap_window(w.inc, w.len);
	CHECK_EQ(mt_signal_of(st8_one, w.inc), SIGSEGV);
	w.inc = NULL;
out:
	dmw_close(&w);
	return KSFT_PASS;
}

/* libmlx5's mmap offset of a device memory page index */
static off_t dm_mmap_offset(uint16_t page_idx)
{
	uint64_t pgoff = (uint64_t)(page_idx >> 8) << 16 |
			 MMAP_DEVICE_MEM << 8 | (page_idx & 0xff);

	return pgoff * PAGE;
}

/* MLX5_IB_METHOD_DM_MAP_OP_ADDR of @handle's increment window in @ctx */
static int map_op_ioctl(struct ibv_context *ctx, uint32_t handle,
			uint16_t *idx)
{
	uint64_t start = 0;
	struct mt_ioctl c;

	mt_ioctl_init(&c, UVERBS_OBJECT_DM, MLX5_IB_METHOD_DM_MAP_OP_ADDR);
	mt_ioctl_handle(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, handle);
	mt_ioctl_attr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, 1, OP_INC, 0);
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET,
		     &start, sizeof(start));
	mt_ioctl_ptr(&c, MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX,
		     idx, sizeof(*idx));
	return mt_ioctl_run(ctx, &c);
}

/* Another context cannot map this one's window, by any page index. */
MT_TEST_F(mt_ctx, dm_ops_other_context)
{
	struct ibv_context *other = mt_open(MT_OPEN_DEFAULT, NULL);
	uint16_t idx = 0;
	struct dmw w;
	void *p;

	if (!CHECK(other))
		return KSFT_FAIL;
	if (!dmw_open(self->ctx, DM_LEN, &w) ||
	    !CHECK_EQ(map_op_ioctl(self->ctx, w.dm->handle, &idx), 0))
		goto out;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 other->cmd_fd, dm_mmap_offset(idx));
	CHECK(p == MAP_FAILED);
	if (p != MAP_FAILED)
		munmap(p, PAGE);
	/* the owner's handle names nothing in the other context */
	CHECK(map_op_ioctl(other, w.dm->handle, &idx) != 0);
out:
	dmw_close(&w);
	ibv_close_device(other);
	return KSFT_PASS;
}

/* An unprivileged user's windows work, and refuse, the same. */
static int nobody_child(void *arg)
{
	struct ibv_context *ctx = mt_open(MT_OPEN_DEFAULT, NULL);
	struct dmw w;

	(void)arg;
	if (!CHECK(ctx))
		return KSFT_FAIL;
	if (dmw_open(ctx, 64, &w)) {
		st8(w.inc + 63, 2);
		CHECK_EQ(ld_movzbl(w.tas + 63), 2);
		CHECK_EQ(mt_signal_of(st8_one, w.inc + 64), SIGBUS);
		CHECK_EQ(mt_signal_of(st_sse, w.inc), SIGBUS);
	}
	dmw_close(&w);
	ibv_close_device(ctx);
	return KSFT_PASS;
}

static int test_dm_ops_nobody(void)
{
	if (need_ops())
		return KSFT_SKIP;
	CHECK_EQ(mt_run_as(MT_UID_NOBODY, 0, nobody_child, NULL), KSFT_PASS);
	return KSFT_PASS;
}
#endif

static const struct mt_case cases[] = {
	MT_CASE(dm_ops_caps),
#ifdef __x86_64__
	MT_CASE_F(ops, dm_ops_inc_tas),
	MT_CASE_F(ops, dm_ops_parallel),
	MT_CASE_F(ops, dm_ops_refused),
	MT_CASE_F(ops, dm_ops_lifetime),
	MT_CASE_F(ops, dm_ops_other_context),
	MT_CASE(dm_ops_nobody, .flags = MT_NEEDS_ROOT),
#endif
};

int main(void)
{
	return mt_main(cases, MT_ARRAY_SIZE(cases));
}
