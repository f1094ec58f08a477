/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * General objects of the firmware model: CREATE/QUERY/MODIFY/DESTROY_
 * GENERAL_OBJECT dispatch on obj_type through a table of the types the
 * model implements (cmd_general.c); each type lives in a gen_*.c file of
 * the part of the model it serves (mem/, steering/).
 */
#ifndef MLX5X_SIM_GENERAL_H
#define MLX5X_SIM_GENERAL_H

#include "../sim_priv.h"

struct sim_gen_type;

/**
 * struct sim_general - one general object
 * @obj: its table entry (SIM_OBJ_GENERAL); ids are unique over all types
 * @type: what it is
 * @priv: the type's own state, @type->priv_size bytes
 */
struct sim_general {
	struct sim_obj obj;
	const struct sim_gen_type *type;
	void *priv;
};

/**
 * struct sim_gen_type - how the model runs one obj_type
 * @obj_type: MLX5_OBJ_TYPE_* / MLX5_GENERAL_OBJECT_TYPES_*
 * @name: for logs
 * @create_inlen: smallest create mailbox, header and object context
 * @query_outlen: smallest query output, header and object context
 * @priv_size: bytes of state kept per object
 * @bulk: one create makes 1 << log_obj_range of them (@create checks
 *	  log_obj_range); else log_obj_range must be 0
 * @max_objs: how many may exist at once (the profile's limit), or NULL
 * @weight: how many of that limit one object counts for; NULL: 1
 * @obj_id: the number @create chose for the object; NULL: the lowest free
 * @create: checks the create mailbox and fills @priv; returns a PRM
 *	    status.  It may take references, dropped by @release.
 * @query: writes the object's context into the query output
 * @modify: applies a modify mailbox; NULL: the type cannot be modified
 * @release: drops what @create took; NULL: nothing
 */
struct sim_gen_type {
	u16 obj_type;
	const char *name;
	u16 create_inlen;
	u16 query_outlen;
	size_t priv_size;
	bool bulk;
	u32 (*max_objs)(struct mlx5x_sim *sim);
	u32 (*weight)(const void *priv);
	u32 (*obj_id)(const void *priv);
	u8 (*create)(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		     void *priv);
	u8 (*query)(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		    const void *priv);
	u8 (*modify)(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		     void *priv);
	void (*release)(void *priv);
};

extern const struct sim_gen_type sim_gen_match_definer;
extern const struct sim_gen_type sim_gen_flow_meter_aso;
extern const struct sim_gen_type sim_gen_sw_icm;
extern const struct sim_gen_type sim_gen_dek;
extern const struct sim_gen_type sim_gen_crypto_login;
extern const struct sim_gen_type sim_gen_av_qp_mapping;
extern const struct sim_gen_type sim_gen_reserved_qpn;

/* queues/gen_av_qp_mapping.c: mlx5dv_map_ah_to_qp()'s objects */
#define SIM_OBJ_TYPE_AV_QP_MAPPING	0x003a

/* queues/gen_reserved_qpn.c: mlx5dv_reserved_qpn_alloc()'s ranges */
#define SIM_OBJ_TYPE_RESERVED_QPN	0x002c

void sim_reserved_qpn_caps(void *cap2);

void sim_general_release(struct sim_obj *obj);
void sim_general_caps(void *cap, void *cap2, void *qos);
u8 sim_general_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		   u16 obj_type, u32 id, struct sim_general **genp);

/* steering/gen_match_definer.c: what steering reads of a definer */
struct sim_match_definer {
	u16 format_id;
	u8 mask[PRM_BIT_SZ(match_definer, match_mask) / 8];
};

#define SIM_MAX_MATCH_DEFINERS	64

void sim_match_definer_caps(void *cap);

/* steering/gen_flow_meter_aso.c */
#define SIM_METER_ASO_GRANULARITY	0	/* log2, per object */
#define SIM_METER_ASO_MAX_ALLOC		8	/* log2, per object */
#define SIM_METER_ASO_MAX		16	/* log2, all together */

void sim_flow_meter_aso_caps(void *qos);

#endif /* MLX5X_SIM_GENERAL_H */
