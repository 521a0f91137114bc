# SPDX-License-Identifier: MIT
# The device removed (QMP device_del) and re-added (device_add) under a
# running otattestd: the State property goes absent then ready again with
# PropertiesChanged signals, calls meanwhile get DeviceUnavailable (never a
# hang or a crash), and the same object works again afterwards.
#
# Fast mode (initramfs, private system bus, otattestd started by hand)
# rather than systemd mode with the shipped unit: in systemd mode QEMU 7.2
# still dies of SIGSEGV on the unplug, QMP proxy or not
# (tests/e2e/lib/qmp-proxy.py, README "Known problems"). Tried on
# 2 December 2026 with daemon_guest_setup/daemon_start: 5 of 11 runs
# passed (one only at the runner's second attempt), QEMU crashed in 12 of
# 18 boots. Core dumps show the known bug: object_dynamic_cast_assert from
# aio_dispatch in ivshmem_vector_notify, a handler of the deleted device
# left on one of its eventfd numbers. Once on fd 19, one of the device's
# eventfds (17..22 in /proc/QEMU/fd just before device_del), with no
# DEVICE_DELETED in qmp-events.log yet: the number was taken again before
# the proxy could fill it. Once on fd 51 while the proxy's eight fillers
# had got fds 18..25: lower numbers were free, so the fillers missed the
# device's. In systemd mode the guest's whole root is QEMU's 9p export:
# QEMU holds ~200 host files open for it and its 9p worker threads open
# more at every exec in the guest, so a freed number is taken again at
# once, and the holes 9p leaves below the device's fds defeat filling the
# lowest free numbers. Fast mode has only the share on 9p. A QEMU that
# removes the handlers on unrealize is the fix.
#
# Fast mode has no udevd either, so otattestd learns of the removal and
# the re-plug from the driver's DEVICE_REMOVED/DEVICE_ADDED netlink events
# alone.
E2E_DESCRIPTION="otattestd: device_del/device_add shows in State and signals; calls fail cleanly meanwhile"
E2E_MODE=fast
E2E_TIMEOUT=90
E2E_DBUS=1
E2E_BINARIES=(build/otattestd build/otattestctl /usr/bin/busctl)
# The initramfs has no host tree: the helpers go where the guest looks.
E2E_FILES=("systemd/org.otattest.BootAttest1.conf:/etc/dbus-1/system.d/org.otattest.BootAttest1.conf"
	"tests/e2e/scenarios/daemon-lib.bash:${E2E_ROOT:-}/tests/e2e/scenarios/daemon-lib.bash")
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_main() {
	local watch_pid
	e2e_dbus_start
	e2e_insmod otattest
	"$E2E_SRC/build/otattestd" --log-target=stderr >"$E2E_OUT/otattestd.log" 2>&1 &
	e2e_wait_for 15 "otattestd on the bus" daemon_has_name
	e2e_wait_for 15 "otattest0 ready" daemon_state_is ready
	"$E2E_SRC/build/otattestctl" --json watch >/tmp/watch.jsonl 2>/tmp/watch.err &
	watch_pid=$!
	e2e_wait_for 30 "otattestctl watch subscribed" daemon_watch_subscribed

	e2e_signal unplug
	e2e_wait_for 30 "State absent after device_del" daemon_state_is absent
	e2e_assert_eq "b false" "$(daemon_prop RecordValid)" "no record while absent"
	daemon_expect_exit 19 "Attest while absent" daemon_ctl attest --nonce 00112233445566778899aabbccddeeff -o /tmp/x
	grep -q 'DeviceUnavailable' /tmp/expect.out || e2e_fail "no DeviceUnavailable while absent"
	daemon_expect_exit 19 "otattestctl status while absent" daemon_ctl status
	daemon_has_name || e2e_fail "otattestd died on unplug"

	e2e_signal replug
	e2e_wait_for 30 "State ready after device_add" daemon_state_is ready
	e2e_wait_for 10 "a record again" test "$(daemon_prop RecordValid)" = "b true"
	daemon_ctl attest --nonce 00112233445566778899aabbccddeeff -o /tmp/evidence.cose
	daemon_ctl status
	sleep 0.5
	kill "$watch_pid"
	e2e_save /tmp/watch.jsonl
	# The signals told the story in order: absent, then ready.
	local absent ready
	absent=$(grep -n '"State":"absent"' /tmp/watch.jsonl | head -1 | cut -d: -f1) || true
	ready=$(grep -n '"State":"ready"' /tmp/watch.jsonl | tail -1 | cut -d: -f1) || true
	[ -n "$absent" ] && [ -n "$ready" ] && [ "$ready" -gt "$absent" ] ||
		e2e_fail "watch did not see State absent then ready (lines ${absent:-none}, ${ready:-none})"
	e2e_log "PropertiesChanged: State absent (line $absent), then ready (line $ready)"
	grep -E 'device went away|device appeared' "$E2E_OUT/otattestd.log" || e2e_fail "otattestd did not log the removal"
}

host_hook() {
	e2e_wait_guest unplug 60
	daemon_unplug
	e2e_wait_guest replug 60
	daemon_plug
}
