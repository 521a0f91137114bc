# kernel/: otattest.ko, built with kbuild against the headers of the kernel
# the guest boots (scripts/kernel-version.sh, never `uname -r`).
#   build/kernel/otattest.ko   the module (part of `make all`)
#   make kernel-check          W=1 and sparse (C=2); fails on any warning
#   kernel/check-suite.sh      the same as a suite of `make test`, which also
#                              proves the check fails on a W=1 or sparse warning
# kbuild builds external modules in their source directory, so the build
# happens in $(B)/kernel/mod, which holds symlinks to the sources: the
# tree stays clean and each build directory has its own objects.
KERNEL_KDIR := $(shell scripts/kernel-version.sh --headers 2>/dev/null)
KERNEL_SRCS := $(wildcard kernel/*.c kernel/*.h) kernel/Kbuild
KERNEL_KO := $(B)/kernel/otattest.ko
KERNEL_OBJDIR := $(B)/kernel/mod
KERNEL_KBUILD = $(MAKE) -C $(KERNEL_KDIR) M=$(abspath $(KERNEL_OBJDIR)) \
	OTATTEST_INCLUDE=$(abspath libotattest/include)

$(KERNEL_KO): $(KERNEL_SRCS) $(wildcard libotattest/include/otattest/*.h)
	@test -n "$(KERNEL_KDIR)" || { scripts/kernel-version.sh; exit 1; }
	@mkdir -p $(KERNEL_OBJDIR)
	@find $(KERNEL_OBJDIR) -maxdepth 1 -type l -delete
	@ln -s $(abspath $(KERNEL_SRCS)) $(KERNEL_OBJDIR)/
	@ln -s $(abspath libotattest/include) $(KERNEL_OBJDIR)/uapi
	+$(KERNEL_KBUILD) modules
	cp $(KERNEL_OBJDIR)/otattest.ko $@

ALL_TARGETS += $(KERNEL_KO)

.PHONY: kernel-check netlink-gen netlink-gen-check
kernel-check: netlink-gen-check
	kernel/check.sh $(KERNEL_KDIR) $(abspath kernel) $(abspath libotattest/include) \
		$(abspath $(B)/kernel/check)

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
include tests/e2e/kernel/build.mk
