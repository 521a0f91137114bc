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

TEST_SUITES += tests/e2e/run.sh
