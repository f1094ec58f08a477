/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Internals of the firmware model, shared by its files only.  The model
 * includes no header of <rdma/> and none of <linux/mlx5/> but
 * mlx5_ifc*.h; the build checks (boundary.mk).
 */
#ifndef MLX5X_SIM_PRIV_H
#define MLX5X_SIM_PRIV_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include "../prm.h"
#include "sim.h"

enum sim_obj_type {
	SIM_OBJ_UCTX,
	SIM_OBJ_PD,
	SIM_OBJ_UAR,
	SIM_OBJ_TD,
	SIM_OBJ_Q_COUNTER,
	SIM_OBJ_FLOW_COUNTER,
	SIM_OBJ_EQ,
	SIM_OBJ_UMEM,
	/* steering */
	SIM_OBJ_FLOW_TABLE,
	SIM_OBJ_FLOW_GROUP,
	SIM_OBJ_FTE,
	SIM_OBJ_MODIFY_HDR,
	SIM_OBJ_PKT_REFORMAT,
	/* memory keys */
	SIM_OBJ_MKEY,
	/* queues and transport */
	SIM_OBJ_CQ,
	SIM_OBJ_RQ,
	SIM_OBJ_SQ,
	SIM_OBJ_RQT,
	SIM_OBJ_TIR,
	SIM_OBJ_TIS,
	SIM_OBJ_QP,
	SIM_OBJ_RMP,		/* an SRQ: queues/cmd_srq.c */
	SIM_OBJ_XRCD,		/* queues/cmd_xrc.c */
	SIM_OBJ_XRC_SRQ,	/* an XRC SRQ: queues/cmd_xrc.c */
	SIM_OBJ_DCT,		/* a DC target: queues/cmd_dct.c */
	/* general objects (CREATE_GENERAL_OBJECT) */
	SIM_OBJ_GENERAL,
	/* signature (mem/cmd_psv.c) */
	SIM_OBJ_PSV,
	/* device memory */
	SIM_OBJ_MEMIC,
	SIM_OBJ_NTYPES,
};

/* XRC SRQs are numbered from here: no RMP has such a number. */
#define SIM_XRC_SRQN_BASE	BIT(23)
/* DCTs are numbered from here: no QP has such a number. */
#define SIM_DCTN_BASE		BIT(23)
/*
 * Reserved QPN ranges (queues/gen_reserved_qpn.c) lie from here to
 * SIM_DCTN_BASE: no QP or DCT has such a number.  A range's general
 * object is numbered by its first QPN, and the other general objects
 * below: ids stay unique over all general objects.
 */
#define SIM_RSVD_QPN_BASE	BIT(22)

/**
 * struct sim_obj - one firmware object
 * @type: its kind
 * @id: its number, unique within the kind (pdn, uar index, uid, ...)
 * @uid: the user context that owns it; 0 is the kernel
 * @users: objects that reference this one; it cannot be destroyed while
 *	   nonzero.  Take and drop with sim_obj_ref() and sim_obj_put().
 */
struct sim_obj {
	enum sim_obj_type type;
	u32 id;
	u16 uid;
	unsigned int users;
};

/* A user context: the uid, and the capabilities it was created with. */
struct sim_uctx {
	struct sim_obj obj;
	u32 cap;		/* MLX5_UCTX_CAP_* */
};

struct sim_uar {
	struct sim_obj obj;
	struct page *page;
};

struct sim_fc_stat {
	u64 packets;
	u64 octets;
};

/*
 * A flow counter, or a bulk of them: ids obj.id .. obj.id + count - 1,
 * the first holding the object, the others reserved in @ids.
 */
struct sim_flow_counter {
	struct sim_obj obj;
	u32 count;
	struct xarray *ids;
	struct sim_fc_stat *stat;
};

/*
 * The statistics a Q counter set keeps (query_q_counter_out), each
 * counted by the data path for the QPs and RQs whose context names the
 * set (qpc.counter_set_id, rqc.counter_set_id): dp/dp_qcount.c.
 */
enum sim_qc_stat {
	SIM_QC_RX_WRITE,
	SIM_QC_RX_READ,
	SIM_QC_RX_ATOMIC,
	SIM_QC_OUT_OF_BUFFER,
	SIM_QC_OUT_OF_SEQUENCE,
	SIM_QC_DUPLICATE_REQUEST,
	SIM_QC_RNR_NAK_RETRY_ERR,
	SIM_QC_PACKET_SEQ_ERR,
	SIM_QC_LOCAL_ACK_TIMEOUT_ERR,
	SIM_QC_RESP_LOCAL_LENGTH_ERROR,
	SIM_QC_RESP_CQE_ERROR,
	SIM_QC_REQ_CQE_ERROR,
	SIM_QC_REQ_REMOTE_INVALID_REQUEST,
	SIM_QC_REQ_REMOTE_ACCESS_ERRORS,
	SIM_QC_RESP_REMOTE_ACCESS_ERRORS,
	SIM_QC_RESP_CQE_FLUSH_ERROR,
	SIM_QC_REQ_CQE_FLUSH_ERROR,
	SIM_QC_NUM
};

/* A Q counter set: what its QPs and RQs counted since it was cleared. */
struct sim_q_counter {
	struct sim_obj obj;
	u32 stat[SIM_QC_NUM];
};

void sim_qc_count(struct mlx5x_sim *sim, u32 set, enum sim_qc_stat stat);

/* An MTT entry's access bits (struct mlx5_ifc_mtt_bits: rd_en, wr_en). */
#define SIM_MTT_RD		BIT_ULL(0)
#define SIM_MTT_WR		BIT_ULL(1)

/*
 * A umem: bus addresses of its pages, 1 << log_page bytes each.
 * @ro_pages counts the entries without SIM_MTT_WR: the device never
 * writes those (sim_umem_io()), and objects it must write are refused
 * over them (sim_umem_writable()).
 */
struct sim_umem {
	struct sim_obj obj;
	u64 *mtt;		/* address | read (bit 0) | write (bit 1) */
	u64 nmtt;
	u64 ro_pages;
	u32 log_page;
	u32 page_offset;
	struct mlx5x_sim *odp;	/* on-demand paging (mem/odp.c), or NULL */
	bool odp_wr;		/* its pages may be given writable */
	bool sparse;		/* implicit ODP: @mtt unused, @blocks */
	struct xarray blocks;	/* SIM_ODP_BLOCK entries each, by index */
};

/*
 * An implicit ODP umem (mem/odp_implicit.c) spans the whole user address
 * space; its entries live in blocks of this many, made and freed by the
 * driver as it takes up and drops each span of them.
 */
#define SIM_ODP_BLOCK_SHIFT	9
#define SIM_ODP_BLOCK		BIT_ULL(SIM_ODP_BLOCK_SHIFT)

/* mem/odp.c */
struct sim_umem *sim_odp_umem(struct mlx5x_sim *sim, u32 umem_id);
int sim_odp_claim(struct mlx5x_sim *sim, u32 umem_id,
		  struct sim_umem **umemp);
/* mem/odp_implicit.c */
u64 *sim_odp_sparse_ent(struct sim_umem *umem, u64 i);
int sim_odp_sparse_map(struct sim_umem *umem, u64 first, u64 n,
		       const u64 *ents);
void sim_odp_sparse_zap(struct sim_umem *umem, u64 first, u64 n);
void sim_odp_sparse_release(struct sim_umem *umem);

/*
 * Entry @i of @umem, @i below umem->nmtt; an ODP umem's only under the
 * model's ODP lock.  An implicit umem's entry of no block is absent: 0.
 */
static inline u64 sim_umem_mtt(struct sim_umem *umem, u64 i)
{
	const u64 *ent;

	if (likely(!umem->sparse))
		return umem->mtt[i];
	ent = sim_odp_sparse_ent(umem, i);
	return ent ? *ent : 0;
}

/*
 * The page fault the data path met (mem/odp.c): armed while an RC WQE
 * executes, set by the first access to an absent page of an ODP umem.
 */
struct sim_odp_fault {
	bool armed, pending;
	bool write;
	u32 umem_id;
	u64 off, len;	/* from the start of its first page */
};

/**
 * struct sim_type_info - what the object table knows of a kind
 * @name: for debugfs and logs
 * @min_id: lowest id handed out
 * @size: of the structure that embeds struct sim_obj
 * @release: frees what the object holds and drops the references it took
 *	     (sim_obj_put()); called once, when it is destroyed
 * @shared: objects of this kind owned by the kernel (uid 0) may be
 *	    referenced by any context, as firmware lets a user CQ use the
 *	    kernel's EQ
 */
struct sim_type_info {
	const char *name;
	u32 min_id;
	size_t size;
	void (*release)(struct sim_obj *obj);
	bool shared;
};

/* Syndromes: each names the check that refused the command. */
enum sim_syndrome {
	SIM_SYND_INJECTED	= 0x0badf00d,
	SIM_SYND_BAD_OPCODE	= 0x53000001,
	SIM_SYND_BAD_INLEN	= 0x53000002,
	SIM_SYND_BAD_OUTLEN	= 0x53000003,
	SIM_SYND_BAD_OPMOD	= 0x53000004,
	SIM_SYND_BAD_UID	= 0x53000005,
	SIM_SYND_NO_OBJECT	= 0x53000006,
	SIM_SYND_NOT_OWNER	= 0x53000007,
	SIM_SYND_IN_USE		= 0x53000008,
	SIM_SYND_EXHAUSTED	= 0x53000009,
	SIM_SYND_BAD_CAP	= 0x5300000a,
	SIM_SYND_UID_BUSY	= 0x5300000b,
	SIM_SYND_NO_MEM		= 0x5300000c,
	SIM_SYND_BAD_FIELD	= 0x5300000d,
	SIM_SYND_BAD_STATE	= 0x5300000e,
	SIM_SYND_NOT_UMEM	= 0x5300000f,
	SIM_SYND_DUP_MATCH	= 0x53000010,	/* an entry matches the same */
	SIM_SYND_UMEM_RO	= 0x53000011,	/* device writes, umem read-only */
	SIM_SYND_MEMIC_RANGE	= 0x53000100,	/* not MEMIC / no such alloc */
	SIM_SYND_ICM_RANGE	= 0x53000101,	/* outside every ICM region */
	SIM_SYND_ICM_OVERLAP	= 0x53000102,	/* another SW_ICM holds it */
	SIM_SYND_ICM_PRIV	= 0x53000103,	/* uctx lacks INTERNAL_DEV_RES */
	SIM_SYND_RAW_TX_PRIV	= 0x53000104,	/* uctx lacks RAW_TX */
	SIM_SYND_NO_LOGIN	= 0x53000800,	/* wrapped DEK, no crypto login */
	SIM_SYND_MKEY_FREE	= 0x53000801,	/* access through a free mkey */
	SIM_SYND_MKEY_ACCESS	= 0x53000802,	/* the mkey lacks the right */
	SIM_SYND_MKEY_RANGE	= 0x53000803,	/* outside the mkey's range */
	SIM_SYND_MKEY_PD	= 0x53000804,	/* not the accessor's PD */
	SIM_SYND_CRYPTO_UNCONF	= 0x53000805,	/* crypto mkey without BSF */
};

struct sim_flow_table;
struct sim_dp;

#define SIM_COMP_VECTORS	1

/* The port's RoCE address table (core/cmd_roce.c): the caps' size. */
#define SIM_ROCE_GIDS		256
#define SIM_GID_BYTES		16
/* roce_addr_layout: roce_version, roce_l3_type */
#define SIM_ROCE_V1		0
#define SIM_ROCE_V2		2
#define SIM_ROCE_L3_IPV4	0
#define SIM_ROCE_L3_IPV6	1

/**
 * struct sim_roce_gid - one entry of the RoCE address table
 * @gid: the address, as a GID (an IPv4 one mapped into IPv6)
 * @version: SIM_ROCE_V1 or SIM_ROCE_V2
 * @l3_type: SIM_ROCE_L3_IPV4 or SIM_ROCE_L3_IPV6
 * @vlan_valid: the address is on a VLAN of the port's netdev: its
 *		packets carry an 802.1Q tag of @vlan_id, and only frames
 *		with that tag reach it
 * @vlan_id: the VLAN's ID (12 bits)
 * @valid: @gid is not zero: the entry holds an address
 */
struct sim_roce_gid {
	u8 gid[SIM_GID_BYTES];
	u8 version;
	u8 l3_type;
	bool vlan_valid;
	u16 vlan_id;
	bool valid;
};

struct mlx5x_sim {
	struct mutex lock;	/* serialises command execution */
	struct mlx5x_sim_params params;
	struct xarray objs[SIM_OBJ_NTYPES];
	u32 max_id[SIM_OBJ_NTYPES];
	unsigned int live;
	void *caps[PRM_CAP_TYPE_MAX];	/* current values; NULL: not offered */
	u32 comp_eqn[SIM_COMP_VECTORS];
	/* fault injection */
	unsigned int fail_next;
	unsigned int fail_nth;	/* the fail_nth-th command from now fails */
	int fail_opcode;	/* -1: none */
	u64 cmds, cmd_errors;
	/* events (core/events.c) */
	mlx5x_sim_event_fn event_fn;
	void *event_ctx;
	mlx5x_sim_idle_fn idle_fn;	/* dp/doorbell.c */
	void *idle_ctx;
	u64 events;
	struct dentry *dbg;
	struct sim_flow_table *fs_root[9];	/* steering/fs_root.c, by type */
	struct page **memic_pages;	/* mem/cmd_memic.c: BAR windows */
	struct sim_umem *memic_umem;	/* mem/cmd_memic.c: the MEMIC's bytes */
	struct sim_dp *dp;		/* dp/datapath.c */
	struct sim_roce_gid gids[SIM_ROCE_GIDS];	/* core/cmd_roce.c */
	u32 gsi_qpn;		/* queues/cmd_qp.c: the port's QP1 */
	struct list_head mcgs;	/* queues/cmd_mcg.c: multicast groups */
	unsigned int n_mcgs;
	u64 clock_epoch;	/* core/core.c: ktime_get_ns() at creation */
	/* mem/odp.c: on-demand paging */
	spinlock_t odp_lock;	/* the MTT entries of ODP umems */
	struct sim_odp_fault odp_fault;
	mlx5x_sim_odp_fault_fn odp_fault_fn;
	void *odp_ctx;
	u64 odp_faults, odp_resumes, odp_zaps;
	u64 odp_blocks;		/* implicit umems' (mem/odp_implicit.c) */
};

/**
 * struct sim_cmd_ctx - one command in flight
 * @in: input mailbox, @inlen bytes
 * @out: output mailbox, @outlen bytes, zeroed before the handler runs
 * @uid: uid field of the input header
 * @op_mod: op_mod field of the input header
 * @syndrome: set by a handler that refuses the command
 * @cmd: the table entry being executed
 */
struct sim_cmd_ctx {
	const void *in;
	size_t inlen;
	void *out;
	size_t outlen;
	u16 uid;
	u16 op_mod;
	u32 syndrome;
	const struct sim_cmd *cmd;
};

/**
 * struct sim_cmd - how the model executes one opcode
 * @opcode: PRM opcode
 * @name: for debugfs and logs
 * @inlen: smallest valid input mailbox
 * @outlen: smallest valid output mailbox
 * @has_uid: the uid field is meaningful and must name a live context
 * @destroy: it destroys an object; fault injection spares it, since no
 *	     driver can recover from a failed destroy at teardown
 * @obj_type: for the generic handlers: the kind allocated or destroyed
 * @id_off: for them: bit offset of the id (in the output of an alloc, the
 *	    input of a destroy)
 * @id_bits: its width
 * @exec: returns a PRM status; on error sets ctx->syndrome
 */
struct sim_cmd {
	u16 opcode;
	const char *name;
	u16 inlen;
	u16 outlen;
	bool has_uid;
	bool destroy;
	u32 destroy_op_mods;	/* op_mods (below 32) that tear down too */
	enum sim_obj_type obj_type;
	u16 id_off;
	u8 id_bits;
	u8 (*exec)(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);
};

#define SIM_CMD(op, nm, in_typ, out_typ, uid, fn) {			\
	.opcode = (op), .name = (nm), .inlen = PRM_BYTES(in_typ),	\
	.outlen = PRM_BYTES(out_typ), .has_uid = (uid), .exec = (fn) }

#define SIM_DESTROY_CMD(op, nm, in_typ, out_typ, uid, fn) {		\
	.opcode = (op), .name = (nm), .inlen = PRM_BYTES(in_typ),	\
	.outlen = PRM_BYTES(out_typ), .has_uid = (uid),			\
	.destroy = true, .exec = (fn) }

/* A command that is a teardown under the op_mods of @mods (a bit each). */
#define SIM_CMD_DESTROY_OPMODS(op, nm, in_typ, out_typ, uid, mods, fn) { \
	.opcode = (op), .name = (nm), .inlen = PRM_BYTES(in_typ),	\
	.outlen = PRM_BYTES(out_typ), .has_uid = (uid),			\
	.destroy_op_mods = (mods), .exec = (fn) }

/*
 * Objects that carry nothing but an owner: a generic alloc writes the new
 * id into the output, a generic destroy reads it from the input.
 */
#define SIM_ALLOC_CMD(op, nm, in_typ, out_typ, type, fld) {		\
	.opcode = (op), .name = (nm), .inlen = PRM_BYTES(in_typ),	\
	.outlen = PRM_BYTES(out_typ), .has_uid = true,			\
	.obj_type = (type), .id_off = PRM_BIT_OFF(out_typ, fld),	\
	.id_bits = PRM_BIT_SZ(out_typ, fld), .exec = sim_exec_alloc }

#define SIM_FREE_CMD(op, nm, in_typ, out_typ, type, fld)		\
	SIM_FREE_CMD_EXEC(op, nm, in_typ, out_typ, type, fld, sim_exec_destroy)

/* A generic destroy that @fn wraps (it calls sim_exec_destroy()). */
#define SIM_FREE_CMD_EXEC(op, nm, in_typ, out_typ, type, fld, fn) {	\
	.opcode = (op), .name = (nm), .inlen = PRM_BYTES(in_typ),	\
	.outlen = PRM_BYTES(out_typ), .has_uid = true, .destroy = true,	\
	.obj_type = (type), .id_off = PRM_BIT_OFF(in_typ, fld),		\
	.id_bits = PRM_BIT_SZ(in_typ, fld), .exec = (fn) }

u8 sim_exec_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);
u8 sim_exec_destroy(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx);

struct sim_cmd_set {
	const struct sim_cmd *cmds;
	unsigned int count;
};

/* Every command set, as the dispatcher walks them. */
extern const struct sim_cmd_set *const sim_cmd_sets[];
extern const unsigned int sim_n_cmd_sets;

extern const struct sim_cmd_set sim_caps_cmds;
extern const struct sim_cmd_set sim_uctx_cmds;
extern const struct sim_cmd_set sim_pd_cmds;
extern const struct sim_cmd_set sim_uar_cmds;
extern const struct sim_cmd_set sim_vport_cmds;
extern const struct sim_cmd_set sim_vport_counter_cmds;	/* dp/dp_vport.c */
extern const struct sim_cmd_set sim_port_reg_cmds;	/* dp/dp_port_reg.c */
extern const struct sim_cmd_set sim_cong_cmds;		/* dp/dp_cong.c */
extern const struct sim_cmd_set sim_counter_cmds;
extern const struct sim_cmd_set sim_umem_cmds;
extern const struct sim_cmd_set sim_mkey_cmds;
extern const struct sim_cmd_set sim_psv_cmds;
extern const struct sim_cmd_set sim_general_cmds;
extern const struct sim_cmd_set sim_flow_table_cmds;
extern const struct sim_cmd_set sim_flow_group_cmds;
extern const struct sim_cmd_set sim_fte_cmds;
extern const struct sim_cmd_set sim_fs_action_cmds;
extern const struct sim_cmd_set sim_cq_cmds;
extern const struct sim_cmd_set sim_wq_cmds;
extern const struct sim_cmd_set sim_tir_cmds;
extern const struct sim_cmd_set sim_qp_cmds;
extern const struct sim_cmd_set sim_roce_cmds;
extern const struct sim_cmd_set sim_mcg_cmds;
void sim_mcgs_free(struct mlx5x_sim *sim);	/* queues/cmd_mcg.c */
extern const struct sim_cmd_set sim_srq_cmds;
extern const struct sim_cmd_set sim_xrc_cmds;
extern const struct sim_cmd_set sim_dct_cmds;
extern const struct sim_cmd_set sim_fs_root_cmds;
extern const struct sim_cmd_set sim_memic_cmds;

/* core/caps.c */
int sim_caps_init(struct mlx5x_sim *sim);
void sim_caps_free(struct mlx5x_sim *sim);
u32 sim_cap_gen(struct mlx5x_sim *sim, size_t bit_off, size_t bit_sz);
void sim_fs_caps_fill(void *page);	/* steering/fs_caps.c */
#define SIM_CAP_GEN(sim, fld) ({					\
	PRM_CHECK_NARROW(cmd_hca_cap, fld);				\
	sim_cap_gen(sim, PRM_BIT_OFF(cmd_hca_cap, fld),			\
		    PRM_BIT_SZ(cmd_hca_cap, fld));			\
})

/* core/eq.c */
int sim_eqs_init(struct mlx5x_sim *sim);
void sim_eqs_free(struct mlx5x_sim *sim);

/*
 * core/events.c.  Event numbers are the PRM's (MLX5_EVENT_TYPE_* of
 * <linux/mlx5/device.h>, which the model does not include: it pulls in
 * ib_core's headers).
 */
enum sim_event_type {
	SIM_EV_COMP			= 0x00,
	SIM_EV_PATH_MIG			= 0x01,
	SIM_EV_COMM_EST			= 0x02,
	SIM_EV_SQ_DRAINED		= 0x03,
	SIM_EV_CQ_ERROR			= 0x04,
	SIM_EV_WQ_CATAS_ERROR		= 0x05,
	SIM_EV_PATH_MIG_FAILED		= 0x07,
	SIM_EV_PORT_CHANGE		= 0x09,
	SIM_EV_WQ_INVAL_REQ_ERROR	= 0x10,
	SIM_EV_WQ_ACCESS_ERROR		= 0x11,
	SIM_EV_SRQ_LAST_WQE		= 0x13,
	SIM_EV_SRQ_RQ_LIMIT		= 0x14,
};

#define SIM_PORT_CHANGE_DOWN	1
#define SIM_PORT_CHANGE_ACTIVE	4
/* cq_error.syndrome */
#define SIM_CQ_ERROR_OVERRUN	1
#define SIM_CQ_ERROR_ACCESS	2	/* its buffer may not be written */

int sim_event_raise(struct mlx5x_sim *sim, unsigned int type,
		    unsigned int sub_type, int kind, u32 id);
void sim_event_emit(struct mlx5x_sim *sim, unsigned int type,
		    enum sim_obj_type kind, u32 id, u8 syndrome);
int sim_event_knob(struct mlx5x_sim *sim, char *buf);
void sim_events_fill_cap(void *page);
void sim_events_debugfs_init(struct mlx5x_sim *sim);

/* steering/fs_root.c, steering/classify.c */
void sim_fs_roots_drop(struct mlx5x_sim *sim);
bool sim_shared_uid_cmd(u16 opcode);
void sim_classify_debugfs_init(struct mlx5x_sim *sim);

/* core/cmd_roce.c */
int sim_roce_gid_find(struct mlx5x_sim *sim, const u8 *gid);

/* core/objs.c */
void sim_objs_init(struct mlx5x_sim *sim);
void sim_objs_destroy_all(struct mlx5x_sim *sim);
const char *sim_obj_type_name(enum sim_obj_type type);
u8 sim_obj_alloc(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		 enum sim_obj_type type, struct sim_obj **objp);
u8 sim_obj_alloc_in(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		    enum sim_obj_type type, u32 min, u32 max,
		    struct sim_obj **objp);
u8 sim_obj_lookup(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		  enum sim_obj_type type, u32 id, struct sim_obj **objp);
u8 sim_obj_destroy(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
		   enum sim_obj_type type, u32 id);
u8 sim_obj_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx,
	       enum sim_obj_type type, u32 id, struct sim_obj **objp);
void sim_obj_put(struct sim_obj *obj);

/* core/cmd_uar.c, mem/cmd_umem.c, steering/cmd_counters.c */
void sim_uar_release(struct sim_obj *obj);
void sim_flow_counter_release(struct sim_obj *obj);
void sim_umem_release(struct sim_obj *obj);
/* Whether bytes [@off, @off + @len) lie inside @umem (page_offset on). */
static inline bool sim_umem_holds(const struct sim_umem *umem, u64 off,
				  u64 len)
{
	u64 size = (umem->nmtt << umem->log_page) - umem->page_offset;

	return off <= size && len <= size - off;
}

u8 sim_umem_ref(struct mlx5x_sim *sim, struct sim_cmd_ctx *ctx, u32 id,
		u64 offset, u64 len, struct sim_umem **umemp);
bool sim_umem_writable(const struct sim_umem *umem, u64 offset, u64 len);
/* mem/odp.c: on-demand paging */
struct sim_qp;
bool sim_odp_fault(struct sim_umem *umem, u64 off, u64 len, bool write);
bool sim_odp_arm(struct mlx5x_sim *sim, struct sim_qp *qp);
bool sim_odp_disarm(struct mlx5x_sim *sim, struct sim_qp *qp);
void sim_odp_unarm(struct mlx5x_sim *sim);
bool sim_uid_valid(struct mlx5x_sim *sim, u16 uid);
u32 sim_uctx_cap(struct mlx5x_sim *sim, u16 uid);
bool sim_uid_has_objects(struct mlx5x_sim *sim, u16 uid);

/*
 * The shared resource uid (MLX5_SHARED_RESOURCE_UID): the flow steering
 * commands take it (sim_shared_uid_cmd()); objects the kernel creates
 * under it (a steering anchor's table) may be referenced by every
 * context, and may themselves reference the kernel's (uid 0) objects.
 */
#define SIM_SHARED_UID	0xffff

static inline bool sim_shared_uid_ref(u16 uid, u16 owner)
{
	return owner == SIM_SHARED_UID || (uid == SIM_SHARED_UID && !owner);
}

static inline u8 sim_fail(struct sim_cmd_ctx *ctx, u8 status, u32 syndrome)
{
	ctx->syndrome = syndrome;
	return status;
}

#endif /* MLX5X_SIM_PRIV_H */
