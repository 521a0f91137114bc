# Tests.
#  unit/test_*.c   one check binary each (plain, and under ASan+UBSan)
#  unit/lib/*.c    fixtures shared by unit tests (device builder, keys)
#  fuzz/fuzz_*.c   one libFuzzer target each
#  interop/, model/, e2e/, bench/: see their READMEs
#  rv32/           freestanding rv32imc build of firmware and core (rules, size budget)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
TESTLIB_SRCS := $(wildcard tests/unit/lib/*.c)
TESTLIB_A := $(B)/libtestutil.a
UNIT_TESTS += $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)
# Unit tests and their fixtures see the software HAL's control API and the fixtures.
EXTRA_CFLAGS_tests_unit_ := -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
EXTRA_CFLAGS_tests_unit_lib_ := -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage

# Everything a unit test may need; static archives pull only what is used.
UNIT_LINK := $(TESTLIB_A) $(OTIMAGE_LIB_A) $(BOARD_FW_A) $(FW_A) $(SWHAL_A) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) \
	$(UTIL_A)

$(TESTLIB_A): $(TESTLIB_SRCS:%.c=$(B)/%.o)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

# libFuzzer targets: clang, with the freestanding core built by clang too.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_B := build/fuzz
FUZZ_TARGETS += $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_B)/%)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all $(CPPFLAGS_COMMON) $(FREESTANDING_FLAGS)
FUZZ_LIB_SRCS := $(LIBOTA_CORE_SRCS) $(FUZZ_EXTRA_SRCS)

# Each source is compiled once per flavour and the objects are shared by
# the targets (18 targets each compiling the core, and three of them the
# whole firmware and model, took most of the fuzz smoke's time in make
# test): "fs", the freestanding core's flags, and "hosted", for targets
# whose FUZZ_LDLIBS_<target> undefines OTA_FREESTANDING, with the include
# directories such targets use. A target's own flags in FUZZ_LDLIBS_<target>
# still apply to its fuzz_*.c.
FUZZ_HOSTED_FLAGS := -UOTA_FREESTANDING -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime \
	-Iqemu-model/chip -Iqemu-model/board -Ilibotattest/tools/otimage -Itests/unit/lib
fuzz_flavor = $(if $(filter -UOTA_FREESTANDING,$(FUZZ_LDLIBS_$1)),hosted,fs)
fuzz_objs = $(patsubst %.c,$(FUZZ_B)/obj/$(call fuzz_flavor,$1)/%.o,$(FUZZ_LIB_SRCS) $(FUZZ_SRCS_$1))
$(FUZZ_B)/obj/fs/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
$(FUZZ_B)/obj/hosted/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) $(FUZZ_HOSTED_FLAGS) -MMD -MP -c -o $@ $<

.SECONDEXPANSION:
$(FUZZ_B)/%: tests/fuzz/%.c $$(call fuzz_objs,$$*)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(call fuzz_objs,$*) $(FUZZ_LDLIBS_$*)

# Per-target extra sources (FUZZ_SRCS_<target>) and libraries
# (FUZZ_LDLIBS_<target>) for targets that need host code beyond the core;
# each also becomes a prerequisite of its target.
# The host library writes EARs with json-c (libotattest-util's JSON helpers).
FUZZ_VERIFY_SRCS := $(LIBOTA_HOST_SRCS) libotattest/util/hex.c libotattest/util/file_read.c \
	libotattest/util/json.c
FUZZ_VERIFY_LIBS := $(PKG_OPENSSL) $(PKG_JSONC)
FUZZ_SRCS_fuzz_cbor := $(FUZZ_VERIFY_SRCS)
FUZZ_LDLIBS_fuzz_cbor := $(FUZZ_VERIFY_LIBS)
FUZZ_SRCS_fuzz_evidence := $(FUZZ_VERIFY_SRCS) libotattest/tools/otimage/idcert.c
FUZZ_LDLIBS_fuzz_evidence := $(FUZZ_VERIFY_LIBS)
# The boot flow on a hostile BL0 slot: firmware, software HAL and the
# otimage library that provisions the device.
FUZZ_SRCS_fuzz_boot_slot := $(FW_SRCS) $(SWHAL_SRCS) qemu-model/board/fw_run.c $(OTIMAGE_LIB_SRCS) $(LIBOTA_HOST_SRCS) \
	$(UTIL_SRCS)
# otimage is hosted code: this target is built without OTA_FREESTANDING.
FUZZ_LDLIBS_fuzz_boot_slot := -UOTA_FREESTANDING -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Ilibotattest/tools/otimage $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_LIBELF)
$(FUZZ_B)/fuzz_boot_slot: $(FUZZ_SRCS_fuzz_boot_slot)
# Behind the evidence signature: a device booted to its runtime by the
# unit tests' evidence fixture (check, the software HAL, the firmware,
# otimage's CA) signs every input with its alias key.
FUZZ_SRCS_fuzz_evidence_claims := $(TESTLIB_SRCS) $(FW_SRCS) $(SWHAL_SRCS) qemu-model/board/fw_run.c \
	$(OTIMAGE_LIB_SRCS) $(LIBOTA_HOST_SRCS) $(UTIL_SRCS)
FUZZ_LDLIBS_fuzz_evidence_claims := $(FUZZ_LDLIBS_fuzz_boot_slot) -Itests/unit/lib $(PKG_CHECK)
$(FUZZ_B)/fuzz_evidence_claims: $(FUZZ_SRCS_fuzz_evidence_claims) tests/unit/test_evidence_fixture.h
# The update commands on a device booted by the unit tests' fixture
# (tu_device: the software HAL, the firmware, otimage's image builder).
FUZZ_SRCS_fuzz_update_requests := $(FUZZ_SRCS_fuzz_evidence_claims)
FUZZ_LDLIBS_fuzz_update_requests := $(FUZZ_LDLIBS_fuzz_evidence_claims)
$(FUZZ_B)/fuzz_update_requests: $(FUZZ_SRCS_fuzz_update_requests)
$(FUZZ_B)/fuzz_cbor: $(FUZZ_SRCS_fuzz_cbor)
# The key names file (hosted util code: built without OTA_FREESTANDING).
FUZZ_SRCS_fuzz_keynames := libotattest/util/keynames.c libotattest/util/hex.c libotattest/util/file_read.c
FUZZ_LDLIBS_fuzz_keynames := -UOTA_FREESTANDING
$(FUZZ_B)/fuzz_keynames: $(FUZZ_SRCS_fuzz_keynames)
$(FUZZ_B)/fuzz_evidence: $(FUZZ_SRCS_fuzz_evidence)
# Reference values as CoRIM: each input signed in-process, then loaded.
FUZZ_SRCS_fuzz_corim := $(FUZZ_VERIFY_SRCS)
FUZZ_LDLIBS_fuzz_corim := $(FUZZ_VERIFY_LIBS)
$(FUZZ_B)/fuzz_corim: $(FUZZ_SRCS_fuzz_corim)
# The verifier's certificate view against OpenSSL reading the same bytes.
FUZZ_SRCS_fuzz_cert_view := libotattest/src/host/cert_view.c
FUZZ_LDLIBS_fuzz_cert_view := -UOTA_FREESTANDING -D_GNU_SOURCE $(PKG_OPENSSL)
$(FUZZ_B)/fuzz_cert_view: $(FUZZ_SRCS_fuzz_cert_view)
# The fast path against OpenSSL's path validation on chains built from the input.
FUZZ_SRCS_fuzz_chain_fast := $(FUZZ_VERIFY_SRCS)
FUZZ_LDLIBS_fuzz_chain_fast := $(FUZZ_VERIFY_LIBS)
$(FUZZ_B)/fuzz_chain_fast: $(FUZZ_SRCS_fuzz_chain_fast)

# The strict CBOR decoder's view of a file as JSON, for the differential
# run against cbor2 and cborg (tests/fuzz/differential.py).
FUZZ_CBOR_DUMP := $(B)/tests/fuzz/cbor_dump
$(FUZZ_CBOR_DUMP): $(B)/tests/fuzz/cbor_dump.o $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL) $(PKG_JSONC)
ALL_TARGETS += $(FUZZ_CBOR_DUMP)

# Coverage builds of the same targets (build/fuzz/cov/<target>): clang's
# source-based coverage, no sanitizers, run once over the kept corpus by
# scripts/fuzz-coverage.py. Each has the prerequisites of its fuzz build.
FUZZ_COV_B := $(FUZZ_B)/cov
FUZZ_COV_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
	$(CPPFLAGS_COMMON) $(FREESTANDING_FLAGS)
fuzz_cov_targets = $(patsubst $(FUZZ_B)/%,$(FUZZ_COV_B)/%,$(FUZZ_TARGETS))

.SECONDEXPANSION:
$(FUZZ_COV_B)/%: tests/fuzz/%.c $(FUZZ_LIB_SRCS) $$(FUZZ_SRCS_$$*)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_COV_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(FUZZ_SRCS_$*) $(FUZZ_LDLIBS_$*)

# make fuzz: every target to a plateau (FUZZ_PLATEAU seconds without new
# coverage, default 60; at most FUZZ_MAX, default 240), its corpus merged
# into tests/fuzz/corpus/, then coverage per target and the differential
# run over the grown corpora. FUZZ_UPDATE_DOCS=1 writes the table into
# docs/fuzzing.md. FUZZ_ONLY="fuzz_cbor fuzz_otp" runs only those.
# make fuzz-smoke (in make test): each target FUZZ_SECONDS (20) from the
# kept corpus, and the differential check over it.
fuzz_selected = $(if $(FUZZ_ONLY),$(filter $(addprefix $(FUZZ_B)/,$(FUZZ_ONLY)),$(FUZZ_TARGETS)),$(FUZZ_TARGETS))
.PHONY: fuzz fuzz-smoke fuzz-cov-build
fuzz-cov-build:
	$(MAKE) $(patsubst $(FUZZ_B)/%,$(FUZZ_COV_B)/%,$(fuzz_selected))
fuzz: $(FUZZ_TARGETS) fuzz-cov-build
	@scripts/run-fuzz.sh plateau $(fuzz_selected)
	@scripts/fuzz-coverage.py $(if $(FUZZ_UPDATE_DOCS),--update-docs) $(notdir $(fuzz_selected))
	@$(MAKE) -s $(FUZZ_CBOR_DUMP) $(OTA_VERIFY)
	@/usr/bin/python3 tests/fuzz/differential.py --grown
fuzz-smoke: $(FUZZ_TARGETS)
	@scripts/run-fuzz.sh smoke $${FUZZ_SECONDS:-20} $(FUZZ_TARGETS)

ifneq ($(FUZZ_SRCS),)
TEST_SUITES += tests/fuzz/smoke.sh
TEST_SUITES_ALONE += tests/fuzz/smoke.sh
endif

# Suites with their own build rules.
include tests/layers/build.mk
include tests/interop/build.mk
include tests/tools/build.mk
include tests/rv32/build.mk
include tests/model/build.mk
include tests/e2e/build.mk
include tests/bench/build.mk
include tests/makefile/build.mk
include tests/mutation/build.mk
