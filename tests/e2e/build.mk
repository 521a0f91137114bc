# End-to-end scenarios in a QEMU guest (see tests/e2e/README.md).
# tests/e2e/run.sh builds what each scenario needs itself (make targets
# named in the scenario), so `make test` only has to run it.
E2E_PROBE_DIR := $(B)/tests/e2e/probe
E2E_PROBE_KO := $(E2E_PROBE_DIR)/otattest_probe.ko

TEST_SUITES += tests/e2e/run.sh
