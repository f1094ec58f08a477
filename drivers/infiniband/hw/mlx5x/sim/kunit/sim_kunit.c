// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the mlx5x firmware model: the helpers every suite uses.
 * The module links the model's objects with the tests and nothing of
 * ib_core; its suites run when it is loaded.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "sim_kunit.h"

const struct mlx5x_sim_params sk_params = {
	.node_guid = SK_GUID,
	.mac = { 0x0e, 0x42, 0xa1, 0x0b, 0x0c, 0x0d },
	.mtu = SK_MTU,
};

int sk_init(struct kunit *test)
{
	struct sk_ctx *ctx;
	struct mlx5x_sim *sim;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	sim = mlx5x_sim_create(&sk_params);
	if (IS_ERR(sim))
		return PTR_ERR(sim);
	ctx->sim = sim;
	ctx->base_live = mlx5x_sim_live_objects(sim);
	test->priv = ctx;
	return 0;
}

void sk_exit(struct kunit *test)
{
	struct sk_ctx *ctx = test->priv;

	if (ctx && ctx->sim)
		mlx5x_sim_destroy(ctx->sim);
}

void *sk_mbox(struct kunit *test, size_t len)
{
	void *p = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	return p;
}

/*
 * Run one mailbox; a well-formed mailbox is always delivered, so anything
 * but 0 from mlx5x_sim_exec() ends the case.
 */
u8 sk_exec(struct kunit *test, const void *in, size_t inlen, void *out,
	   size_t outlen)
{
	struct sk_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, mlx5x_sim_exec(ctx->sim, in, inlen, out, outlen),
			0);
	ctx->syndrome = prm_out_syndrome(out);
	return prm_out_status(out);
}

u8 sk_create_uctx(struct kunit *test, u32 cap, u16 *uid)
{
	void *in = SK_MBOX(test, create_uctx_in);
	void *out = SK_MBOX(test, create_uctx_out);
	u8 status;

	PRM_SET(create_uctx_in, in, opcode, MLX5_CMD_OP_CREATE_UCTX);
	PRM_SET(create_uctx_in, in, uctx.cap, cap);
	status = sk_exec(test, in, PRM_BYTES(create_uctx_in), out,
			 PRM_BYTES(create_uctx_out));
	if (uid)
		*uid = PRM_GET(create_uctx_out, out, uid);
	return status;
}

u8 sk_destroy_uctx(struct kunit *test, u16 uid)
{
	void *in = SK_MBOX(test, destroy_uctx_in);
	void *out = SK_MBOX(test, destroy_uctx_out);

	PRM_SET(destroy_uctx_in, in, opcode, MLX5_CMD_OP_DESTROY_UCTX);
	PRM_SET(destroy_uctx_in, in, uid, uid);
	return sk_exec(test, in, PRM_BYTES(destroy_uctx_in), out,
		       PRM_BYTES(destroy_uctx_out));
}

u8 sk_alloc_pd(struct kunit *test, u16 uid, u32 *pdn)
{
	void *in = SK_MBOX(test, alloc_pd_in);
	void *out = SK_MBOX(test, alloc_pd_out);
	u8 status;

	PRM_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	PRM_SET(alloc_pd_in, in, uid, uid);
	status = sk_exec(test, in, PRM_BYTES(alloc_pd_in), out,
			 PRM_BYTES(alloc_pd_out));
	if (pdn)
		*pdn = PRM_GET(alloc_pd_out, out, pd);
	return status;
}

u8 sk_dealloc_pd(struct kunit *test, u16 uid, u32 pdn)
{
	void *in = SK_MBOX(test, dealloc_pd_in);
	void *out = SK_MBOX(test, dealloc_pd_out);

	PRM_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	PRM_SET(dealloc_pd_in, in, uid, uid);
	PRM_SET(dealloc_pd_in, in, pd, pdn);
	return sk_exec(test, in, PRM_BYTES(dealloc_pd_in), out,
		       PRM_BYTES(dealloc_pd_out));
}

u8 sk_alloc_td(struct kunit *test, u16 uid, u32 *tdn)
{
	void *in = SK_MBOX(test, alloc_transport_domain_in);
	void *out = SK_MBOX(test, alloc_transport_domain_out);
	u8 status;

	PRM_SET(alloc_transport_domain_in, in, opcode,
		MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	PRM_SET(alloc_transport_domain_in, in, uid, uid);
	status = sk_exec(test, in, PRM_BYTES(alloc_transport_domain_in), out,
			 PRM_BYTES(alloc_transport_domain_out));
	if (tdn)
		*tdn = PRM_GET(alloc_transport_domain_out, out,
			       transport_domain);
	return status;
}

u8 sk_dealloc_td(struct kunit *test, u16 uid, u32 tdn)
{
	void *in = SK_MBOX(test, dealloc_transport_domain_in);
	void *out = SK_MBOX(test, dealloc_transport_domain_out);

	PRM_SET(dealloc_transport_domain_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN);
	PRM_SET(dealloc_transport_domain_in, in, uid, uid);
	PRM_SET(dealloc_transport_domain_in, in, transport_domain, tdn);
	return sk_exec(test, in, PRM_BYTES(dealloc_transport_domain_in), out,
		       PRM_BYTES(dealloc_transport_domain_out));
}

u8 sk_alloc_uar(struct kunit *test, u16 uid, u32 *index)
{
	void *in = SK_MBOX(test, alloc_uar_in);
	void *out = SK_MBOX(test, alloc_uar_out);
	u8 status;

	PRM_SET(alloc_uar_in, in, opcode, MLX5_CMD_OP_ALLOC_UAR);
	PRM_SET(alloc_uar_in, in, uid, uid);
	status = sk_exec(test, in, PRM_BYTES(alloc_uar_in), out,
			 PRM_BYTES(alloc_uar_out));
	if (index)
		*index = PRM_GET(alloc_uar_out, out, uar);
	return status;
}

u8 sk_dealloc_uar(struct kunit *test, u16 uid, u32 index)
{
	void *in = SK_MBOX(test, dealloc_uar_in);
	void *out = SK_MBOX(test, dealloc_uar_out);

	PRM_SET(dealloc_uar_in, in, opcode, MLX5_CMD_OP_DEALLOC_UAR);
	PRM_SET(dealloc_uar_in, in, uid, uid);
	PRM_SET(dealloc_uar_in, in, uar, index);
	return sk_exec(test, in, PRM_BYTES(dealloc_uar_in), out,
		       PRM_BYTES(dealloc_uar_out));
}

/* Commands whose layout has no uid field carry it in the header. */
u8 sk_alloc_q_counter(struct kunit *test, u16 uid, u32 *id)
{
	void *in = SK_MBOX(test, alloc_q_counter_in);
	void *out = SK_MBOX(test, alloc_q_counter_out);
	u8 status;

	PRM_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	PRM_SET(alloc_q_counter_in, in, uid, uid);
	status = sk_exec(test, in, PRM_BYTES(alloc_q_counter_in), out,
			 PRM_BYTES(alloc_q_counter_out));
	if (id)
		*id = PRM_GET(alloc_q_counter_out, out, counter_set_id);
	return status;
}

u8 sk_dealloc_q_counter(struct kunit *test, u16 uid, u32 id)
{
	void *in = SK_MBOX(test, dealloc_q_counter_in);
	void *out = SK_MBOX(test, dealloc_q_counter_out);

	PRM_SET(dealloc_q_counter_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_Q_COUNTER);
	prm_in_set_uid(in, uid);
	PRM_SET(dealloc_q_counter_in, in, counter_set_id, id);
	return sk_exec(test, in, PRM_BYTES(dealloc_q_counter_in), out,
		       PRM_BYTES(dealloc_q_counter_out));
}

u8 sk_alloc_flow_counter(struct kunit *test, u16 uid, u32 *id)
{
	void *in = SK_MBOX(test, alloc_flow_counter_in);
	void *out = SK_MBOX(test, alloc_flow_counter_out);
	u8 status;

	PRM_SET(alloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_ALLOC_FLOW_COUNTER);
	prm_in_set_uid(in, uid);
	status = sk_exec(test, in, PRM_BYTES(alloc_flow_counter_in), out,
			 PRM_BYTES(alloc_flow_counter_out));
	if (id)
		*id = PRM_GET(alloc_flow_counter_out, out, flow_counter_id);
	return status;
}

u8 sk_dealloc_flow_counter(struct kunit *test, u16 uid, u32 id)
{
	void *in = SK_MBOX(test, dealloc_flow_counter_in);
	void *out = SK_MBOX(test, dealloc_flow_counter_out);

	PRM_SET(dealloc_flow_counter_in, in, opcode,
		MLX5_CMD_OP_DEALLOC_FLOW_COUNTER);
	prm_in_set_uid(in, uid);
	PRM_SET(dealloc_flow_counter_in, in, flow_counter_id, id);
	return sk_exec(test, in, PRM_BYTES(dealloc_flow_counter_in), out,
		       PRM_BYTES(dealloc_flow_counter_out));
}

/*
 * CREATE_UMEM with room for @room MTT entries in the mailbox, @nmtt in its
 * num_of_mtt field, the first @room of @mtt (or zeros) as its entries.
 */
u8 sk_create_umem_off(struct kunit *test, u16 uid, u64 nmtt,
		      unsigned int room, u32 log_page, u32 page_offset,
		      const u64 *mtt, u32 *id)
{
	size_t inlen = PRM_BYTES(create_umem_in) + room * PRM_BYTES(mtt);
	void *in = sk_mbox(test, inlen);
	void *out = SK_MBOX(test, create_umem_out);
	void *um = PRM_ADDR(create_umem_in, in, umem);
	__be64 *ent = PRM_ADDR(umem, um, mtt);
	unsigned int i;
	u8 status;

	PRM_SET(create_umem_in, in, opcode, MLX5_CMD_OP_CREATE_UMEM);
	PRM_SET(create_umem_in, in, uid, uid);
	PRM_SET(umem, um, log_page_size, log_page);
	PRM_SET(umem, um, page_offset, page_offset);
	PRM_SET64(umem, um, num_of_mtt, nmtt);
	for (i = 0; mtt && i < room; i++)
		ent[i] = cpu_to_be64(mtt[i]);
	status = sk_exec(test, in, inlen, out, PRM_BYTES(create_umem_out));
	if (id)
		*id = PRM_GET(create_umem_out, out, umem_id);
	return status;
}

u8 sk_create_umem(struct kunit *test, u16 uid, u64 nmtt, unsigned int room,
		  u32 log_page, const u64 *mtt, u32 *id)
{
	return sk_create_umem_off(test, uid, nmtt, room, log_page, 0, mtt, id);
}

u8 sk_destroy_umem(struct kunit *test, u16 uid, u32 id)
{
	void *in = SK_MBOX(test, destroy_umem_in);
	void *out = SK_MBOX(test, destroy_umem_out);

	PRM_SET(destroy_umem_in, in, opcode, MLX5_CMD_OP_DESTROY_UMEM);
	PRM_SET(destroy_umem_in, in, uid, uid);
	PRM_SET(destroy_umem_in, in, umem_id, id);
	return sk_exec(test, in, PRM_BYTES(destroy_umem_in), out,
		       PRM_BYTES(destroy_umem_out));
}

/* *cap points at the capability page inside the output mailbox. */
u8 sk_query_cap(struct kunit *test, u16 op_mod, bool other_function,
		void **cap)
{
	void *in = SK_MBOX(test, query_hca_cap_in);
	void *out = SK_MBOX(test, query_hca_cap_out);

	PRM_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	PRM_SET(query_hca_cap_in, in, op_mod, op_mod);
	PRM_SET(query_hca_cap_in, in, other_function, other_function);
	if (cap)
		*cap = PRM_ADDR(query_hca_cap_out, out, capability);
	return sk_exec(test, in, PRM_BYTES(query_hca_cap_in), out,
		       PRM_BYTES(query_hca_cap_out));
}

u16 sk_new_uctx(struct kunit *test)
{
	u16 uid = 0;

	KUNIT_ASSERT_EQ(test, sk_create_uctx(test, 0, &uid), PRM_STAT_OK);
	KUNIT_ASSERT_NE(test, uid, 0);
	return uid;
}

void sk_set_users(struct kunit *test, enum sim_obj_type type, u32 id,
		  unsigned int users)
{
	struct mlx5x_sim *sim = sk_sim(test);
	struct sim_obj *obj;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[type], id);
	if (obj)
		obj->users = users;
	mutex_unlock(&sim->lock);
	KUNIT_ASSERT_NOT_NULL(test, obj);
}

MODULE_DESCRIPTION("KUnit tests of the mlx5x firmware model");
MODULE_LICENSE("Dual BSD/GPL");
