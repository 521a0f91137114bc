# Benchmarks. Each prints ratios against a baseline measured in the same
# run and is never part of `make test` (timings depend on the machine).
# `make bench` runs them all; each also has its own target.
.PHONY: bench-slhdsa bench-chain

# SLH-DSA-SHA2-128s verify/sign against their hash floor (compressions x one
# compression with the SHA instructions), per SHA-256 backend, and vs OpenSSL
# ECDSA P-256 verify; callgrind instruction counts when valgrind is
# installed. See docs/slhdsa.md. The backend's entry points are wrapped so
# the benchmark counts every compression the library makes.
BENCH_SLHDSA := $(B)/tests/bench/bench_slhdsa
BENCH_SLHDSA_WRAP := -Wl,--wrap=ota_sha256_compress -Wl,--wrap=ota_sha256_compress_lanes \
	-Wl,--wrap=ota_sha256_finish_trunc16

$(BENCH_SLHDSA): $(B)/tests/bench/bench_slhdsa.o $(B)/tests/bench/bench_util.o $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) $(BENCH_SLHDSA_WRAP) -o $@ $^ $(PKG_OPENSSL) $(PKG_CHECK)

bench-slhdsa: $(BENCH_SLHDSA)
	$(BENCH_SLHDSA)

bench: bench-slhdsa

# SVN key chain worst case (128 KDF steps) vs one step, one attestation vs
# one ECDSA sign, host verification vs one OpenSSL verify: time and
# callgrind instructions. See docs/evidence.md.
BENCH_CHAIN := $(B)/tests/bench/bench_chain
$(B)/tests/bench/bench_chain.o: EXTRA_CFLAGS_tests_bench_ += -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(BENCH_CHAIN): $(B)/tests/bench/bench_chain.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

bench-chain: $(BENCH_CHAIN)
	$(BENCH_CHAIN)

bench: bench-chain

# Boot stage check on the tag path, the ECDSA and the hybrid signature path,
# for 64 KiB and 1 MiB images and 0/1/2 delegates, as ratios to the bare
# SHA-256 of the same image; callgrind instruction counts when valgrind is
# installed. See docs/boot-flow.md.
BENCH_BOOT := $(B)/tests/bench/bench_boot
$(B)/tests/bench/bench_boot.o: EXTRA_CFLAGS_tests_bench_ += -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(BENCH_BOOT): $(B)/tests/bench/bench_boot.o $(B)/tests/bench/bench_util.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(B)/tests/bench/bench_util.o $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

.PHONY: bench-boot
bench-boot: $(BENCH_BOOT)
	$(BENCH_BOOT)

bench: bench-boot

# The boot record's ROM -> runtime against the device work it contains
# (stage checks, SVN key chain, alias key and certificate), timed inside the
# same boots of the chip with its state on disk as the model keeps it; the
# key chain and alias steps, and the chip's state-file writes, are timed by
# wrapping their functions at link time. See docs/performance.md.
BENCH_BOOT_RECORD := $(B)/tests/bench/bench_boot_record
BENCH_BOOT_RECORD_WRAP := -Wl,--wrap=rom_ext_keychain_update -Wl,--wrap=ota_runtime_prepare \
	-Wl,--wrap=swhal_persist_retention -Wl,--wrap=swhal_persist_flash_range \
	-Wl,--wrap=swhal_persist_otp_range
$(B)/tests/bench/bench_boot_record.o: EXTRA_CFLAGS_tests_bench_ += -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(BENCH_BOOT_RECORD): $(B)/tests/bench/bench_boot_record.o $(B)/tests/bench/bench_util.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) $(BENCH_BOOT_RECORD_WRAP) -o $@ $< $(B)/tests/bench/bench_util.o $(UNIT_LINK) \
		$(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

.PHONY: bench-boot-record
bench-boot-record: $(BENCH_BOOT_RECORD)
	$(BENCH_BOOT_RECORD)

bench: bench-boot-record

# The stage checks on the emulated rv32 core in modelled device cycles
# (docs/hal.md, "The cycle model"): instructions and cycles per check on
# the tag, ECDSA and hybrid paths, 64 KiB and 1 MiB BL0 images at depths
# 0-2, against the SHA-256 engine's cycles for the image, one OTBN verify
# and seed 000's 3 ms (RSA) and 13 ms (SPHINCS+). Deterministic: one run.
# See docs/performance.md.
BENCH_BOOT_DEVICE := $(B)/tests/bench/bench_boot_device
$(B)/tests/bench/bench_boot_device.o: EXTRA_CFLAGS_tests_bench_ += -Ifirmware/lib -Iqemu-model/chip -Iqemu-model/core -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(B)/tests/bench/bench_boot_device.o: CPPFLAGS += -DOTA_ROM_ELF='"$(abspath $(FW_ROM_ELF))"' \
	-DOTA_ROM_EXT_ELF='"$(abspath $(FW_ROM_EXT_ELF))"' -DOTA_BL0_ELF='"$(abspath $(FW_BL0_ELF))"'
$(BENCH_BOOT_DEVICE): $(B)/tests/bench/bench_boot_device.o $(CORE_A) $(UNIT_LINK) | \
		$(FW_ROM_ELF) $(FW_ROM_EXT_ELF) $(FW_BL0_ELF)
	$(CC) $(LDFLAGS) -o $@ $< $(CORE_A) $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK) \
		$(PKG_UNICORN) -lelf

.PHONY: bench-boot-device
bench-boot-device: $(BENCH_BOOT_DEVICE)
	$(BENCH_BOOT_DEVICE)

bench: bench-boot-device

# Host evidence verification against the ECDSA verifications and hashing in
# it (a chain first seen and one the trust store remembers), and the
# streaming mode of otattest-verify with one thread and one per CPU. See
# docs/verifier.md.
BENCH_VERIFY := $(B)/tests/bench/bench_verify
$(B)/tests/bench/bench_verify.o: EXTRA_CFLAGS_tests_bench_ += -Ifirmware/lib -Ifirmware/rom_ext -Ifirmware/runtime -Iqemu-model/chip -Iqemu-model/board -Itests/unit/lib -Ilibotattest/tools/otimage
$(BENCH_VERIFY): $(B)/tests/bench/bench_verify.o $(B)/tests/bench/bench_util.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(B)/tests/bench/bench_util.o $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_JSONC) $(PKG_CHECK)

.PHONY: bench-verify
bench-verify: $(BENCH_VERIFY) $(OTA_VERIFY)
	$(BENCH_VERIFY)

bench: bench-verify

# The whole stack in a QEMU guest: otattestd vs tpm2-abrmd on a swtpm
# (bench-stack), and the load and soak test (soak). The guest side is
# otattest-loadgen (tests/bench/stack/), built with `make all` so it never
# rots; the runs themselves are tests/bench/stack.sh and soak.sh.
LOADGEN_SRCS := $(wildcard tests/bench/stack/*.c)
LOADGEN := $(B)/tests/bench/otattest-loadgen
PKG_TSS2 := $(shell pkg-config --cflags --libs tss2-esys tss2-tctildr tss2-rc 2>/dev/null || \
	echo -ltss2-esys -ltss2-tctildr -ltss2-rc)
EXTRA_CFLAGS_tests_bench_stack_ := $(DAEMON_CFLAGS) -pthread

$(LOADGEN): $(LOADGEN_SRCS:%.c=$(B)/%.o) $(LIBOTA_HOST_A) $(LIBOTA_CORE_A) $(UTIL_A)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(PKG_OPENSSL) $(PKG_SYSTEMD) $(PKG_TSS2) $(PKG_JSONC)

ALL_TARGETS += $(LOADGEN)

E2E_STACK_DEPS := $(LOADGEN) $(OTATTESTD) $(OTATTESTCTL) $(OTIMAGE) $(MODEL) $(MODEL_PEER)

.PHONY: bench-stack soak
bench-stack: $(E2E_STACK_DEPS)
	tests/bench/stack.sh

bench: bench-stack

soak: $(E2E_STACK_DEPS) $(OTA_VERIFY)
	tests/bench/soak.sh

# make test's 2-minute soak: the same load, update agent, faults and judge.
tests/bench/soak-short.sh: $(E2E_STACK_DEPS) $(OTA_VERIFY)
TEST_SUITES += tests/bench/soak-short.sh
TEST_SUITES_ALONE += tests/bench/soak-short.sh

# Veraison's services with the otattest scheme against otattest-verify on
# the same evidence, evidences per second (tests/bench/veraison.sh,
# docs/veraison.md). Needs Go (make veraison).
.PHONY: bench-veraison
bench-veraison:
	B=$(B) tests/bench/veraison.sh

bench: bench-veraison

# A 1,000-device fleet (evidence_tool --fleet), some revoked, some below the
# policy, through otattest-verify --batch, the scheme in-process and
# Veraison's services, evidences/s and Veraison's p50/p99, one run
# (tests/bench/fleet.sh, docs/performance.md). Needs Go (make veraison).
.PHONY: bench-fleet
bench-fleet:
	B=$(B) tests/bench/fleet.sh
