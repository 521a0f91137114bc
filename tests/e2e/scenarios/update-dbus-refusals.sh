# SPDX-License-Identifier: MIT
# The update agent's D-Bus methods refused where they must be (issue 14):
# every one of them (InstallImage, CheckImage, Commit, Ratchet, Revoke,
# WarmReset) AccessDenied for an unprivileged user, through otattestctl
# (exit 20) and busctl (the shipped bus policy, on dbus-daemon and
# dbus-broker); the update agent's (group otattest-update) bad input
# refused by otattestd with its named error and exit code before it
# reaches the kernel: a directory and an empty file as the image, a
# ratchet above 255, a revocation of the wrong length, an unknown stage
# (usage). The device is untouched: the model's flash write and request
# counters (its control socket) and the record generation are the same after.
# Then the agent's WarmReset goes through (ResetReason warm).
E2E_DESCRIPTION="otattestd update methods: AccessDenied unprivileged, bad input named errors, flash untouched"
E2E_MODE=systemd
E2E_BUS_VARIANTS=(dbus-broker)
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink-update.c daemon/otattestd/install.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

# The model's flash writes before the guest's requests and after them.
host_hook() {
	e2e_wait_guest before 80 || return 1
	e2e_model_ctl status >"$E2E_OUT/model-before" || return 1
	e2e_tell_guest measured
	e2e_wait_guest after 80 || return 1
	e2e_model_ctl status >"$E2E_OUT/model-after"
}

# Neither a flash write nor a mailbox request between the two.
host_check() {
	local key before after
	for key in flash-writes requests; do
		before=$(tr ' ' '\n' <"$E2E_OUT/model-before" | sed -n "s/^$key=//p")
		after=$(tr ' ' '\n' <"$E2E_OUT/model-after" | sed -n "s/^$key=//p")
		[ -n "$before" ] || { echo "no $key in the model's status" >&2; return 1; }
		[ "$before" = "$after" ] || { echo "$key $before -> $after during the refusals" >&2; return 1; }
	done
}

guest_main() {
	local ctl=$DAEMON_CTL gen m
	daemon_start ready
	gen=$(daemon_prop Generation)
	head -c 4096 /dev/zero >/tmp/image.bin
	: >/tmp/empty.bin
	head -c 143 /dev/zero >/tmp/revocation-143.bin
	head -c 144 /dev/zero >/tmp/revocation-144.bin
	chmod 644 /tmp/*.bin
	e2e_signal before
	e2e_wait_host measured 60

	# Unprivileged: each method refused, by otattestctl's exit code and by the bus.
	daemon_expect_exit 20 "install as e2e-user" e2e_as e2e-user "$ctl" install /tmp/image.bin
	daemon_expect_exit 20 "check as e2e-user" e2e_as e2e-user "$ctl" check /tmp/image.bin
	daemon_expect_exit 20 "commit as e2e-user" e2e_as e2e-user "$ctl" commit --slot a
	daemon_expect_exit 20 "ratchet as e2e-user" e2e_as e2e-user "$ctl" ratchet 1
	daemon_expect_exit 20 "revoke as e2e-user" e2e_as e2e-user "$ctl" revoke /tmp/revocation-144.bin
	daemon_expect_exit 20 "warm-reset as e2e-user" e2e_as e2e-user "$ctl" warm-reset
	for m in "Commit u 0" "Ratchet su bl0 1" "WarmReset" "Revoke ay 1 0"; do
		# shellcheck disable=SC2086 # the method and its arguments
		e2e_as e2e-user busctl --system call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" $m \
			>/tmp/busctl.out 2>&1 && e2e_fail "busctl $m as e2e-user succeeded"
		grep -qE 'Access denied|Rejected send message|not authorized' /tmp/busctl.out ||
			e2e_fail "busctl $m as e2e-user: $(cat /tmp/busctl.out)"
	done
	e2e_log "ok: every update method refused to e2e-user"

	# The update agent's bad input: named errors, before anything reaches the kernel.
	daemon_expect_exit 10 "check of a directory" e2e_as e2e-update "$ctl" check /tmp
	grep -q 'InvalidArgument' /tmp/expect.out || e2e_fail "a directory: $(cat /tmp/expect.out)"
	daemon_expect_exit 10 "install of an empty file" e2e_as e2e-update "$ctl" install /tmp/empty.bin
	daemon_expect_exit 10 "ratchet to 256" e2e_as e2e-update "$ctl" ratchet 256
	daemon_expect_exit 11 "revoke with 143 bytes" e2e_as e2e-update "$ctl" revoke /tmp/revocation-143.bin
	grep -q 'Error.Malformed' /tmp/expect.out || e2e_fail "143 bytes: $(cat /tmp/expect.out)"
	daemon_expect_exit 2 "install --stage bl1" e2e_as e2e-update "$ctl" install --stage bl1 /tmp/image.bin

	e2e_assert_eq "$gen" "$(daemon_prop Generation)" "Generation after the refusals"
	e2e_signal after

	# The agent's WarmReset goes through: the record moves on, reset reason warm.
	e2e_as e2e-update "$ctl" --json warm-reset | tee /tmp/warm.json
	grep -q '"boot_status":"OK"' /tmp/warm.json || e2e_fail "warm reset: $(cat /tmp/warm.json)"
	e2e_wait_for 10 "ResetReason warm" test "$(daemon_prop ResetReason)" = 's "warm"'
	daemon_save_journal
}
