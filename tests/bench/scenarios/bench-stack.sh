# SPDX-License-Identifier: MIT
# The guest half of `make bench-stack` (tests/bench/stack.sh runs it and
# prints the table): one systemd guest with both this project's device
# (otattest-model behind ivshmem-doorbell, otattest.ko, the shipped
# otattestd unit) and a TPM 2.0 (swtpm behind tpm-crb, Debian's
# tpm2-abrmd). In rounds, interleaved so that drift hits both sides alike:
# Attest vs TPM2_Quote with 1, 4 and 16 clients, then one client's Ping,
# property reads and PCR read. Each run is one JSON line in
# out/bench.jsonl; resident memory at rest in out/rss-rest.
#
# otattestd runs with its per-client attestation rate limit lifted
# (--attest-rate/--attest-burst): the shipped 4/s per client is policy
# against a noisy client, and this measures what the stack can do.
E2E_DESCRIPTION="bench: otattestd vs tpm2-abrmd (swtpm) in one guest, 1/4/16 clients"
E2E_MODE=systemd
# The same guest on dbus-broker (bench-stack@dbus-broker): stack.sh runs both.
E2E_BUS_VARIANTS=(dbus-broker)
# QEMU 7.2 places the initrd over the ACPI tables when a TPM makes them
# larger and the kernel boots through PVH (tests/e2e/README.md).
E2E_KERNEL_IMAGE=bzimage
E2E_TIMEOUT=900
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/otimage build/tests/bench/otattest-loadgen)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c tests/bench/stack/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/bench/scenarios/stack-lib.bash" ||
	{ echo "cannot read stack-lib.bash" >&2; return 1; }
E2E_QEMU_ARGS=("${STACK_TPM_QEMU_ARGS[@]}")

host_prepare() {
	daemon_provision
	stack_swtpm_start
	# The run's shape, from tests/bench/stack.sh's environment.
	{
		echo "BENCH_SECONDS=${BENCH_SECONDS:-5}"
		echo "BENCH_WARMUP=${BENCH_WARMUP:-1}"
		echo "BENCH_ROUNDS=${BENCH_ROUNDS:-3}"
		echo "BENCH_CLIENTS='${BENCH_CLIENTS:-1 4 16}'"
	} >"$E2E_OUT/bench.conf"
}

guest_setup() {
	stack_guest_setup "--attest-rate=10000 --attest-burst=10000 --max-queued=64"
}

# One run: its JSON line to bench.jsonl, its summary line to bench.log
# (which tests/bench/stack.sh shows as progress).
bench_run() {
	stack_loadgen bench --seconds "$BENCH_SECONDS" --warmup "$BENCH_WARMUP" \
		--bus-pid "$(stack_bus_pid)" "$@" \
		>>"$E2E_OUT/bench.jsonl" 2>>"$E2E_OUT/bench.log" ||
		e2e_fail "otattest-loadgen bench $* failed: $(tail -n 2 "$E2E_OUT/bench.log")"
}

guest_main() {
	local round n
	. "$E2E_OUT/bench.conf"
	stack_start
	printf 'otattestd %s\ntpm2-abrmd %s\n' "$(stack_rss_kib otattestd.service)" \
		"$(stack_rss_kib tpm2-abrmd.service)" >"$E2E_OUT/rss-rest"

	# The evidence is real: one of them, verified against the CA.
	daemon_ctl attest --verify --ca "$E2E_OUT/ca.pem" -o /tmp/ev.cbor >/tmp/verify.log 2>&1 ||
		{ cat /tmp/verify.log; e2e_fail "the benchmark's evidence does not verify"; }

	: >"$E2E_OUT/bench.jsonl"
	: >"$E2E_OUT/bench.log"
	for ((round = 1; round <= BENCH_ROUNDS; round++)); do
		echo "round $round of $BENCH_ROUNDS" >>"$E2E_OUT/bench.log"
		for n in $BENCH_CLIENTS; do
			bench_run --op attest --clients "$n" --daemon "$DAEMON_BUS"
			bench_run --op tpm-quote --clients "$n" --daemon "$TABRMD_BUS"
		done
		bench_run --op ping --daemon "$DAEMON_BUS"
		bench_run --op property --daemon "$DAEMON_BUS"
		bench_run --op stages --daemon "$DAEMON_BUS"
		bench_run --op tpm-pcrread --daemon "$TABRMD_BUS"
	done
	cat "$E2E_OUT/bench.log"
	printf 'otattestd %s\ntpm2-abrmd %s\n' "$(stack_rss_kib otattestd.service)" \
		"$(stack_rss_kib tpm2-abrmd.service)" >"$E2E_OUT/rss-after"
}

host_check() {
	stack_swtpm_stop
	[ -s "$E2E_OUT/bench.jsonl" ] || { echo "E2E-FAIL: no figures in out/bench.jsonl"; exit 1; }
}
