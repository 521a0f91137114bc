# SPDX-License-Identifier: MIT
# The guest half of `make demo`: otattestctl status on the first boot (full
# signature verification, fresh tags written), an attestation verified on
# the host, a tag rotation with its progress, then a power cycle after
# which both stages boot on the tag path, with the boot times of both.
# scripts/demo.sh runs it and prints its story (out/demo.txt).
E2E_DESCRIPTION="make demo: status, attestation verified on the host, rotation, fast-path reboot with timings"
E2E_MODE=systemd
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/otimage build/otattest-verify)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

demo_say() {
	printf '\n== %s\n' "$*" | tee -a "$E2E_OUT/demo.txt"
}

demo_run() {
	printf '$ %s\n' "${*#"$DAEMON_BIN/"}" | tee -a "$E2E_OUT/demo.txt"
	"$@" 2>&1 | tee -a "$E2E_OUT/demo.txt"
	return "${PIPESTATUS[0]}"
}

boot_ns() {
	daemon_prop BootTimeNs | cut -d' ' -f2
}

# Sum of the booted stages' check times (ns): what the tag path saves.
verify_ns() {
	daemon_ctl --json status | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["devices"][0]
print(sum(s["verify_time_ns"] for s in d["stages"] if s["booted"]))'
}

paths() {
	daemon_ctl --json status | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["devices"][0]
print(" ".join("%s:%s" % (s["stage"], s["path"]) for s in d["stages"] if s["booted"]))'
}

guest_main() {
	local ctl=$DAEMON_CTL t1 t2 v1 v2 gen nonce
	: >"$E2E_OUT/demo.txt"

	daemon_start ready
	demo_say "First boot: otattestd serves the device; every stage verified by signature"
	demo_run e2e_as e2e-user "$ctl" status
	t1=$(boot_ns)
	v1=$(verify_ns)
	echo "$t1 $v1" >"$E2E_OUT/boot1-ns"
	e2e_assert_eq "rom_ext:signature-retagged bl0:signature-retagged" "$(paths)" "first boot: signature path, tags written"

	demo_say "Attestation: fresh evidence for a verifier's nonce (checked on the host below)"
	nonce=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
	demo_run e2e_as e2e-user "$ctl" attest --nonce "$nonce" -o /tmp/evidence.cose
	cp /tmp/evidence.cose "$E2E_OUT/evidence.cose"
	cp /sys/class/otattest/otattest0/record "$E2E_OUT/record.bin"
	echo "$nonce" >"$E2E_OUT/nonce"

	demo_say "Tag rotation by the update agent (group otattest-update)"
	demo_run e2e_as e2e-update "$ctl" rotate

	demo_say "Power cycle: the next boot takes the fast path (KMAC tag instead of signatures)"
	gen=$(daemon_prop Generation | cut -d' ' -f2)
	e2e_signal power-cycle
	e2e_wait_host power-cycled 60
	e2e_wait_for 30 "a new boot record" sh -c "[ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE ResetReason)\" = 's \"cold\"' ] && [ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE Generation | cut -d' ' -f2)\" -gt $gen ]"
	e2e_wait_for 30 "otattest0 ready" daemon_state_is ready
	demo_run e2e_as e2e-user "$ctl" status
	t2=$(boot_ns)
	v2=$(verify_ns)
	echo "$t2 $v2" >"$E2E_OUT/boot2-ns"
	e2e_assert_eq "rom_ext:tag bl0:tag" "$(paths)" "second boot: tag path"

	demo_say "Boot times, from the two boot records"
	# Both figures come from the device: the stages' own check times (what
	# the tag path replaces) and ROM start to runtime (which in the model
	# also holds the emulated hardware's set-up, flash I/O and scheduling
	# noise of a loaded host, so it need not shrink by the same factor).
	awk -v a="$t1" -v b="$t2" -v va="$v1" -v vb="$v2" 'BEGIN {
		printf "   %-34s %14s %14s\n", "", "stage checks", "ROM->runtime"
		printf "   %-34s %11.3f ms %11.3f ms\n", "first boot (signatures, retag)", va / 1e6, a / 1e6
		printf "   %-34s %11.3f ms %11.3f ms\n", "second boot (tag path)", vb / 1e6, b / 1e6
		printf "   %-34s %13.2fx %13.2fx\n", "first / second", (vb > 0 ? va / vb : 0), (b > 0 ? a / b : 0) }' |
		tee -a "$E2E_OUT/demo.txt"
	awk -v va="$v1" -v vb="$v2" 'BEGIN { exit !(vb < va) }' ||
		e2e_fail "the tag path's stage checks ($v2 ns) were not faster than the signatures' ($v1 ns)"
	daemon_save_journal
}

host_hook() {
	e2e_wait_guest power-cycle 120
	e2e_model_ctl power-cycle >"$E2E_OUT/power-cycle.txt"
	e2e_tell_guest power-cycled
}

host_check() {
	local nonce
	nonce=$(cat "$E2E_OUT/nonce")
	{
		printf '\n== On the host: the evidence checked by otattest-verify (libotattest)\n'
		printf '$ otattest-verify --ca ca.pem --nonce %s --record record.bin evidence.cose\n' "$nonce"
		"$E2E_ROOT/build/otattest-verify" --ca "$E2E_OUT/ca.pem" --nonce "$nonce" \
			--record "$E2E_OUT/record.bin" "$E2E_OUT/evidence.cose"
		printf '\n== And by an independent check (python3-cbor2, python3-cryptography)\n'
		/usr/bin/python3 "$E2E_ROOT/tests/interop/evidence_check.py" "$E2E_OUT/evidence.cose" \
			"$E2E_OUT/ca.pem" "$nonce" "$E2E_OUT/record.bin" | tail -1
	} | tee -a "$E2E_OUT/demo.txt"
	grep -q ' 0 failed$' "$E2E_OUT/demo.txt"
}
