# SPDX-License-Identifier: MIT
# The device claims a record longer than it is (model fault
# "record-length N" in the record region's header). The driver never
# copies past what it bounded: longer than the region or than any record
# is DRIVER_RECORD_OVERSIZE, a length that fits but disagrees with the
# record's own is RECORD_BAD_LENGTH; a length of zero means no record yet
# (not an error). The largest lengths claimed run past the end of the
# 64 KiB BAR: had the driver followed one, the copy would have faulted.
E2E_DESCRIPTION="oversized record lengths: bounded, refused with the right status"
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
	local st0 len real case detail

	kt_insmod
	st0=$(kt_state)
	real=$(wc -c <"$KT_SYS/record")
	for case in "4294967295 0x00021704" "65536 0x00021704" "4081 0x00021704" "1217 0x00021704" \
		"$((real + 4)) 0x00020e04" "$((real - 1)) 0x00020e04"; do
		read -r len detail <<<"$case"
		kt_model fault record-length "$len"
		kt_wait_state record_invalid
		kt_assert_detail "$detail" "record-length $len (record is $real bytes)"
		kt_nl_err EBADMSG "GET_RECORD with record-length $len" record
		kt_model fault record-length off
		kt_model power-cycle
		kt_wait_state "$st0"
	done
	kt_dmesg_has 'boot record refused: the boot record is longer than its shared memory region \(status 0x00021704\)' "oversize logged"

	kt_model fault record-length 0
	e2e_wait_for 10 "no record" eval '! cat "$KT_SYS/generation" 2>/dev/null'
	kt_nl_err ENXIO "GET_RECORD with no record" record
	e2e_assert_eq "the device has not exported a boot record yet" "$(kt_msg)" "extack message"
	kt_model fault record-length off
	kt_model power-cycle
	kt_wait_state "$st0"
	kt_nl_ok "GET_RECORD at the end" record
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
