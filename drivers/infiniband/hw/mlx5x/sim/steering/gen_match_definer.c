// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MATCH_DEFINER general objects: a format id and a 512-bit mask that say
 * which bits of a packet's fields a hash or match uses.  Steering names
 * a definer by id (create_flow_group_in.match_definer_id).
 *
 * The formats offered are the ones <linux/mlx5/mlx5_ifc.h> lays out
 * (match_definer_format_{0,22,23,29,30,31,32}); a mask may select only
 * bits of the fields its format defines, never its reserved ranges.
 */
#include <linux/string.h>
#include "../core/general.h"

#define SIM_DEFINER_RSVD	3

struct sim_definer_format {
	u16 id;
	struct {
		u16 off;
		u16 bits;
	} rsvd[SIM_DEFINER_RSVD];
};

#define SIM_RSVD(fmt, fld) {						\
	PRM_BIT_OFF(match_definer_format_##fmt, fld),			\
	PRM_BIT_SZ(match_definer_format_##fmt, fld) }

static const struct sim_definer_format sim_definer_formats[] = {
	{ 0, { SIM_RSVD(0, reserved_at_0), SIM_RSVD(0, reserved_at_180),
	       SIM_RSVD(0, reserved_at_1a4) } },
	{ 22, { SIM_RSVD(22, reserved_at_0), SIM_RSVD(22, reserved_at_160) } },
	{ 23, { SIM_RSVD(23, reserved_at_0), SIM_RSVD(23, reserved_at_160) } },
	{ 29, { SIM_RSVD(29, reserved_at_0), SIM_RSVD(29, reserved_at_1e0) } },
	{ 30, { SIM_RSVD(30, reserved_at_0) } },
	{ 31, { SIM_RSVD(31, reserved_at_0), SIM_RSVD(31, reserved_at_1e0) } },
	{ 32, { SIM_RSVD(32, reserved_at_0) } },
};

/* Each format lays out exactly the 512 bits of the mask. */
static_assert(PRM_BYTES(match_definer_format_0) == 64);
static_assert(PRM_BYTES(match_definer_format_22) == 64);
static_assert(PRM_BYTES(match_definer_format_23) == 64);
static_assert(PRM_BYTES(match_definer_format_29) == 64);
static_assert(PRM_BYTES(match_definer_format_30) == 64);
static_assert(PRM_BYTES(match_definer_format_31) == 64);
static_assert(PRM_BYTES(match_definer_format_32) == 64);
static_assert(sizeof_field(struct sim_match_definer, mask) == 64);

/**
 * sim_match_definer_caps() - the definer limits of the profile
 * @cap: the cmd_hca_cap page
 */
void sim_match_definer_caps(void *cap)
{
	size_t off = PRM_BIT_OFF(cmd_hca_cap, match_definer_format_supported);
	u64 formats = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_definer_formats); i++)
		formats |= BIT_ULL(sim_definer_formats[i].id);
	prm_set_bits(cap, off, 32, upper_32_bits(formats));
	prm_set_bits(cap, off + 32, 32, lower_32_bits(formats));
	PRM_SET(cmd_hca_cap, cap, max_num_match_definer,
		SIM_MAX_MATCH_DEFINERS);
}

static const struct sim_definer_format *sim_definer_format(u16 id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_definer_formats); i++)
		if (sim_definer_formats[i].id == id)
			return &sim_definer_formats[i];
	return NULL;
}

/* Any bit of [off, off + bits) set in the mask. */
static bool sim_mask_any(const u8 *mask, unsigned int off, unsigned int bits)
{
	unsigned int i;

	for (i = off; i < off + bits; i++)
		if (mask[i / 8] & (0x80 >> (i % 8)))
			return true;
	return false;
}

static u32 sim_definer_max(struct mlx5x_sim *sim)
{
	return SIM_CAP_GEN(sim, max_num_match_definer);
}

static u8 sim_definer_create(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			     void *priv)
{
	const void *def = PRM_ADDR(create_match_definer_in, ctx->in,
				   obj_context);
	const u8 *mask = PRM_ADDR(match_definer, def, match_mask);
	const struct sim_definer_format *fmt;
	struct sim_match_definer *md = priv;
	unsigned int i;

	fmt = sim_definer_format(PRM_GET(match_definer, def, format_id));
	if (!fmt)
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_CAP);
	/* a definer that selects nothing matches nothing */
	if (!memchr_inv(mask, 0, sizeof(md->mask)))
		return sim_fail(ctx, PRM_STAT_BAD_PARAM, SIM_SYND_BAD_FIELD);
	for (i = 0; i < SIM_DEFINER_RSVD; i++)
		if (fmt->rsvd[i].bits &&
		    sim_mask_any(mask, fmt->rsvd[i].off, fmt->rsvd[i].bits))
			return sim_fail(ctx, PRM_STAT_BAD_PARAM,
					SIM_SYND_BAD_FIELD);
	md->format_id = fmt->id;
	memcpy(md->mask, mask, sizeof(md->mask));
	return PRM_STAT_OK;
}

/* The query output: the header, then the definer as created. */
static u8 sim_definer_query(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
			    const void *priv)
{
	const struct sim_match_definer *md = priv;
	void *def = (u8 *)ctx->out + PRM_BYTES(general_obj_out_cmd_hdr);

	PRM_SET(match_definer, def, format_id, md->format_id);
	memcpy(PRM_ADDR(match_definer, def, match_mask), md->mask,
	       sizeof(md->mask));
	return PRM_STAT_OK;
}

/*
 * A definer's context up to the end of its 16-dword match mask: later
 * mlx5_ifc.h append other layouts after it, which the model neither reads
 * nor writes, so the mailbox lengths do not depend on the kernel header.
 */
#define SIM_DEFINER_BYTES	(PRM_BYTE_OFF(match_definer, match_mask) + 64)

const struct sim_gen_type sim_gen_match_definer = {
	.obj_type = MLX5_OBJ_TYPE_MATCH_DEFINER,
	.name = "match_definer",
	.create_inlen = PRM_BYTES(general_obj_in_cmd_hdr) + SIM_DEFINER_BYTES,
	.query_outlen = PRM_BYTES(general_obj_out_cmd_hdr) + SIM_DEFINER_BYTES,
	.priv_size = sizeof(struct sim_match_definer),
	.max_objs = sim_definer_max,
	.create = sim_definer_create,
	.query = sim_definer_query,
};
