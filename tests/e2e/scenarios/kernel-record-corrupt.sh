# SPDX-License-Identifier: MIT
# The device exports records corrupted in different places (model fault
# "corrupt-record OFFSET:XOR", applied to the record as shown in shared
# memory). Each corruption that breaks a rule ota_record_validate checks
# is refused with exactly that rule's status; one that keeps the record
# valid (a measurement byte) is a new record, not an error: the driver
# cannot know, and shows it. The device ends with its good record back.
#
#   offset 20 (lifecycle) ^0x80  -> RECORD_BAD_FIELD        0x00020e07
#   offset 120 (reserved) ^0x01  -> RECORD_RESERVED_NONZERO 0x00020e06
#   offset 64 (stage_count) ^0x08 -> RECORD_BAD_STAGE_COUNT 0x00020e05
#   offset 4 (version) ^0x02     -> RECORD_BAD_VERSION      0x00020e03
E2E_DESCRIPTION="corrupted records: each refused with its own status; recovery"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local st0 case off detail msg

	kt_insmod
	st0=$(kt_state)
	for case in "20:0x80 0x00020e07 a boot record field holds an out-of-range value" \
		"120:0x01 0x00020e06 a reserved boot record field is not zero" \
		"64:0x08 0x00020e05 boot record stage count is out of range" \
		"4:0x02 0x00020e03 boot record version is not supported"; do
		read -r off detail msg <<<"$case"
		kt_model fault corrupt-record "$off"
		kt_wait_state record_invalid
		kt_assert_detail "$detail" "after corrupting byte ${off%%:*}"
		kt_nl_err EBADMSG "GET_RECORD" record
		e2e_assert_eq "$msg" "$(kt_msg)" "extack message"
		kt_model fault corrupt-record off
		kt_model power-cycle
		kt_wait_state "$st0"
	done

	# Valid but different: a measurement byte of stage 0 (if there is one).
	if [ "$(cat "$KT_SYS/stage_count")" -gt 0 ]; then
		local before after
		before=$(cat "$KT_SYS/stage0/measurement")
		kt_listen mon monitor -c 1 -t 15
		kt_model fault corrupt-record 160:0x01
		e2e_wait_for 10 "the changed measurement" eval '[ "$(cat "$KT_SYS/stage0/measurement")" != "$before" ]'
		after=$(cat "$KT_SYS/stage0/measurement")
		e2e_assert_eq "$(printf %02x $((0x${before:0:2} ^ 1)))${before:2}" "$after" "stage0/measurement with byte 0 flipped"
		e2e_assert_eq "$st0" "$(kt_state)" "state with a valid (if altered) record"
		kt_listen_wait mon
		kt_line_has /tmp/mon.out "RECORD_CHANGED multicast" event=record_changed
		kt_model fault corrupt-record off
		kt_model power-cycle
		e2e_wait_for 10 "the original measurement" eval '[ "$(cat "$KT_SYS/stage0/measurement")" = "$before" ]'
	fi
	kt_nl_answered "ATTEST at the end" attest "$(kt_hex 20)"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
