# otattest: boot attestation for an OpenTitan/Caliptra-style root of trust.
#
#   make          build everything
#   make demo     provision a device, boot it in QEMU, attest it
#   make test     every test: unit (plain and ASan+UBSan), interop, fuzz
#                 smoke, model, kernel and D-Bus end to end in QEMU
#   make deps     install the Debian and npm packages (as root)
#   make deb      the Debian packages (debian/, dpkg-buildpackage) in build/deb-pkg/
#   make fuzz     each fuzz target to a coverage plateau, coverage, differential
#   make size     rv32imc -Os code size per firmware module
#   make bench    benchmarks (see docs/performance.md)
#   make soak     fleet load, update agent and faults for 10 min, all judged

.DEFAULT_GOAL := all
include mk/common.mk

include libotattest/build.mk
include firmware/build.mk
include qemu-model/build.mk
include kernel/build.mk
include daemon/build.mk
include systemd/build.mk
include tests/build.mk

.PHONY: all deps deps-check unit test demo fuzz size bench soak clean install

all: $(ALL_TARGETS)

# Prerequisite lists are expanded when a rule is read, so the fuzz targets
# that suites' build.mk files add after tests/build.mk are attached here,
# once every build.mk has been read.
fuzz fuzz-smoke: $(FUZZ_TARGETS)
# ... and so that make test's parallel `make $(TEST_SUITES)` builds them
# (serially, inside the suite, they took most of its time).
tests/fuzz/smoke.sh: $(FUZZ_TARGETS) $(FUZZ_CBOR_DUMP) $(OTA_VERIFY)
# The fuzz targets' shared objects (tests/build.mk) are kept, not removed
# as intermediates: the next target needs them.
.SECONDARY: $(foreach t,$(FUZZ_TARGETS:$(FUZZ_B)/%=%),$(call fuzz_objs,$t))

deps:
	scripts/deps.sh

# Run `make deps` only when something is missing.
deps-check:
	@scripts/deps.sh --check >/dev/null 2>&1 || scripts/deps.sh

# Check-based unit tests; check prints each suite's summary line.
unit: $(UNIT_TESTS)
	@scripts/run-unit.sh $(UNIT_TESTS)

# The builds inside it use every CPU (TEST_JOBS; output grouped per target),
# whether or not make was given -j: CI calls plain `make test`.
TEST_JOBS ?= $(shell nproc)
# Each step says when it ended (seconds since make test began), so CI's log
# shows where its time went before the suites' own table.
test_t0 := $(shell date +%s)
test_step = @echo "== make test: $(1) done at $$(( $$(date +%s) - $(test_t0) ))s"
test: deps-check
	$(call test_step,deps-check)
	$(MAKE) -j$(TEST_JOBS) --output-sync=target all
	$(call test_step,build)
	$(MAKE) -j$(TEST_JOBS) --output-sync=target unit
	$(call test_step,unit)
	$(MAKE) -j$(TEST_JOBS) --output-sync=target B=build/asan SANITIZE=1 unit
	$(call test_step,ASan unit)
	$(MAKE) -j$(TEST_JOBS) --output-sync=target $(TEST_SUITES)
	$(call test_step,suites' builds)
	@SUITES_ALONE="$(TEST_SUITES_ALONE)" scripts/run-suites.sh $(TEST_SUITES)
	$(call test_step,suites)

# The main job, step by step in scripts/demo.sh: provision a device with
# otimage, power it on in otattest-model, show the record it exports.
demo: deps-check
	$(MAKE) $(OTIMAGE) $(MODEL) $(MODEL_PEER) $(FW_ROM_ELF) $(FW_ROM_EXT_ELF) $(FW_BL0_ELF)
	B=$(B) scripts/demo.sh

# The Debian packages from a copy of the tree's files (dpkg-buildpackage
# writes beside its source): .deb, .changes, .buildinfo and lintian's
# report in build/deb-pkg/ (scripts/deb-build.sh; fails on any lintian
# error or warning).
.PHONY: deb
deb:
	scripts/deb-build.sh build/deb-pkg

clean:
	rm -rf build

-include $(shell find build -name '*.d' -type f 2>/dev/null)
