/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* PSVs of the firmware model (cmd_psv.c). */
#ifndef MLX5X_SIM_PSV_H
#define MLX5X_SIM_PSV_H

#include "../sim_priv.h"

/**
 * struct sim_psv - a protection signature value of a signature mkey
 * @obj: its table entry; obj.id is the psv index
 * @pd: its protection domain, referenced
 * @transient_sig: the signature state a SET_PSV WQE gave it: the T10-DIF
 *		   guard seed (31:16) and application tag, or the CRC seed
 *		   (dp/dp_psv.c)
 * @ref_tag: and the reference tag
 */
struct sim_psv {
	struct sim_obj obj;
	struct sim_obj *pd;
	u32 transient_sig;
	u32 ref_tag;
};

void sim_psv_release(struct sim_obj *obj);

#endif /* MLX5X_SIM_PSV_H */
