# SPDX-License-Identifier: MIT
# An interrupt storm: the model rings both of the guest's vectors 100000
# times at 50 kHz with nothing pending (fault "irq-storm"). The guest must
# not hang: while it rings, sysfs reads and netlink requests keep being
# served in bounded time, the driver coalesces the event interrupts into
# a bounded number of refreshes and logs the storm, and the mailbox
# ignores the spurious wakeups. Afterwards the device is as before.
# The bound on a step (and the driver's timeout) is 3 s times
# E2E_WAIT_SCALE: 9 s on the debug kernel, whose KASAN and lockdep make
# every interrupt dearer.
E2E_DESCRIPTION="interrupt storm on both vectors: guest responsive, device unharmed"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# Interrupts counted on the device's two MSI-X vectors so far.
kt_irqs() {
	awk '/otattest0/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' \
		/proc/interrupts
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local st0 gen0 irq0 irq1 t0 t1 i worst=0 ms bound=$((3000 * ${E2E_WAIT_SCALE:-1}))

	kt_insmod timeout_ms="$bound"
	st0=$(kt_state)
	gen0=$(cat "$KT_SYS/generation" 2>/dev/null || echo none)
	irq0=$(kt_irqs)

	kt_model fault irq-storm 100000,50000,all
	# Work while it rings: each step must finish in bounded time.
	for ((i = 0; i < 20; i++)); do
		t0=$(kt_now_ms)
		cat "$KT_SYS/state" "$KT_SYS/generation" >/dev/null 2>&1 || true
		kt_nl_ok "GET_DEVICE $i during the storm" device
		kt_nl_answered "ATTEST $i during the storm" attest "$(kt_hex 16 "$i")"
		t1=$(kt_now_ms)
		ms=$((t1 - t0))
		[ "$ms" -gt "$worst" ] && worst=$ms
		sleep 0.05
	done
	irq1=$(kt_irqs)
	e2e_log "storm: $((irq1 - irq0)) interrupts on otattest0 meanwhile, slowest step $worst ms"
	[ $((irq1 - irq0)) -ge 1000 ] || e2e_fail "only $((irq1 - irq0)) interrupts arrived: no storm to survive"
	kt_assert_between 0 "$bound" "$worst" "slowest sysfs+netlink step during the storm (ms)"
	kt_dmesg_has 'otattest0: event interrupt storm: [0-9]+ interrupts coalesced' "storm noticed"

	kt_model fault irq-storm off
	e2e_assert_eq "$st0" "$(kt_state)" "state after the storm"
	e2e_assert_eq "$gen0" "$(cat "$KT_SYS/generation" 2>/dev/null || echo none)" "record generation after the storm"
	kt_nl_answered "ATTEST after the storm" attest "$(kt_hex 64)"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
