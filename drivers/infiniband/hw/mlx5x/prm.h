/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Accessors for PRM command mailboxes.
 *
 * The layouts come from <linux/mlx5/mlx5_ifc.h>, where every field is an
 * array of u8 whose length is the field's width in bits, so offsetof() of a
 * field is its bit offset and sizeof() its width.  Mailboxes are big endian
 * and fields never straddle a 32-bit word, except 64-bit fields, which are
 * 64-bit aligned.
 *
 * This header is shared by the method layer and the firmware model; it
 * pulls in nothing from ib_core.
 */
#ifndef MLX5X_PRM_H
#define MLX5X_PRM_H

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <linux/mlx5/mlx5_ifc.h>
#include "compat.h"

#define PRM_BIT_OFF(typ, fld)	offsetof(struct mlx5_ifc_##typ##_bits, fld)
#define PRM_BIT_SZ(typ, fld)	sizeof_field(struct mlx5_ifc_##typ##_bits, fld)
#define PRM_BYTES(typ)		(sizeof(struct mlx5_ifc_##typ##_bits) / 8)
#define PRM_UN_BYTES(typ)	(sizeof(union mlx5_ifc_##typ##_bits) / 8)
#define PRM_BYTE_OFF(typ, fld)	(PRM_BIT_OFF(typ, fld) / 8)
#define PRM_ADDR(typ, p, fld)	((void *)((u8 *)(p) + PRM_BYTE_OFF(typ, fld)))

static inline u32 prm_get_bits(const void *p, size_t off, size_t sz)
{
	const __be32 *word = (const __be32 *)p + off / 32;
	unsigned int shift = 32 - sz - off % 32;
	u32 mask = sz == 32 ? ~0U : (1U << sz) - 1;

	return (be32_to_cpu(*word) >> shift) & mask;
}

static inline void prm_set_bits(void *p, size_t off, size_t sz, u32 val)
{
	__be32 *word = (__be32 *)p + off / 32;
	unsigned int shift = 32 - sz - off % 32;
	u32 mask = (sz == 32 ? ~0U : (1U << sz) - 1) << shift;
	u32 old = be32_to_cpu(*word);

	*word = cpu_to_be32((old & ~mask) | ((val << shift) & mask));
}

#define PRM_CHECK_NARROW(typ, fld)					\
	BUILD_BUG_ON(PRM_BIT_SZ(typ, fld) > 32 ||			\
		     PRM_BIT_OFF(typ, fld) % 32 + PRM_BIT_SZ(typ, fld) > 32)

#define PRM_GET(typ, p, fld) ({						\
	PRM_CHECK_NARROW(typ, fld);					\
	prm_get_bits(p, PRM_BIT_OFF(typ, fld), PRM_BIT_SZ(typ, fld));	\
})

#define PRM_SET(typ, p, fld, v) do {					\
	PRM_CHECK_NARROW(typ, fld);					\
	prm_set_bits(p, PRM_BIT_OFF(typ, fld), PRM_BIT_SZ(typ, fld), (v)); \
} while (0)

/*
 * The ODP capability page's per-transport caps (struct
 * mlx5_ifc_odp_per_transport_service_cap_bits), by their bit offset in
 * the page: 6.12's header nests them in transport_page_fault_scheme_cap,
 * 6.1's does not, at the same bits.
 */
enum prm_odp_transport {
	PRM_ODP_RC	= 0x80,
	PRM_ODP_UC	= 0xa0,
	PRM_ODP_UD	= 0xc0,
	PRM_ODP_XRC	= 0xe0,
	PRM_ODP_DC	= 0x100,
};

#define PRM_ODP_CAP_OFF(tr, fld)					\
	((tr) + PRM_BIT_OFF(odp_per_transport_service_cap, fld))

#define PRM_GET_ODP(p, tr, fld)						\
	prm_get_bits(p, PRM_ODP_CAP_OFF(tr, fld), 1)

#define PRM_SET_ODP(p, tr, fld, v)					\
	prm_set_bits(p, PRM_ODP_CAP_OFF(tr, fld), 1, (v))

/*
 * Fields of the QP modify commands that 6.1's mlx5_ifc.h still calls
 * reserved (newer headers name them): the qpc_ext bit; after the QPC,
 * the 64-bit opt_param_mask_95_32, whose bit 2 (of its low word) names
 * the primary path's UDP source port (mlx5dv_modify_qp_udp_sport(3)).
 */
#define PRM_QP_MOD_QPC_EXT_OFF		0x40
#define PRM_QP_MOD_OPT_95_32_OFF	0x840
#define PRM_QPC_OPT_32_UDP_SPORT	BIT(2)

#define PRM_CHECK_WIDE(typ, fld)					\
	BUILD_BUG_ON(PRM_BIT_SZ(typ, fld) != 64 ||			\
		     PRM_BIT_OFF(typ, fld) % 64)

#define PRM_GET64(typ, p, fld) ({					\
	PRM_CHECK_WIDE(typ, fld);					\
	be64_to_cpu(*(const __be64 *)PRM_ADDR(typ, p, fld));		\
})

#define PRM_SET64(typ, p, fld, v) do {					\
	PRM_CHECK_WIDE(typ, fld);					\
	*(__be64 *)PRM_ADDR(typ, p, fld) = cpu_to_be64(v);		\
} while (0)

/*
 * Every command starts with the same words: opcode (bits 0-15) and uid
 * (16-31), then op_mod in bits 48-63; every reply with status (bits 0-7)
 * and syndrome (32-63).
 */
#define PRM_CMD_HDR_BYTES	8
#define PRM_OUT_HDR_BYTES	8

static inline u16 prm_in_opcode(const void *in)
{
	return prm_get_bits(in, 0, 16);
}

static inline u16 prm_in_uid(const void *in)
{
	return prm_get_bits(in, 16, 16);
}

static inline void prm_out_set_status(void *out, u8 status, u32 syndrome)
{
	prm_set_bits(out, 0, 8, status);
	prm_set_bits(out, 32, 32, syndrome);
}

static inline void prm_in_set_uid(void *in, u16 uid)
{
	prm_set_bits(in, 16, 16, uid);
}

static inline u16 prm_in_op_mod(const void *in)
{
	return prm_get_bits(in, 48, 16);
}

static inline u8 prm_out_status(const void *out)
{
	return prm_get_bits(out, 0, 8);
}

static inline u32 prm_out_syndrome(const void *out)
{
	return prm_get_bits(out, 32, 32);
}

/* Command completion status, as firmware reports it. */
enum prm_status {
	PRM_STAT_OK			= 0x00,
	PRM_STAT_INTERNAL_ERR		= 0x01,
	PRM_STAT_BAD_OP			= 0x02,
	PRM_STAT_BAD_PARAM		= 0x03,
	PRM_STAT_BAD_SYS_STATE		= 0x04,
	PRM_STAT_BAD_RESOURCE		= 0x05,
	PRM_STAT_RESOURCE_BUSY		= 0x06,
	PRM_STAT_EXCEED_LIM		= 0x08,
	PRM_STAT_BAD_RES_STATE		= 0x09,
	PRM_STAT_BAD_INDEX		= 0x0a,
	PRM_STAT_NO_RESOURCES		= 0x0f,
	PRM_STAT_BAD_QP_STATE		= 0x10,
	PRM_STAT_BAD_INPUT_LEN		= 0x50,
	PRM_STAT_BAD_OUTPUT_LEN		= 0x51,
};

/* op_mod of QUERY_HCA_CAP: capability type in bits 15:1, bit 0 current. */
#define PRM_CAP_OPMOD(type, cur)	(((type) << 1) | ((cur) ? 1 : 0))
#define PRM_CAP_TYPE_MAX		0x40

/*
 * ACCESS_REG: op_mod 1 reads, 0 writes; the registers the model has
 * (their ids are mlx5_core's, whose header the model may not include).
 */
#define PRM_REG_READ			1
#define PRM_REG_PPCNT			0x5008
#define PRM_REG_PCAM			0x507f
#define PRM_PPCNT_ETH_EXTENDED		0x5	/* ppcnt_reg.grp */
/* pcam_reg: the port counts RoCE packets with a bad ICRC */
#define PRM_PCAM_ICRC_CNT \
	feature_cap_mask.enhanced_features.rx_icrc_encapsulated_counter
/* a counter of ppcnt_reg's Ethernet extended group */
#define PRM_PPCNT_EXT(fld) \
	counter_set.eth_extended_cntrs_grp_data_layout.fld

#endif /* MLX5X_PRM_H */
