// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: CREATE_CQ / QUERY_CQ / MODIFY_CQ / DESTROY_CQ: the buffer and
 * doorbell record from umems, the EQ and UAR named, the caps, and the
 * references a CQ holds.
 */
#include "sk_queues.h"

static u8 sk_cq_run(struct kunit *test, const void *in, u32 *cqn)
{
	return sk_q_create(test, in, PRM_BYTES(create_cq_in),
			   PRM_BYTES(create_cq_out), cqn);
}

static void sk_cq_create_query_destroy(struct kunit *test)
{
	void *out = SK_MBOX(test, query_cq_out);
	const void *cqc = PRM_ADDR(query_cq_out, out, cq_context);
	struct sk_q r;
	u32 cqn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, cqn, 0);
	/* buffer and doorbell record in the same umem: two references */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 2);
	/* the UAR is checked, not held */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_EQ, r.eqn), 1);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_PD, r.pd), 0);

	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_CQ, r.uid, cqn,
					 out, PRM_BYTES(query_cq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, log_cq_size), 4);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, uar_page), r.uar);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, c_eqn_or_apu_element), r.eqn);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, dbr_umem_valid), 1);
	KUNIT_EXPECT_EQ(test, prm_get_bits(cqc, SIM_CQC_DBR_UMEM_ID, 32),
			r.umem);
	KUNIT_EXPECT_EQ(test, PRM_GET64(cqc, cqc, dbr_addr), SK_Q_DBR);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_EQ, r.eqn), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_CQ, r.uid, cqn,
					 out, PRM_BYTES(query_cq_out)),
			PRM_STAT_BAD_RESOURCE);
	sk_q_fini(test, &r);
}

/* The umem must hold (1 << log_cq_size) CQEs of the size asked. */
static void sk_cq_umem_size(struct kunit *test)
{
	struct sk_q r;
	void *in, *cqc;
	u32 cqn;

	sk_q_init(test, &r);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	/* 4096 64-byte CQEs fill the 256 KiB exactly */
	PRM_SET(cqc, cqc, log_cq_size, 12);
	KUNIT_ASSERT_EQ(test, sk_cq_run(test, in, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	/* 128-byte CQEs: twice that */
	PRM_SET(cqc, cqc, cqe_sz, MLX5_CQC_CQE_SZ_128_BYTES);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(cqc, cqc, log_cq_size, 11);
	KUNIT_ASSERT_EQ(test, sk_cq_run(test, in, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	/* padded 128-byte CQEs: as many bytes each */
	PRM_SET(cqc, cqc, cqe_sz, SIM_CQE_SZ_128_PAD);
	KUNIT_ASSERT_EQ(test, sk_cq_run(test, in, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	PRM_SET(cqc, cqc, log_cq_size, 12);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* too many 64-byte CQEs, or an offset pushing them past the end */
	PRM_SET(cqc, cqc, cqe_sz, MLX5_CQC_CQE_SZ_64_BYTES);
	PRM_SET(cqc, cqc, log_cq_size, 13);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(cqc, cqc, log_cq_size, 4);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32,
		     SK_Q_BYTES - 1024 + 64);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32,
		     SK_Q_BYTES - 1024);
	KUNIT_ASSERT_EQ(test, sk_cq_run(test, in, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	/* an offset that wraps */
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET, 32, ~0U);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32, ~0U);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	/* a umem that is not there */
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET, 32, 0);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_OFFSET + 32, 32, 0);
	prm_set_bits(in, SIM_CREATE_CQ_UMEM_ID, 32, r.umem + 1);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	/* nothing was left referenced by the refusals */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_EQ, r.eqn), 0);
	sk_q_fini(test, &r);
}

/* The doorbell record: 8 aligned bytes inside a umem of the context. */
static void sk_cq_dbr(struct kunit *test)
{
	struct sk_q r, other;
	void *in, *cqc;
	u32 cqn;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	PRM_SET64(cqc, cqc, dbr_addr, SK_Q_BYTES - 8);
	KUNIT_ASSERT_EQ(test, sk_cq_run(test, in, &cqn), PRM_STAT_OK);
	PRM_SET64(cqc, cqc, dbr_addr, SK_Q_BYTES);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET64(cqc, cqc, dbr_addr, 4);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET64(cqc, cqc, dbr_addr, 0);
	prm_set_bits(cqc, SIM_CQC_DBR_UMEM_ID, 32, other.umem);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, other.umem), 0);
	/* the one CQ made holds both of r's references */
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 2);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

/*
 * A user context never gives raw addresses; the kernel may, with a PAS
 * entry per page of the buffer.
 */
static void sk_cq_raw_pas(struct kunit *test)
{
	size_t pas = PRM_BYTES(create_cq_in);
	struct sk_q r;
	void *in, *cqc, *kin;
	u32 cqn, kuar;

	sk_q_init(test, &r);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	PRM_SET(create_cq_in, in, cq_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	PRM_SET(create_cq_in, in, cq_umem_valid, 1);
	PRM_SET(cqc, cqc, dbr_umem_valid, 0);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);

	/* the kernel: 4096 CQEs of 64 bytes on 4 KiB pages need 64 PAS */
	kin = sk_mbox(test, pas + 64 * 8);
	memcpy(kin, in, PRM_BYTES(create_cq_in));
	cqc = PRM_ADDR(create_cq_in, kin, cq_context);
	PRM_SET(create_cq_in, kin, uid, 0);
	PRM_SET(create_cq_in, kin, cq_umem_valid, 0);
	PRM_SET(cqc, cqc, dbr_umem_valid, 0);
	PRM_SET(cqc, cqc, log_cq_size, 12);
	/* with a UAR of the kernel's own */
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, 0, &kuar), PRM_STAT_OK);
	PRM_SET(cqc, cqc, uar_page, kuar);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, kin, pas + 63 * 8,
					  PRM_BYTES(create_cq_out), NULL),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_INLEN);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, kin, pas + 64 * 8,
					  PRM_BYTES(create_cq_out), &cqn),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, 0,
					   cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, 0, kuar), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static void sk_cq_caps(struct kunit *test)
{
	u32 max = SIM_CAP_GEN(sk_sim(test), log_max_cq_sz);
	struct sk_q r;
	void *in, *cqc;

	sk_q_init(test, &r);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	PRM_SET(cqc, cqc, log_cq_size, max + 1);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(cqc, cqc, log_cq_size, 4);
	PRM_SET(cqc, cqc, cqe_sz, SIM_CQE_SZ_128_PAD + 1);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(cqc, cqc, cqe_sz, 0);
	/* compression: the formats there are, the basic layout only */
	PRM_SET(cqc, cqc, cqe_comp_en, 1);
	PRM_SET(cqc, cqc, mini_cqe_res_format, 2);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	PRM_SET(cqc, cqc, mini_cqe_res_format, SIM_MINI_FMT_CSUM_STRIDX);
	PRM_SET(cqc, cqc, cqe_compression_layout, 1);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	PRM_SET(cqc, cqc, cqe_compression_layout, 0);
	PRM_SET(cqc, cqc, cqe_comp_en, 0);
	PRM_SET(cqc, cqc, mini_cqe_res_format, 0);
	PRM_SET(cqc, cqc, cq_period_mode, MLX5_CQ_PERIOD_MODE_START_FROM_CQE);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);
	sk_q_fini(test, &r);
}

/* The EQ must exist (the kernel's are shared); the UAR must be ours. */
static void sk_cq_eq_uar(struct kunit *test)
{
	struct sk_q r, other;
	void *in, *cqc;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	in = sk_cq_in(test, &r);
	cqc = PRM_ADDR(create_cq_in, in, cq_context);
	PRM_SET(cqc, cqc, c_eqn_or_apu_element, r.eqn + 1);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	PRM_SET(cqc, cqc, c_eqn_or_apu_element, r.eqn);
	PRM_SET(cqc, cqc, uar_page, other.uar);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	PRM_SET(cqc, cqc, uar_page, 0);
	KUNIT_EXPECT_EQ(test, sk_cq_run(test, in, NULL), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_EQ, r.eqn), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, other.uar), 0);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

static u8 sk_cq_modify(struct kunit *test, u16 uid, u32 cqn, u16 op_mod,
		       u32 sel, u32 period, u32 count)
{
	void *in = SK_MBOX(test, modify_cq_in);
	void *out = SK_MBOX(test, modify_cq_out);
	void *cqc = PRM_ADDR(modify_cq_in, in, cq_context);

	PRM_SET(modify_cq_in, in, opcode, MLX5_CMD_OP_MODIFY_CQ);
	PRM_SET(modify_cq_in, in, uid, uid);
	PRM_SET(modify_cq_in, in, op_mod, op_mod);
	PRM_SET(modify_cq_in, in, cqn, cqn);
	PRM_SET(modify_cq_in, in, modify_field_select_resize_field_select
		.modify_field_select.modify_field_select, sel);
	PRM_SET(cqc, cqc, cq_period, period);
	PRM_SET(cqc, cqc, cq_max_count, count);
	PRM_SET(cqc, cqc, log_cq_size, 9);
	return sk_exec(test, in, PRM_BYTES(modify_cq_in), out,
		       PRM_BYTES(modify_cq_out));
}

static void sk_cq_modify_query(struct kunit *test)
{
	void *out = SK_MBOX(test, query_cq_out);
	const void *cqc = PRM_ADDR(query_cq_out, out, cq_context);
	struct sk_q r;
	u32 cqn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn, 0,
					   SIM_CQ_MODIFY_PERIOD |
					   SIM_CQ_MODIFY_COUNT, 16, 32),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn, 0,
					   SIM_CQ_MODIFY_PERIOD, 8, 99),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_CQ, r.uid, cqn,
					 out, PRM_BYTES(query_cq_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, cq_period), 8);
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, cq_max_count), 32);
	/* what was not selected is as created */
	KUNIT_EXPECT_EQ(test, PRM_GET(cqc, cqc, log_cq_size), 4);

	/* a resize names its new buffer by umem; unknown or no fields */
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn,
					   MLX5_MODIFY_CQ_IN_OP_MOD_RESIZE_CQ,
					   SIM_CQ_RESIZE_LOG_SIZE, 0, 0),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_UMEM);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn, 2, 1, 1, 1),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OPMOD);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn, 0, BIT(5), 1, 1),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn, 0, 0, 1, 1),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, r.uid, cqn + 1, 0,
					   SIM_CQ_MODIFY_COUNT, 1, 1),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

/*
 * Resizes the model refuses: a size past log_max_cq_sz, a buffer past
 * the umem's end, a field select beyond the resize's, a umem of another
 * context (which then holds no reference).  The resize itself, over
 * pages of memory: dp_run_test.c.
 */
static void sk_cq_resize_refused(struct kunit *test)
{
	struct sk_q r, other;
	u32 cqn;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_cq_resize(test, r.uid, cqn,
					   SIM_CQ_RESIZE_LOG_SIZE, 24, r.umem,
					   0), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_CAP);
	KUNIT_EXPECT_EQ(test, sk_cq_resize(test, r.uid, cqn,
					   SIM_CQ_RESIZE_LOG_SIZE, 6, r.umem,
					   SK_Q_BYTES - 4096),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_cq_resize(test, r.uid, cqn, BIT(5), 6,
					   r.umem, 8192), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_NE(test, sk_cq_resize(test, r.uid, cqn,
					   SIM_CQ_RESIZE_LOG_SIZE, 6,
					   other.umem, 8192), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, other.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

/* Another context can neither reach this CQ nor build on it. */
static void sk_cq_isolation(struct kunit *test)
{
	void *out = SK_MBOX(test, query_cq_out);
	struct sk_q r, other;
	u32 cqn;

	sk_q_init(test, &r);
	sk_q_init(test, &other);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_CQ, other.uid,
					 cqn, out, PRM_BYTES(query_cq_out)),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_cq_modify(test, other.uid, cqn, 0,
					   SIM_CQ_MODIFY_COUNT, 1, 1),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ,
					   other.uid, cqn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_create_rq(test, &other, cqn, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_create_qp(test, &other, cqn, NULL),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	/* and the kernel's uid 0 is no owner of it either */
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, 0,
					   cqn), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_CQ, cqn), 0);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
	sk_q_fini(test, &other);
}

/* What a CQ references cannot go before it; its context neither. */
static void sk_cq_busy(struct kunit *test)
{
	struct sk_q r;
	u32 cqn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r.uid, r.umem),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, r.uid),
			PRM_STAT_RESOURCE_BUSY);
	/* the UAR may go first: the CQ's doorbells then go nowhere */
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, r.uid, r.uar), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_umem(test, r.uid, r.umem),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, r.uid, r.pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, r.uid, r.td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, r.uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A failed create leaves no object and no reference behind. */
static void sk_cq_fault(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sk_q r;

	sk_q_init(test, &r);
	sim->fail_next = 1;
	KUNIT_EXPECT_EQ(test, sk_create_cq(test, &r, NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);
	/* the id space exhausted: refused after the references were taken */
	sim->max_id[SIM_OBJ_CQ] = 0;
	KUNIT_EXPECT_EQ(test, sk_create_cq(test, &r, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UMEM, r.umem), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_UAR, r.uar), 0);
	KUNIT_EXPECT_EQ(test, sk_users(test, SIM_OBJ_EQ, r.eqn), 0);
	KUNIT_EXPECT_EQ(test, sk_live(test), 5);
	sk_q_fini(test, &r);
}

static struct kunit_case sk_cq_cases[] = {
	KUNIT_CASE(sk_cq_create_query_destroy),
	KUNIT_CASE(sk_cq_umem_size),
	KUNIT_CASE(sk_cq_dbr),
	KUNIT_CASE(sk_cq_raw_pas),
	KUNIT_CASE(sk_cq_caps),
	KUNIT_CASE(sk_cq_eq_uar),
	KUNIT_CASE(sk_cq_modify_query),
	KUNIT_CASE(sk_cq_resize_refused),
	KUNIT_CASE(sk_cq_isolation),
	KUNIT_CASE(sk_cq_busy),
	KUNIT_CASE(sk_cq_fault),
	{}
};

static struct kunit_suite sk_cq_suite = {
	.name = "mlx5x_sim_cq",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_cq_cases,
};

kunit_test_suite(sk_cq_suite);
