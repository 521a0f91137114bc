# End-to-end scenarios in a QEMU guest (see tests/e2e/README.md).
# tests/e2e/run.sh builds what each scenario names (make targets), so
# `make test` only has to run it.
#
# The probe module for the model smoke test, built with kbuild against the
# headers of the kernel the guest boots (KERNEL, KB: kernel/build.mk).
# kbuild writes its objects next to the sources, so the sources are copied
# into the build tree first.
E2E_PROBE_DIR := $(KB)/tests/e2e/probe
E2E_PROBE_KO := $(E2E_PROBE_DIR)/otattest_probe.ko
E2E_PROBE_SRCS := tests/e2e/probe/otattest_probe.c tests/e2e/probe/Kbuild

$(E2E_PROBE_KO): $(E2E_PROBE_SRCS) $(wildcard libotattest/include/otattest/*.h)
	@mkdir -p $(E2E_PROBE_DIR)
	cp $(E2E_PROBE_SRCS) $(E2E_PROBE_DIR)/
	$(MAKE) -C "$$(scripts/kernel-version.sh --kernel $(KERNEL) --headers)" M=$(abspath $(E2E_PROBE_DIR)) \
		OTA_INCLUDE=$(abspath libotattest/include) W=1 modules

# The fault module of kernel-probe-fail: makes otattest's device_add() fail
# (a kretprobe; test equipment, see tests/e2e/faults/otattest_fail_add.c).
E2E_FAULTS_DIR := $(KB)/tests/e2e/faults
E2E_FAIL_ADD_KO := $(E2E_FAULTS_DIR)/otattest_fail_add.ko
E2E_FAULTS_SRCS := tests/e2e/faults/otattest_fail_add.c tests/e2e/faults/Kbuild

$(E2E_FAIL_ADD_KO): $(E2E_FAULTS_SRCS)
	@mkdir -p $(E2E_FAULTS_DIR)
	cp $(E2E_FAULTS_SRCS) $(E2E_FAULTS_DIR)/
	$(MAKE) -C "$$(scripts/kernel-version.sh --kernel $(KERNEL) --headers)" M=$(abspath $(E2E_FAULTS_DIR)) W=1 C=1 modules

.PHONY: e2e
e2e:
	tests/e2e/run.sh

# make test's run on 6.1: every scenario but the kernel-* ones that
# tests/e2e/kernel-debug.sh (kernel/build.mk) runs on the debug kernel
# instead, the 6.12 subset kept (tests/e2e/make-test.sh says which and why).
TEST_SUITES += tests/e2e/make-test.sh
TEST_SUITES_ALONE += tests/e2e/make-test.sh

# The base initramfs's cache: a kernel whose modules do not resolve fails it
# rather than caching an image without 9p (tests/e2e/initramfs-check.sh).
TEST_SUITES += tests/e2e/initramfs-check.sh

# The Debian packages installed, upgraded and purged in the guests, on 6.1
# and on 6.12 (tests/e2e/packages/; not in make test: DKMS's module build
# under TCG takes many minutes; docs/packaging.md).
.PHONY: test-packages
test-packages: deps-check
	tests/e2e/run.sh -j1 --scenarios tests/e2e/packages

# The C client of the dbus-clients scenario: gdbus-codegen's proxies, made
# from the shipped introspection XML at build time, and a small main.
GDBUS_CLIENT_DIR := $(B)/tests/e2e/clients
GDBUS_CLIENT := $(GDBUS_CLIENT_DIR)/otattest-gdbus-client
$(GDBUS_CLIENT_DIR)/otattest-gdbus.c: daemon/org.otattest.BootAttest1.xml
	@mkdir -p $(dir $@)
	cd $(GDBUS_CLIENT_DIR) && gdbus-codegen --interface-prefix org.otattest.BootAttest1. \
		--c-namespace Ota --generate-c-code otattest-gdbus $(abspath $<)
$(GDBUS_CLIENT_DIR)/otattest-gdbus.h: $(GDBUS_CLIENT_DIR)/otattest-gdbus.c
$(GDBUS_CLIENT): tests/e2e/clients/otattest-gdbus-client.c $(GDBUS_CLIENT_DIR)/otattest-gdbus.c
	$(CC) -O2 -g -Wall -Werror -I$(GDBUS_CLIENT_DIR) $(shell pkg-config --cflags gio-unix-2.0) \
		-o $@ $^ $(shell pkg-config --libs gio-unix-2.0)
