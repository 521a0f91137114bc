# Benchmarks. Each prints ratios against a baseline measured in the same
# run and is never part of `make test` (timings depend on the machine).
# `make bench` runs them all; each also has its own target.
.PHONY: bench-slhdsa

# SLH-DSA-SHA2-128s verify/sign vs OpenSSL ECDSA P-256 verify; callgrind
# instruction counts when valgrind is installed. See docs/slhdsa.md.
BENCH_SLHDSA := $(B)/tests/bench/bench_slhdsa

$(BENCH_SLHDSA): $(B)/tests/bench/bench_slhdsa.o $(LIBOTA_CORE_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_OPENSSL)

bench-slhdsa: $(BENCH_SLHDSA)
	$(BENCH_SLHDSA)

bench: bench-slhdsa
