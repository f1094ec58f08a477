// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * On-demand paging: a umem whose pages the driver gives the device only
 * when the device needs them, and takes back when the process's mapping
 * changes (munmap, copy-on-write, migration), as mlx5_ib drives a
 * ConnectX's ODP mkeys.
 *
 * An ODP umem is created with every MTT entry absent (neither rd_en nor
 * wr_en) and marked by mlx5x_sim_odp_enable().  The data path reads its
 * entries, and copies through them, under sim->odp_lock (dp/umem_io.c),
 * a spinlock the driver's MMU notifier takes too, and never under the
 * model's mutex: when mlx5x_sim_odp_zap() returns, no access of the
 * device reaches a page it took back.
 *
 * An RC, XRC or UD WQE that touches an absent entry (in its own buffers,
 * or in the receive it lands in, of the responder's RQ or SRQ), or one
 * without the right it needs (a write on a page given for reading),
 * stops, as a ConnectX stops it: nothing of it completes, its QP waits,
 * and the driver hears of the fault (mlx5x_sim_odp_fault_fn, the model's
 * PAGE_FAULT event).  The driver faults the pages in, gives them
 * (mlx5x_sim_odp_map()) and resumes the QP (mlx5x_sim_odp_resume(),
 * PAGE_FAULT_RESUME), which executes the WQE again from its start.
 * Resumed with an error, the WQE's next fault is not raised: the access
 * fails as any refused access does, with the error CQE a ConnectX gives,
 * and the QP goes to ERR.
 *
 * A WQE stopped so holds the SRQ WQE its message took (dp/dp_srq.c):
 * executed again, it lands there, and the SRQ's head moved once.  A UD
 * WQE stops the same way (dp/dp_ud.c), but for a multicast datagram;
 * raw packet queues do not fault: an absent page is a refused access
 * there, and the driver does not advertise ODP for them.
 */
#include <linux/spinlock.h>
#include <linux/string.h>
#include "../sim_priv.h"
#include "../queues/queues.h"
#include "../dp/datapath.h"

/* The ODP umem @umem_id, or NULL; the ODP lock or the model's held. */
struct sim_umem *sim_odp_umem(struct mlx5x_sim *sim, u32 umem_id)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_UMEM], umem_id);
	struct sim_umem *umem;

	if (!obj)
		return NULL;
	umem = container_of(obj, struct sim_umem, obj);
	return umem->odp == sim ? umem : NULL;
}

/**
 * mlx5x_sim_set_odp_handler() - who hears of the data path's page faults
 * @sim: the model
 * @fn: the handler; NULL: none (a fault then fails its access)
 * @ctx: passed to @fn
 */
void mlx5x_sim_set_odp_handler(struct mlx5x_sim *sim,
			       mlx5x_sim_odp_fault_fn fn, void *ctx)
{
	mutex_lock(&sim->lock);
	sim->odp_fault_fn = fn;
	sim->odp_ctx = ctx;
	mutex_unlock(&sim->lock);
}

/**
 * sim_odp_claim() - the umem a driver makes one of on-demand paging
 * @sim: the model, its lock held
 * @umem_id: a umem whose entries are all absent, the kernel's to give,
 *	     that nothing names yet: the one object that may name it from
 *	     now on is the first (the MR's mkey)
 * @umemp: the umem
 *
 * Return: 0, -ENOENT (no such umem), or -EINVAL (an entry is present, an
 * object names it, or it is ODP already).
 */
int sim_odp_claim(struct mlx5x_sim *sim, u32 umem_id,
		  struct sim_umem **umemp)
{
	struct sim_obj *obj = xa_load(&sim->objs[SIM_OBJ_UMEM], umem_id);
	struct sim_umem *umem;
	u64 i;

	lockdep_assert_held(&sim->lock);
	if (!obj)
		return -ENOENT;
	umem = container_of(obj, struct sim_umem, obj);
	/* ODP already (an implicit one has no table of its own) */
	if (umem->odp || umem->obj.users)
		return -EINVAL;
	for (i = 0; i < umem->nmtt; i++)
		if (umem->mtt[i] & (SIM_MTT_RD | SIM_MTT_WR))
			return -EINVAL;
	*umemp = umem;
	return 0;
}

/**
 * mlx5x_sim_odp_enable() - make a umem one of on-demand paging
 * @sim: the model
 * @umem_id: the umem, as sim_odp_claim() takes it
 * @writable: its pages may be given writable (an mkey over it may have
 *	      write rights)
 *
 * Return: 0, or sim_odp_claim()'s errno.
 */
int mlx5x_sim_odp_enable(struct mlx5x_sim *sim, u32 umem_id, bool writable)
{
	struct sim_umem *umem;
	int err;

	mutex_lock(&sim->lock);
	err = sim_odp_claim(sim, umem_id, &umem);
	/* never writable for a queue or an object of the device's own */
	if (!err) {
		umem->ro_pages = umem->nmtt;
		umem->odp_wr = writable;
		umem->odp = sim;
	}
	mutex_unlock(&sim->lock);
	return err;
}

/**
 * mlx5x_sim_odp_map() - give the device pages of an ODP umem
 * @sim: the model
 * @umem_id: the umem
 * @first: its first entry given
 * @n: entries
 * @ents: each a page's address with its rights (SIM_MTT_RD, SIM_MTT_WR);
 *	  0 leaves the entry absent
 *
 * The caller holds what keeps the pages (the ODP umem's mutex, across the
 * notifier's invalidation too).
 *
 * Return: 0, or -EINVAL (no such ODP umem, or entries outside it).
 */
int mlx5x_sim_odp_map(struct mlx5x_sim *sim, u32 umem_id, u64 first,
		      u64 n, const u64 *ents)
{
	struct sim_umem *umem;
	int err = -EINVAL;

	spin_lock(&sim->odp_lock);
	umem = sim_odp_umem(sim, umem_id);
	if (umem && first <= umem->nmtt && n <= umem->nmtt - first) {
		if (umem->sparse) {
			err = sim_odp_sparse_map(umem, first, n, ents);
		} else {
			memcpy(umem->mtt + first, ents, n * sizeof(*ents));
			err = 0;
		}
	}
	spin_unlock(&sim->odp_lock);
	return err;
}

/**
 * mlx5x_sim_odp_zap() - take pages of an ODP umem back from the device
 * @sim: the model
 * @umem_id: the umem
 * @first: its first entry taken back
 * @n: entries (clipped to the umem)
 *
 * Never sleeps: the driver's MMU notifier calls it.  Once it returns, no
 * access of the device reaches those pages.
 */
void mlx5x_sim_odp_zap(struct mlx5x_sim *sim, u32 umem_id, u64 first, u64 n)
{
	struct sim_umem *umem;
	u64 i;

	spin_lock(&sim->odp_lock);
	umem = sim_odp_umem(sim, umem_id);
	if (umem) {
		if (umem->sparse)
			sim_odp_sparse_zap(umem, first, n);
		else
			for (i = first; i < umem->nmtt && i - first < n; i++)
				umem->mtt[i] = 0;
		sim->odp_zaps++;
	}
	spin_unlock(&sim->odp_lock);
}

/**
 * mlx5x_sim_odp_resume() - a QP stopped on a page fault goes on
 * @sim: the model
 * @qpn: the QP
 * @err: the driver could not resolve the fault: the WQE's next fault
 *	 fails its access
 */
void mlx5x_sim_odp_resume(struct mlx5x_sim *sim, u32 qpn, bool err)
{
	struct sim_obj *obj;
	struct sim_qp *qp;

	mutex_lock(&sim->lock);
	obj = xa_load(&sim->objs[SIM_OBJ_QP], qpn);
	if (obj) {
		qp = container_of(obj, struct sim_qp, q.obj);
		if (qp->dp.odp_wait) {
			qp->dp.odp_wait = false;
			qp->dp.odp_err = err;
			sim->odp_resumes++;
			sim_dp_kick(sim);
		}
	}
	mutex_unlock(&sim->lock);
}

/**
 * sim_odp_fault() - an access met an absent entry of an ODP umem
 * @umem: the umem
 * @off: the first byte not present, from the start of the umem's first
 *	 page (page_offset in)
 * @len: bytes the access needs from there
 * @write: it writes
 *
 * Return: true when the fault is recorded for the WQE executing (it is
 * armed), false when the access just fails.
 */
bool sim_odp_fault(struct sim_umem *umem, u64 off, u64 len, bool write)
{
	struct sim_odp_fault *f = &umem->odp->odp_fault;

	if (!f->armed)
		return false;
	if (!f->pending) {
		f->pending = true;
		f->umem_id = umem->obj.id;
		f->off = off;
		f->len = len;
		f->write = write;
	}
	return true;
}

/**
 * sim_odp_arm() - faults of the data path are raised from now on
 * @sim: the model, its lock held
 * @qp: the QP whose WQE executes
 *
 * Return: false when @qp waits for a fault's resolution: it must not
 * execute.
 */
bool sim_odp_arm(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	if (qp->dp.odp_wait)
		return false;
	/* resumed with an error: this try fails where it faulted */
	sim->odp_fault.armed = sim->odp_fault_fn && !qp->dp.odp_err;
	sim->odp_fault.pending = false;
	return true;
}

/**
 * sim_odp_unarm() - what the WQE's try does from now on does not fault
 * @sim: the model, its lock held
 *
 * For a try that may not run twice past this point (a multicast
 * datagram's copies): an absent page is then a refused access.  A fault
 * met before still stops the WQE.
 */
void sim_odp_unarm(struct mlx5x_sim *sim)
{
	sim->odp_fault.armed = sim->odp_fault.armed && sim->odp_fault.pending;
}

/**
 * sim_odp_disarm() - the WQE ended its try
 * @sim: the model, its lock held
 * @qp: its QP
 *
 * Return: true when it met a fault: its outcome is dropped, the QP waits
 * and the driver hears of the fault.
 */
bool sim_odp_disarm(struct mlx5x_sim *sim, struct sim_qp *qp)
{
	struct sim_odp_fault *f = &sim->odp_fault;
	bool fault = f->armed && f->pending;

	f->armed = false;
	f->pending = false;
	if (!fault) {
		qp->dp.odp_err = false;
		return false;
	}
	sim->odp_faults++;
	qp->dp.odp_wait = sim->odp_fault_fn(sim->odp_ctx, qp->q.obj.id,
					    f->umem_id, f->off, f->len,
					    f->write);
	/* not taken: the next try fails where it faulted */
	qp->dp.odp_err = !qp->dp.odp_wait;
	return true;
}
