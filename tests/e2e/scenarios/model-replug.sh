# SPDX-License-Identifier: MIT
# The device dying and coming back, as the harness provides it for driver
# scenarios: the probe passes; the host kills the model (SIGKILL) and QEMU
# stays up while the guest's device goes silent (a request now times out);
# the host restarts the model on the same state and replugs the device
# through QMP; the probe passes again on the new model, whose device kept
# its provisioning (it boots to ready without being loaded again).
E2E_DESCRIPTION="model killed, restarted on its state, device replugged over QMP"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/tests/e2e/probe/otattest_probe.ko)

probe_param() {
	cat "/sys/module/otattest_probe/parameters/$1"
}

guest_main() {
	e2e_insmod otattest_probe rounds=3
	e2e_assert_eq pass "$(probe_param result)" "probe on the first model"
	rmmod otattest_probe

	e2e_signal kill-model
	e2e_wait_host model-killed 20
	# The old shared memory is still mapped, the device peer is gone: the
	# doorbell rings nobody and the request must time out.
	e2e_insmod otattest_probe rounds=1 timeout_ms=500 ready_timeout_ms=500
	e2e_assert_match 'fail: no mailbox interrupt.*' "$(probe_param result)" "probe with the model dead"
	rmmod otattest_probe

	e2e_signal replug
	e2e_wait_host replugged 30
	e2e_wait_for 10 "the replugged device" e2e_pci_find 1af4:1110
	e2e_insmod otattest_probe rounds=3
	e2e_assert_eq pass "$(probe_param result)" "probe on the restarted model"
	e2e_assert_eq ready "$(probe_param device_state)" "restarted device state"
}

host_hook() {
	e2e_wait_guest kill-model 50
	e2e_model_kill KILL
	e2e_qmp query-status | jq -e '.status == "running"' >/dev/null || e2e_fail "QEMU is not running after the model died"
	e2e_tell_guest model-killed

	e2e_wait_guest replug 30
	e2e_device_unplug
	e2e_model_restart
	e2e_device_plug
	e2e_tell_guest replugged
}
