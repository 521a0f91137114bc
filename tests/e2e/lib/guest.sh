# SPDX-License-Identifier: MIT
# Functions for a scenario's guest part (guest_main, guest_setup). Sourced
# in the guest, in both modes, under bash. guest_main runs with
# `set -eEuo pipefail`: any failing command fails the scenario.
#
# Set by the harness (from /e2e/env or /run/e2e/env):
#   E2E_NAME  scenario name          E2E_MODE  fast | systemd
#   E2E_DIR   harness files in the guest (modules/, files/, lib/, guest/)
#   E2E_OUT   the writable share: build/e2e/<name>/out/ on the host
#   E2E_SRC   the source tree: its host path, except in systemd mode for a
#             tree under /tmp or /run, where it is /run/e2e/src (so that
#             services with PrivateTmp= see it too). Always use $E2E_SRC.

e2e_log() {
	echo "[e2e] $*"
}

# On a slower guest (E2E_WAIT_SCALE above 1: E2E_TIMEOUT_SCALE, the debug
# kernel) a D-Bus client (busctl, systemctl, otattestctl: sd-bus) waits for
# its answer as many times its default 25 s as the harness's own waits are
# scaled; e2e_as passes it on. On the debug kernel a D-Bus activation of
# otattestd took longer than 25 s (daemon-activation: "otattestctl: cannot
# list devices: Connection timed out"). Unset at scale 1.
if [ "${E2E_WAIT_SCALE:-1}" -gt 1 ]; then
	export SYSTEMD_BUS_TIMEOUT=$((25 * E2E_WAIT_SCALE))
fi

# e2e_fail MESSAGE: fail the scenario with a reason the runner prints.
e2e_fail() {
	echo "E2E-FAIL: $*" | tee -a "$E2E_OUT/failure" >&2
	exit 1
}

# e2e_assert_eq EXPECTED ACTUAL WHAT
e2e_assert_eq() {
	[ "$1" = "$2" ] || e2e_fail "$3: expected '$1', got '$2'"
	e2e_log "ok: $3 = '$2'"
}

# e2e_assert_match REGEX ACTUAL WHAT (extended regex, whole string)
e2e_assert_match() {
	[[ $2 =~ ^($1)$ ]] || e2e_fail "$3: '$2' does not match /$1/"
	e2e_log "ok: $3 = '$2'"
}

# e2e_expect_fail WHAT CMD...: CMD must exit non-zero.
e2e_expect_fail() {
	local what=$1
	shift
	if "$@"; then
		e2e_fail "$what: '$*' succeeded but must fail"
	fi
	e2e_log "ok: $what (failed as it must)"
}

# e2e_wait_for SECONDS WHAT CMD...: poll CMD every 50 ms until it succeeds.
e2e_wait_for() {
	local secs=$((${1} * ${E2E_WAIT_SCALE:-1})) what=$2 i n
	shift 2
	n=$((secs * 20))
	for ((i = 0; i < n; i++)); do
		"$@" >/dev/null && return 0
		sleep 0.05
	done
	e2e_fail "timed out after ${secs}s waiting for $what"
}

# e2e_insmod NAME [PARAM=VALUE...]: load a module the scenario listed in
# E2E_MODULES (copied to $E2E_DIR/modules/NAME.ko).
e2e_insmod() {
	local name=$1
	shift
	[ -f "$E2E_DIR/modules/$name.ko" ] || e2e_fail "module $name.ko is not in E2E_MODULES"
	insmod "$E2E_DIR/modules/$name.ko" "$@" || e2e_fail "insmod $name.ko $* failed"
}

# e2e_as USER CMD...: run CMD as USER (with USER's groups), e.g. e2e-user
# (unprivileged) or e2e-update (in otattest-update).
e2e_as() {
	local user=$1 uid gid
	shift
	uid=$(id -u "$user") && gid=$(id -g "$user") || e2e_fail "no user $user"
	if [ -n "${SYSTEMD_BUS_TIMEOUT:-}" ]; then
		setpriv --reuid="$uid" --regid="$gid" --init-groups --reset-env -- \
			env SYSTEMD_BUS_TIMEOUT="$SYSTEMD_BUS_TIMEOUT" "$@"
	else
		setpriv --reuid="$uid" --regid="$gid" --init-groups --reset-env -- "$@"
	fi
}

# e2e_signal NAME: tell the host hook that the guest reached NAME.
e2e_signal() {
	mkdir -p "$E2E_OUT/signals"
	: >"$E2E_OUT/signals/$1"
}

# e2e_wait_host NAME [SECONDS]: wait until the host hook says NAME.
# Fails at once when the host hook has failed.
e2e_wait_host() {
	e2e_wait_for "${2:-20}" "the host's '$1'" e2e_host_said "$1"
}

e2e_host_said() {
	[ ! -e "$E2E_OUT/from-host/.host-hook-failed" ] || e2e_fail "the host hook failed (see host-hook.log)"
	[ -e "$E2E_OUT/from-host/$1" ]
}

# e2e_save FILE [NAME]: copy FILE to the host (build/e2e/<name>/out/artifacts/).
e2e_save() {
	mkdir -p "$E2E_OUT/artifacts"
	cp "$1" "$E2E_OUT/artifacts/${2:-$(basename "$1")}"
}

# e2e_dbus_start: fast mode: a private system bus on the standard address
# with the host's configuration (policies in system.d included).
e2e_dbus_start() {
	mkdir -p /run/dbus
	dbus-daemon --system --fork --nopidfile || e2e_fail "dbus-daemon --system did not start"
	e2e_wait_for 5 "the system bus socket" test -S /run/dbus/system_bus_socket
}

# e2e_pci_find VENDOR:DEVICE: print the sysfs path of the first match.
e2e_pci_find() {
	local d v=0x${1%:*} p=0x${1#*:}
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = "$v" ] && [ "$(cat "$d/device")" = "$p" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}
