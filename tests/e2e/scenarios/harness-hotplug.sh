# SPDX-License-Identifier: MIT
# The hot-unplug path the kernel scenarios rely on: a host hook removes a
# PCI device through QMP (device_del), the guest sees it go through ACPI
# hotplug, then the hook plugs it back (device_add) and the guest sees it
# return. Uses QEMU's pci-testdev (1b36:0005) so it needs no model.
E2E_DESCRIPTION="QMP device_del/device_add of a PCI device seen by the guest"
E2E_TIMEOUT=40
E2E_QEMU_ARGS=(-device pci-testdev,id=hp0)

testdev_present() {
	e2e_pci_find 1b36:0005 >/dev/null
}

guest_main() {
	testdev_present || e2e_fail "pci-testdev is not on the bus at boot"
	e2e_signal unplug
	e2e_wait_for 20 "the device to be removed" eval '! testdev_present'
	e2e_log "ok: pci-testdev gone after device_del"
	e2e_signal replug
	e2e_wait_for 20 "the device to come back" testdev_present
	e2e_log "ok: pci-testdev back after device_add at $(basename "$(e2e_pci_find 1b36:0005)")"
}

host_hook() {
	e2e_wait_guest unplug 30
	e2e_qmp device_del '{"id": "hp0"}' >/dev/null
	# device_del only asks: the guest ejects, then QEMU reports the deletion.
	local i
	for ((i = 0; i < 200; i++)); do
		e2e_qmp qom-list '{"path": "/machine/peripheral"}' | jq -e 'map(.name) | index("hp0") | not' >/dev/null && break
		sleep 0.1
	done
	[ $i -lt 200 ] || e2e_fail "QEMU still has hp0 20 s after device_del"
	e2e_wait_guest replug 30
	e2e_qmp device_add '{"driver": "pci-testdev", "id": "hp0"}' >/dev/null
}
