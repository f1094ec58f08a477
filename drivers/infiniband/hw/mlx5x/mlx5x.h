/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5x: the mlx5 RDMA object methods over a command channel that is
 * either a ConnectX's firmware (through mlx5_core) or the firmware model.
 */
#ifndef MLX5X_H
#define MLX5X_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include "prm.h"

#define MLX5X_PORT		1
#define MLX5X_UVERBS_ABI	1
#define MLX5X_PKEY_DEFAULT	0xffff

struct mlx5x_dev;
struct mlx5x_fs;
struct mlx5x_fs_anchors;
struct mlx5x_dm_dev;
struct mlx5x_umr;
struct mlx5_ib_clock_info;

/**
 * struct mlx5x_backend_ops - what sits below the command channel
 * @name: "sim" or "hw"
 * @exec: run one command mailbox; see mlx5x_cmd_exec()
 * @uar_pfn: page frame of the UAR page with this index
 * @uar_cached: UAR pages are ordinary memory (map cached, not WC/UC)
 * @memic_pfn: page frame of a BAR offset of device memory (MEMIC or one
 *	       of its operation windows); frames of one allocation follow
 *	       each other
 * @memic_cached: MEMIC is ordinary memory (map cached, not WC)
 * @memic_op: an access of @size bytes at @bar_off, in a MEMIC operation
 *	      window, that a process made (optional: a backend without it
 *	      maps the windows; dm_op_trap.c); @operand: what a store
 *	      wrote; @old: filled in with the bytes before the operation
 * @icm_init: read the SW ICM regions from the device memory caps just
 *	      read (dev->dm), for @icm_alloc (optional: mlx5_core keeps a
 *	      ConnectX's itself)
 * @icm_cleanup: free what @icm_init made; called whenever the device
 *		 memory caps are let go, even when @icm_init failed
 * @icm_alloc: carve a SW ICM range of a type and make it a SW_ICM object
 *	       of @uid; see mlx5x_sim_icm_alloc()
 * @icm_free: destroy the object and give its range back
 * @comp_vectors: number of completion vectors
 * @comp_eqn: EQ number of a completion vector
 * @port_change: the port went up or down (optional): firmware raises
 *		 PORT_CHANGE events for it
 * @port_init: the port's state as the device registers (optional; no
 *	       event): the model's link follows the netdev from then on
 * @upper_change: a VLAN device over the netdev was registered or is
 *		  going (optional; under the RTNL)
 * @doorbell: the kernel rang a doorbell of one of its queues
 * @rung: a process's store to a UAR page trapped (optional: only UAR
 *	  pages that are memory trap; uar_trap.c); @mapped: the page is
 *	  mapped from now on, and the next stores do not trap; @uid: the
 *	  process's context; @qpn: the queue a send doorbell names, or
 *	  MLX5X_RUNG_ANY
 * @clock_ns: the device's free-running clock, in nanoseconds (optional:
 *	      without it no clock info page is offered; clock.c)
 * @release: free the backend; called once the IB device is unregistered
 * @user_unreg: `rdma link delete` may remove the device (one that
 *		`rdma link add` created)
 * @odp_enable: make a umem whose pages are all absent, and that nothing
 *		names yet, one of on-demand paging, which its first user
 *		(the MR's mkey) alone may name (optional: without it, no
 *		ODP; odp.c)
 * @odp_implicit: the same, but the umem becomes the implicit ODP umem of
 *		  the user address space, of that many 4 KiB pages (optional:
 *		  without it, no implicit ODP; odp_implicit.c)
 * @odp_blocks: make (or free) the entries of a span of an implicit ODP
 *		umem, before its pages are given (after it is dropped)
 * @odp_map: give the device pages of an ODP umem (address | MLX5X_MTT_*)
 * @odp_zap: take them back; never sleeps
 * @odp_resume: a QP stopped on a page fault goes on (@err: the fault was
 *		not resolved, its access fails)
 */
/* A doorbell that names no queue the driver could read (rung's @qpn). */
#define MLX5X_RUNG_ANY	U32_MAX

struct mlx5x_backend_ops {
	const char *name;
	int (*exec)(struct mlx5x_dev *dev, const void *in, size_t inlen,
		    void *out, size_t outlen);
	int (*uar_pfn)(struct mlx5x_dev *dev, u32 index, unsigned long *pfn);
	bool uar_cached;
	int (*memic_pfn)(struct mlx5x_dev *dev, u64 bar_off, unsigned long *pfn);
	bool memic_cached;
	int (*memic_op)(struct mlx5x_dev *dev, u64 bar_off, u8 size,
			u64 operand, u64 *old);
	int (*icm_init)(struct mlx5x_dev *dev);
	void (*icm_cleanup)(struct mlx5x_dev *dev);
	int (*icm_alloc)(struct mlx5x_dev *dev, unsigned int type, u64 length,
			 u32 log_align, u16 uid, u64 *addr, u32 *obj_id);
	int (*icm_free)(struct mlx5x_dev *dev, unsigned int type, u64 length,
			u16 uid, u64 addr, u32 obj_id);
	unsigned int (*comp_vectors)(struct mlx5x_dev *dev);
	int (*comp_eqn)(struct mlx5x_dev *dev, unsigned int vector, u32 *eqn);
	void (*port_change)(struct mlx5x_dev *dev, bool up);
	void (*port_init)(struct mlx5x_dev *dev, bool up);
	void (*upper_change)(struct mlx5x_dev *dev, struct net_device *upper,
			     bool registered);
	void (*doorbell)(struct mlx5x_dev *dev);
	void (*rung)(struct mlx5x_dev *dev, bool mapped, u16 uid, u32 qpn);
	u64 (*clock_ns)(struct mlx5x_dev *dev);
	void (*release)(struct mlx5x_dev *dev);
	bool user_unreg;
	int (*odp_enable)(struct mlx5x_dev *dev, u32 umem_id, bool writable);
	int (*odp_implicit)(struct mlx5x_dev *dev, u32 umem_id, bool writable,
			    u64 npages);
	int (*odp_blocks)(struct mlx5x_dev *dev, u32 umem_id, u64 first, u64 n,
			  bool make);
	int (*odp_map)(struct mlx5x_dev *dev, u32 umem_id, u64 first, u64 n,
		       const u64 *ents);
	void (*odp_zap)(struct mlx5x_dev *dev, u32 umem_id, u64 first, u64 n);
	void (*odp_resume)(struct mlx5x_dev *dev, u32 qpn, bool err);
};

struct mlx5x_dev {
	struct ib_device ib;
	const struct mlx5x_backend_ops *backend;
	void *backend_priv;
	struct list_head list;		/* on mlx5x_devices */
	struct net_device *netdev;	/* the port's netdev, held */
	netdevice_tracker netdev_tracker;
	struct device *dma_device;	/* NULL: virtual DMA (the model) */
	bool port_up;			/* last state reported by an event */
	u32 vendor_part_id;
	u32 hw_rev;
	u64 fw_ver;
	void *hca_cap;			/* QUERY_HCA_CAP general, current */
	void *roce_cap;			/* QUERY_HCA_CAP RoCE, current */
	void *atomic_cap;		/* QUERY_HCA_CAP atomic, or NULL */
	void *odp_cap;			/* QUERY_HCA_CAP ODP, or NULL */
	u32 vendor_id;
	__be64 node_guid;
	__be64 sys_image_guid;
	u16 whitelist_uid;		/* for query commands of non-DEVX users */
	struct mlx5x_devx_events *devx_events;	/* devx_subscribe.c */
	struct mlx5x_dm_dev *dm;	/* dm_dev.c: device memory */
	struct mlx5_ib_clock_info *clock_info;	/* clock.c, or NULL */
	spinlock_t clock_lock;		/* clock.c: serialises its updates */
	struct dentry *dbg;
	struct mutex uctx_lock;		/* protects uctx_list, ubuf_orphans */
	/* odp.c: ODP MRs by umem id, the work that serves their faults */
	struct mutex odp_lock;
	struct xarray odp_mrs;
	struct workqueue_struct *odp_wq;
	struct list_head uctx_list;	/* open user contexts, for debugfs */
	struct list_head ubuf_orphans;	/* ubuf.c: umems firmware kept */
	struct xarray indirect_mkeys;	/* devx_mkey.c */
	struct xarray cqs;		/* cq.c: verbs CQs by number */
	struct xarray srqs;		/* srq.c: SRQs by number, for events */
	struct xarray qps;		/* qp_rc.c: QPs of firmware, for events */
	struct xarray wqs;		/* wq.c: verbs WQs by RQ number, for events */
	struct xarray raw_wqs;		/* qp_raw.c: RAW_PACKET QPs by RQ and SQ */
	u32 kuar;			/* kverbs.c: the kernel queues' UAR */
	bool kverbs;			/* kernel CQs and QP1 are offered */
	struct mlx5x_umr *umr;		/* umr.c: the UMR QP, or NULL */
	u32 q_counter;			/* hw_counters.c: the port's set */
	struct rdma_stat_desc *q_descs;	/* and its counters' names */
	bool cong_cnt;			/* and the congestion counters */
	bool icrc_cnt;			/* and the port's rx_icrc_encapsulated */
	struct mlx5x_fs *fs;		/* the kernel's steering (fs_core.c) */
	struct mlx5x_fs_anchors *fs_anchors;	/* fs_anchor.c */
	struct mutex trap_lock;		/* protects traps */
	struct list_head traps;		/* uar_trap.c: trapping UAR mappings */
};

#define MLX5X_CAP_GEN(dev, fld)	PRM_GET(cmd_hca_cap, (dev)->hca_cap, fld)
#define MLX5X_CAP_ROCE(dev, fld) PRM_GET(roce_cap, (dev)->roce_cap, fld)

/* Per-context limits (limits.c). */
enum mlx5x_limit {
	MLX5X_LIMIT_DEVX_OBJS,
	MLX5X_LIMIT_UMEMS,
	MLX5X_LIMIT_UARS,
	MLX5X_LIMIT_DM,
	MLX5X_LIMIT_FLOWS,
	MLX5X_LIMIT_STEERING,	/* flow matchers, flow actions, anchors */
	MLX5X_LIMIT_N,
};

struct mlx5x_ucontext {
	struct ib_ucontext ib;
	u16 devx_uid;		/* 0: DEVX not enabled for this context */
	u32 tdn;
	u8 cqe_version;
	struct list_head node;	/* on the device's uctx_list */
	pid_t pid;		/* of the process that opened it */
	char comm[TASK_COMM_LEN];
	atomic_t devx_event_subs;	/* event subscriptions it holds */
	atomic_t used[MLX5X_LIMIT_N];	/* counted against the limits */
};

int mlx5x_limit_take(struct mlx5x_ucontext *uctx, enum mlx5x_limit l);
void mlx5x_limit_put(struct mlx5x_ucontext *uctx, enum mlx5x_limit l);
unsigned int mlx5x_limit_event_subs(void);
unsigned int mlx5x_limit_events_queued(void);

struct mlx5x_pd {
	struct ib_pd ib;
	u32 pdn;
	u16 uid;
};

/**
 * struct mlx5x_ubuf - a user buffer pinned by the kernel for firmware
 * @umem: the pinned pages
 * @id: the firmware UMEM the kernel registered over them
 * @uid: its owner, the context's firmware uid
 */
struct mlx5x_ubuf {
	struct ib_umem *umem;
	u32 id;
	u16 uid;
};

/* The access bits of a umem's page (mtt.rd_en, mtt.wr_en). */
#define MLX5X_MTT_READ		BIT(0)
#define MLX5X_MTT_WRITE		BIT(1)

/**
 * struct mlx5x_mr - a memory region: one mkey of firmware
 * @ib: the core's MR
 * @mkey: its key (index << 8 | variant)
 * @uid: the firmware uid it was created with
 * @buf: the pinned host memory under it (mr.c); none over device memory
 */
struct mlx5x_mr {
	struct ib_mr ib;
	u32 mkey;
	u16 uid;
	int access;			/* IB_ACCESS_* it grants */
	struct mlx5x_ubuf buf;
	struct mlx5x_dev *dev;		/* of an ODP MR: for its notifier */
	struct mlx5x_imr *imr;		/* of an implicit one (odp_implicit.c) */
};

static inline struct mlx5x_mr *to_mmr(struct ib_mr *ib)
{
	return container_of(ib, struct mlx5x_mr, ib);
}

/* What an mmap offset of a context leads to. */
enum mlx5x_mmap_type {
	MLX5X_MMAP_UAR,
	MLX5X_MMAP_MEMIC,	/* dm_memic.c */
	MLX5X_MMAP_MEMIC_OP,
};

/*
 * libmlx5 maps device memory at page offset (index >> 8) << 16 |
 * MLX5X_MMAP_DEVICE_MEM << 8 | (index & 0xff) (mlx5_ib's
 * MLX5_IB_MMAP_DEVICE_MEM command); the entries of such mappings sit at
 * page offsets MLX5X_MMAP_DEVICE_MEM << 16 | index, index < 1 << 16.  UAR
 * pages sit below the first offset that carries a command (the core
 * clock page's, MLX5X_MMAP_CORE_CLOCK).
 */
#define MLX5X_MMAP_CMD_SHIFT	8
#define MLX5X_MMAP_DEVICE_MEM	8
#define MLX5X_MMAP_CLOCK_INFO	7	/* clock.c: mlx5_ib's commands */
#define MLX5X_MMAP_CORE_CLOCK	5
#define MLX5X_MMAP_UAR_PGOFF_END (MLX5X_MMAP_CORE_CLOCK << MLX5X_MMAP_CMD_SHIFT)

struct mlx5x_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	enum mlx5x_mmap_type type;
};

/* A UAR page handed to userspace: freed once the last mapping is gone. */
struct mlx5x_uar_entry {
	struct mlx5x_mmap_entry mm;
	u32 index;
	u16 uid;
	bool wc;
};

static inline struct mlx5x_dev *to_mdev(struct ib_device *ib)
{
	return container_of(ib, struct mlx5x_dev, ib);
}

static inline struct mlx5x_ucontext *to_mucontext(struct ib_ucontext *ib)
{
	return container_of(ib, struct mlx5x_ucontext, ib);
}

static inline struct mlx5x_pd *to_mpd(struct ib_pd *ib)
{
	return container_of(ib, struct mlx5x_pd, ib);
}

static inline struct mlx5x_mmap_entry *
to_mmap_entry(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct mlx5x_mmap_entry, rdma);
}

static inline struct mlx5x_uar_entry *
to_uar_entry(struct rdma_user_mmap_entry *e)
{
	return container_of(to_mmap_entry(e), struct mlx5x_uar_entry, mm);
}

/* cmd.c */
int mlx5x_cmd_exec(struct mlx5x_dev *dev, const void *in, size_t inlen,
		   void *out, size_t outlen);
int mlx5x_cmd_errno(const void *out);
int mlx5x_cmd_run(struct mlx5x_dev *dev, const void *in, size_t inlen,
		  void *out, size_t outlen);
int mlx5x_query_hca_cap(struct mlx5x_dev *dev, u16 type, void **cap);

/* hw_counters.c */
int mlx5x_hw_counters_init(struct mlx5x_dev *dev);
void mlx5x_hw_counters_cleanup(struct mlx5x_dev *dev);
struct rdma_hw_stats *mlx5x_alloc_hw_port_stats(struct ib_device *ib,
						u32 port);
int mlx5x_get_hw_stats(struct ib_device *ib, struct rdma_hw_stats *stats,
		       u32 port, int index);
int mlx5x_q_counter_alloc(struct mlx5x_dev *dev, u32 *id);
void mlx5x_q_counter_free(struct mlx5x_dev *dev, u32 id);
int mlx5x_q_counter_read(struct mlx5x_dev *dev, u32 id,
			 struct rdma_hw_stats *stats);
struct rdma_hw_stats *mlx5x_hw_stats_alloc(struct mlx5x_dev *dev);

/* device.c */
int mlx5x_dev_register(struct mlx5x_dev *dev, const char *name);
void mlx5x_dev_release(struct mlx5x_dev *dev);
extern struct mutex mlx5x_devices_lock;
extern struct list_head mlx5x_devices;

/* mad.c */
struct ib_mad;
struct ib_grh;
int mlx5x_process_mad(struct ib_device *ib, int mad_flags, u32 port,
		      const struct ib_wc *in_wc, const struct ib_grh *in_grh,
		      const struct ib_mad *in, struct ib_mad *out,
		      size_t *out_mad_size, u16 *out_mad_pkey_index);

/* port.c */
int mlx5x_query_port(struct ib_device *ib, u32 port, struct ib_port_attr *a);
int mlx5x_get_port_immutable(struct ib_device *ib, u32 port,
			     struct ib_port_immutable *im);
enum rdma_link_layer mlx5x_get_link_layer(struct ib_device *ib, u32 port);
int mlx5x_query_pkey(struct ib_device *ib, u32 port, u16 index, u16 *pkey);
void mlx5x_port_init_state(struct mlx5x_dev *dev);
int mlx5x_netdev_notifier_register(void);
void mlx5x_netdev_notifier_unregister(void);

/* query.c */
int mlx5x_query_device(struct ib_device *ib, struct ib_device_attr *attr,
		       struct ib_udata *udata);
void mlx5x_get_dev_fw_str(struct ib_device *ib, char *str);

/* ucontext.c */
int mlx5x_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata);
void mlx5x_dealloc_ucontext(struct ib_ucontext *uctx);
int mlx5x_query_ucontext(struct ib_ucontext *uctx,
			 struct uverbs_attr_bundle *attrs);
void mlx5x_disassociate_ucontext(struct ib_ucontext *uctx);

/* uar_trap.c */
int mlx5x_uar_trap_mmap(struct mlx5x_ucontext *uctx,
			struct vm_area_struct *vma,
			struct rdma_user_mmap_entry *entry, unsigned long pfn);
void mlx5x_uar_trap_disassociate(struct mlx5x_ucontext *uctx);
struct mlx5x_uar_trap;
struct mlx5x_memic_op;
struct mlx5x_uar_trap *mlx5x_trap_alloc(void);
void mlx5x_trap_free(struct mlx5x_uar_trap *trap);
void mlx5x_trap_install(struct mlx5x_uar_trap *trap,
			struct mlx5x_ucontext *uctx,
			struct vm_area_struct *vma,
			struct rdma_user_mmap_entry *entry, unsigned long pfn,
			struct mlx5x_memic_op *op, bool clock);
/* dm_op_trap.c */
vm_fault_t mlx5x_memic_op_fault(struct vm_fault *vmf,
				struct mlx5x_memic_op *op);
bool mlx5x_uar_trap_rearm(void *ctx);
/* uar_emul.c */
/**
 * struct mlx5x_uar_store - what a trapped store wrote
 * @known: @val holds it: an 8-byte store of a general register
 * @val: the register's value (its bytes in memory: cpu_to_le64())
 */
struct mlx5x_uar_store {
	bool known;
	u64 val;
};

bool mlx5x_uar_emulate_store(struct vm_fault *vmf, struct mlx5x_uar_store *st);

/**
 * struct mlx5x_emul_insn - a process's load or store, decoded
 * @load: a load into a general register (else a store to memory)
 * @size: bytes it reads or writes; 0: an SSE/AVX store
 * @known: @val holds what a store writes (a general register's or an
 *	   immediate's low @size bytes)
 * @val: that value
 * @len: the instruction's length
 * @reg: its register operand (0-15)
 * @op: its opcode (0x100 | the second byte for the 0x0f map)
 * @rex: its REX bits; @rexp: it has a REX prefix; @opsz: a 0x66 prefix
 */
struct mlx5x_emul_insn {
	bool load;
	u8 size;
	bool known;
	u64 val;
	u8 len;
	u8 reg;
	u16 op;
	u8 rex;
	bool rexp;
	bool opsz;
};

bool mlx5x_emul_decode(struct vm_fault *vmf, struct mlx5x_emul_insn *in);
void mlx5x_emul_finish(const struct mlx5x_emul_insn *in, u64 val);
int mlx5x_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mlx5x_mmap_free(struct rdma_user_mmap_entry *entry);
int mlx5x_mmap_entry_insert(struct ib_ucontext *uctx,
			    struct mlx5x_mmap_entry *mm, size_t length);
struct mlx5x_ucontext *mlx5x_attrs_uctx(struct uverbs_attr_bundle *attrs);
struct mlx5x_ucontext *mlx5x_attrs_devx_uctx(struct uverbs_attr_bundle *attrs);

/* pd.c */
int mlx5x_alloc_pd(struct ib_pd *pd, struct ib_udata *udata);
int mlx5x_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata);
int mlx5x_td_alloc(struct mlx5x_dev *dev, u16 uid, u32 *tdn);
void mlx5x_td_free(struct mlx5x_dev *dev, u16 uid, u32 tdn);

/* fw_uctx.c: firmware user contexts (CREATE_UCTX, DESTROY_UCTX) */
int mlx5x_uctx_create(struct mlx5x_dev *dev, u32 cap, u16 *uid);
void mlx5x_uctx_destroy(struct mlx5x_dev *dev, u16 uid);

/* uapi.c: the uverbs definition tree, which chains the branches below */
extern const struct uapi_definition mlx5x_uapi_defs[];

/* The tree's branches, each defined beside its object's methods: */
/* uar.c */
extern const struct uapi_definition mlx5x_uar_defs[];
int mlx5x_uar_alloc(struct mlx5x_dev *dev, u16 uid, u32 *index);
int mlx5x_uar_free(struct mlx5x_dev *dev, u16 uid, u32 index);
/* devx_cmd.c */
extern const struct uapi_definition mlx5x_devx_defs[];
/* devx_obj.c */
extern const struct uapi_definition mlx5x_devx_obj_defs[];
/* devx_umem.c */
extern const struct uapi_definition mlx5x_devx_umem_defs[];
/* devx_async.c */
extern const struct uapi_definition mlx5x_devx_async_defs[];
/* devx_event_fd.c */
extern const struct uapi_definition mlx5x_devx_event_fd_defs[];
/* devx_subscribe.c */
extern const struct uapi_definition mlx5x_devx_subscribe_defs[];
/* port.c */
extern const struct uapi_definition mlx5x_port_defs[];
/* pd.c */
extern const struct uapi_definition mlx5x_pd_defs[];
/* ucontext.c */
extern const struct uapi_definition mlx5x_ucontext_defs[];
/* fs_anchor.c */
extern const struct uapi_definition mlx5x_steering_anchor_defs[];
/* dm.c */
extern const struct uapi_definition mlx5x_dm_defs[];

/* devx_subscribe.c: device events to DEVX event FDs */
int mlx5x_devx_events_init(struct mlx5x_dev *dev);
void mlx5x_devx_events_cleanup(struct mlx5x_dev *dev);
void mlx5x_devx_event(struct mlx5x_dev *dev, const void *eqe);

/* main.c: the module's debugfs directory */
extern struct dentry *mlx5x_debugfs_root;

/* debugfs.c: a device's directory, which the two below add files to */
void mlx5x_dev_debugfs_init(struct mlx5x_dev *dev);

/* fs_debugfs.c */
void mlx5x_fs_debugfs_init(struct mlx5x_dev *dev);

/* devx_mkey.c */
void mlx5x_devx_mkey_debugfs_init(struct mlx5x_dev *dev);

/* hw_bus.c: devices over mlx5_core functions, when the kernel has it */
#if IS_ENABLED(CONFIG_MLX5_CORE)
int mlx5x_hw_init(void);
void mlx5x_hw_exit(void);
#else
static inline int mlx5x_hw_init(void) { return 0; }
static inline void mlx5x_hw_exit(void) { }
#endif

/* clock.c: the clock info page */
int mlx5x_clock_init(struct mlx5x_dev *dev);
void mlx5x_clock_cleanup(struct mlx5x_dev *dev);
void mlx5x_clock_update(struct mlx5x_dev *dev);
int mlx5x_clock_mmap(struct mlx5x_dev *dev, struct vm_area_struct *vma);
int mlx5x_core_clock_mmap(struct mlx5x_ucontext *uctx,
			  struct vm_area_struct *vma);
vm_fault_t mlx5x_core_clock_fault(struct vm_fault *vmf, struct mlx5x_dev *dev);

/*
 * dm_dev.c, dm.c, dm_memic.c, dm_mr.c, mr.c, dm_icm.c: device memory,
 * MRs over it
 */
int mlx5x_dm_dev_init(struct mlx5x_dev *dev);
void mlx5x_dm_dev_cleanup(struct mlx5x_dev *dev);
u64 mlx5x_dm_max_size(struct mlx5x_dev *dev);
struct ib_dm *mlx5x_alloc_dm(struct ib_device *ib, struct ib_ucontext *uctx,
			     struct ib_dm_alloc_attr *attr,
			     struct uverbs_attr_bundle *attrs);
int mlx5x_dealloc_dm(struct ib_dm *ibdm, struct uverbs_attr_bundle *attrs);
int mlx5x_dm_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma,
		  struct mlx5x_mmap_entry *mm);
void mlx5x_dm_mmap_free(struct mlx5x_mmap_entry *mm);
struct ib_mr *mlx5x_reg_dm_mr(struct ib_pd *pd, struct ib_dm *dm,
			      struct ib_dm_mr_attr *attr,
			      struct uverbs_attr_bundle *attrs);
int mlx5x_dereg_mr(struct ib_mr *mr, struct ib_udata *udata);

/* sim_backend.c */
int mlx5x_sim_newlink(const char *ibdev_name, struct net_device *ndev);

#endif /* MLX5X_H */
