# SPDX-License-Identifier: MIT
# Self-test of the runner's one retry after QEMU dies of SIGSEGV (QEMU
# 7.2's ivshmem-doorbell unplug; run.sh, retry_after_qemu_crash): the host
# hook kills the first attempt's QEMU with SIGSEGV once the guest is up;
# the second attempt must boot the same way and pass. A CI rehearsal of
# 2026-12-07 hit the real crash in model-replug, and its second attempt
# died at once ("the runner job for this scenario died"): the retry had
# moved prepare's kernel.env into attempt1/.
E2E_DESCRIPTION="harness: a QEMU that dies of SIGSEGV is run once more, and the second attempt passes"
E2E_MODE=fast
E2E_TIMEOUT=30
E2E_DEVICE=1

guest_main() {
	e2e_signal guest-up
	e2e_wait_host second-attempt 20
	e2e_log "second attempt: the guest booted again and the device is here"
	e2e_pci_find 1af4:1110 >/dev/null || e2e_fail "no ivshmem device in the second attempt"
}

host_hook() {
	e2e_wait_guest guest-up 20
	if [ ! -d "$E2E_RUN_DIR/attempt1" ]; then
		# timeout(1) runs QEMU; QEMU is the process with this run's QMP socket.
		pkill -SEGV -f "qemu-system.*$E2E_RUN_DIR/qemu-qmp.sock"
		return 0
	fi
	e2e_tell_guest second-attempt
}

host_check() {
	[ -d "$E2E_RUN_DIR/attempt1" ] || e2e_fail "no first attempt kept: QEMU was not killed"
	grep -q 'QEMU itself was killed by SIGSEGV' "$E2E_RUN_DIR/attempt1/verdict" ||
		e2e_fail "the first attempt's verdict: $(cat "$E2E_RUN_DIR/attempt1/verdict")"
}
