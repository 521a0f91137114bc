# SPDX-License-Identifier: MIT
# Functions for a scenario's host part (host_prepare, host_hook,
# host_check). Sourced by the runner in the scenario's own process.
#
# Set by the runner:
#   E2E_NAME       scenario name
#   E2E_RUN_DIR    build/e2e/<name>/ (logs, sockets, state)
#   E2E_OUT        its out/: the guest's writable share
#   E2E_QMP        QEMU's QMP socket
#   E2E_MODEL_CTL  the model's control socket (when the scenario has a device)
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
# value as JSON, fails on an error reply. Events seen meanwhile go to
# stderr. Example: e2e_qmp device_del '{"id": "otattest0"}'
e2e_qmp() {
	/usr/bin/python3 "$E2E_ROOT/tests/e2e/lib/qmp.py" "$E2E_QMP" "$@"
}

# e2e_model_ctl [--json] REQUEST...: one control request to the model
# (docs/model.md: status, power-cycle, install, otp, fault, stop); prints
# the reply, fails unless it is "ok". Example: e2e_model_ctl fault drop on
e2e_model_ctl() {
	"$E2E_ROOT/$E2E_MODEL_BIN" ctl --control="$E2E_MODEL_CTL" "$@"
}

# e2e_wait_guest NAME [SECONDS]: wait until the guest ran e2e_signal NAME.
e2e_wait_guest() {
	local name=$1 n=$((${2:-30} * 20)) i
	for ((i = 0; i < n; i++)); do
		[ -e "$E2E_OUT/signals/$name" ] && return 0
		sleep 0.05
	done
	e2e_fail "timed out waiting for the guest's '$name'"
}

# e2e_tell_guest NAME: the guest's e2e_wait_host NAME returns.
e2e_tell_guest() {
	mkdir -p "$E2E_OUT/from-host"
	: >"$E2E_OUT/from-host/$1"
}
