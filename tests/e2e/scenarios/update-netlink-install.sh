# SPDX-License-Identifier: MIT
# An install through the driver alone, as a root tool would stream it
# (issue 14): a dry run of BL0 v2 writes nothing; the install writes slot
# B, and sysfs shows it pending with its SVN; a chunk sent on another
# socket than the one that began the session is refused
# (INSTALL_NOT_STARTED) and the device never sees it; an update reset
# into B, then a commit make B the primary (sysfs update/). The runtime's
# version as the guest reads it (sysfs runtime_version, GET_DEVICE and
# GET_RECORD's runtime_version: the driver asks BL0's GET_INFO after each
# boot): 1.0.0 before; after the update reset into B and the commit, BL0
# v2's 2.0.0 with E2E_CORE=rv32 (the host build's one runtime answers
# 1.0.0 whatever the slot holds); 1.0.0 again after an update reset back
# to A.
E2E_DESCRIPTION="install through netlink: dry run, install, the session held to its socket, update reset, commit, runtime version"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c' kernel/netlink-update.c 'firmware/runtime/install*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# The guest reads the image from the share (the initramfs is packed before provisioning).
# What BL0 v2 answers GET_INFO with on this model (lib/model.sh, e2e_code).
host_prepare() {
	cp "$E2E_PROVISION_DIR/bl0-v2.img" "$E2E_OUT/bl0-v2.img"
	if [ "${E2E_CORE:-host}" = rv32 ]; then echo 2.0.0; else echo 1.0.0; fi >"$E2E_OUT/v2-version"
}

# runtime_version_is WANT WHEN: sysfs, GET_DEVICE and GET_RECORD agree on
# WANT (the driver asks the runtime after a boot of other images, in the
# background: sysfs first, until it says).
runtime_version_is() {
	e2e_wait_for 10 "sysfs runtime_version $1 $2" grep -qx "$1" "$KT_SYS/runtime_version"
	kt_nl_ok "GET_DEVICE $2" device
	e2e_assert_eq "$1" "$(kt_get runtime_version "$KT_REPLY")" "GET_DEVICE runtime_version $2"
	kt_nl_ok "GET_RECORD $2" record -o /tmp/rec.bin
	e2e_assert_eq "$1" "$(kt_get runtime_version "$KT_REPLY")" "GET_RECORD runtime_version $2"
	e2e_log "ok: runtime version $1 $2"
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local img=$E2E_OUT/bl0-v2.img writes requests
	kt_insmod timeout_ms=10000
	kt_wait_state ready
	runtime_version_is 1.0.0 "before the install"

	writes=$(kt_model_stat flash-writes)
	kt_nl_ok "a dry run of BL0 v2" install 2 other "$img" check
	e2e_assert_eq 1 "$(kt_get slot "$KT_REPLY")" "the dry run's slot (B, the one not running)"
	e2e_assert_eq 2 "$(kt_get svn "$KT_REPLY")" "the dry run's SVN"
	e2e_assert_eq 1 "$(kt_get install_flags "$KT_REPLY")" "the dry run's flags (dry run)"
	e2e_assert_eq "$writes" "$(kt_model_stat flash-writes)" "the model's flash writes after the dry run"

	# A session begun on one socket is not continued from another.
	kt_nl_ok "INSTALL_BEGIN alone" raw 10 -a 1=u32:0 -a 21=u32:2 -a 22=u32:4096
	requests=$(kt_model_stat requests)
	kt_nl_err EINVAL "a chunk from another socket" raw 11 -a 1=u32:0 -a 23=u32:0 -a 24=bin:00
	e2e_assert_eq INSTALL_NOT_STARTED "$(kt_get status "$KT_REPLY")" "the chunk from another socket: status"
	e2e_assert_eq "$requests" "$(kt_model_stat requests)" \
		"the device's requests (the chunk never reached it)"

	kt_nl_ok "install BL0 v2" install 2 other "$img"
	e2e_assert_eq 2 "$(kt_get install_flags "$KT_REPLY")" "the install's flags (written)"
	[ "$(kt_model_stat flash-writes)" -gt "$writes" ] || e2e_fail "the install wrote no flash"
	e2e_wait_for 5 "update/pending bl0 b" grep -qx "bl0 b" "$KT_SYS/update/pending"
	e2e_assert_eq 2 "$(cat "$KT_SYS/slot_bl0_b/svn")" "slot_bl0_b/svn"
	e2e_assert_eq pending "$(cat "$KT_SYS/update/state")" "update/state"

	kt_nl_ok "UPDATE_RESET to B" update 1
	e2e_assert_eq 1 "$(kt_get slot "$KT_REPLY")" "slot running after the update reset"
	e2e_assert_eq trial "$(cat "$KT_SYS/update/state")" "update/state on trial"
	runtime_version_is "$(cat "$E2E_OUT/v2-version")" "after the update reset into B (BL0 v2)"
	kt_nl_ok "COMMIT B" commit 1
	e2e_assert_eq 1 "$(kt_get primary_slot "$KT_REPLY")" "COMMIT's primary slot"
	e2e_assert_eq b "$(cat "$KT_SYS/update/primary_slot")" "update/primary_slot"
	e2e_assert_eq "present verified running primary" "$(cat "$KT_SYS/slot_bl0_b/flags")" "slot_bl0_b/flags"
	runtime_version_is "$(cat "$E2E_OUT/v2-version")" "after the commit"

	# Back to v1's code in A (on trial there; B stays the primary).
	kt_nl_ok "UPDATE_RESET to A" update 0
	e2e_assert_eq 0 "$(kt_get slot "$KT_REPLY")" "slot running after the update reset to A"
	runtime_version_is 1.0.0 "after the update reset back to A"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}

# With E2E_CORE=rv32 the device runs the BL0 the guest installed: the
# provisioned bl0-v2.img is build/rv32/bl0-v2.elf, whose GET_INFO says
# 2.0.0 where bl0.elf says 1.0.0 (docs/mailbox.md). A cold boot of the
# state the guest left (v2 committed in slot B) answers 2.0.0; an update
# reset back to slot A, 1.0.0 again. On a copy of the state, after the
# scenario's model stopped (the guest left A on trial, B the primary); the host build runs one runtime whatever the
# slot holds, so there is nothing to check there.
host_check() {
	[ "${E2E_CORE:-host}" = rv32 ] || return 0
	local dir=$E2E_RUN_DIR/after-update m=$E2E_ROOT/build/otattest-model pid rc=0 i
	local peer=$E2E_ROOT/build/tests/model/model-peer
	rm -rf "$dir" && mkdir -p "$dir" && cp -a "$E2E_MODEL_STATE" "$dir/state"
	rm -f "$dir/state/"*.sock
	mapfile -t core < <(e2e_model_core_args)
	"$m" --state-dir="$dir/state" --no-fsync "${core[@]}" >"$dir/model.log" 2>&1 &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		"$m" ctl --state-dir="$dir/state" status >/dev/null 2>&1 && break
		sleep 0.05
	done
	version() { "$peer" --state-dir="$dir/state" call get-info | sed -n 's/^runtime-version: //p'; }
	v=$(version)
	echo "after the guest's update and commit, a cold boot: runtime-version $v"
	[ "$v" = 2.0.0 ] || rc=1
	"$peer" --state-dir="$dir/state" call update-reset a || rc=1
	v=$(version)
	echo "after an update reset back to slot A: runtime-version $v"
	[ "$v" = 1.0.0 ] || rc=1
	grep ' core-boot ' "$dir/model.log" | tail -n 2
	"$m" ctl --state-dir="$dir/state" stop >/dev/null 2>&1 || kill "$pid"
	wait "$pid" || true
	return $rc
}
