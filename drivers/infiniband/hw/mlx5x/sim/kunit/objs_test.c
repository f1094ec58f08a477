// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit: the model's object table (core/objs.c), called directly and through
 * the commands built on it.
 */
#include "sim_kunit.h"

/* A command context as the dispatcher would build it for @uid. */
static struct sim_cmd_ctx sk_ctx_for(u16 uid)
{
	return (struct sim_cmd_ctx){ .uid = uid };
}

static u8 sk_obj_alloc(struct kunit *test, u16 uid, enum sim_obj_type type,
		       struct sim_obj **objp, u32 *syndrome)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = sk_ctx_for(uid);
	u8 status;

	mutex_lock(&sim->lock);
	status = sim_obj_alloc(sim, &ctx, type, objp);
	mutex_unlock(&sim->lock);
	if (syndrome)
		*syndrome = ctx.syndrome;
	return status;
}

static u8 sk_obj_lookup(struct kunit *test, u16 uid, enum sim_obj_type type,
			u32 id, struct sim_obj **objp, u32 *syndrome)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = sk_ctx_for(uid);
	u8 status;

	mutex_lock(&sim->lock);
	status = sim_obj_lookup(sim, &ctx, type, id, objp);
	mutex_unlock(&sim->lock);
	if (syndrome)
		*syndrome = ctx.syndrome;
	return status;
}

static u8 sk_obj_destroy(struct kunit *test, u16 uid, enum sim_obj_type type,
			 u32 id, u32 *syndrome)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_cmd_ctx ctx = sk_ctx_for(uid);
	u8 status;

	mutex_lock(&sim->lock);
	status = sim_obj_destroy(sim, &ctx, type, id);
	mutex_unlock(&sim->lock);
	if (syndrome)
		*syndrome = ctx.syndrome;
	return status;
}

static void sk_alloc_lookup_destroy(struct kunit *test)
{
	struct sim_obj *obj = NULL, *found = NULL;
	u32 synd;

	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_PD, &obj, NULL),
			PRM_STAT_OK);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_EXPECT_EQ(test, obj->type, SIM_OBJ_PD);
	KUNIT_EXPECT_EQ(test, obj->id, 1);	/* min_id */
	KUNIT_EXPECT_EQ(test, obj->uid, 0);
	KUNIT_EXPECT_EQ(test, obj->users, 0);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);

	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_PD, obj->id,
					    &found, NULL), PRM_STAT_OK);
	KUNIT_EXPECT_PTR_EQ(test, found, obj);
	/* ids are per type: no TD 1 exists */
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_TD, obj->id,
					    &found, &synd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NO_OBJECT);

	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_PD, 1, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_PD, 1, &found,
					    &synd), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NO_OBJECT);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_PD, 1, &synd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NO_OBJECT);
	/* id 0 is never handed out */
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_PD, 0, &found,
					    &synd), PRM_STAT_BAD_RESOURCE);
}

static void sk_ids_unique(struct kunit *test)
{
	struct sim_obj *a, *b, *td;

	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_PD, &a, NULL),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_PD, &b, NULL),
			PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_TD, &td, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, a->id, b->id);
	KUNIT_EXPECT_EQ(test, td->id, 1);	/* its own id space */
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_PD, a->id, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_PD, b->id, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_TD, 1, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_not_owner(struct kunit *test)
{
	struct sim_obj *obj, *found;
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	u32 synd, pdn;

	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, a, SIM_OBJ_PD, &obj, NULL),
			PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, obj->uid, a);
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, b, SIM_OBJ_PD, obj->id,
					    &found, &synd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NOT_OWNER);
	/* not even the kernel reaches a context's objects */
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_PD, obj->id,
					    &found, &synd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, b, SIM_OBJ_PD, obj->id,
					     &synd), PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);

	/* the same through the commands */
	pdn = obj->id;
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, b, pdn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, pdn),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, a, pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_busy(struct kunit *test)
{
	struct sim_obj *obj, *found;
	u32 synd, id;
	u16 uid;

	KUNIT_ASSERT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_TD, &obj, NULL),
			PRM_STAT_OK);
	id = obj->id;
	obj->users = 1;
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, 0, SIM_OBJ_TD, id, &synd),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_IN_USE);
	KUNIT_EXPECT_EQ(test, sk_obj_lookup(test, 0, SIM_OBJ_TD, id, &found,
					    NULL), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	/* the owner check comes first: a stranger learns nothing more */
	uid = sk_new_uctx(test);
	KUNIT_EXPECT_EQ(test, sk_obj_destroy(test, uid, SIM_OBJ_TD, id, &synd),
			PRM_STAT_BAD_RESOURCE);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_NOT_OWNER);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);

	/* through the command */
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, id),
			PRM_STAT_RESOURCE_BUSY);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_IN_USE);

	obj->users = 0;
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, id), PRM_STAT_OK);
}

static void sk_exhaustion(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_obj *obj;
	u32 synd, pdn, i;

	sim->max_id[SIM_OBJ_PD] = 3;
	for (i = 1; i <= 3; i++) {
		KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
		KUNIT_EXPECT_EQ(test, pdn, i);
	}
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pdn),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_obj_alloc(test, 0, SIM_OBJ_PD, &obj, &synd),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, synd, SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), 3);
	/* other kinds are not affected */
	KUNIT_EXPECT_EQ(test, sk_alloc_td(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, 0, pdn), PRM_STAT_OK);

	/* a freed id is handed out again */
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, 2), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_alloc_pd(test, 0, &pdn), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, pdn, 2);
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, 0, i), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

/* With max_id below min_id the kind is unavailable altogether. */
static void sk_exhaustion_empty(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);

	sim->max_id[SIM_OBJ_UAR] = 0;
	KUNIT_EXPECT_EQ(test, sk_alloc_uar(test, 0, NULL),
			PRM_STAT_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, sk_syndrome(test), SIM_SYND_EXHAUSTED);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_live_count(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u32 pd, td, uar;
	u16 uid;

	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
	uid = sk_new_uctx(test);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_ASSERT_EQ(test, sk_alloc_pd(test, uid, &pd), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, uid, &td), PRM_STAT_OK);
	KUNIT_ASSERT_EQ(test, sk_alloc_uar(test, uid, &uar), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);
	/* failures do not count */
	KUNIT_EXPECT_NE(test, sk_alloc_pd(test, uid + 1, NULL), PRM_STAT_OK);
	KUNIT_EXPECT_NE(test, sk_dealloc_pd(test, 0, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 4);
	/* the device's own objects (EQs) count as well */
	KUNIT_EXPECT_EQ(test, sim->live,
			((struct sk_ctx *)test->priv)->base_live + 4);

	KUNIT_EXPECT_EQ(test, sk_dealloc_uar(test, uid, uar), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, uid, td), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_dealloc_pd(test, uid, pd), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 1);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, uid), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_live(test), 0);
}

static void sk_uid_has_objects(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	u16 a = sk_new_uctx(test), b = sk_new_uctx(test);
	u32 td;

	/* its own context object does not count */
	KUNIT_EXPECT_FALSE(test, sim_uid_has_objects(sim, a));
	KUNIT_ASSERT_EQ(test, sk_alloc_td(test, a, &td), PRM_STAT_OK);
	KUNIT_EXPECT_TRUE(test, sim_uid_has_objects(sim, a));
	KUNIT_EXPECT_FALSE(test, sim_uid_has_objects(sim, b));
	KUNIT_EXPECT_EQ(test, sk_dealloc_td(test, a, td), PRM_STAT_OK);
	KUNIT_EXPECT_FALSE(test, sim_uid_has_objects(sim, a));
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, a), PRM_STAT_OK);
	KUNIT_EXPECT_EQ(test, sk_destroy_uctx(test, b), PRM_STAT_OK);
}

static void sk_type_names(struct kunit *test)
{
	int t, u;

	KUNIT_EXPECT_STREQ(test, sim_obj_type_name(SIM_OBJ_UCTX), "uctx");
	KUNIT_EXPECT_STREQ(test, sim_obj_type_name(SIM_OBJ_PD), "pd");
	KUNIT_EXPECT_STREQ(test, sim_obj_type_name(SIM_OBJ_UAR), "uar");
	KUNIT_EXPECT_STREQ(test, sim_obj_type_name(SIM_OBJ_TD), "td");
	KUNIT_EXPECT_STREQ(test, sim_obj_type_name(SIM_OBJ_NTYPES), "?");
	/* every kind has a name of its own (debugfs "objects" shows it) */
	for (t = 0; t < SIM_OBJ_NTYPES; t++) {
		const char *name = sim_obj_type_name(t);

		KUNIT_ASSERT_NOT_NULL_MSG(test, name, "type %d", t);
		KUNIT_EXPECT_STRNEQ(test, name, "?");
		for (u = 0; u < t; u++)
			KUNIT_EXPECT_STRNEQ(test, name, sim_obj_type_name(u));
	}
}

/* Widths of the mailbox fields that carry each kind's id. */
static const u8 sk_id_bits[SIM_OBJ_NTYPES] = {
	[SIM_OBJ_UCTX] = PRM_BIT_SZ(create_uctx_out, uid),
	[SIM_OBJ_PD] = PRM_BIT_SZ(alloc_pd_out, pd),
	[SIM_OBJ_UAR] = PRM_BIT_SZ(alloc_uar_out, uar),
	[SIM_OBJ_TD] = PRM_BIT_SZ(alloc_transport_domain_out,
				  transport_domain),
	[SIM_OBJ_Q_COUNTER] = PRM_BIT_SZ(alloc_q_counter_out, counter_set_id),
	[SIM_OBJ_FLOW_COUNTER] = PRM_BIT_SZ(alloc_flow_counter_out,
					    flow_counter_id),
	[SIM_OBJ_EQ] = PRM_BIT_SZ(create_eq_out, eq_number),
	[SIM_OBJ_UMEM] = PRM_BIT_SZ(create_umem_out, umem_id),
	[SIM_OBJ_MKEY] = PRM_BIT_SZ(create_mkey_out, mkey_index),
	[SIM_OBJ_GENERAL] = PRM_BIT_SZ(general_obj_out_cmd_hdr, obj_id),
	[SIM_OBJ_PSV] = PRM_BIT_SZ(create_psv_out, psv0_index),
	[SIM_OBJ_FLOW_TABLE] = PRM_BIT_SZ(create_flow_table_out, table_id),
	[SIM_OBJ_FLOW_GROUP] = PRM_BIT_SZ(create_flow_group_out, group_id),
	[SIM_OBJ_MODIFY_HDR] = PRM_BIT_SZ(alloc_modify_header_context_out,
					  modify_header_id),
	[SIM_OBJ_PKT_REFORMAT] = PRM_BIT_SZ(alloc_packet_reformat_context_out,
					    packet_reformat_id),
	[SIM_OBJ_CQ] = PRM_BIT_SZ(create_cq_out, cqn),
	[SIM_OBJ_RQ] = PRM_BIT_SZ(create_rq_out, rqn),
	[SIM_OBJ_SQ] = PRM_BIT_SZ(create_sq_out, sqn),
	[SIM_OBJ_RQT] = PRM_BIT_SZ(create_rqt_out, rqtn),
	[SIM_OBJ_TIR] = PRM_BIT_SZ(create_tir_out, tirn),
	[SIM_OBJ_TIS] = PRM_BIT_SZ(create_tis_out, tisn),
	[SIM_OBJ_QP] = PRM_BIT_SZ(create_qp_out, qpn),
};

/* No id the table hands out is truncated on its way to the driver. */
static void sk_ids_fit_fields(struct kunit *test)
{
	struct mlx5x_sim *sim = sk_sim(test);
	int t;

	for (t = 0; t < SIM_OBJ_NTYPES; t++) {
		u64 limit;

		if (!sk_id_bits[t]) {
			kunit_info(test, "no id field known for %s\n",
				   sim_obj_type_name(t));
			continue;
		}
		limit = BIT_ULL(sk_id_bits[t]) - 1;
		KUNIT_EXPECT_LE_MSG(test, (u64)sim->max_id[t], limit,
				    "%s ids up to %u in %u bits",
				    sim_obj_type_name(t), sim->max_id[t],
				    sk_id_bits[t]);
	}
}

static struct kunit_case sk_objs_cases[] = {
	KUNIT_CASE(sk_alloc_lookup_destroy),
	KUNIT_CASE(sk_ids_unique),
	KUNIT_CASE(sk_not_owner),
	KUNIT_CASE(sk_busy),
	KUNIT_CASE(sk_exhaustion),
	KUNIT_CASE(sk_exhaustion_empty),
	KUNIT_CASE(sk_live_count),
	KUNIT_CASE(sk_uid_has_objects),
	KUNIT_CASE(sk_type_names),
	KUNIT_CASE(sk_ids_fit_fields),
	{}
};

static struct kunit_suite sk_objs_suite = {
	.name = "mlx5x_sim_objs",
	.init = sk_init,
	.exit = sk_exit,
	.test_cases = sk_objs_cases,
};

kunit_test_suite(sk_objs_suite);
