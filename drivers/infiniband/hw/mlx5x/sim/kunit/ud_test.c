// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: what UD traffic rests on.  The port's RoCE address table
 * (SET_ROCE_ADDRESS: the kernel's alone, within its 256 entries, read
 * back by QUERY_ROCE_ADDRESS; sim_roce_gid_find() sees only entries that
 * hold an address), and UD QPs (CREATE_QP of st UD, the Q_Key set by
 * RST2INIT, an INIT2RTR that names no peer, path or MAC and may ask for
 * a 4096-byte MTU on any port), and the port's multicast groups
 * (ATTACH_TO_MCG, DETACH_FROM_MCG).
 */
#include "sk_queues.h"

static const u8 sk_gid_v4[16] = {
	[10] = 0xff, [11] = 0xff, [12] = 192, [13] = 168, [14] = 90, [15] = 1,
};

static u8 sk_roce_set(struct kunit *test, u16 uid, u32 index, const u8 *gid,
		      u32 version)
{
	void *in = SK_MBOX(test, set_roce_address_in);
	void *out = SK_MBOX(test, set_roce_address_out);
	void *a = PRM_ADDR(set_roce_address_in, in, roce_address);

	PRM_SET(set_roce_address_in, in, opcode, MLX5_CMD_OP_SET_ROCE_ADDRESS);
	/* the uid's place in every mailbox; this one has none */
	prm_set_bits(in, 0x10, 16, uid);
	PRM_SET(set_roce_address_in, in, roce_address_index, index);
	PRM_SET(set_roce_address_in, in, vhca_port_num, 1);
	if (gid)
		memcpy(PRM_ADDR(roce_addr_layout, a, source_l3_address), gid,
		       16);
	PRM_SET(roce_addr_layout, a, roce_version, version);
	return sk_exec(test, in, PRM_BYTES(set_roce_address_in), out,
		       PRM_BYTES(set_roce_address_out));
}

static void sk_ud_roce_table(struct kunit *test)
{
	void *in = SK_MBOX(test, query_roce_address_in);
	void *out = SK_MBOX(test, query_roce_address_out);
	const void *a = PRM_ADDR(query_roce_address_out, out, roce_address);
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid;

	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &uid), PRM_STAT_OK);
	/* a context's mailbox never writes the table */
	KUNIT_EXPECT_EQ(test, sk_roce_set(test, uid, 3, sk_gid_v4, 2),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_roce_set(test, 0, SIM_ROCE_GIDS, sk_gid_v4,
					  2), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_roce_set(test, 0, 3, sk_gid_v4, 1),
			PRM_STAT_BAD_PARAM);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim_roce_gid_find(sim, sk_gid_v4), -1);
	mutex_unlock(&sim->lock);

	KUNIT_ASSERT_EQ(test, sk_roce_set(test, 0, 3, sk_gid_v4, 2),
			PRM_STAT_OK);
	PRM_SET(query_roce_address_in, in, opcode,
		MLX5_CMD_OP_QUERY_ROCE_ADDRESS);
	PRM_SET(query_roce_address_in, in, roce_address_index, 3);
	KUNIT_ASSERT_EQ(test, sk_exec(test, in,
				      PRM_BYTES(query_roce_address_in), out,
				      PRM_BYTES(query_roce_address_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(roce_addr_layout, a, roce_version), 2);
	KUNIT_EXPECT_EQ(test, memcmp(PRM_ADDR(roce_addr_layout, a,
					      source_l3_address),
				     sk_gid_v4, 16), 0);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim_roce_gid_find(sim, sk_gid_v4), 3);
	mutex_unlock(&sim->lock);

	/* written with zeros, the entry is empty again */
	KUNIT_ASSERT_EQ(test, sk_roce_set(test, 0, 3, NULL, 0), PRM_STAT_OK);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sim_roce_gid_find(sim, sk_gid_v4), -1);
	mutex_unlock(&sim->lock);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
}

static void sk_ud_qp(struct kunit *test)
{
	void *qin, *qpc, *in, *out = SK_MBOX(test, query_qp_out);
	const void *cur = PRM_ADDR(query_qp_out, out, qpc);
	struct sk_q r;
	u32 cqn, qpn;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	in = sk_qp_in(test, &r, cqn);
	PRM_SET(qpc, PRM_ADDR(create_qp_in, in, qpc), st, MLX5_QPC_ST_UD);
	KUNIT_ASSERT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &qpn),
			PRM_STAT_OK);

	qin = sk_qp_move_in(test, MLX5_CMD_OP_RST2INIT_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, q_key, 0x11111111);
	KUNIT_EXPECT_EQ(test, sk_exec(test, qin, PRM_BYTES(rst2init_qp_in),
				      SK_MBOX(test, rst2init_qp_out),
				      PRM_BYTES(rst2init_qp_out)),
			PRM_STAT_OK);
	/* no peer, no MAC; the 4096-byte MTU mlx5_ib asks of every UD QP */
	qin = sk_qp_move_in(test, MLX5_CMD_OP_INIT2RTR_QP, r.uid, qpn, &qpc);
	PRM_SET(qpc, qpc, remote_qpn, 0);
	PRM_SET(qpc, qpc, mtu, MLX5_QPC_MTU_4K_BYTES);
	PRM_SET(qpc, qpc, log_msg_max, 12);
	PRM_SET(ads, PRM_ADDR(qpc, qpc, primary_address_path), rmac_47_32, 0);
	PRM_SET(ads, PRM_ADDR(qpc, qpc, primary_address_path), rmac_31_0, 0);
	PRM_SET(qpc, qpc, q_key, 0x11111111);
	KUNIT_EXPECT_EQ(test, sk_exec(test, qin, PRM_BYTES(init2rtr_qp_in),
				      SK_MBOX(test, init2rtr_qp_out),
				      PRM_BYTES(init2rtr_qp_out)),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_q_query(test, MLX5_CMD_OP_QUERY_QP, r.uid, qpn,
					 out, PRM_BYTES(query_qp_out)),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, cur, state), MLX5_QPC_STATE_RTR);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, cur, st), MLX5_QPC_ST_UD);
	KUNIT_EXPECT_EQ(test, PRM_GET(qpc, cur, q_key), 0x11111111);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   qpn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static const u8 sk_mgid[16] = { 0xff, 0x0e, [15] = 1 };

static u8 sk_mcg(struct kunit *test, u16 opcode, u16 uid, u32 qpn,
		 const u8 *gid)
{
	void *in = SK_MBOX(test, attach_to_mcg_in);

	PRM_SET(attach_to_mcg_in, in, opcode, opcode);
	PRM_SET(attach_to_mcg_in, in, uid, uid);
	PRM_SET(attach_to_mcg_in, in, qpn, qpn);
	memcpy(PRM_ADDR(attach_to_mcg_in, in, multicast_gid), gid, 16);
	return sk_exec(test, in, PRM_BYTES(attach_to_mcg_in),
		       SK_MBOX(test, attach_to_mcg_out),
		       PRM_BYTES(attach_to_mcg_out));
}

/* A QP of service type @st on @r's context; its number. */
static u32 sk_mcg_qp(struct kunit *test, struct sk_q *r, u32 cqn, u32 st)
{
	void *in = sk_qp_in(test, r, cqn);
	u32 qpn = 0;

	PRM_SET(qpc, PRM_ADDR(create_qp_in, in, qpc), st, st);
	KUNIT_EXPECT_EQ(test, sk_q_create(test, in, PRM_BYTES(create_qp_in),
					  PRM_BYTES(create_qp_out), &qpn),
			PRM_STAT_OK);
	return qpn;
}

static void sk_ud_mcg(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 cqn, ud, ud2, rc;
	struct sim_mcg *g;
	struct sk_q r;
	u16 other;

	sk_q_init(test, &r);
	KUNIT_ASSERT_EQ(test, sk_create_cq(test, &r, &cqn), PRM_STAT_OK);
	ud = sk_mcg_qp(test, &r, cqn, MLX5_QPC_ST_UD);
	ud2 = sk_mcg_qp(test, &r, cqn, MLX5_QPC_ST_UD);
	rc = sk_mcg_qp(test, &r, cqn, MLX5_QPC_ST_RC);
	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &other), PRM_STAT_OK);

	/* only a UD QP, only a multicast GID, only by its own context */
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, r.uid, rc,
				     sk_mgid), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, r.uid, ud,
				     sk_gid_v4), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, other, ud,
				     sk_mgid), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_DETACH_FROM_MCG, r.uid,
				     ud, sk_mgid), PRM_STAT_BAD_PARAM);

	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, r.uid, ud,
				     sk_mgid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, r.uid, ud,
				     sk_mgid), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_ATTACH_TO_MCG, r.uid,
				     ud2, sk_mgid), PRM_STAT_OK);
	/* another context takes none of them out */
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_DETACH_FROM_MCG, other,
				     ud, sk_mgid), PRM_STAT_BAD_RESOURCE);
	mutex_lock(&sim->lock);
	g = sim_mcg_find(sim, sk_mgid);
	KUNIT_EXPECT_TRUE(test, g && g->n == 2 && sim->n_mcgs == 1);
	mutex_unlock(&sim->lock);

	/* detached, then destroyed: the group goes with its last member */
	KUNIT_EXPECT_EQ(test, sk_mcg(test, MLX5_CMD_OP_DETACH_FROM_MCG, r.uid,
				     ud2, sk_mgid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   ud), PRM_STAT_OK);
	mutex_lock(&sim->lock);
	KUNIT_EXPECT_TRUE(test, !sim_mcg_find(sim, sk_mgid) && !sim->n_mcgs);
	mutex_unlock(&sim->lock);

	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   ud2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_QP, r.uid,
					   rc), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_q_destroy(test, MLX5_CMD_OP_DESTROY_CQ, r.uid,
					   cqn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, other), PRM_STAT_OK);
	sk_q_fini(test, &r);
}

static struct kunit_case sk_ud_cases[] = {
	KUNIT_CASE(sk_ud_roce_table),
	KUNIT_CASE(sk_ud_qp),
	KUNIT_CASE(sk_ud_mcg),
	{}
};

static struct kunit_suite sk_ud_suite = {
	.name = "mlx5x_sim_ud",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_ud_cases,
};

kunit_test_suite(sk_ud_suite);
