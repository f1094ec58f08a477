# SPDX-License-Identifier: GPL-2.0
#
# mlx5x: out-of-tree build, checks, and the VM that runs everything.
#
#   make            build mlx5x.ko against the installed Debian 12 headers
#   make check      sparse (C=2) and checkpatch; fails on any finding
#   make run        set up, build, boot a VM, create a device, show it
#   make test       set up, build, run every test (what CI runs)
#   make docs       Documentation/ as HTML in build/docs (Sphinx, -W)
#   make bench      the benchmarks, in the VM (figures, not pass/fail)
#   make debug-kernel  build (or find cached) the KASAN/lockdep/KCOV kernel
#   make debug-test    suite, fault sweep, fuzzer, stress on it (CI budget)
#   make reliability-long  the same with every fault point, 30 min fuzzing
#   make install    install mlx5x.ko into /lib/modules/$(KVER)/updates

KVER ?= $(shell ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | \
	sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
ifeq ($(KVER),)
KVER := 6.1.0-56-amd64
endif
KDIR ?= /usr/src/linux-headers-$(KVER)
SRC := $(CURDIR)

all: module

module:
	$(MAKE) -C $(KDIR) M=$(SRC) W=1 modules

clean:
	$(MAKE) -C $(KDIR) M=$(SRC) clean
	$(MAKE) -C tools/testing/selftests/drivers/infiniband/mlx5x clean

check:
	scripts/check.sh $(KDIR)

prm-fields:
	scripts/prm-fields.sh

setup:
	scripts/setup-deps.sh

run:
	scripts/run.sh

test:
	scripts/test.sh

bench:
	scripts/bench.sh

debug-kernel:
	scripts/debug-kernel.sh

debug-test:
	scripts/debug-test.sh

reliability-long:
	scripts/debug-test.sh --long

docs:
	scripts/docs.sh

install: module
	$(MAKE) -C $(KDIR) M=$(SRC) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KVER)

.PHONY: all module clean check prm-fields setup run test bench docs install \
	debug-kernel debug-test reliability-long
