/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* PSVs of the firmware model (cmd_psv.c). */
#ifndef MLX5X_SIM_PSV_H
#define MLX5X_SIM_PSV_H

#include "../sim_priv.h"

/**
 * struct sim_psv - a protection signature value of a signature mkey
 * @obj: its table entry; obj.id is the psv index
 * @pd: its protection domain, referenced
 */
struct sim_psv {
	struct sim_obj obj;
	struct sim_obj *pd;
};

void sim_psv_release(struct sim_obj *obj);

#endif /* MLX5X_SIM_PSV_H */
