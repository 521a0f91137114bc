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

$(FUZZ_B)/%: tests/fuzz/%.c $(FUZZ_LIB_SRCS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIB_SRCS) $(FUZZ_SRCS_$*) $(FUZZ_LDLIBS_$*)

# Per-target extra sources (FUZZ_SRCS_<target>) and libraries
# (FUZZ_LDLIBS_<target>) for targets that need host code beyond the core;
# each also becomes a prerequisite of its target.
FUZZ_VERIFY_SRCS := $(LIBOTA_HOST_SRCS)
FUZZ_SRCS_fuzz_cbor := $(FUZZ_VERIFY_SRCS)
FUZZ_LDLIBS_fuzz_cbor := $(PKG_OPENSSL)
FUZZ_SRCS_fuzz_evidence := $(FUZZ_VERIFY_SRCS) libotattest/tools/otimage/idcert.c libotattest/util/hex.c
FUZZ_LDLIBS_fuzz_evidence := $(PKG_OPENSSL)
# The boot flow on a hostile BL0 slot: firmware, software HAL and the
# otimage library that provisions the device.
FUZZ_SRCS_fuzz_boot_slot := $(FW_SRCS) $(SWHAL_SRCS) qemu-model/board/fw_run.c $(OTIMAGE_LIB_SRCS) $(LIBOTA_HOST_SRCS) \
	$(UTIL_SRCS)
# otimage is hosted code: this target is built without OTA_FREESTANDING.
FUZZ_LDLIBS_fuzz_boot_slot := -UOTA_FREESTANDING -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Ilibotattest/tools/otimage $(PKG_OPENSSL) $(PKG_JSONC)
$(FUZZ_B)/fuzz_boot_slot: $(FUZZ_SRCS_fuzz_boot_slot)
$(FUZZ_B)/fuzz_cbor: $(FUZZ_SRCS_fuzz_cbor)
$(FUZZ_B)/fuzz_evidence: $(FUZZ_SRCS_fuzz_evidence)

.PHONY: fuzz fuzz-smoke
fuzz: $(FUZZ_TARGETS)
	@scripts/run-fuzz.sh $${FUZZ_SECONDS:-300} $(FUZZ_TARGETS)
fuzz-smoke: $(FUZZ_TARGETS)
	@scripts/run-fuzz.sh $${FUZZ_SECONDS:-20} $(FUZZ_TARGETS)

ifneq ($(FUZZ_SRCS),)
TEST_SUITES += tests/fuzz/smoke.sh
endif

# Suites with their own build rules.
-include tests/layers/build.mk
-include tests/interop/build.mk
-include tests/tools/build.mk
-include tests/rv32/build.mk
-include tests/model/build.mk
-include tests/e2e/build.mk
-include tests/bench/build.mk
