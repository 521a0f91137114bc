# SPDX-License-Identifier: MIT
# ROTATE_TAGS and UPDATE_RESET are admin commands (GENL_ADMIN_PERM): an
# unprivileged user and the update agent's user without CAP_NET_ADMIN get
# EPERM and nothing happens; root rotates the tags (the tag key version
# moves, stages are re-tagged) and, after the model installed BL0 v2 in
# slot B, update-resets into it: the record changes (reset reason update,
# BL0 from slot B at SVN 2), its generation moves on, and a KOBJ_CHANGE
# uevent and a RECORD_CHANGED multicast carry the new generation. An update
# to an untrusted image is refused with EKEYREJECTED and the running image
# stays.
E2E_DESCRIPTION="rotate and update reset: EPERM unprivileged; root changes the record, events"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# The booted BL0 attempt's stage directory.
kt_booted_bl0() {
	local m
	for ((m = 0; m < $(cat "$KT_SYS/stage_count"); m++)); do
		if [ "$(cat "$KT_SYS/stage$m/stage")" = bl0 ] && [ "$(cat "$KT_SYS/stage$m/booted")" = 1 ]; then
			echo "$KT_SYS/stage$m"
			return 0
		fi
	done
	e2e_fail "no booted BL0 stage in the record"
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local gen0 gen1 gen2 tkv0 min0 who prov bl0

	kt_insmod timeout_ms=10000
	kt_wait_state ready
	prov=$E2E_SRC/build/e2e/$E2E_NAME/provision
	gen0=$(cat "$KT_SYS/generation")
	tkv0=$(cat "$KT_SYS/tag_key_version")
	min0=$(cat "$KT_SYS/min_svn")

	for who in e2e-user e2e-update; do
		for cmd in rotate "update 1"; do
			KT_REPLY=$(e2e_as "$who" "$KT_NLTEST" $cmd) && e2e_fail "$cmd as $who succeeded"
			e2e_assert_eq EPERM "$(kt_get error "$KT_REPLY")" "$cmd as $who"
		done
	done
	e2e_assert_eq "$gen0" "$(cat "$KT_SYS/generation")" "generation after the refused commands"

	# Rotation as root. Flash that takes as long as a real part's (the model
	# is otherwise done in about a millisecond) lets the guest see it run.
	kt_model fault flash-latency 20000
	kt_listen mon monitor -t 30
	kt_nl_ok "ROTATE_TAGS as root" rotate
	e2e_assert_eq "$tkv0" "$(kt_get key_version_old "$KT_REPLY")" "KEY_VERSION_OLD"
	e2e_assert_eq $((tkv0 + 1)) "$(kt_get key_version_new "$KT_REPLY")" "KEY_VERSION_NEW"
	[ "$(kt_get stages_retagged "$KT_REPLY")" -ge 1 ] || e2e_fail "no stage re-tagged: $(kt_oneline "$KT_REPLY")"
	e2e_assert_eq $((tkv0 + 1)) "$(cat "$KT_SYS/tag_key_version")" "sysfs tag_key_version after rotation"
	gen1=$(cat "$KT_SYS/generation")
	[ "$gen1" -gt "$gen0" ] || e2e_fail "rotation did not move the generation ($gen0 -> $gen1)"
	kt_wait_line /tmp/mon.out 5 "RECORD_CHANGED after rotation" event=record_changed "generation=$gen1"
	kt_wait_line /tmp/mon.out 5 "STATE_CHANGED back to ready" event=state_changed state=2
	kt_listen_stop mon
	# The rotation was seen while it ran (rotating, or its progress).
	grep -qE 'event=(rotate_progress|state_changed .*state=5 )' /tmp/mon.out ||
		e2e_fail "neither ROTATE_PROGRESS nor STATE_CHANGED to rotating: $(kt_oneline "$(cat /tmp/mon.out)")"
	e2e_log "ok: events during rotation: $(sed -n 's/^event=\([a-z_]*\).* state=\([0-9]*\).*/\1:\2/p; s/^event=\(rotate_progress\).*progress_done=\([0-9]*\).*/\1:\2/p' /tmp/mon.out | tr '\n' ' ')"
	e2e_assert_eq ready "$(kt_state)" "state after rotation"
	kt_model fault flash-latency off

	# Install BL0 v2 in slot B (the model's flash programmer), then update-reset into it.
	kt_model install bl0 b "$prov/bl0-v2.img"
	kt_listen uev uevents -t 30
	kt_listen mon monitor -t 30
	kt_listen gpoll pollsysfs "$KT_SYS/generation" -t 30
	kt_nl_ok "UPDATE_RESET to slot 1 as root" update 1
	e2e_assert_eq 0x00000739 "$(kt_get boot_status "$KT_REPLY")" "BOOT_STATUS"
	e2e_assert_eq 1 "$(kt_get slot "$KT_REPLY")" "SLOT now running"
	gen2=$(kt_get generation "$KT_REPLY")
	[ "$gen2" -gt "$gen1" ] || e2e_fail "update reset did not move the generation ($gen1 -> $gen2)"
	# The reply comes after the driver re-read the record: sysfs is current.
	e2e_assert_eq "$gen2" "$(cat "$KT_SYS/generation")" "sysfs generation when the reply arrives"
	e2e_assert_eq update "$(cat "$KT_SYS/reset_reason")" "reset_reason"
	bl0=$(kt_booted_bl0)
	e2e_assert_eq b "$(cat "$bl0/slot")" "booted BL0 slot"
	e2e_assert_eq 2 "$(cat "$bl0/svn")" "booted BL0 svn"
	e2e_assert_eq "$min0" "$(cat "$KT_SYS/min_svn")" "min_svn (an update to a newer SVN keeps it)"
	# Both were sent before the reply; a reset may pass through other states first.
	kt_wait_line /tmp/uev.out 5 "KOBJ_CHANGE uevent with the new generation" \
		ACTION=change SUBSYSTEM=otattest OTATTEST_RECORD_CHANGED=1 "OTATTEST_GENERATION=$gen2"
	kt_wait_line /tmp/mon.out 5 "RECORD_CHANGED multicast with the new generation" \
		event=record_changed device=0 "generation=$gen2"
	kt_listen_stop uev
	kt_listen_stop mon
	kt_listen_wait gpoll
	kt_line_has /tmp/gpoll.out "poll(2) on generation woke (sysfs_notify)" changed

	# An image the device does not trust: refused, the running one stays.
	kt_model install bl0 a "$prov/bl0-untrusted.img"
	kt_nl_err EKEYREJECTED "UPDATE_RESET to an untrusted image" update 0
	e2e_assert_eq "no provisioned root key matches the image or chain" "$(kt_msg)" "extack message (the refusal: the stranger key is unknown)"
	kt_wait_state ready
	bl0=$(kt_booted_bl0)
	e2e_assert_eq b "$(cat "$bl0/slot")" "booted BL0 slot after the refused update"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
