# SPDX-License-Identifier: MIT
# The device exports a boot record with a bad magic (model fault
# "corrupt-record 0": byte 0 XOR 0xff). The driver refuses it: state
# record_invalid with RECORD_BAD_MAGIC, one log line, the record files and
# GET_RECORD say there is no valid record (ENODATA, EBADMSG), the change is
# announced (uevent and STATE_CHANGED); requests still reach the device.
# A good record brings everything back. Nothing oopses, nothing hangs.
E2E_DESCRIPTION="record with a bad magic: refused, record_invalid, recovery"
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
	local st0 gen0 f

	kt_insmod
	st0=$(kt_state)
	gen0=$(cat "$KT_SYS/generation")
	cp "$KT_SYS/record" /tmp/rec0.bin

	kt_listen uev uevents -c 1 -t 15
	kt_listen mon monitor -c 1 -t 15
	kt_model fault corrupt-record 0
	kt_wait_state record_invalid
	kt_assert_detail 0x00020e02 "RECORD_BAD_MAGIC"
	kt_dmesg_has 'otattest0: boot record refused: boot record magic is wrong \(status 0x00020e02\)' "refusal logged"
	for f in generation device_id min_svn stage_count record; do
		e2e_expect_fail "$f reads no data" cat "$KT_SYS/$f"
	done
	[ -z "$(ls "$KT_SYS/stage0")" ] || e2e_fail "stage0 still has files: $(ls "$KT_SYS/stage0")"
	kt_nl_err EBADMSG "GET_RECORD of a refused record" record
	e2e_assert_eq "boot record magic is wrong" "$(kt_msg)" "extack message"
	kt_nl_answered "ATTEST still reaches the device" attest "$(kt_hex 32)"
	kt_listen_wait uev
	kt_listen_wait mon
	kt_line_has /tmp/uev.out "KOBJ_CHANGE uevent for record_invalid" ACTION=change \
		OTATTEST_STATE_CHANGED=1 OTATTEST_STATE=record_invalid OTATTEST_STATE_DETAIL=0x00020e02
	kt_line_has /tmp/mon.out "STATE_CHANGED multicast for record_invalid" \
		event=state_changed state=16 state_detail=0x00020e02

	# A good record again: the model republishes it when the fault goes.
	kt_model fault corrupt-record off
	kt_model power-cycle
	kt_wait_state "$st0"
	e2e_assert_match '[0-9]+' "$(cat "$KT_SYS/generation")" "generation readable again"
	[ "$(cat "$KT_SYS/generation")" -ge "$gen0" ] || e2e_fail "generation went back"
	kt_nl_ok "GET_RECORD again" record -o /tmp/rec1.bin
	cmp -s /tmp/rec1.bin "$KT_SYS/record" || e2e_fail "GET_RECORD and sysfs differ"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
