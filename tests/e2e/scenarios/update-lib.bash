# SPDX-License-Identifier: MIT
# Shared by the update-* systemd scenarios (sourced after daemon-lib.bash;
# functions only, among them the guest_setup and host_hook they share). The
# update agent is e2e-update (group otattest-update); the model is reached
# through the kernel scenarios' bridge (host_hook runs kt_bridge, the guest
# sources tests/e2e/kernel/guest-lib.sh: ul_guest_start).

# ul_ctl ARGS...: otattestctl as the update agent.
ul_ctl() {
	e2e_as e2e-update "$DAEMON_CTL" "$@"
}

# ul_prop NAME: a device property's value, without busctl's type and quotes.
ul_prop() {
	daemon_prop "$1" | sed 's/^[a-z]* //; s/^"\(.*\)"$/\1/'
}

# ul_refused EXIT ERROR WHAT ARGS...: otattestctl ARGS as the agent exits with
# EXIT naming ERROR, and the device's flash was not written.
ul_refused() {
	local want=$1 error=$2 what=$3 writes
	shift 3
	writes=$(kt_model_stat flash-writes)
	daemon_expect_exit "$want" "$what" ul_ctl "$@"
	grep -q "Error.$error" /tmp/expect.out || e2e_fail "$what: not $error: $(cat /tmp/expect.out)"
	e2e_assert_eq "$writes" "$(kt_model_stat flash-writes)" "$what: the model's flash writes"
}

# ul_cold_boot: the model's power-cycle; waits until the daemon shows the cold boot.
ul_cold_boot() {
	kt_host model power-cycle >/dev/null || e2e_fail "power-cycle"
	e2e_wait_for 20 "ResetReason cold" test "$(ul_prop ResetReason)" = cold
}

# ul_refused_reset SLOT WHAT: an update reset into SLOT is refused (the
# boot's own status or RUNTIME_UPDATE_REJECTED) and the running BL0 stays.
ul_refused_reset() {
	local slot=$1 what=$2 running rc=0
	running=$(ul_prop RunningBl0Slot)
	ul_ctl update-reset --slot "$slot" >/tmp/reset.out 2>&1 || rc=$?
	[ "$rc" = 12 ] || [ "$rc" = 14 ] || e2e_fail "$what: exit $rc: $(cat /tmp/reset.out)"
	e2e_assert_eq "$running" "$(ul_prop RunningBl0Slot)" "$what: RunningBl0Slot"
}

# ul_oi ARGS...: otimage on the host, its output in the run's otimage.log.
ul_oi() {
	"$E2E_ROOT/build/otimage" "$@" >>"$E2E_RUN_DIR/otimage.log" ||
		{ echo "otimage $* failed" >&2; return 1; }
}

# ul_provision: the provisioned device (daemon_provision: ROM_EXT SVN 2, BL0
# SVN 3 in both slots, the signer delegate for SVN 1..20) and
# $E2E_OUT/updates for the images the scenario makes.
ul_provision() {
	daemon_provision || return 1
	mkdir -p "$E2E_OUT/updates"
}

# ul_guest_start: the kernel scenarios' guest functions (kt_host, $KT_SYS)
# and the daemon up.
ul_guest_start() {
	. "$E2E_SRC/tests/e2e/kernel/guest-lib.sh"
	daemon_start ready
}

# The hooks every update scenario shares; one that needs more defines its
# own after sourcing this file. The guest: the daemon's users.
guest_setup() {
	daemon_guest_setup
}

# The host: the bridge for the guest's kt_host requests (the model's control socket).
host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
