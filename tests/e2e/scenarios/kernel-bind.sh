# SPDX-License-Identifier: MIT
# otattest.ko binds to the model's ivshmem-doorbell function and declines,
# with a reason in the log, three other 1af4:1110 functions: one whose
# memory holds no info block, one whose info block speaks ABI 2, and an
# ivshmem-plain one (a valid info block, but no doorbell: no MSI-X). Its sysfs
# directory holds exactly the documented files, read-only, present before
# the add uevent (which carries the state); netlink finds the device; the
# module unloads and loads again cleanly.
E2E_DESCRIPTION="driver binds only to an otattest device; sysfs as documented; add uevent"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=(
	"tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh"
	"kernel/ABI/testing/sysfs-class-otattest:/e2e/kernel/sysfs-class-otattest"
)
# Three decoys, each 64 KiB of shared memory prepared by host_prepare.
KT_DECOYS=${E2E_BUILD:-/nonexistent}/kernel-bind
E2E_QEMU_ARGS=(
	-object "memory-backend-file,id=kt-zero,size=64K,share=on,mem-path=$KT_DECOYS/kt-zero.mem"
	-device "ivshmem-plain,id=ktzero,memdev=kt-zero"
	-object "memory-backend-file,id=kt-abi,size=64K,share=on,mem-path=$KT_DECOYS/kt-abi.mem"
	-device "ivshmem-plain,id=ktabi,memdev=kt-abi"
	-object "memory-backend-file,id=kt-plain,size=64K,share=on,mem-path=$KT_DECOYS/kt-plain.mem"
	-device "ivshmem-plain,id=ktplain,memdev=kt-plain"
)

# An info block (struct ota_shm_info, little-endian) with ABI major $1.
kt_info_block() {
	/usr/bin/python3 - "$1" <<'EOF'
import struct, sys
major = int(sys.argv[1])
blk = struct.pack("<4sHHIIIIIIIIIIIIII", b"OTSM", major, 0, 64, 0x10000, 0, 2, 0x739, 2,
                  0x1000, 0x1000, 0x2000, 0x2000, 0x4000, 0xc000, 0, 0)
sys.stdout.buffer.write(blk + bytes(0x10000 - len(blk)))
EOF
}

host_prepare() {
	head -c 65536 /dev/zero >"$KT_DECOYS/kt-zero.mem"
	kt_info_block 2 >"$KT_DECOYS/kt-abi.mem"
	kt_info_block 1 >"$KT_DECOYS/kt-plain.mem"
}

# Documented file names (relative to otattestN/), stage<M> as given.
kt_documented() {
	sed -n 's|^What:[[:space:]]*/sys/class/otattest/otattest<N>/||p' /e2e/kernel/sysfs-class-otattest |
		grep -v '^$' | grep -v '/$'
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local f n rel stages m

	kt_listen uev uevents -c 1 -t 15
	kt_insmod
	kt_listen_wait uev

	# Bound once, to the right function; the decoys declined, each for its reason.
	e2e_assert_eq "$KT_DEV" "$(ls /sys/class/otattest)" "devices in /sys/class/otattest"
	n=0
	for f in /sys/bus/pci/devices/*; do
		[ "$(cat "$f/vendor"):$(cat "$f/device")" = 0x1af4:0x1110 ] || continue
		n=$((n + 1))
		if [ "$(readlink -f "$f")" = "$(kt_pci)" ]; then
			e2e_assert_eq otattest "$(basename "$(readlink "$f/driver")")" "driver of ${f##*/}"
		else
			[ ! -e "$f/driver" ] || e2e_fail "decoy ${f##*/} is bound to $(readlink "$f/driver")"
		fi
	done
	e2e_assert_eq 4 "$n" "ivshmem functions on the bus"
	kt_dmesg_has 'declined: no otattest info block in BAR2 \(magic 0x00000000\)' "zeroed memory declined"
	kt_dmesg_has 'declined: device speaks ABI 2\.0 .*driver speaks 1\.x' "ABI 2 declined"
	kt_dmesg_has 'declined: 0 MSI-X vectors, needs 2' "ivshmem-plain (no doorbell) declined"
	kt_dmesg_has "$KT_DEV: ABI 1\.0, peer [0-9]+, device peer 0, state " "bound with a reason"

	# The add uevent: after the attributes, with the state in it.
	grep -q 'ACTION=add' /tmp/uev.out || e2e_fail "no add uevent: $(cat /tmp/uev.out)"
	e2e_assert_eq "$(kt_state)" "$(kt_get OTATTEST_STATE "$(grep ACTION=add /tmp/uev.out)")" \
		"OTATTEST_STATE in the add uevent"

	# Every file is documented and read-only; every documented file exists.
	stages=$(cat "$KT_SYS/stage_count" 2>/dev/null || echo 0)
	(cd "$KT_SYS" && find . -type f ! -name uevent ! -path './power/*' | sed 's|^\./||' | sort) >/tmp/files
	kt_documented >/tmp/doc
	sed 's/stage<M>/stage0/' /tmp/doc >/tmp/doc0
	while read -r rel; do
		grep -qx "$(sed 's/^stage[0-9]/stage0/' <<<"$rel")" /tmp/doc0 ||
			e2e_fail "sysfs file $rel is not in kernel/ABI/testing/sysfs-class-otattest"
		[ "$(stat -c %a "$KT_SYS/$rel")" = 444 ] || e2e_fail "$rel has mode $(stat -c %a "$KT_SYS/$rel")"
	done </tmp/files
	while read -r rel; do
		case $rel in
		stage\<M\>/*)
			for ((m = 0; m < 4; m++)); do
				f=$KT_SYS/stage$m/${rel#stage<M>/}
				if [ $m -lt "$stages" ]; then
					[ -f "$f" ] || e2e_fail "stage$m/${rel#stage<M>/} missing (stage_count $stages)"
				else
					[ ! -e "$f" ] || e2e_fail "stage$m/${rel#stage<M>/} present (stage_count $stages)"
				fi
			done
			;;
		*) [ -e "$KT_SYS/$rel" ] || e2e_fail "documented $rel is missing" ;;
		esac
	done </tmp/doc
	e2e_log "ok: $(wc -l </tmp/files) sysfs files, all documented and read-only, stage_count $stages"

	# One value per file: a single line each (the binary record aside).
	while read -r rel; do
		[ "$rel" = record ] && continue
		n=$(cat "$KT_SYS/$rel" 2>/dev/null | wc -l)
		[ "$n" -le 1 ] || e2e_fail "$rel holds $n lines"
	done </tmp/files

	# Netlink sees the same device and state.
	kt_nl_ok "GET_DEVICE dump" devices
	e2e_assert_eq 1 "$(kt_get devices "$KT_REPLY")" "devices in the dump"
	kt_nl_ok "GET_DEVICE by name" -n "$KT_DEV" device
	e2e_assert_eq 0 "$(kt_get device "$KT_REPLY")" "OTATTEST_A_DEVICE"
	e2e_assert_eq "$KT_DEV" "$(kt_get device_name "$KT_REPLY")" "OTATTEST_A_DEVICE_NAME"

	# Module parameters with their defaults.
	e2e_assert_eq 3000 "$(cat /sys/module/otattest/parameters/timeout_ms)" "timeout_ms default"
	e2e_assert_eq 1000 "$(cat /sys/module/otattest/parameters/poll_ms)" "poll_ms default"
	e2e_assert_eq 10 "$(cat /sys/module/otattest/parameters/event_interval_ms)" "event_interval_ms default"
	e2e_expect_fail "timeout_ms=5 refused" sh -c 'echo 5 >/sys/module/otattest/parameters/timeout_ms'

	# Unload and load again.
	rmmod otattest
	[ ! -e /sys/class/otattest ] || e2e_fail "/sys/class/otattest still there after rmmod"
	kt_dmesg_has "$KT_DEV: removed" "removal logged"
	kt_insmod timeout_ms=2000
	e2e_assert_eq 2000 "$(cat /sys/module/otattest/parameters/timeout_ms)" "timeout_ms from insmod"
	kt_nl_ok "GET_DEVICE after reload" device
	rmmod otattest
}
