# SPDX-License-Identifier: MIT
# An interrupt storm: the model rings both of the guest's vectors 100000
# times at 50 kHz with nothing pending (fault "irq-storm"). The guest must
# not hang: while it rings, sysfs reads and netlink requests keep being
# served in bounded time, the driver coalesces the event interrupts into
# a bounded number of refreshes and logs the storm once 200 of them came
# with no event from the device (however fast: a loaded guest receives the
# storm at a few hundred a second), and the mailbox ignores the spurious
# wakeups. Afterwards the device is as before.
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

# Interrupts counted on the device's MSI-X vectors so far: both, or with
# "event" the event vector's alone (the second, as the driver requests
# them in vector order).
kt_irqs() {
	awk -v only="${1:-}" '/otattest0/ {
		if (only == "event" && ++line != 2) next
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i
	} END { print n + 0 }' /proc/interrupts
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local st0 gen0 irq0 irq1 ev0 ev1 t0 t1 i worst=0 ms bound=$((3000 * ${E2E_WAIT_SCALE:-1}))
	local notice='otattest0: event interrupt storm: [0-9]+ interrupts in [0-9]+ ms, the device reported no event'

	kt_insmod timeout_ms="$bound"
	st0=$(kt_state)
	gen0=$(cat "$KT_SYS/generation" 2>/dev/null || echo none)
	ev0=$(kt_irqs event)

	# A slow storm first: 1000 rings at 500 Hz on the event vector, a few
	# per coalescing interval. The storm notice counts interrupts without
	# an event, not interrupts per refresh, so it must come here too (the
	# old per-refresh rule, over 100 in one 10 ms interval, never fired at
	# this rate, as it did not when a loaded CI guest received the fast
	# storm below at some 870 a second).
	kt_model fault irq-storm 1000,500,1
	t0=$(kt_now_ms)
	while ! dmesg | grep -qE "$notice" && [ $(($(kt_now_ms) - t0)) -lt $((10000 * ${E2E_WAIT_SCALE:-1})) ]; do
		sleep 0.2
	done
	ev1=$(kt_irqs event)
	e2e_log "slow storm: $((ev1 - ev0)) event interrupts in $(($(kt_now_ms) - t0)) ms"
	# The driver's 200 in a row, twice over: the first refresh's batch may
	# go to learning the device's event counter.
	[ $((ev1 - ev0)) -ge 400 ] || dmesg | grep -qE "$notice" ||
		e2e_fail "only $((ev1 - ev0)) event interrupts arrived: no storm to notice"
	kt_dmesg_has "$notice" "slow storm noticed"
	kt_model fault irq-storm off

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
