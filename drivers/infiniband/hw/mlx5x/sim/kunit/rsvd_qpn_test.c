// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: RESERVED_QPN general objects: the cmd_hca_cap_2 fields libmlx5
 * reads, ranges numbered by their first QPN, aligned and apart from each
 * other and from every QP and DCT, the checks of a create, the owner's
 * alone, reuse after destroy, the limit.
 */
#include "sk_queues.h"
#include "../core/general.h"

#define SK_RQ_TYPE	SIM_OBJ_TYPE_RESERVED_QPN
#define SK_RQ_IN	(PRM_BYTES(general_obj_in_cmd_hdr) + 16)
#define SK_RQ_OUT	(PRM_BYTES(general_obj_out_cmd_hdr) + 16)
#define SK_RQ_MAX	64

static u8 sk_rq_create(struct kunit *test, u16 uid, u32 log, u32 *id)
{
	void *in = sk_mbox(test, SK_RQ_IN);
	void *out = sk_mbox(test, PRM_BYTES(general_obj_out_cmd_hdr));
	u8 status;

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, SK_RQ_TYPE);
	PRM_SET(general_obj_in_cmd_hdr, in, PRM_GENERAL_LOG_OBJ_RANGE, log);
	status = sk_exec(test, in, SK_RQ_IN, out,
			 PRM_BYTES(general_obj_out_cmd_hdr));
	*id = PRM_GET(general_obj_out_cmd_hdr, out, obj_id);
	return status;
}

static u8 sk_rq_cmd(struct kunit *test, u16 opcode, u16 uid, u32 id)
{
	void *in = sk_mbox(test, PRM_BYTES(general_obj_in_cmd_hdr));
	void *out = sk_mbox(test, SK_RQ_OUT);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode, opcode);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, uid);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, SK_RQ_TYPE);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	return sk_exec(test, in, PRM_BYTES(general_obj_in_cmd_hdr), out,
		       SK_RQ_OUT);
}

/* The caps libmlx5's mlx5dv_reserved_qpn_alloc() reads, and the type bit. */
static void sk_rsvd_qpn_caps(struct kunit *test)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, general_obj_types);
	void *cap;
	u64 types;

	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1), false,
					   &cap), PRM_STAT_OK);
	types = (u64)prm_get_bits(cap, off, 32) << 32 |
		prm_get_bits(cap, off + 32, 32);
	KUNIT_EXPECT_TRUE(test, types & BIT_ULL(SK_RQ_TYPE));
	KUNIT_ASSERT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0x20, 1), false,
					   &cap), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, 0x8b, 5), 18);	/* all */
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, 0x93, 5), 8);	/* granule */
	KUNIT_EXPECT_EQ(test, prm_get_bits(cap, 0x9b, 5), 12);	/* one alloc */
}

/*
 * Ranges of several sizes: each aligned to its size, none overlapping
 * another, all between the QPs and the DCTs; a QP and a DCT created
 * beside them are numbered outside; a destroyed range is reused.
 */
static void sk_rsvd_qpn_ranges(struct kunit *test)
{
	static const u32 logs[] = { 8, 8, 12, 8, 9, 12, 8 };
	u32 first[ARRAY_SIZE(logs)], cqn, qpn, id;
	struct sk_q r;
	unsigned int i, j;

	sk_q_init(test, &r);
	for (i = 0; i < ARRAY_SIZE(logs); i++) {
		KUNIT_ASSERT_EQ(test, sk_rq_create(test, r.uid, logs[i],
						   &first[i]), PRM_STAT_OK);
		KUNIT_EXPECT_GE(test, first[i], SIM_RSVD_QPN_BASE);
		KUNIT_EXPECT_LE(test, first[i] + BIT(logs[i]), SIM_DCTN_BASE);
		KUNIT_EXPECT_EQ(test, first[i] & (BIT(logs[i]) - 1), 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_TRUE(test,
					  first[i] + BIT(logs[i]) <= first[j] ||
					  first[j] + BIT(logs[j]) <= first[i]);
	}
	/* the first two 256-QPN ranges are packed, the 4096 one after */
	KUNIT_EXPECT_EQ(test, first[0], SIM_RSVD_QPN_BASE);
	KUNIT_EXPECT_EQ(test, first[1], SIM_RSVD_QPN_BASE + 256);
	KUNIT_EXPECT_EQ(test, first[2], SIM_RSVD_QPN_BASE + 4096);
	KUNIT_EXPECT_EQ(test, first[3], SIM_RSVD_QPN_BASE + 512);

	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_create_qp(test, &r, cqn, &qpn), PRM_STAT_OK);
	KUNIT_EXPECT_LT(test, qpn, SIM_RSVD_QPN_BASE);

	/* queried: no fields; destroyed: the range is the next one's */
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					r.uid, first[1]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
					MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
					r.uid, first[1]), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_rq_create(test, r.uid, 8, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, id, first[1]);
	first[1] = id;

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	for (i = 0; i < ARRAY_SIZE(logs); i++)
		KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
				MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, r.uid,
				first[i]), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

/*
 * What a create must say: a range from the granule to the largest
 * allocation, a reserved context; another context can neither query
 * nor destroy a range; an id of another general type is not a range.
 */
static void sk_rsvd_qpn_checks(struct kunit *test)
{
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	void *in = sk_mbox(test, SK_RQ_IN);
	void *out = sk_mbox(test, PRM_BYTES(general_obj_out_cmd_hdr));
	u32 id, bad;

	KUNIT_EXPECT_EQ(test, sk_rq_create(test, a, 7, &bad),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, sk_rq_create(test, a, 13, &bad),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_rq_create(test, a, 0, &bad),
			PRM_STAT_BAD_PARAM);

	PRM_SET(general_obj_in_cmd_hdr, in, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	PRM_SET(general_obj_in_cmd_hdr, in, uid, a);
	PRM_SET(general_obj_in_cmd_hdr, in, obj_type, SK_RQ_TYPE);
	PRM_SET(general_obj_in_cmd_hdr, in, PRM_GENERAL_LOG_OBJ_RANGE, 8);
	((u8 *)in)[PRM_BYTES(general_obj_in_cmd_hdr) + 15] = 1;
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, SK_RQ_IN, out,
				      PRM_BYTES(general_obj_out_cmd_hdr)),
			PRM_STAT_BAD_PARAM);
	/* a context short of the object's 16 bytes */
	((u8 *)in)[PRM_BYTES(general_obj_in_cmd_hdr) + 15] = 0;
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, SK_RQ_IN - 4, out,
				      PRM_BYTES(general_obj_out_cmd_hdr)),
			PRM_STAT_BAD_INPUT_LEN);

	KUNIT_ASSERT_EQ(test, sk_rq_create(test, a, 8, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
					b, id), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
					MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
					b, id), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test, MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
					a, id), PRM_STAT_BAD_PARAM);
	/* a QPN inside the range is not the object */
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
					MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
					a, id + 1), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
					MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
					a, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

/* At most 64 ranges at once, whoever owns them; then NO_RESOURCES. */
static void sk_rsvd_qpn_limit(struct kunit *test)
{
	u16 uid = sk_new_uctx(test);
	u32 *ids, id, i;

	ids = kunit_kcalloc(test, SK_RQ_MAX, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (i = 0; i < SK_RQ_MAX; i++)
		KUNIT_ASSERT_EQ(test, sk_rq_create(test, uid, 8, &ids[i]),
				PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rq_create(test, uid, 8, &id),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	/* a context with ranges is not destroyed; freed, they are reused */
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid),
			PRM_STAT_RESOURCE_BUSY);
	for (i = 0; i < SK_RQ_MAX; i++)
		KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
				MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, uid,
				ids[i]), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_rq_create(test, uid, 8, &id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, id, SIM_RSVD_QPN_BASE);
	KUNIT_EXPECT_EQ(test, sk_rq_cmd(test,
					MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
					uid, id), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

static struct kunit_case sk_rsvd_qpn_cases[] = {
	KUNIT_CASE(sk_rsvd_qpn_caps),
	KUNIT_CASE(sk_rsvd_qpn_ranges),
	KUNIT_CASE(sk_rsvd_qpn_checks),
	KUNIT_CASE(sk_rsvd_qpn_limit),
	{}
};

static struct kunit_suite sk_rsvd_qpn_suite = {
	.name = "mlx5x_sim_reserved_qpn",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_rsvd_qpn_cases,
};

kunit_test_suite(sk_rsvd_qpn_suite);
