# SPDX-License-Identifier: MIT
# The model dies (SIGKILL: the device loses power mid-flight) and comes
# back. While it is gone every request fails with ETIMEDOUT in bounded
# time and the device shows as unresponsive, but what it exported stays
# readable. A new model process has a new shared memory, which QEMU can
# only take with a new device, so the host re-plugs it; the guest sees the
# old function go (ENODEV for nobody: no request is waiting) and the new
# one bind, and it works. The record generation moves forward (the device
# persisted it), never back.
E2E_DESCRIPTION="model dies and comes back: ETIMEDOUT while gone, rebinds after re-plug"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_MODEL_MAY_EXIT=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local st0 gen0 gen1 pci

	kt_insmod timeout_ms=1000 poll_ms=200
	st0=$(kt_state)
	gen0=$(cat "$KT_SYS/generation")
	pci=$(kt_pci)

	kt_host model-kill || e2e_fail "could not kill the model"
	kt_nl_err ETIMEDOUT "ATTEST with the model dead" attest "$(kt_hex 16)"
	kt_assert_between 1000 1900 "$(kt_elapsed)" "ms until ETIMEDOUT"
	kt_nl_err ETIMEDOUT "again" attest "$(kt_hex 16)"
	kt_assert_between 1000 1900 "$(kt_elapsed)" "ms until ETIMEDOUT"
	e2e_assert_eq unresponsive "$(kt_state)" "state with the model dead"
	kt_nl_ok "GET_RECORD with the model dead (shared memory outlives it)" record
	e2e_assert_eq "$gen0" "$(kt_get generation "$KT_REPLY")" "generation of the last record"

	kt_host model-start || e2e_fail "could not restart the model"
	kt_host --quiet 4 unplug >/dev/null || e2e_fail "device_del failed"
	e2e_wait_for 20 "the old function to go" eval '[ ! -e "$pci" ]'
	kt_host unplugged >/dev/null || e2e_fail "QEMU still has the device"
	kt_host plug >/dev/null || e2e_fail "device_add failed"
	e2e_wait_for 20 "otattest0 on the new model" test -e "$KT_SYS"
	kt_wait_state "$st0"
	kt_nl_answered "ATTEST on the new model" attest "$(kt_hex 16 9)"
	gen1=$(cat "$KT_SYS/generation")
	[ "$gen1" -ge "$gen0" ] || e2e_fail "record generation went back: $gen0 -> $gen1"
	e2e_log "ok: record generation $gen0 -> $gen1"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
