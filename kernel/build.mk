# kernel/: otattest.ko, built with kbuild against the headers of the kernel
# the guest boots (scripts/kernel-version.sh, never `uname -r`).
#   build/kernel/otattest.ko   the module (part of `make all`), for 6.1
#   make KERNEL=6.12 ...       the same for Debian's 6.12, in build/kernels/6.12/
#   make KERNEL=debug ...      for the debug kernel (make kernel-debug builds
#                              it), in build/kernels/debug/
#   make kernel-check          W=1 and sparse (C=2); fails on any warning
#   make kernel-debug          build (or find cached) the debug guest kernel
#   kernel/check-suite.sh      the check on every kernel series as a suite of
#                              `make test`, which also proves the check fails
#                              on a W=1 or sparse warning
# kbuild builds external modules in their source directory, so the build
# happens in $(B)/kernel/mod, which holds symlinks to the sources: the
# tree stays clean and each build directory has its own objects.
# KB: where this KERNEL's modules go (tests/e2e/lib/kernel.sh maps the
# default targets to it).
KERNEL ?= 6.1
ifeq ($(KERNEL),6.1)
KB := $(B)
else
KB := $(B)/kernels/$(KERNEL)
endif
KERNEL_KDIR := $(shell scripts/kernel-version.sh --kernel $(KERNEL) --headers 2>/dev/null)
KERNEL_SRCS := $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild
KERNEL_KO := $(KB)/kernel/otattest.ko
KERNEL_OBJDIR := $(KB)/kernel/mod
KERNEL_KBUILD = $(MAKE) -C $(KERNEL_KDIR) M=$(abspath $(KERNEL_OBJDIR)) \
	OTATTEST_INCLUDE=$(abspath libotattest/include)

$(KERNEL_KO): $(KERNEL_SRCS) $(wildcard libotattest/include/otattest/*.h)
	@test -n "$(KERNEL_KDIR)" || { scripts/kernel-version.sh --kernel $(KERNEL); exit 1; }
	@mkdir -p $(KERNEL_OBJDIR)
	@find $(KERNEL_OBJDIR) -maxdepth 1 -type l -delete
	@ln -s $(abspath $(KERNEL_SRCS)) $(KERNEL_OBJDIR)/
	@ln -s $(abspath libotattest/include) $(KERNEL_OBJDIR)/uapi
	+$(KERNEL_KBUILD) modules
	cp $(KERNEL_OBJDIR)/otattest.ko $@

ALL_TARGETS += $(KERNEL_KO)

.PHONY: kernel-check kernel-debug netlink-gen netlink-gen-check
kernel-check: netlink-gen-check
	kernel/check.sh $(KERNEL_KDIR) $(abspath kernel) $(abspath libotattest/include) \
		$(abspath $(KB)/kernel/check)

kernel-debug:
	scripts/kernel-debug.sh

# The netlink family's C (UAPI genl.h, kernel/netlink-gen.[ch], the daemon's
# genl-bounds.h) is generated from kernel/netlink/otattest.yaml by the
# kernel's YNL generator (kernel/netlink/ynl-gen.sh; docs/kernel-abi.md).
# netlink-gen rewrites the committed files; netlink-gen-check, also a suite
# of `make test`, fails when they differ from what the spec generates.
netlink-gen:
	B=$(B) kernel/netlink/ynl-gen.sh write
netlink-gen-check:
	B=$(B) kernel/netlink/check-gen.sh
TEST_SUITES += kernel/netlink/check-gen.sh
TEST_SUITES += kernel/check-suite.sh
# The kernel scenarios in make test (docs/kernel-abi.md, "Under the kernel's
# checkers"): every kernel-* scenario with a fast guest on the debug kernel
# (KASAN, lockdep, kmemleak, KFENCE, UBSAN; built when not cached) with a
# 20 s kernel-fuzz-live; the two systemd ones and the subset that exercises
# the kernel-API surface on Debian 12's 6.1 (tests/e2e/make-test.sh), that
# subset also on 6.12 (kernel-series.sh).
TEST_SUITES += tests/e2e/kernel-series.sh
TEST_SUITES_ALONE += tests/e2e/kernel-series.sh
TEST_SUITES += tests/e2e/kernel-debug.sh
TEST_SUITES_ALONE += tests/e2e/kernel-debug.sh
include tests/e2e/kernel/build.mk

# The driver under the kernel's checkers (issue 33): the debug kernel built
# or found cached, the module W=1/sparse against it, every kernel scenario,
# the daemon scenarios that drive the driver and kernel-fuzz-live (120 s)
# on it, with a report (tests/e2e/kernel-debug.sh; docs/kernel-abi.md).
.PHONY: test-kernel-debug
test-kernel-debug: all
	tests/e2e/kernel-debug.sh --full
