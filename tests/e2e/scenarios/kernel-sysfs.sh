# SPDX-License-Identifier: MIT
# Every sysfs value equals the record the device exported, field by field.
# The host reads the device's shared memory through QEMU (pmemsave of
# BAR2, not through the driver) and decodes the record with libotattest's
# record.h (otattest-recdump); the guest compares each value with the file
# the driver shows, and the other way round, and the binary record with
# those bytes and with what netlink returns.
E2E_DESCRIPTION="sysfs == the model's record, field by field; binary record byte-identical"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_BUILD_TARGETS=(build/tests/e2e/kernel/otattest-recdump)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local bar2 key val got n=0 stages m rel

	kt_insmod
	kt_wait_state ready
	# BAR2 is the third line of the function's resource file.
	bar2=$(sed -n 3p "$(kt_pci)/resource" | cut -d' ' -f1)
	kt_host bar2 "$bar2" >/tmp/host.txt || e2e_fail "reading the shared memory: $(cat /tmp/host.txt)"
	e2e_log "the device's record as the host decoded it: $(grep -c = /tmp/host.txt) values"

	cmp "$E2E_OUT/kt-model-record.bin" "$KT_SYS/record" ||
		e2e_fail "sysfs record differs from the bytes in shared memory"
	e2e_log "ok: sysfs record == shared memory ($(wc -c <"$KT_SYS/record") bytes)"
	kt_nl_ok "GET_RECORD" record -o /tmp/nl.bin
	cmp /tmp/nl.bin "$KT_SYS/record" || e2e_fail "netlink record differs from sysfs record"
	e2e_assert_eq "$(cat "$KT_SYS/generation")" "$(kt_get generation "$KT_REPLY")" "OTATTEST_A_GENERATION"

	while IFS= read -r line; do
		key=${line%%=*}
		val=${line#*=}
		[ "$key" = shm_generation ] && continue
		got=$(cat "$KT_SYS/$key") || e2e_fail "cannot read $key"
		[ "$got" = "$val" ] || e2e_fail "$key: sysfs '$got', the device's record '$val'"
		n=$((n + 1))
	done </tmp/host.txt
	e2e_log "ok: $n sysfs values equal the host's decoding"

	# The other way round: every record file the driver shows was compared.
	(cd "$KT_SYS" && find . -type f ! -name uevent ! -path './power/*' | sed 's|^\./||') >/tmp/files
	while read -r rel; do
		# Not record fields: the state, and what the runtime answered (GET_INFO).
		case $rel in state | state_detail | record | runtime_version) continue ;; esac
		# A file with nothing to show for this record (a slot the device
		# did not report) reads ENODATA; the decoding has no line for it.
		cat "$KT_SYS/$rel" >/dev/null 2>&1 || continue
		grep -q "^$rel=" /tmp/host.txt || e2e_fail "$rel is shown but not in the host's decoding"
	done </tmp/files
	stages=$(cat "$KT_SYS/stage_count")
	[ "$stages" -ge 2 ] || e2e_fail "a provisioned device records at least ROM_EXT and BL0, not $stages"
	for ((m = stages; m < 4; m++)); do
		[ -z "$(ls "$KT_SYS/stage$m")" ] || e2e_fail "stage$m has files with stage_count $stages"
	done
	e2e_assert_eq "$(kt_host model status | tr ' ' '\n' | sed -n 's/^record-generation=//p')" \
		"$(cat "$KT_SYS/generation")" "generation, model status vs sysfs"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
