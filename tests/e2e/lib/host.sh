# SPDX-License-Identifier: MIT
# Functions for a scenario's host part (host_prepare, host_hook,
# host_check). Sourced by the runner in the scenario's own process.
#
# Set by the runner:
#   E2E_NAME       scenario name
#   E2E_RUN_DIR    build/e2e/<name>/ (logs, sockets, state)
#   E2E_OUT        its out/: the guest's writable share
#   E2E_QMP        QMP, through lib/qmp-proxy.py (events: qmp-events.log)
#   E2E_MODEL_CTL  the model's control socket (when the scenario has a device)
#   E2E_MODEL_PID  the model's pid (the current one, after e2e_model_start);
#                  with E2E_MODEL_SPLIT=1 the device process's
#   E2E_MODEL_SERVER_PID with E2E_MODEL_SPLIT=1: the split model's server
#   E2E_MODEL_STATE the model's state directory
#   E2E_PROVISION_DIR with E2E_PROVISION=1: keys, images, CA (lib/provision.sh)
#   E2E_ROOT       the source tree

e2e_log() {
	echo "[e2e host] $*"
}

e2e_fail() {
	echo "E2E-FAIL: $*" | tee -a "$E2E_RUN_DIR/host-failure" >&2
	exit 1
}

# e2e_qmp COMMAND [ARGUMENTS-JSON]: one QMP command; prints the return
# value as JSON, fails on an error reply. Events are in qmp-events.log.
# Example: e2e_qmp device_del '{"id": "otattest0"}'
e2e_qmp() {
	/usr/bin/python3 "$E2E_ROOT/tests/e2e/lib/qmp.py" "$E2E_QMP" "$@"
}

# e2e_model_ctl [--json] REQUEST...: one control request to the model
# (docs/model.md: status, power-cycle, install, otp, fault, stop); prints
# the reply, fails unless it is "ok". Example: e2e_model_ctl fault drop on
e2e_model_ctl() {
	"$E2E_ROOT/$E2E_MODEL_BIN" ctl --control="$E2E_MODEL_CTL" "$@"
}

# e2e_model_kill [SIGNAL]: end the model (default SIGKILL: the device dies
# with no warning). QEMU stays up; the guest's device goes silent. The
# scenario sets E2E_MODEL_MAY_EXIT=1 unless it restarts the model. With
# E2E_MODEL_SPLIT=1 only the device process ends; the server keeps QEMU's
# connection and the shared memory.
e2e_model_kill() {
	e2e_model_signal "$E2E_RUN_DIR" "${1:-KILL}" || e2e_fail "the model did not end on SIG${1:-KILL}"
}

# e2e_model_restart: stop the model if it runs (SIGTERM) and start it again
# on the same state directory with the scenario's E2E_MODEL_ARGS (but not
# the provisioning images: the device keeps what it had). Returns once it is
# ready. QEMU's ivshmem device keeps the old shared memory: replug it
# (e2e_device_unplug, e2e_device_plug) so the guest meets the new model.
# With E2E_MODEL_SPLIT=1 this restarts the device process only, and the
# guest meets it on the same PCI function, no replug.
e2e_model_restart() {
	e2e_model_signal "$E2E_RUN_DIR" TERM || e2e_fail "the model did not stop on SIGTERM"
	e2e_model_start "$E2E_RUN_DIR" >/dev/null || e2e_fail "the restarted model did not become ready"
}

# e2e_device_unplug: hot-unplug the device (QMP device_del of otattest0;
# the guest's ACPI hotplug ejects it, which waits for its driver's remove).
# Fails if QEMU still has it after 20 s.
e2e_device_unplug() {
	local i
	e2e_qmp device_del '{"id": "otattest0"}' >/dev/null
	for ((i = 0; i < 200; i++)); do
		e2e_qmp qom-list '{"path": "/machine/peripheral"}' |
			jq -e 'map(.name) | index("otattest0") | not' >/dev/null && return 0
		sleep 0.1
	done
	e2e_fail "QEMU still has otattest0 20 s after device_del"
}

# e2e_device_plug: plug the device back on a new chardev to the model's
# socket (QEMU cannot make an old one reconnect and replay the greeting).
# QEMU releases the old chardev a while after deleting the device, so the
# new one gets a fresh id and the old is removed once it can be.
e2e_device_plug() {
	local old new=ivshmem-$EPOCHSECONDS-$RANDOM i
	old=$(cat "$E2E_RUN_DIR/chardev-id" 2>/dev/null || echo ivshmem)
	for ((i = 0; i < 50; i++)); do
		e2e_qmp chardev-remove "{\"id\": \"$old\"}" >/dev/null 2>&1 && break
		sleep 0.1
	done
	e2e_qmp chardev-add "$(jq -nc --arg id "$new" --arg p "$E2E_RUN_DIR/ivshmem.sock" \
		'{id: $id, backend: {type: "socket", data: {addr: {type: "unix", data: {path: $p}}, server: false}}}')" >/dev/null
	echo "$new" >"$E2E_RUN_DIR/chardev-id"
	e2e_qmp device_add "$(jq -nc --arg c "$new" '{driver: "ivshmem-doorbell", id: "otattest0", chardev: $c, vectors: 2}')" >/dev/null
}

# e2e_wait_guest NAME [SECONDS]: wait until the guest ran e2e_signal NAME
# (SECONDS times E2E_WAIT_SCALE: longer on the debug kernel).
e2e_wait_guest() {
	local name=$1 n=$((${2:-30} * 20 * ${E2E_WAIT_SCALE:-1})) i
	for ((i = 0; i < n; i++)); do
		[ -e "$E2E_OUT/signals/$name" ] && return 0
		sleep 0.05
	done
	e2e_fail "timed out waiting for the guest's '$name'"
}

# e2e_hostile_knock "FIELD VALUE": the ATTEST nonce (hex) that orders the
# hostile BL0 (E2E_CORE_BL0=build/rv32/hostile-bl0.elf, E2E_CORE=rv32) to
# lie about FIELD from then until a reset: HOSTILE_KNOCK and the order as
# text, NUL-padded to 32 bytes (tests/rv32/hostile/hostile.h says which
# FIELD VALUE it takes).
e2e_hostile_knock() {
	local h
	h=$(printf 'hostile-lie %s' "$1" | od -An -tx1 -v | tr -d ' \n')
	while [ ${#h} -lt 64 ]; do h+=0; done
	echo "$h"
}

# e2e_tell_guest NAME: the guest's e2e_wait_host NAME returns.
e2e_tell_guest() {
	mkdir -p "$E2E_OUT/from-host"
	: >"$E2E_OUT/from-host/$1"
}
