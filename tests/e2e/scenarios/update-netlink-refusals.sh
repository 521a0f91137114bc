# SPDX-License-Identifier: MIT
# The update commands at netlink (issue 14): every one of them (install
# begin, chunk and finish, commit, ratchet, revoke, warm reset) is refused
# with EPERM and HOST_PERMISSION to a socket opened without CAP_NET_ADMIN
# (an unprivileged user, and the update agent's user, which reaches the
# device only through otattestd), before anything is queued. Then root's
# bad input the driver itself refuses, each with its named status or the
# policy's errno: a chunk or a finish with no session open (and a chunk
# from a socket that did not begin it), an empty or oversized chunk, a
# stage that is none, a floor above 255, a revocation of the wrong
# length (and a revoke with neither or both of its two commands), a
# commit of a slot that is none. Nothing reaches flash: the
# model's flash write counter and the record generation are the same
# before and after. Root's warm reset then goes through (reset reason warm).
E2E_DESCRIPTION="update commands at netlink: EPERM unprivileged; bad input refused by the driver, flash untouched"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c' kernel/netlink-update.c)
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# un_refused ERRNO STATUS WHAT NLTEST-ARGS...: refused with ERRNO and, when
# STATUS is not "-", that status in the extack cookie.
un_refused() {
	local errno=$1 status=$2 what=$3
	shift 3
	kt_nl_err "$errno" "$what" "$@"
	[ "$status" = - ] || e2e_assert_eq "$status" "$(kt_get status "$KT_REPLY")" "$what: status"
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local gen0 writes0 who img=/tmp/image.bin cmd
	kt_insmod timeout_ms=10000
	kt_wait_state ready
	gen0=$(cat "$KT_SYS/generation")
	writes0=$(kt_model_stat flash-writes)
	[ -n "$writes0" ] || e2e_fail "the model's status has no flash-writes"
	head -c 10000 /dev/zero | tr '\0' 'x' >"$img"
	head -c 143 /dev/zero >/tmp/revocation-143.bin
	head -c 144 /dev/zero >/tmp/revocation-144.bin

	# Without CAP_NET_ADMIN: every update command, EPERM before the device is looked up.
	for who in e2e-user e2e-update; do
		for cmd in "install 2 other $img" "install 2 other $img check" "commit 0" "ratchet 2 1" \
			"revoke /tmp/revocation-144.bin" warm; do
			# shellcheck disable=SC2086 # the command's words
			KT_REPLY=$(e2e_as "$who" "$KT_NLTEST" $cmd) && e2e_fail "$cmd as $who succeeded"
			e2e_assert_eq EPERM "$(kt_get error "$KT_REPLY")" "$cmd as $who"
			e2e_assert_eq HOST_PERMISSION "$(kt_get status "$KT_REPLY")" "$cmd as $who: status"
		done
		# The chunk and the finish alone, as raw requests (commands 11 and 12).
		for cmd in "11 -a 1=u32:0 -a 23=u32:0 -a 24=bin:00" "12 -a 1=u32:0"; do
			# shellcheck disable=SC2086
			KT_REPLY=$(e2e_as "$who" "$KT_NLTEST" raw $cmd) && e2e_fail "raw $cmd as $who succeeded"
			e2e_assert_eq EPERM "$(kt_get error "$KT_REPLY")" "raw $cmd as $who"
		done
	done
	e2e_log "ok: every update command refused to e2e-user and e2e-update (EPERM, HOST_PERMISSION)"

	# Root: what the driver refuses before it reaches the device.
	un_refused EINVAL INSTALL_NOT_STARTED "a chunk with no session open" \
		raw 11 -a 1=u32:0 -a 23=u32:0 -a 24=bin:00
	un_refused EINVAL INSTALL_NOT_STARTED "a finish with no session open" raw 12 -a 1=u32:0
	un_refused ERANGE - "an empty chunk" raw 11 -a 1=u32:0 -a 23=u32:0 -a 24=flag:
	un_refused ERANGE - "a chunk of 4097 bytes" \
		raw 11 -a 1=u32:0 -a 23=u32:0 -a "24=bin:$(head -c 4097 /dev/zero | od -An -v -tx1 | tr -d ' \n')"
	un_refused EINVAL - "install of stage 3" install 3 other "$img"
	un_refused EINVAL - "install into slot 2" install 2 2 "$img"
	un_refused ERANGE - "a ratchet to floor 256" ratchet 2 256
	un_refused EINVAL - "a ratchet of stage 0" ratchet 0 1
	un_refused EINVAL - "a ratchet with an unknown flag" ratchet 2 1 2
	un_refused ERANGE - "a revocation of 143 bytes" revoke /tmp/revocation-143.bin
	# REVOKE takes exactly one of REVOCATION (29) and REVOCATION_HYBRID (35, 8000 bytes).
	un_refused EINVAL - "a revocation with neither command" raw 15 -a 1=u32:0
	un_refused ERANGE - "a hybrid revocation of 7999 bytes" \
		raw 15 -a 1=u32:0 -a "35=bin:$(head -c 7999 /dev/zero | od -An -v -tx1 | tr -d ' \n')"
	un_refused EINVAL - "a revocation with both commands" \
		raw 15 -a 1=u32:0 -a "29=bin:$(head -c 144 /dev/zero | od -An -v -tx1 | tr -d ' \n')" \
		-a "35=bin:$(head -c 8000 /dev/zero | od -An -v -tx1 | tr -d ' \n')"
	un_refused EINVAL - "a commit of slot 2" commit 2
	un_refused EINVAL - "a commit without a slot" raw 13 -a 1=u32:0
	e2e_assert_eq 16 "$(kt_get missing_attr "$KT_REPLY")" "commit without a slot: the missing attribute (SLOT)"

	e2e_assert_eq "$writes0" "$(kt_model_stat flash-writes)" "the model's flash writes after the refusals"
	e2e_assert_eq "$gen0" "$(cat "$KT_SYS/generation")" "record generation after the refusals"
	e2e_assert_eq ready "$(kt_state)" "device state after the refusals"

	# And root's warm reset goes through: ROM runs again, the record says warm.
	kt_nl_ok "WARM_RESET as root" warm
	e2e_assert_eq 0x00000739 "$(kt_get boot_status "$KT_REPLY")" "BOOT_STATUS after the warm reset"
	[ "$(kt_get generation "$KT_REPLY")" -gt "$gen0" ] || e2e_fail "the warm reset did not move the generation"
	e2e_assert_eq warm "$(cat "$KT_SYS/reset_reason")" "reset_reason after the warm reset"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
