// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: device memory of the model: the capability page, ALLOC/DEALLOC/
 * MODIFY_MEMIC, SW_ICM general objects, mkeys over both, and what the
 * data path reaches through a MEMIC mkey.
 */
#include <linux/mm.h>
#include "sk_mkey.h"
#include "../dp/datapath.h"
#include "../dp/wqe.h"
#include "../mem/dm.h"
#include "../core/general.h"

#define SK_CAP_DEV_MEM		0x0f
#define SK_ICM_GRANULE		BIT_ULL(SIM_ICM_LOG_GRANULE)

static u8 sk_alloc_memic(struct kunit *test, u64 start, u32 range, u32 size,
			 u32 log_align, u64 *addr)
{
	void *in = SK_MBOX(test, alloc_memic_in);
	void *out = SK_MBOX(test, alloc_memic_out);
	u8 status;

	PRM_SET(alloc_memic_in, in, opcode, MLX5_CMD_OP_ALLOC_MEMIC);
	PRM_SET64(alloc_memic_in, in, range_start_addr, start);
	PRM_SET(alloc_memic_in, in, range_size, range);
	PRM_SET(alloc_memic_in, in, memic_size, size);
	PRM_SET(alloc_memic_in, in, log_memic_addr_alignment, log_align);
	status = sk_exec(test, in, PRM_BYTES(alloc_memic_in), out,
			 PRM_BYTES(alloc_memic_out));
	if (addr)
		*addr = PRM_GET64(alloc_memic_out, out, memic_start_addr);
	return status;
}

static u8 sk_dealloc_memic(struct kunit *test, u64 addr, u32 size)
{
	void *in = SK_MBOX(test, dealloc_memic_in);
	void *out = SK_MBOX(test, dealloc_memic_out);

	PRM_SET(dealloc_memic_in, in, opcode, MLX5_CMD_OP_DEALLOC_MEMIC);
	PRM_SET64(dealloc_memic_in, in, memic_start_addr, addr);
	PRM_SET(dealloc_memic_in, in, memic_size, size);
	return sk_exec(test, in, PRM_BYTES(dealloc_memic_in), out,
		       PRM_BYTES(dealloc_memic_out));
}

static u8 sk_memic_op(struct kunit *test, u16 uid, u64 addr, u8 op,
		      bool alloc, u64 *op_addr)
{
	void *in = SK_MBOX(test, modify_memic_in);
	void *out = SK_MBOX(test, modify_memic_out);
	u8 status;

	PRM_SET(modify_memic_in, in, opcode, MLX5_CMD_OP_MODIFY_MEMIC);
	PRM_SET(modify_memic_in, in, uid, uid);
	PRM_SET(modify_memic_in, in, op_mod,
		alloc ? MLX5_MODIFY_MEMIC_OP_MOD_ALLOC :
			MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC);
	PRM_SET(modify_memic_in, in, memic_operation_type, op);
	PRM_SET64(modify_memic_in, in, memic_start_addr, addr);
	status = sk_exec(test, in, PRM_BYTES(modify_memic_in), out,
			 PRM_BYTES(modify_memic_out));
	if (op_addr)
		*op_addr = PRM_GET64(modify_memic_out, out,
				     memic_operation_addr);
	return status;
}

static u8 sk_create_icm(struct kunit *test, u16 uid, u64 start, u32 log,
			u32 *id)
{
	void *in = SK_MBOX(test, create_sw_icm_in);
	void *out = SK_MBOX(test, general_obj_out_cmd_hdr);
	void *icm = PRM_ADDR(create_sw_icm_in, in, sw_icm);
	u8 status;

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_SW_ICM);
	PRM_SET64(sw_icm, icm, sw_icm_start_addr, start);
	PRM_SET(sw_icm, icm, log_sw_icm_size, log);
	status = sk_exec(test, in, PRM_BYTES(create_sw_icm_in), out,
			 PRM_BYTES(general_obj_out_cmd_hdr));
	if (id)
		*id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return status;
}

static u8 sk_icm_cmd(struct kunit *test, u16 opcode, u16 uid, u32 id,
		     void *out, size_t outlen)
{
	void *in = SK_MBOX(test, general_obj_in_cmd_hdr);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_SW_ICM);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	if (!out) {
		outlen = PRM_BYTES(general_obj_out_cmd_hdr);
		out = sk_mbox(test, outlen);
	}
	return sk_exec(test, in, PRM_BYTES(general_obj_in_cmd_hdr), out,
		       outlen);
}

static u8 sk_destroy_icm(struct kunit *test, u16 uid, u32 id)
{
	return sk_icm_cmd(test, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, uid, id,
			  NULL, 0);
}

/* The page reports what the commands below enforce. */
static void sk_dm_caps(struct kunit *test)
{
	u64 types;
	void *cap;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test,
					   PRM_CAP_OPMOD(SK_CAP_DEV_MEM, 1),
					   false, &cap), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(device_mem_cap, cap, memic), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(device_mem_cap, cap, max_memic_size),
			SIM_MEMIC_SIZE);
	KUNIT_EXPECT_EQ(test, PRM_GET(device_mem_cap, cap, memic_bar_size),
			SIM_MEMIC_SIZE);
	KUNIT_EXPECT_EQ(test, PRM_GET64(device_mem_cap, cap,
					memic_bar_start_addr),
			SIM_MEMIC_BAR_START);
	KUNIT_EXPECT_EQ(test, PRM_GET(device_mem_cap, cap, memic_operations),
			SIM_MEMIC_OPS);
	/* both atomics on one-byte operands (bit 0: 2^0 bytes) */
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, DM_CAP_MEMIC_INC_SIZES_OFF,
					   DM_CAP_MEMIC_SIZES_BITS), 1);
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, DM_CAP_MEMIC_TAS_SIZES_OFF,
					   DM_CAP_MEMIC_SIZES_BITS), 1);
	KUNIT_EXPECT_EQ(test, PRM_GET(device_mem_cap, cap,
				      log_sw_icm_alloc_granularity),
			SIM_ICM_LOG_GRANULE);
	KUNIT_EXPECT_EQ(test, dm_get64(cap, DM_CAP_ENCAP_ICM_START_OFF),
			SIM_ICM_ENCAP_START);
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, DM_CAP_LOG_ENCAP_ICM_SIZE_OFF,
					   DM_CAP_LOG_ENCAP_ICM_SIZE_BITS),
			SIM_ICM_LOG_ENCAP);
	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1), false,
					   &cap), PRM_STAT_OK);
	types = PRM_GET64(cmd_hca_cap, cap, general_obj_types);
	KUNIT_EXPECT_TRUE(test, types & MLX5_GENERAL_OBJ_TYPES_CAP_SW_ICM);
}

/* Placement in the range given, alignment, and the range's own checks. */
static void sk_memic_alloc(struct kunit *test)
{
	u64 base = SIM_MEMIC_BAR_START, a, b, c;

	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 64, 0,
					     &a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, a, base);
	/* the next fit after a, 64-byte aligned, then 1 KiB aligned */
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 128, 0,
					     &b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, b, base + 64);
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 64, 4,
					     &c), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, c, base + 1024);
	/* a range with no room left */
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 3072, 0,
					     NULL), PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);

	/* sizes: zero, not 64-byte units, beyond the range or the MEMIC */
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base + PAGE_SIZE,
					     PAGE_SIZE, 0, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base + PAGE_SIZE,
					     PAGE_SIZE, 100, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base + PAGE_SIZE,
					     PAGE_SIZE, 2 * PAGE_SIZE, 0,
					     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_MEMIC_RANGE);
	/* ranges outside the window, or running past its end */
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, 0, PAGE_SIZE, 64, 0, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_MEMIC_RANGE);
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base + SIM_MEMIC_SIZE -
					     PAGE_SIZE, 2 * PAGE_SIZE, 64, 0,
					     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_MEMIC_RANGE);
	/* alignment beyond the cap */
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base + PAGE_SIZE,
					     PAGE_SIZE, 64,
					     SIM_MEMIC_MAX_LOG_ALIGN + 1,
					     NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);

	/* freeing names the allocation exactly */
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b, 64),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_MEMIC_RANGE);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b + 64, 64),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 64), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 64),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b, 128), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, c, 64), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* The whole MEMIC, and the pages behind it: contiguous per window. */
static void sk_memic_whole(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u64 base = SIM_MEMIC_BAR_START, a;
	struct page *first;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base, SIM_MEMIC_SIZE,
					     SIM_MEMIC_SIZE, 0, &a),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 64, 0,
					     NULL), PRM_STAT_NO_RESOURCES);
	first = mlx5x_sim_memic_page(sim, base);
	KUNIT_ASSERT_NOT_NULL(test, first);
	for (i = 0; i < SIM_MEMIC_PAGES; i++)
		KUNIT_EXPECT_EQ(test, page_to_pfn(mlx5x_sim_memic_page(sim,
					base + ((u64)i << PAGE_SHIFT))),
				page_to_pfn(first) + i);
	KUNIT_EXPECT_NOT_NULL(test, mlx5x_sim_memic_page(sim, base +
				(u64)SIM_MEMIC_SIZE * SIM_MEMIC_WINDOWS - 1));
	KUNIT_EXPECT_NULL(test, mlx5x_sim_memic_page(sim, base +
				(u64)SIM_MEMIC_SIZE * SIM_MEMIC_WINDOWS));
	KUNIT_EXPECT_NULL(test, mlx5x_sim_memic_page(sim, base - 1));
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, SIM_MEMIC_SIZE),
			PRM_STAT_OK);
}

/* Operation windows: advertised operations only, kernel only, once. */
static void sk_memic_ops(struct kunit *test)
{
	u64 base = SIM_MEMIC_BAR_START, a, op0, op1;
	u16 uid = sk_new_uctx(test);

	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + PAGE_SIZE,
					     PAGE_SIZE, 256, 0, &a),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 0, true, &op0),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, op0, a + SIM_MEMIC_SIZE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 1, true, &op1),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, op1, a + 2ULL * SIM_MEMIC_SIZE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 0, true, NULL),
			PRM_STAT_BAD_RES_STATE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 2, true, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 255, true, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a + 64, 0, true, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, uid, a, 0, false, NULL),
			PRM_STAT_BAD_RESOURCE);
	/* a MEMIC with windows cannot go */
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 256),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 0, false, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 0, false, NULL),
			PRM_STAT_BAD_RES_STATE);
	KUNIT_EXPECT_EQ(test, sk_memic_op(test, 0, a, 1, false, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 256), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Byte @off of the MEMIC in window @w (0: the MEMIC, then one per op). */
static u8 *sk_memic_byte(struct kunit *test, unsigned int w, u64 off)
{
	u64 bar = SIM_MEMIC_BAR_START + (u64)w * SIM_MEMIC_SIZE + off;
	struct page *page = mlx5x_sim_memic_page(sk_sim(test), bar);

	KUNIT_ASSERT_NOT_NULL(test, page);
	return (u8 *)page_address(page) + (bar & (PAGE_SIZE - 1));
}

/* What a process with the pages mapped leaves in every window. */
static void sk_memic_fill(struct kunit *test, u64 off, u64 len, u8 val)
{
	unsigned int w;

	for (w = 0; w < SIM_MEMIC_WINDOWS; w++)
		memset(sk_memic_byte(test, w, off), val, len);
}

static bool sk_memic_is(struct kunit *test, u64 off, u64 len, u8 val)
{
	unsigned int w;

	for (w = 0; w < SIM_MEMIC_WINDOWS; w++)
		if (memchr_inv(sk_memic_byte(test, w, off), val, len))
			return false;
	return true;
}

/*
 * A new allocation reads as zeroes in every window, and so do the other
 * bytes of its pages, which its mapping shows too; but bytes of a live
 * allocation that shares a page with it stay as they are.
 */
static void sk_memic_scrub(struct kunit *test)
{
	u64 base = SIM_MEMIC_BAR_START, off = 2 * PAGE_SIZE, a, b;

	/* one allocation held the page and wrote all over it */
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off, PAGE_SIZE,
					     256, 0, &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, a, base + off);
	sk_memic_fill(test, off, PAGE_SIZE, 0xa5);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 256), PRM_STAT_OK);
	/* the next over the same range: none of it is left */
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off, PAGE_SIZE,
					     128, 0, &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, a, base + off);
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off, 128, 0));
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off + 128,
					    PAGE_SIZE - 128, 0));

	/* a neighbour in the same page, while a is live and written */
	sk_memic_fill(test, off, 128, 0x5a);
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off, PAGE_SIZE,
					     64, 0, &b), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, b, base + off + 128);
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off, 128, 0x5a));
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off + 128, 64, 0));
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b, 64), PRM_STAT_OK);
	/* b again, written, freed, reallocated: a still keeps its bytes */
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off, PAGE_SIZE,
					     64, 0, &b), PRM_STAT_OK);
	sk_memic_fill(test, off + 128, 64, 0xc3);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b, 64), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off, PAGE_SIZE,
					     64, 0, &b), PRM_STAT_OK);
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off, 128, 0x5a));
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off + 128, 64, 0));
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, b, 64), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 128), PRM_STAT_OK);

	/* two pages, not page aligned: both whole pages, every window */
	off = 8 * PAGE_SIZE;
	sk_memic_fill(test, off, 3 * PAGE_SIZE, 0x77);
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base + off + 1024,
					     2 * PAGE_SIZE, PAGE_SIZE, 0, &a),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, a, base + off + 1024);
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off, 2 * PAGE_SIZE, 0));
	/* the page after it is not its */
	KUNIT_EXPECT_TRUE(test, sk_memic_is(test, off + 2 * PAGE_SIZE,
					    PAGE_SIZE, 0x77));
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, PAGE_SIZE),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* SW_ICM objects: in one region, granule-sized and aligned, no overlap. */
static u16 sk_icm_uctx(struct kunit *test, u32 cap)
{
	u16 uid = 0;

	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, cap, &uid), PRM_STAT_OK);
	return uid;
}

#define SK_DEV_RES	MLX5_UCTX_CAP_INTERNAL_DEV_RES

static void sk_sw_icm_rules(struct kunit *test)
{
	u16 uid = sk_icm_uctx(test, SK_DEV_RES);
	u16 other = sk_icm_uctx(test, SK_DEV_RES);
	u16 plain = sk_new_uctx(test);
	u64 hm = SIM_ICM_HDR_MODIFY_START;
	u8 *out = sk_mbox(test, PRM_BYTES(general_obj_out_cmd_hdr) +
			  PRM_BYTES(sw_icm));
	void *icm = out + PRM_BYTES(general_obj_out_cmd_hdr);
	u32 a, b, c;

	/* a context created without INTERNAL_DEV_RES owns no SW ICM */
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, plain, hm,
					    SIM_ICM_LOG_GRANULE, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_ICM_PRIV);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, plain), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_icm(test, uid, hm,
					    SIM_ICM_LOG_GRANULE + 1, &a),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_icm_cmd(test,
					 MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					 uid, a, out,
					 PRM_BYTES(general_obj_out_cmd_hdr) +
					 PRM_BYTES(sw_icm)), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET64(sw_icm, icm, sw_icm_start_addr), hm);
	KUNIT_EXPECT_EQ(test, PRM_GET(sw_icm, icm, log_sw_icm_size),
			SIM_ICM_LOG_GRANULE + 1);
	/* overlapping a's second granule, even for another owner */
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, other, hm + SK_ICM_GRANULE,
					    SIM_ICM_LOG_GRANULE, NULL),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_ICM_OVERLAP);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, other,
					    hm + 2 * SK_ICM_GRANULE,
					    SIM_ICM_LOG_GRANULE, &b),
			PRM_STAT_OK);
	/* below the granule, unaligned, outside or across regions */
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, hm + 4 * SK_ICM_GRANULE,
					    SIM_ICM_LOG_GRANULE - 1, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, hm + 64,
					    SIM_ICM_LOG_GRANULE, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, 0x1000,
					    SIM_ICM_LOG_GRANULE, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_ICM_RANGE);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, hm +
					    BIT_ULL(SIM_ICM_LOG_HDR_MODIFY) -
					    SK_ICM_GRANULE,
					    SIM_ICM_LOG_GRANULE + 1, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_ICM_RANGE);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, hm,
					    SIM_ICM_LOG_HDR_MODIFY + 1, NULL),
			PRM_STAT_BAD_PARAM);
	/* every region of the page, the encap one too */
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, SIM_ICM_ENCAP_START,
					    SIM_ICM_LOG_ENCAP, &c),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, c), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, SIM_ICM_STEERING_START,
					    SIM_ICM_LOG_STEERING, &c),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, c), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_create_icm(test, uid, SIM_ICM_PATTERN_START,
					    SIM_ICM_LOG_GRANULE, &c),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, c), PRM_STAT_OK);
	/* each owner reaches its own range only */
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, other, a),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, other, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Mkeys over MEMIC and SW ICM: inside one allocation, which they hold. */
static void sk_dm_mkeys(struct kunit *test)
{
	u16 uid = sk_icm_uctx(test, SK_DEV_RES);
	u16 other = sk_icm_uctx(test, SK_DEV_RES);
	u64 base = SIM_MEMIC_BAR_START, a, icm = SIM_ICM_STEERING_START;
	u32 pdn, opdn, m1, m2, obj;
	struct sk_mkey mk;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, other, &opdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, base, PAGE_SIZE, 512, 0,
					     &a), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_icm(test, uid, icm,
					    SIM_ICM_LOG_GRANULE, &obj),
			PRM_STAT_OK);

	/* a user context may cover the kernel's MEMIC */
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC,
		   a + 64, 448, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, &m1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 512),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	/* empty at its start; past it, empty past its end, with a table */
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC, a, 0, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, &m2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, m2), PRM_STAT_OK);
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC,
		   a + 64, 512, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_MEMIC_RANGE);
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC,
		   a + 512, 0, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, NULL),
			PRM_STAT_BAD_PARAM);
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC, a, 64, 4);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);

	/* SW ICM: the owner's range only */
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_SW_ICM,
		   icm, SK_ICM_GRANULE, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, &m2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, obj),
			PRM_STAT_RESOURCE_BUSY);
	sk_mkey_dm(test, &mk, other, opdn, MLX5_MKC_ACCESS_MODE_SW_ICM,
		   icm, 64, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_SW_ICM,
		   icm + 64, SK_ICM_GRANULE, 0);
	KUNIT_EXPECT_EQ(test, sk_mkey_exec(test, &mk, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_ICM_RANGE);

	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, m1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, m2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 512), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, obj), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, other, opdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* sim_mkey_xlate() of @key as @uid on @pdn, the model's lock held. */
static u32 sk_dm_xlate(struct kunit *test, u16 uid, u32 pdn, u32 key, u64 va,
		       u32 len, struct sim_umem **umem, u64 *off)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 synd;

	mutex_lock(&sim->lock);
	synd = sim_mkey_xlate(sim, uid, pdn, key, va, len, true, umem, off);
	mutex_unlock(&sim->lock);
	return synd;
}

/*
 * A MEMIC mkey is zero-based: its address 0 is its start_addr's byte of
 * the MEMIC window, which the data path writes through the window's
 * umem; past its length, or below it as an address, nothing.  An SW_ICM
 * mkey gives the data path no bytes.
 */
static void sk_dm_mkey_traffic(struct kunit *test)
{
	u16 uid = sk_icm_uctx(test, SK_DEV_RES);
	u64 a, off, icm = SIM_ICM_STEERING_START;
	u32 pdn, m1, m2, obj, k1, k2;
	struct sim_umem *umem;
	struct sk_mkey mk, mi;
	u8 v[8] = "memic!!";

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pdn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_memic(test, SIM_MEMIC_BAR_START,
					     PAGE_SIZE, 512, 0, &a),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_icm(test, uid, icm,
					    SIM_ICM_LOG_GRANULE, &obj),
			PRM_STAT_OK);
	sk_mkey_dm(test, &mk, uid, pdn, MLX5_MKC_ACCESS_MODE_MEMIC,
		   a + 64, 448, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &mk, &m1), PRM_STAT_OK);
	k1 = sk_mkey_key(&mk, m1);
	KUNIT_EXPECT_EQ(test, sk_dm_xlate(test, uid, pdn, k1, 440, 8, &umem,
					  &off), 0);
	KUNIT_EXPECT_PTR_EQ(test, umem, sk_sim(test)->memic_umem);
	KUNIT_EXPECT_EQ(test, off, a + 64 + 440 - SIM_MEMIC_BAR_START);
	KUNIT_EXPECT_TRUE(test, sim_umem_io(umem, off, v, sizeof(v), true));
	KUNIT_EXPECT_EQ(test, memcmp(sk_memic_byte(test, 0, off), v,
				     sizeof(v)), 0);
	KUNIT_EXPECT_EQ(test, sk_dm_xlate(test, uid, pdn, k1, 441, 8, &umem,
					  &off), SIM_CQE_SYND_LOCAL_PROT);
	KUNIT_EXPECT_EQ(test, sk_dm_xlate(test, uid, pdn, k1, a + 64, 8,
					  &umem, &off),
			SIM_CQE_SYND_LOCAL_PROT);
	sk_mkey_dm(test, &mi, uid, pdn, MLX5_MKC_ACCESS_MODE_SW_ICM,
		   icm, SK_ICM_GRANULE, 0);
	KUNIT_ASSERT_EQ(test, sk_mkey_exec(test, &mi, &m2), PRM_STAT_OK);
	k2 = sk_mkey_key(&mi, m2);
	KUNIT_EXPECT_EQ(test, sk_dm_xlate(test, uid, pdn, k2, 0, 8, &umem,
					  &off), SIM_CQE_SYND_LOCAL_PROT);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, m1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_mkey(test, uid, m2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_memic(test, a, 512), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_icm(test, uid, obj), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* Mailboxes without a uid field are the kernel's alone. */
static void sk_memic_uid(struct kunit *test)
{
	void *in = SK_MBOX(test, alloc_memic_in);
	void *out = SK_MBOX(test, alloc_memic_out);

	PRM_SET(alloc_memic_in, in, opcode, MLX5_CMD_OP_ALLOC_MEMIC);
	prm_in_set_uid(in, 1);
	PRM_SET64(alloc_memic_in, in, range_start_addr, SIM_MEMIC_BAR_START);
	PRM_SET(alloc_memic_in, in, range_size, PAGE_SIZE);
	PRM_SET(alloc_memic_in, in, memic_size, 64);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(alloc_memic_in), out,
				      PRM_BYTES(alloc_memic_out)),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/*
 * The operations, as the driver hands a trapped access over: increment
 * adds the byte stored, wrapping; test-and-set returns the byte and sets
 * it to 0xff; both on the MEMIC's byte at the window's offset, alone.
 */
static void sk_memic_atomics(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u64 inc = SIM_MEMIC_BAR_START + SIM_MEMIC_SIZE + 70;
	u64 tas = inc + SIM_MEMIC_SIZE;
	u8 *data = sk_memic_byte(test, 0, 70);
	u64 old = 0;

	data[-1] = data[0] = data[1] = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, inc, 1, 3, &old), 0);
	KUNIT_EXPECT_EQ(test, old, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, inc, 1, 0x1ff, &old),
			0);
	KUNIT_EXPECT_EQ(test, old, 3);
	KUNIT_EXPECT_EQ(test, *data, 2);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, tas, 1, 0, &old), 0);
	KUNIT_EXPECT_EQ(test, old, 2);
	KUNIT_EXPECT_EQ(test, *data, 0xff);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, tas, 1, 0, &old), 0);
	KUNIT_EXPECT_EQ(test, old, 0xff);
	KUNIT_EXPECT_EQ(test, data[-1] | data[1], 0);
	/* only one byte, only in an operation window */
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, inc, 2, 1, &old),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, inc, 8, 1, &old),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, inc - SIM_MEMIC_SIZE,
						     1, 1, &old), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, SIM_MEMIC_BAR_START +
				(u64)SIM_MEMIC_SIZE * SIM_MEMIC_WINDOWS, 1, 1,
				&old), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_sim_memic_atomic(sim, 0, 1, 1, &old),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, *data, 0xff);
}

static struct kunit_case sk_dm_cases[] = {
	KUNIT_CASE(sk_dm_caps),
	KUNIT_CASE(sk_memic_alloc),
	KUNIT_CASE(sk_memic_whole),
	KUNIT_CASE(sk_memic_ops),
	KUNIT_CASE(sk_memic_atomics),
	KUNIT_CASE(sk_memic_scrub),
	KUNIT_CASE(sk_memic_uid),
	KUNIT_CASE(sk_sw_icm_rules),
	KUNIT_CASE(sk_dm_mkeys),
	KUNIT_CASE(sk_dm_mkey_traffic),
	{}
};

static struct kunit_suite sk_dm_suite = {
	.name = "mlx5x_sim_dm",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_dm_cases,
};

kunit_test_suite(sk_dm_suite);
