# SPDX-License-Identifier: MIT
# kernel-device-restart with systemd as PID 1 on the host's root over
# virtio-9p: the guest whose 9p server made device_del/device_add of the
# ivshmem device crash QEMU 7.2 (tests/e2e/README.md, "Known problems").
# The split model needs no unplug, so the device process dies and comes
# back three times with no replug and the same PCI function. The body is
# tests/e2e/kernel/device-restart.sh, read from the tree over 9p.
E2E_DESCRIPTION="kernel-device-restart in systemd mode (9p root): no replug, no QEMU crash"
E2E_MODE=systemd
# 150, as the other systemd scenarios: the limit counts the guest's boot
# (27 s on a loaded host) and three device deaths with 20 s answers; 60
# ran out in a CI rehearsal at load 5 with the body half done.
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODEL_SPLIT=1
E2E_PROVISION=1
E2E_MODEL_MAY_EXIT=1 # the device dies on purpose; the server is held to a clean stop
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/tests/e2e/kernel/otattest-nltest)

guest_main() {
	. "$E2E_SRC/tests/e2e/kernel/guest-lib.sh"
	. "$E2E_SRC/tests/e2e/kernel/device-restart.sh"
	kt_restart_guest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}

host_check() {
	. "$E2E_ROOT/tests/e2e/kernel/device-restart.sh"
	kt_restart_host_check
}
