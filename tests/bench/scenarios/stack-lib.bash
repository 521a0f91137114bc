# SPDX-License-Identifier: MIT
# Shared by the whole-stack benchmark and the soak (sourced by the e2e
# runner on the host and again in the guest; functions only). Builds on
# tests/e2e/scenarios/daemon-lib.bash: the same provisioned device, the
# shipped otattestd unit and D-Bus policy.
#
# The TPM is swtpm (Debian's) on the host, attached as QEMU's tpm-crb
# device; in the guest the kernel's tpm_crb driver makes /dev/tpm0 and
# Debian's tpm2-abrmd brokers it, as on a real machine.

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

STACK_LOADGEN=build/tests/bench/otattest-loadgen
TABRMD_BUS=com.intel.tss2.Tabrmd

# The QEMU arguments for the TPM, wired to the swtpm that stack_swtpm_start
# starts in the scenario's run directory (the runner sets E2E_RUN_DIR
# before it reads a scenario).
STACK_TPM_QEMU_ARGS=(
	-chardev "socket,id=chrtpm,path=${E2E_RUN_DIR:-.}/swtpm.sock"
	-tpmdev emulator,id=tpm0,chardev=chrtpm
	-device tpm-crb,tpmdev=tpm0
)

# ---- host ----

# stack_swtpm_start: a fresh TPM 2.0 for this run. It must listen before
# QEMU starts; --terminate ends it when QEMU closes the control channel.
stack_swtpm_start() {
	mkdir -p "$E2E_RUN_DIR/swtpm" || return 1
	swtpm socket --tpm2 --tpmstate dir="$E2E_RUN_DIR/swtpm" \
		--ctrl type=unixio,path="$E2E_RUN_DIR/swtpm.sock" --terminate \
		--log file="$E2E_RUN_DIR/swtpm.log" --pid file="$E2E_RUN_DIR/swtpm.pid" --daemon ||
		{ echo "swtpm did not start (see swtpm.log)"; return 1; }
}

# stack_swtpm_stop: in host_check, in case QEMU never connected.
stack_swtpm_stop() {
	local pid
	pid=$(cat "$E2E_RUN_DIR/swtpm.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || true
}

# ---- guest, chrooted before systemd starts ----

# stack_guest_setup [OTATTESTD_ARGS]: the shipped otattestd unit (with
# extra options through a drop-in that keeps every hardening line), and
# tpm2-abrmd as Debian ships it, less the dependency on dev-tpm0.device:
# this guest runs no udev, so that unit would never appear.
stack_guest_setup() {
	daemon_guest_setup
	if [ -n "${1:-}" ]; then
		printf '[Service]\nExecStart=\nExecStart=%s/build/otattestd %s\n' "$E2E_SRC" "$1" \
			>/etc/systemd/system/otattestd.service.d/bench.conf
	fi
	sed -e '/^After=dev-tpm0.device/d' -e '/^Requires=dev-tpm0.device/d' \
		-e 's|^ExecStart=.*|ExecStart=/usr/sbin/tpm2-abrmd --tcti=device:/dev/tpm0|' \
		-e 's|^\[Unit\]|[Unit]\nDefaultDependencies=no|' \
		/lib/systemd/system/tpm2-abrmd.service >/etc/systemd/system/tpm2-abrmd.service
}

# ---- guest, in guest_main ----

stack_loadgen() {
	"$E2E_SRC/$STACK_LOADGEN" "$@"
}

# stack_start: bus, driver, otattestd, TPM broker, and the TPM's
# attestation key; both daemons answering on the bus.
stack_start() {
	daemon_start ready
	e2e_wait_for 10 "/dev/tpm0 from tpm_crb" test -c /dev/tpm0
	# What Debian's tpm-udev rule would do.
	chown tss:tss /dev/tpm0 /dev/tpmrm0
	systemctl start tpm2-abrmd.service
	stack_loadgen wait-name "$TABRMD_BUS" 20 || e2e_fail "tpm2-abrmd is not on the bus"
	stack_loadgen tpm-setup || e2e_fail "cannot make the TPM attestation key"
}

# stack_bus_pid: the process that routes the system bus's messages:
# dbus-daemon is dbus.service's main process; dbus-broker's unit runs its
# launcher, whose child dbus-broker routes.
stack_bus_pid() {
	local main
	main=$(systemctl show -p MainPID --value dbus.service)
	if [ "${E2E_BUS:-dbus-daemon}" = dbus-broker ]; then
		pgrep -x -P "$main" dbus-broker
	else
		echo "$main"
	fi
}

# stack_rss_kib UNIT: resident memory of a service's main process.
stack_rss_kib() {
	local pid
	pid=$(systemctl show -p MainPID --value "$1")
	awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"
}
