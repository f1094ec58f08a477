# SPDX-License-Identifier: GPL-2.0
#
# The firmware model's boundary, kept by the build (Documentation/design.rst,
# "The model's boundary"): no object of the model, nor of its KUnit suites,
# includes a header of <rdma/> (ib_core's, the uverbs ABI's) or of
# <linux/mlx5/> other than mlx5_ifc*.h (the others are mlx5_core's, and
# pull in ib_core and mlx5_core's driver structures).
#
# Every header an object included, however indirectly, is listed in the
# dependency record Kbuild keeps beside it (.NAME.o.cmd, written by fixdep
# as the object is compiled, in the order they were included).  Once the
# objects of $(sim-boundary-objs) are built, those records are searched;
# a header outside the boundary fails the build, naming each object with
# the first such header it included.
#
# Usage: a Kbuild file sets sim-boundary-objs (object paths relative to
# $(obj)) and includes this file.

sim-boundary := drivers/infiniband/hw/mlx5x/sim/.boundary.checked
always-y += $(sim-boundary)

sim-boundary-cmds = $(foreach o,$(sim-boundary-objs),\
	$(obj)/$(dir $(o)).$(notdir $(o)).cmd)

quiet_cmd_sim_boundary = CHECK   $(dir $(sim-boundary))*
      cmd_sim_boundary = \
	grep -HE '^ +([^ ]*/)?include/((uapi/)?rdma|linux/mlx5)/' \
		$(sim-boundary-cmds) | \
	grep -v '/include/linux/mlx5/mlx5_ifc' | \
	sed 's|^\(.*/\)\.\([^/]*\)\.cmd: *\([^ ]*\).*|\1\2: error: the firmware model includes \3 (see sim/boundary.mk)|' | \
	awk '!seen[$$1]++ { print } END { exit NR != 0 }' && touch $@

$(obj)/$(sim-boundary): $(addprefix $(obj)/,$(sim-boundary-objs))
	$(call cmd,sim_boundary)
