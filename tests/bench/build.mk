# Benchmarks. Each prints ratios against a baseline measured in the same
# run and is never part of `make test` (timings depend on the machine).
# `make bench` runs them all; each also has its own target.
.PHONY: bench-slhdsa bench-chain

# SLH-DSA-SHA2-128s verify/sign vs OpenSSL ECDSA P-256 verify; callgrind
# instruction counts when valgrind is installed. See docs/slhdsa.md.
BENCH_SLHDSA := $(B)/tests/bench/bench_slhdsa

$(BENCH_SLHDSA): $(B)/tests/bench/bench_slhdsa.o $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL)

bench-slhdsa: $(BENCH_SLHDSA)
	$(BENCH_SLHDSA)

bench: bench-slhdsa

# SVN key chain worst case (128 KDF steps) vs one step, one attestation vs
# one ECDSA sign, host verification vs one OpenSSL verify: time and
# callgrind instructions. See docs/evidence.md.
BENCH_CHAIN := $(B)/tests/bench/bench_chain
$(B)/tests/bench/bench_chain.o: EXTRA_CFLAGS_tests_bench_ += -Iqemu-model/hal -Itests/unit/lib -Ifirmware/otimage
$(BENCH_CHAIN): $(B)/tests/bench/bench_chain.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_CHECK)

bench-chain: $(BENCH_CHAIN)
	$(BENCH_CHAIN)

bench: bench-chain

# Boot stage check on the tag path, the ECDSA and the hybrid signature path,
# for 64 KiB and 1 MiB images and 0/1/2 delegates, as ratios to the bare
# SHA-256 of the same image; callgrind instruction counts when valgrind is
# installed. See docs/boot-flow.md.
BENCH_BOOT := $(B)/tests/bench/bench_boot
$(B)/tests/bench/bench_boot.o: EXTRA_CFLAGS_tests_bench_ += -Iqemu-model/hal -Itests/unit/lib -Ifirmware/otimage
$(BENCH_BOOT): $(B)/tests/bench/bench_boot.o $(UNIT_LINK)
	$(CC) $(LDFLAGS) -o $@ $< $(UNIT_LINK) $(PKG_OPENSSL) $(PKG_CHECK)

.PHONY: bench-boot
bench-boot: $(BENCH_BOOT)
	$(BENCH_BOOT)

bench: bench-boot
