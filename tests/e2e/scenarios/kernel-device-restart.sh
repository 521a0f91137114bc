# SPDX-License-Identifier: MIT
# The device dies and comes back under a loaded driver, as a root of
# trust's firmware crashes and reboots while the host keeps its PCI
# function. The model is split (E2E_MODEL_SPLIT=1): three times the host
# SIGKILLs only the device process while a netlink request waits on it;
# the request fails with ETIMEDOUT in bounded time and the device shows
# as unresponsive; a new device process starts on the same state, and
# the driver finds it by itself: state ready, a valid record of a newer
# generation, GET_RECORD and ATTEST answered, on the same PCI function
# (QEMU saw no unplug) with a clean dmesg. The body is
# tests/e2e/kernel/device-restart.sh; kernel-device-restart-systemd runs
# it in systemd mode.
E2E_DESCRIPTION="split model: device process killed 3x under a waiting request; driver recovers, no replug"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_MODEL_SPLIT=1
E2E_PROVISION=1
E2E_MODEL_MAY_EXIT=1 # the device dies on purpose; the server is held to a clean stop
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh"
	"tests/e2e/kernel/device-restart.sh:/e2e/kernel/device-restart.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	. /e2e/kernel/device-restart.sh
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
