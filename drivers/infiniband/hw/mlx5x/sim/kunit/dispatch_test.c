// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the model's command dispatcher (mlx5x_sim_exec), the checks it
 * makes before any handler runs, and its fault injection.
 */
#include <linux/string.h>
#include "sim_kunit.h"

#define SK_NO_SUCH_OPCODE	0x7ff

/* Every byte past the header is zero; the header holds status/syndrome. */
static bool sk_zero_past_header(const void *out, size_t outlen)
{
	return !memchr_inv((const u8 *)out + PRM_OUT_HDR_BYTES, 0,
			   outlen - PRM_OUT_HDR_BYTES);
}

static void sk_short_mailbox(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	size_t inlen = PRM_BYTES(query_adapter_in);
	size_t outlen = PRM_BYTES(query_adapter_out);
	void *in = sk_mbox(test, inlen);
	void *out = sk_mbox(test, outlen);
	size_t len;

	PRM_SET(query_adapter_in, in, opcode, MLX5_CMD_OP_QUERY_ADAPTER);
	for (len = 0; len < PRM_CMD_HDR_BYTES; len++) {
		memset(out, 0xa5, outlen);
		KUNIT_EXPECT_EQ(test, mlx5x_sim_exec(sim, in, len, out, outlen),
				-EINVAL);
		/* refused before delivery: the output is left alone */
		KUNIT_EXPECT_EQ(test, *(u8 *)out, 0xa5);
		KUNIT_EXPECT_EQ(test, mlx5x_sim_exec(sim, in, inlen, out, len),
				-EINVAL);
	}
	/* neither is a command the device saw */
	KUNIT_EXPECT_EQ(test, sim->cmds, 0);
	KUNIT_EXPECT_EQ(test, sim->cmd_errors, 0);

	/* A bare header is delivered, and refused by the length check. */
	KUNIT_EXPECT_EQ(test, mlx5x_sim_exec(sim, in, PRM_CMD_HDR_BYTES, out,
					     PRM_OUT_HDR_BYTES), 0);
	KUNIT_EXPECT_EQ(test, prm_out_status(out), PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sim->cmds, 1);
}

static void sk_unknown_opcode(struct kunit *test)
{
	static const u16 opcodes[] = {
		SK_NO_SUCH_OPCODE, 0xffff, 0,
		MLX5_CMD_OP_CREATE_SRQ,		/* real, not modelled */
		MLX5_CMD_OP_QUERY_HCA_CAP + 0x10,
	};
	size_t outlen = PRM_BYTES(alloc_pd_out);
	void *out = sk_mbox(test, outlen);
	void *in = SK_MBOX(test, alloc_pd_in);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(opcodes); i++) {
		PRM_SET(alloc_pd_in, in, opcode, opcodes[i]);
		memset(out, 0xff, outlen);
		KUNIT_EXPECT_EQ_MSG(test, sk_exec(test, in,
						  PRM_BYTES(alloc_pd_in), out,
						  outlen),
				    PRM_STAT_BAD_OP, "opcode 0x%x", opcodes[i]);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OPCODE);
		KUNIT_EXPECT_TRUE(test, sk_zero_past_header(out, outlen));
	}
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_input_too_short(struct kunit *test)
{
	void *in = SK_MBOX(test, alloc_pd_in);
	void *out = SK_MBOX(test, alloc_pd_out);
	size_t inlen = PRM_BYTES(alloc_pd_in);
	size_t outlen = PRM_BYTES(alloc_pd_out);
	u32 pdn;

	PRM_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen - 1, out, outlen),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_INLEN);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_CMD_HDR_BYTES, out, outlen),
			PRM_STAT_BAD_INPUT_LEN);
	/* the input length is checked before the output length */
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen - 4, out,
				      PRM_OUT_HDR_BYTES),
			PRM_STAT_BAD_INPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);

	/* exactly long enough is enough */
	KUNIT_ASSERT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_OK);
	pdn = PRM_GET(alloc_pd_out, out, pd);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn), PRM_STAT_OK);
}

static void sk_output_too_short(struct kunit *test)
{
	size_t inlen = PRM_BYTES(query_adapter_in);
	size_t outlen = PRM_BYTES(query_adapter_out);
	void *in = sk_mbox(test, inlen);
	void *out = sk_mbox(test, outlen);

	PRM_SET(query_adapter_in, in, opcode, MLX5_CMD_OP_QUERY_ADAPTER);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen - 4),
			PRM_STAT_BAD_OUTPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_OUTLEN);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, PRM_OUT_HDR_BYTES),
			PRM_STAT_BAD_OUTPUT_LEN);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen, out, outlen),
			PRM_STAT_OK);

	/* a longer mailbox is fine, and zeroed past what the reply fills */
	out = sk_mbox(test, outlen + 64);
	memset(out, 0xff, outlen + 64);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, inlen + 16, out, outlen + 64),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv((u8 *)out + outlen, 0, 64));
}

static void sk_invalid_uid(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 uid;

	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 5, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_alloc_uar(test, 0xffff, NULL),
			PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_alloc_td(test, 1, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);

	/* a uid is valid while its context lives, and not after */
	uid = sk_new_uctx(test);
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, uid));
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, sim_uid_valid(sim, uid));
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, uid, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, 1), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_BAD_UID);
	/* uid 0 is the kernel and always valid */
	KUNIT_EXPECT_TRUE(test, sim_uid_valid(sim, 0));
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_fail_next(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	void *in = SK_MBOX(test, alloc_pd_in);
	size_t outlen = PRM_BYTES(alloc_pd_out);
	void *out = sk_mbox(test, outlen);
	u32 pdn;

	sim->fail_next = 3;
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 2);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);

	/* injected before the opcode is even looked up */
	PRM_SET(alloc_pd_in, in, opcode, SK_NO_SUCH_OPCODE);
	memset(out, 0xff, outlen);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(alloc_pd_in), out,
				      outlen),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_TRUE(test, sk_zero_past_header(out, outlen));

	KUNIT_EXPECT_EQ(test, sk_query_cap(test, PRM_CAP_OPMOD(0, 1), false,
					   NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 0);

	/* spent: commands work again */
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->cmds, 5);
	KUNIT_EXPECT_EQ(test, sim->cmd_errors, 3);
}

/*
 * fail_nth fails the N-th command from now and only it; destroys neither
 * fail nor count, and it reads 0 once spent.
 */
static void sk_fail_nth(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pd1, pd2, pd3;

	sim->fail_nth = 3;
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->fail_nth, 2);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd1), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->fail_nth, 2);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd3),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_EQ(test, sim->fail_nth, 0);
	/* spent: the next one works */
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pd3), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd3), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->cmd_errors, 1);

	/* fail_next goes first and does not count towards fail_nth */
	sim->fail_nth = 1;
	sim->fail_next = 1;
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sim->fail_nth, 1);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sim->fail_nth, 0);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_fail_opcode(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	unsigned int i;
	u32 pdn;

	KUNIT_EXPECT_EQ(test, sim->fail_opcode, -1);
	sim->fail_opcode = MLX5_CMD_OP_ALLOC_PD;
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, NULL),
				PRM_STAT_INTERNAL_ERR);
		KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	}
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
	/* other opcodes are untouched */
	KUNIT_EXPECT_EQ(test, sk_alloc_td(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, pdn), PRM_STAT_OK);

	/* fail_opcode wins over fail_next and does not consume it */
	sim->fail_next = 1;
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, NULL),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 1);
	sim->fail_next = 0;

	sim->fail_opcode = -1;
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn), PRM_STAT_OK);
}

/*
 * Destroy commands are never injected: a driver cannot recover from a
 * failed destroy at teardown.  They do not use up fail_next either.
 */
static void sk_fault_spares_destroy(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pd, td, uar;
	u16 uid;

	uid = sk_new_uctx(test);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, uid, &td), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, uid, &uar), PRM_STAT_OK);

	sim->fail_next = 1;
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 1);
	sim->fail_next = 0;

	sim->fail_opcode = MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN;
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, uid, td), PRM_STAT_OK);
	sim->fail_opcode = MLX5_CMD_OP_DEALLOC_UAR;
	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, uid, uar), PRM_STAT_OK);
	sim->fail_opcode = MLX5_CMD_OP_DESTROY_UCTX;
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	sim->fail_opcode = -1;
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
	KUNIT_EXPECT_EQ(test, sim->cmd_errors, 0);

	/* a destroy refused on its merits still fails as it should */
	sim->fail_next = 1;
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 1);
}

/*
 * Two commands tear down under one op_mod only: SET_FLOW_TABLE_ROOT's
 * disconnect and MODIFY_MEMIC's release of an operation window.  Those
 * are spared; the same opcodes under their other op_mod are not.
 */
static void sk_fault_spares_teardown_op_mods(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	void *root = SK_MBOX(test, set_flow_table_root_in);
	void *memic = SK_MBOX(test, modify_memic_in);
	size_t outlen = PRM_BYTES(modify_memic_out);
	void *out = sk_mbox(test, outlen);
	u8 status;

	PRM_SET(set_flow_table_root_in, root, opcode,
		MLX5_CMD_OP_SET_FLOW_TABLE_ROOT);
	PRM_SET(set_flow_table_root_in, root, op_mod, 1);	/* disconnect */
	PRM_SET(modify_memic_in, memic, opcode, MLX5_CMD_OP_MODIFY_MEMIC);
	PRM_SET(modify_memic_in, memic, op_mod,
		MLX5_MODIFY_MEMIC_OP_MOD_DEALLOC);

	sim->fail_next = 1;
	status = sk_exec(test, root, PRM_BYTES(set_flow_table_root_in), out,
			 outlen);
	KUNIT_EXPECT_NE(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_EQ(test, status, PRM_STAT_OK);
	/* no such window: refused on its merits, not by the fault */
	sk_exec(test, memic, PRM_BYTES(modify_memic_in), out, outlen);
	KUNIT_EXPECT_NE(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 1);

	PRM_SET(modify_memic_in, memic, op_mod, MLX5_MODIFY_MEMIC_OP_MOD_ALLOC);
	KUNIT_EXPECT_EQ(test, sk_exec(test, memic, PRM_BYTES(modify_memic_in),
				      out, outlen),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	KUNIT_EXPECT_EQ(test, sim->fail_next, 0);

	sim->fail_opcode = MLX5_CMD_OP_SET_FLOW_TABLE_ROOT;
	sk_exec(test, root, PRM_BYTES(set_flow_table_root_in), out, outlen);
	KUNIT_EXPECT_NE(test, sk_syndrome(test), SIM_SYND_INJECTED);
	PRM_SET(set_flow_table_root_in, root, op_mod, 0);	/* connect */
	KUNIT_EXPECT_EQ(test, sk_exec(test, root,
				      PRM_BYTES(set_flow_table_root_in), out,
				      outlen),
			PRM_STAT_INTERNAL_ERR);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_INJECTED);
	sim->fail_opcode = -1;
}

static unsigned int sk_opcode_entries(u16 opcode)
{
	unsigned int s, i, n = 0;

	for (s = 0; s < sim_n_cmd_sets; s++)
		for (i = 0; i < sim_cmd_sets[s]->count; i++)
			n += sim_cmd_sets[s]->cmds[i].opcode == opcode;
	return n;
}

/*
 * A table entry is sane and reachable: one entry for its opcode, lengths
 * beyond the header, marked destroy exactly when it destroys, and the
 * dispatcher applies exactly its length limits.
 */
static void sk_check_cmd(struct kunit *test, const struct sim_cmd *c)
{
	void *in = sk_mbox(test, c->inlen);
	void *out = sk_mbox(test, c->outlen);
	bool destroy;

	KUNIT_ASSERT_NOT_NULL(test, c->name);
	KUNIT_ASSERT_NOT_NULL(test, c->exec);
	KUNIT_EXPECT_EQ_MSG(test, sk_opcode_entries(c->opcode), 1, "%s",
			    c->name);
	KUNIT_EXPECT_GE(test, c->inlen, PRM_CMD_HDR_BYTES);
	KUNIT_EXPECT_GE(test, c->outlen, PRM_OUT_HDR_BYTES);
	destroy = str_has_prefix(c->name, "DESTROY_") ||
		  str_has_prefix(c->name, "DEALLOC_") ||
		  str_has_prefix(c->name, "DELETE_") ||
		  str_has_prefix(c->name, "DETACH_");
	KUNIT_EXPECT_EQ_MSG(test, c->destroy, destroy, "%s", c->name);

	prm_set_bits(in, 0, 16, c->opcode);
	KUNIT_EXPECT_EQ_MSG(test, sk_exec(test, in, c->inlen - 1, out,
					  c->outlen),
			    PRM_STAT_BAD_INPUT_LEN, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, sk_exec(test, in, c->inlen, out,
					  c->outlen - 1),
			    PRM_STAT_BAD_OUTPUT_LEN, "%s", c->name);
}

static void sk_cmd_table(struct kunit *test)
{
	unsigned int s, i;

	for (s = 0; s < sim_n_cmd_sets; s++)
		for (i = 0; i < sim_cmd_sets[s]->count; i++)
			sk_check_cmd(test, &sim_cmd_sets[s]->cmds[i]);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* A failed command leaves nothing of a reply but status and syndrome. */
static void sk_failure_clears_output(struct kunit *test)
{
	size_t outlen = PRM_BYTES(query_hca_cap_out);
	void *in = SK_MBOX(test, query_hca_cap_in);
	void *out = sk_mbox(test, outlen);

	PRM_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	PRM_SET(query_hca_cap_in, in, op_mod, PRM_CAP_OPMOD(0x3f, 1));
	memset(out, 0xff, outlen);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(query_hca_cap_in),
				      out, outlen), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, prm_get_bits(out, 8, 24), 0);
	KUNIT_EXPECT_TRUE(test, sk_zero_past_header(out, outlen));

	/* and a successful one reports status 0 and syndrome 0 */
	PRM_SET(query_hca_cap_in, in, op_mod, PRM_CAP_OPMOD(0, 1));
	memset(out, 0xff, outlen);
	KUNIT_EXPECT_EQ(test, sk_exec(test, in, PRM_BYTES(query_hca_cap_in),
				      out, outlen), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, PRM_GET(query_hca_cap_out, out, syndrome), 0);
}

static void sk_stats(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pdn;

	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 9, NULL), PRM_STAT_BAD_PARAM);
	KUNIT_EXPECT_EQ(test, sim->cmds, 4);
	KUNIT_EXPECT_EQ(test, sim->cmd_errors, 2);
}

static struct kunit_case sk_dispatch_cases[] = {
	KUNIT_CASE(sk_short_mailbox),
	KUNIT_CASE(sk_unknown_opcode),
	KUNIT_CASE(sk_input_too_short),
	KUNIT_CASE(sk_output_too_short),
	KUNIT_CASE(sk_invalid_uid),
	KUNIT_CASE(sk_fail_next),
	KUNIT_CASE(sk_fail_nth),
	KUNIT_CASE(sk_fail_opcode),
	KUNIT_CASE(sk_fault_spares_destroy),
	KUNIT_CASE(sk_fault_spares_teardown_op_mods),
	KUNIT_CASE(sk_failure_clears_output),
	KUNIT_CASE(sk_stats),
	KUNIT_CASE(sk_cmd_table),
	{}
};

static struct kunit_suite sk_dispatch_suite = {
	.name = "mlx5x_sim_dispatch",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_dispatch_cases,
};

kunit_test_suite(sk_dispatch_suite);
