#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# otattest end-to-end scenarios in a QEMU guest.
set -u

usage() {
	cat <<'EOF'
Usage: tests/e2e/run.sh [OPTIONS] [SCENARIO...]

Run the end-to-end scenarios in tests/e2e/scenarios/ in QEMU guests
(qemu-system-x86_64 -accel tcg, Debian's kernel), each with its own
directory build/e2e/<name>/ holding its model state, sockets and logs.
With no SCENARIO, run them all; a SCENARIO is a name or a shell glob
("kernel-*"). A systemd scenario runs with dbus-daemon as the system bus;
NAME@dbus-broker runs it with dbus-broker instead, and the scenarios that
list dbus-broker in E2E_BUS_VARIANTS run both ways by default (their
second run is named NAME@dbus-broker).

For each scenario the runner builds what it needs, starts otattest-model
when it has a device, boots the guest, runs the scenario's guest part and
its host hooks, and fails it when the guest part fails, when QEMU hits the
scenario's timeout, when the model crashes, or when the kernel log shows a
BUG, WARNING, Oops, Call Trace, lockdep, KASAN or similar report.

Options:
  -j N           run N scenarios at once (default: the number of CPUs)
  -l, --list     list the scenarios with their mode and description
  -v, --verbose  on failure, print more of each log
  --scenarios DIR
                 take the scenarios from DIR instead of tests/e2e/scenarios
                 (the benchmarks' guests live in tests/bench/scenarios)
  --bzimage      boot the compressed bzImage instead of the extracted
                 vmlinux (slower; for comparison)
  --kernel K     the guest kernel of every scenario that does not name its
                 own (E2E_KERNEL): 6.1 (default) or 6.12, Debian 12's
                 kernels, or debug, the KASAN/lockdep/kmemleak/KFENCE/UBSAN
                 kernel built from linux-source-6.12 (scripts/kernel-debug.sh;
                 built on first use, then cached). Modules are built against
                 the chosen kernel's headers. Same as E2E_KERNEL=K.
  -h, --help     this text

Environment:
  E2E_KERNEL     as --kernel
  E2E_DEBUG_TIMEOUT_SCALE
                 on the debug kernel every scenario's E2E_TIMEOUT, and
                 the waits of the guest and the host hook (e2e_wait_for,
                 a listener's -t, e2e_wait_guest: E2E_WAIT_SCALE), are
                 multiplied by this
                 (default 3: KASAN and lockdep under TCG); E2E_TIMEOUT
                 then gets 120 s more for the rmmod and kmemleak scans
                 after the scenario, and a systemd scenario 180 s more
                 for its guest's boot
  E2E_TIMEOUT_SCALE
                 multiply every scenario's E2E_TIMEOUT by this (default 1;
                 for a machine so loaded that guests boot in tens of
                 seconds: the verdict line still says the limit it used)
  E2E_CORE       who runs the device's firmware: host (default), the stages
                 compiled into otattest-model; or rv32, the stage images
                 on its emulated core (otattest-model --core=rv32): the
                 provisioned device's ROM_EXT and BL0 are the real builds
                 (build/rv32/rom_ext.elf, bl0.elf), signed
  E2E_DAEMON_FROM
                 packages: the daemon scenarios run otattestd, otattestctl
                 and their files from the tree's Debian packages
                 (scripts/deb-build.sh --cached --upgrade), unpacked into
                 the guest's root with their postinst run; tree (default):
                 from the build tree
  E2E_QEMU_WRAP  a command to run QEMU under, for debugging, e.g.
                 "gdb -batch -ex run -ex bt --args" (a crash's backtrace
                 lands in qemu.log)

Output: one line per scenario (PASS, FAIL with the reason and the log
directory, or SKIP when a part it needs is not in the tree yet), then
"N passed, N failed, N skipped".

Exit status: 0 all passed (or skipped), 1 a scenario failed, 2 bad usage or
the harness itself could not run.

Logs in build/e2e/<name>/: serial.log (console, escapes stripped),
out/dmesg.log, out/guest.log, out/result, model.log, qemu.log,
host-hook.log, host-check.log, build.log. See tests/e2e/README.md.
EOF
}

E2E_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
E2E_BUILD=$E2E_ROOT/build/e2e
E2E_LIB=$E2E_ROOT/tests/e2e/lib
. "$E2E_LIB/scenario.sh"
. "$E2E_LIB/kernel.sh"
. "$E2E_LIB/initramfs.sh"
. "$E2E_LIB/qemu.sh"
. "$E2E_LIB/model.sh"
. "$E2E_LIB/personalize.sh"
. "$E2E_LIB/provision.sh"
. "$E2E_LIB/logscan.sh"

jobs_max=$(nproc 2>/dev/null || echo 1)
list=0 verbose=0 patterns=()
E2E_KERNEL_RUN=${E2E_KERNEL:-$E2E_KERNEL_DEFAULT}
E2E_SCENARIO_DIR=$E2E_ROOT/tests/e2e/scenarios
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || { usage >&2; exit 2; }; jobs_max=$2; shift ;;
	-j*) jobs_max=${1#-j} ;;
	-l | --list) list=1 ;;
	-v | --verbose) verbose=1 ;;
	--scenarios) [ $# -ge 2 ] || { usage >&2; exit 2; }; E2E_SCENARIO_DIR=$(cd "$2" && pwd) || exit 2; shift ;;
	--bzimage) export E2E_KERNEL_BOOT=bzimage ;;
	--kernel) [ $# -ge 2 ] || { usage >&2; exit 2; }; E2E_KERNEL_RUN=$2; shift ;;
	--kernel=*) E2E_KERNEL_RUN=${1#--kernel=} ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) patterns+=("$1") ;;
	esac
	shift
done
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: -j needs a positive number" >&2; exit 2; }

# e2e_load_scenario NAME: the defaults, then scenario NAME's file; a name
# NAME@BUS (BUS from E2E_BUSES) runs the file with E2E_BUS=BUS.
E2E_BUSES=(dbus-daemon dbus-broker)
e2e_load_scenario() {
	e2e_scenario_defaults
	. "$E2E_SCENARIO_DIR/${1%@*}.sh"
	case $1 in *@*) E2E_BUS=${1#*@} ;; esac
}

# --- which scenarios ---------------------------------------------------------
# Every scenario, and NAME@BUS for each bus in its E2E_BUS_VARIANTS.
all_names() {
	local f name v
	for f in "$E2E_SCENARIO_DIR"/*.sh; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .sh)
		echo "$name"
		for v in $(e2e_scenario_defaults; . "$f"; echo "${E2E_BUS_VARIANTS[*]}"); do
			echo "$name@$v"
		done
	done
}
scenarios=()
mapfile -t all < <(all_names)
for p in "${patterns[@]}"; do
	# NAME@BUS for a scenario that does not list BUS: asked for by name.
	case $p in
	*@*)
		[ -f "$E2E_SCENARIO_DIR/${p%@*}.sh" ] && [[ " ${E2E_BUSES[*]} " == *" ${p#*@} "* ]] &&
			[[ " ${all[*]} " != *" $p "* ]] && all+=("$p")
		;;
	esac
done
for name in "${all[@]}"; do
	if [ ${#patterns[@]} -gt 0 ]; then
		hit=0
		for p in "${patterns[@]}"; do
			# shellcheck disable=SC2053 # a glob on purpose
			[[ $name == $p ]] && hit=1
		done
		[ $hit = 1 ] || continue
	fi
	scenarios+=("$name")
done
if [ ${#scenarios[@]} -eq 0 ]; then
	echo "run.sh: no scenario matches ${patterns[*]:-(none in ${E2E_SCENARIO_DIR#"$E2E_ROOT"/})}" >&2
	exit 2
fi

if [ $list = 1 ]; then
	for name in "${scenarios[@]}"; do
		(
			e2e_load_scenario "$name"
			dev=; [ "$E2E_DEVICE" = 1 ] && dev=", device"
			[ "$E2E_DEVICE" = 1 ] && [ "$E2E_MODEL_SPLIT" = 1 ] && dev=", split device"
			krn=; [ "$E2E_KERNEL" != "$E2E_KERNEL_DEFAULT" ] && krn=", kernel $E2E_KERNEL"
			printf '%-28s %-8s %3ss%s%s  %s\n' "$name" "$E2E_MODE" "$E2E_TIMEOUT" "$dev" "$krn" "$E2E_DESCRIPTION"
		)
	done
	exit 0
fi

# With more than one at a time, the longest start first (their timeout is
# the measure: a clean tree has no earlier run to time), so a long scenario
# does not start last and run alone while the other CPUs idle.
if [ "$jobs_max" -gt 1 ] && [ ${#scenarios[@]} -gt 1 ]; then
	mapfile -t scenarios < <(for name in "${scenarios[@]}"; do
		(e2e_load_scenario "$name" && printf '%s %s\n' "$E2E_TIMEOUT" "$name")
	done | sort -s -k1,1rn | cut -d' ' -f2)
fi

# --- shared preparation ------------------------------------------------------
mkdir -p "$E2E_BUILD"
export E2E_ROOT E2E_BUILD E2E_KERNEL_RUN
# The run's kernel must be there (each scenario's own is checked in prepare).
case $E2E_KERNEL_RUN in
6.1 | 6.12 | debug) ;;
*) echo "run.sh: unknown kernel '$E2E_KERNEL_RUN' (6.1, 6.12 or debug)" >&2; exit 2 ;;
esac
if [ "$E2E_KERNEL_RUN" != debug ]; then
	E2E_KERNEL=$E2E_KERNEL_RUN e2e_kernel_version >/dev/null || exit 2
fi

# e2e_tree_path P: a tree-relative path made absolute; absolute ones kept.
e2e_tree_path() {
	case $1 in /*) echo "$1" ;; *) echo "$E2E_ROOT/$1" ;; esac
}

# prepare NAME: in the parent, one scenario at a time (so two makes never
# race): check requirements, build its targets, pack its initramfs. Writes
# the verdict file itself when the scenario cannot run.
# wait_scale: what the waits of the guest and of the host hook are
# multiplied by, as QEMU's limit is: E2E_TIMEOUT_SCALE, and on the debug
# kernel E2E_DEBUG_TIMEOUT_SCALE too.
wait_scale() {
	local ws=${E2E_TIMEOUT_SCALE:-1}
	[ "$E2E_KERNEL" = debug ] && ws=$((ws * ${E2E_DEBUG_TIMEOUT_SCALE:-3}))
	echo "$ws"
}

prepare() (
	local name=$1 dir=$E2E_BUILD/$1 g hits targets=() t root
	rm -rf "$dir"
	mkdir -p "$dir/out"
	chmod 1777 "$dir/out"
	e2e_load_scenario "$name"
	# The guest kernel (lib/kernel.sh), its image and base initramfs, for run_one.
	if ! e2e_kernel_prepare >>"$dir/build.log" 2>&1; then
		printf 'FAIL\t0\tbuilding the %s kernel failed (see %s)\n' "$E2E_KERNEL" "${dir#"$E2E_ROOT"/}/build.log" >"$dir/verdict"
		return 0
	fi
	local E2E_KVER E2E_KIMAGE E2E_BASE_CPIO
	if ! E2E_KVER=$(e2e_kernel_version 2>>"$dir/build.log") || ! E2E_KIMAGE=$(e2e_kernel_image 2>>"$dir/build.log") ||
		! E2E_BASE_CPIO=$(e2e_base_initramfs 2>>"$dir/build.log"); then
		printf 'FAIL\t0\tno guest kernel %s or its base initramfs (see %s)\n' "$E2E_KERNEL" "${dir#"$E2E_ROOT"/}/build.log" >"$dir/verdict"
		return 0
	fi
	printf 'E2E_KVER=%q\nE2E_KIMAGE=%q\n' "$E2E_KVER" "$E2E_KIMAGE" >"$dir/kernel.env"
	if [[ " ${E2E_BUSES[*]} " != *" $E2E_BUS "* ]]; then
		printf 'FAIL\t0\tE2E_BUS=%s is none of %s\n' "$E2E_BUS" "${E2E_BUSES[*]}" >"$dir/verdict"
		return 0
	fi
	if [ "$E2E_BUS" != dbus-daemon ] && [ "$E2E_MODE" != systemd ]; then
		printf 'FAIL\t0\tE2E_BUS=%s needs E2E_MODE=systemd (fast mode starts dbus-daemon itself)\n' \
			"$E2E_BUS" >"$dir/verdict"
		return 0
	fi

	for g in "${E2E_REQUIRES[@]}"; do
		hits=$(cd "$E2E_ROOT" && compgen -G "$g" | head -n1)
		if [ -z "$hits" ]; then
			printf 'SKIP\t0\t%s is not in the tree yet\n' "$g" >"$dir/verdict"
			return 0
		fi
	done

	# model-peer is the factory station a host_prepare may personalize with.
	[ "$E2E_DEVICE" = 1 ] && targets+=("$E2E_MODEL_BIN" build/tests/model/model-peer)
	# Provisioning personalizes the device on a model of its own (lib/personalize.sh).
	[ "$E2E_PROVISION" = 1 ] && targets+=(build/otimage build/otattest-model build/tests/model/model-peer)
	# The core's images (E2E_CORE=rv32): the mask ROM the model starts in, the stages it signs.
	[ "${E2E_CORE:-host}" = rv32 ] && targets+=("${E2E_CORE_IMAGES[@]}")
	for t in "${E2E_MODULES[@]}"; do
		targets+=("$(e2e_kernel_module_target "$t")")
	done
	targets+=("${E2E_BUILD_TARGETS[@]}")
	for t in "${E2E_BINARIES[@]}"; do
		case $t in /*) ;; *) targets+=("$t") ;; esac
	done
	if [ ${#targets[@]} -gt 0 ]; then
		# KERNEL: the kernel the modules are built against (kernel/build.mk).
		if ! make -C "$E2E_ROOT" --no-print-directory -j"$(nproc)" KERNEL="$E2E_KERNEL" "${targets[@]}" >>"$dir/build.log" 2>&1; then
			printf 'FAIL\t0\tbuilding %s failed (see %s)\n' "${targets[*]}" "${dir#"$E2E_ROOT"/}/build.log" >"$dir/verdict"
			return 0
		fi
	fi

	# The scenario's archive, appended to the base.
	root=$dir/initramfs.root
	mkdir -p "$root/e2e/guest" "$root/e2e/lib" "$root/e2e/modules" "$root/e2e/rootfs"
	cp "$E2E_ROOT"/tests/e2e/guest/* "$root/e2e/guest/"
	install -m 0755 "$E2E_ROOT/tests/e2e/guest/init" "$root/init"
	cp "$E2E_LIB/guest.sh" "$root/e2e/lib/"
	cp "$E2E_SCENARIO_DIR/${name%@*}.sh" "$root/e2e/scenario.sh"
	{
		printf 'E2E_NAME=%q\nE2E_MODE=%q\nE2E_SRC=%q\nE2E_BUS=%q\nE2E_KERNEL=%q\n' "$name" "$E2E_MODE" "$E2E_ROOT" "$E2E_BUS" "$E2E_KERNEL"
		printf 'E2E_ROOT_WRITABLE=%q\nE2E_DAEMON_FROM=%q\n' "$E2E_ROOT_WRITABLE" "${E2E_DAEMON_FROM:-tree}"
		printf 'E2E_DIR=/e2e\nE2E_OUT=/e2e/out\n'
		# The guest's own waits (e2e_wait_for, a listener's -t) grow as
		# the QEMU limit does: on the debug kernel by E2E_DEBUG_TIMEOUT_SCALE.
		printf 'E2E_WAIT_SCALE=%s\n' "$(wait_scale)"
		printf 'export E2E_NAME E2E_MODE E2E_SRC E2E_BUS E2E_KERNEL E2E_ROOT_WRITABLE E2E_DAEMON_FROM E2E_DIR E2E_OUT E2E_WAIT_SCALE\n'
	} >"$root/e2e/env"
	for t in "${E2E_MODULES[@]}"; do
		cp "$(e2e_tree_path "$(e2e_kernel_module_target "$t")")" "$root/e2e/modules/"
	done
	# Files: at their guest path in the initramfs (fast mode); in systemd
	# mode under /e2e/rootfs, which init copies over the new root.
	local fsroot=$root
	[ "$E2E_MODE" = systemd ] && fsroot=$root/e2e/rootfs
	for t in "${E2E_FILES[@]}"; do
		e2e_stage_file "$fsroot" "$(e2e_tree_path "${t%%:*}")" "${t#*:}" || {
			printf 'FAIL\t0\tcannot stage file %s\n' "$t" >"$dir/verdict"
			return 0
		}
	done
	# Packages (E2E_DEBS): their files where dpkg puts them, copied over the
	# root with E2E_FILES; their control files (postinst...) in the guest's
	# /run/e2e/debs/PKG/, for the scenario's guest_setup to run what it needs.
	if [ ${#E2E_DEBS[@]} -gt 0 ]; then
		if [ "$E2E_MODE" != systemd ] || [ "$E2E_ROOT_WRITABLE" != 1 ]; then
			printf 'FAIL\t0\tE2E_DEBS needs E2E_MODE=systemd and E2E_ROOT_WRITABLE=1\n' >"$dir/verdict"
			return 0
		fi
		if ! e2e_stage_debs "$fsroot" "$root/e2e/debs" "${E2E_DEBS[@]}" >>"$dir/build.log" 2>&1; then
			printf 'FAIL\t0\tthe packages %s: build or unpack failed (see %s)\n' "${E2E_DEBS[*]}" "${dir#"$E2E_ROOT"/}/build.log" >"$dir/verdict"
			return 0
		fi
	fi
	if [ "$E2E_MODE" = fast ]; then
		for t in "${E2E_BINARIES[@]}"; do
			e2e_stage_binary "$root" "$(e2e_tree_path "$t")" || {
				printf 'FAIL\t0\tcannot stage binary %s\n' "$t" >"$dir/verdict"
				return 0
			}
		done
		if [ "$E2E_DBUS" = 1 ]; then
			e2e_stage_binary "$root" /usr/bin/dbus-daemon
			e2e_stage_file "$root" /usr/share/dbus-1/system.conf
			mkdir -p "$root/usr/share/dbus-1/system.d" "$root/etc/dbus-1/system.d" "$root/var/lib/dbus"
		fi
		# Tools every fast scenario may use.
		e2e_stage_binary "$root" /usr/bin/setpriv
	fi
	e2e_cpio "$root" "$dir/extra.cpio" && cat "$E2E_BASE_CPIO" "$dir/extra.cpio" >"$dir/initrd.cpio" || {
		printf 'FAIL\t0\tpacking the initramfs failed\n' >"$dir/verdict"
		return 0
	}
	# The archive keeps it (cpio -t lists it); the tree would only be a copy
	# of host files lying around in build/.
	rm -rf "$root"
)

# run_one NAME: boot the scenario and write build/e2e/NAME/verdict as
# "PASS|FAIL<TAB>seconds<TAB>detail". Runs as a background job.
run_one() { # runs as a background job: already its own process
	local name=$1 dir=$E2E_BUILD/$1 t0 qrc hook_pid= hook_rc=0 check_rc=0 model= server= problems
	local E2E_MODEL_LOAD_ARGS=()
	local reason= ready= grc= secs i tq boot= proxy_pid=
	# Set before the scenario is read, so that its top-level assignments
	# (E2E_QEMU_ARGS naming a socket, say) may use them.
	export E2E_NAME=$name E2E_RUN_DIR=$dir E2E_OUT=$dir/out E2E_QMP=$dir/qmp.sock
	export E2E_MODEL_CTL=$dir/model.ctl E2E_MODEL_STATE=$dir/state E2E_PROVISION_DIR=$dir/provision
	e2e_load_scenario "$name"
	. "$E2E_LIB/host.sh"
	. "$dir/kernel.env" # E2E_KVER, E2E_KIMAGE: prepare chose them
	# KASAN (inline: every access checked), lockdep and kmemleak under TCG
	# make everything slower; the limit grows, what is checked does not.
	# Plus 120 s for what runs only there, after the scenario: rmmod and
	# two kmemleak scans 5 s apart (guest/run-scenario). CI's rehearsal of
	# 2026-12-07 ran out of kernel-netlink's 180 s in them, every step
	# passed (E2E-END rc=0 at guest uptime 172 s).
	[ "$E2E_KERNEL" = debug ] && E2E_TIMEOUT=$((E2E_TIMEOUT * ${E2E_DEBUG_TIMEOUT_SCALE:-3} + 120))
	# And a systemd guest's boot there: 121 and 165 s to the scenario at
	# load 6 (daemon-activation, daemon-admin, 2026-12-07), against 10 to
	# 35 s on 6.1; both then ran out of their limit in the scenario.
	[ "$E2E_KERNEL" = debug ] && [ "$E2E_MODE" = systemd ] && E2E_TIMEOUT=$((E2E_TIMEOUT + 180))
	E2E_TIMEOUT=$((E2E_TIMEOUT * ${E2E_TIMEOUT_SCALE:-1}))
	E2E_WAIT_SCALE=$(wait_scale) # the host hook's waits (e2e_wait_guest)
	export E2E_WAIT_SCALE
	export E2E_KERNEL E2E_KVER
	t0=${EPOCHREALTIME/./}

	verdict() {
		secs=$(((${EPOCHREALTIME/./} - t0) / 100000))
		printf '%s\t%d.%d\t%s\n' "$1" $((secs / 10)) $((secs % 10)) "$2" >"$dir/verdict"
		exit 0
	}
	cleanup() {
		# qemu_pid is timeout(1): SIGTERM makes it pass the signal on to
		# QEMU, which a SIGKILL of timeout itself would leave running.
		if [ -n "${qemu_pid:-}" ] && kill -TERM "$qemu_pid" 2>/dev/null; then
			sleep 0.5
			kill -KILL "$qemu_pid" 2>/dev/null
		fi
		[ -n "$hook_pid" ] && { kill -KILL -- "-$hook_pid"; wait "$hook_pid"; } 2>/dev/null
		[ -n "${proxy_pid:-}" ] && kill -TERM "$proxy_pid" 2>/dev/null
		[ -f "$dir/model.pid" ] && kill -KILL "$(cat "$dir/model.pid")" 2>/dev/null
		[ -f "$dir/model-server.pid" ] && kill -KILL "$(cat "$dir/model-server.pid")" 2>/dev/null
	}
	trap cleanup EXIT
	trap 'exit 143' TERM INT # so that cleanup runs when the runner is stopped

	if [ "$E2E_PROVISION" = 1 ]; then
		e2e_provision "$E2E_PROVISION_DIR" 2>"$dir/provision.err" ||
			verdict FAIL "provisioning failed: $(head -n1 "$dir/provision.err")"
		E2E_MODEL_LOAD_ARGS=(--load-flash="$E2E_PROVISION_DIR/flash.img" --load-otp="$E2E_PROVISION_DIR/otp.img")
	fi
	if declare -F host_prepare >/dev/null; then
		# Not "( ... ) || verdict": on the left of || bash ignores set -e
		# inside the subshell, and only its last command would count.
		(set -eEuo pipefail; host_prepare) >"$dir/host-prepare.log" 2>&1
		[ $? = 0 ] || verdict FAIL "host_prepare failed (see host-prepare.log)"
	fi
	if [ "$E2E_DEVICE" = 1 ]; then
		# Not in $(...): E2E_MODEL_PID must be set in this shell, where
		# host hooks inherit it.
		e2e_model_start "$dir" >"$dir/model-start.log" || verdict FAIL "$(cat "$dir/model-start.log")"
	fi

	# A scenario that cannot boot through PVH (README.md, "Known problems")
	# asks for the compressed image.
	if [ "$E2E_KERNEL_IMAGE" = bzimage ]; then
		E2E_KIMAGE=$(E2E_KERNEL_BOOT=bzimage e2e_kernel_image) || verdict FAIL "no bzImage to boot"
	fi
	e2e_qemu_args "$dir"
	printf '%q ' "${E2E_QEMU_CMD[@]}" >"$dir/qemu.cmd"
	echo >>"$dir/qemu.cmd"
	tq=$EPOCHREALTIME
	timeout -k 5 "$E2E_TIMEOUT" "${E2E_QEMU_CMD[@]}" >"$dir/qemu.log" 2>&1 &
	qemu_pid=$!
	# The one QMP connection, before any hook runs (lib/qmp-proxy.py: why).
	/usr/bin/python3 "$E2E_LIB/qmp-proxy.py" "$dir/qemu-qmp.sock" "$dir/qmp.sock" \
		"$dir/qmp-events.log" </dev/null >"$dir/qmp-proxy.log" 2>&1 &
	proxy_pid=$!
	for ((i = 0; i < 400; i++)); do
		[ -S "$dir/qmp.sock" ] && break
		kill -0 "$proxy_pid" 2>/dev/null || break
		sleep 0.025
	done
	if declare -F host_hook >/dev/null; then
		# Its own process group (job control on for this one job), so
		# that stopping it stops the subshells and commands inside too.
		set -m
		# A failed hook says so on the share, so a guest waiting for it in
		# e2e_wait_host fails at once instead of at its timeout.
		(
			(set -eEuo pipefail; host_hook)
			rc=$?
			[ $rc = 0 ] || { mkdir -p "$E2E_OUT/from-host" && : >"$E2E_OUT/from-host/.host-hook-failed"; }
			exit $rc
		) >"$dir/host-hook.log" 2>&1 &
		hook_pid=$!
		set +m
	fi
	{ wait "$qemu_pid"; } 2>/dev/null # the verdict reports a crash, not bash
	qrc=$?
	qemu_pid=
	# The proxy ends with QEMU's connection; make sure.
	kill -TERM "$proxy_pid" 2>/dev/null
	{ wait "$proxy_pid"; } 2>/dev/null
	proxy_pid=

	if [ -n "$hook_pid" ]; then
		for ((i = 0; i < 100; i++)); do
			kill -0 "$hook_pid" 2>/dev/null || break
			sleep 0.05
		done
		if kill -0 "$hook_pid" 2>/dev/null; then
			kill -KILL -- "-$hook_pid" 2>/dev/null
			{ wait "$hook_pid"; } 2>/dev/null # no "Killed" notice
			hook_rc="still running 5 s after the guest ended"
		else
			{ wait "$hook_pid"; } 2>/dev/null
			hook_rc=$?
		fi
		hook_pid=
	fi
	# The current model (a hook may have restarted it): see lib/model.sh.
	# A split model's device goes first: it exits 19 when its server goes.
	if [ "$E2E_DEVICE" = 1 ]; then
		e2e_model_stop "$dir" >"$dir/model-stop.txt"
		model=$(cat "$dir/model-stop.txt")
		if [ "$E2E_MODEL_SPLIT" = 1 ]; then
			e2e_model_stop "$dir" model-server >"$dir/model-server-stop.txt"
			server=$(cat "$dir/model-server-stop.txt")
		fi
	fi

	e2e_strip_escapes <"$dir/serial.raw" >"$dir/serial.log" 2>/dev/null
	problems=$(e2e_kernel_problems "$E2E_DMESG_ALLOW" "$dir/serial.log" "$dir/out/dmesg.log")
	# kmemleak's report of the scan after guest_main (guest/run-scenario).
	problems=$(printf '%s\n%s\n' "$problems" "$(e2e_kmemleak_problems "$dir/out/kmemleak.log")" | grep -a .)
	if [ "$E2E_KERNEL" = debug ] && [ -f "$dir/out/result" ] && [ ! -f "$dir/out/kmemleak.log" ]; then
		problems=$(printf '%s\n%s\n' "$problems" "kmemleak: no scan after the scenario (see serial.log)" | grep -a .)
	fi
	[ -n "$problems" ] && printf '%s\n' "$problems" >"$dir/kernel-problems"
	if [ -f "$dir/out/result" ]; then
		grc=$(sed -n 's/^rc=//p' "$dir/out/result")
		ready=$(sed -n 's/^ready=//p' "$dir/out/result")
	fi
	# Boot time as the host saw it: QEMU started -> the guest created
	# out/started (its mtime is host time). Includes firmware and kernel
	# decompression, which the guest's uptime does not.
	if [ -f "$dir/out/started" ]; then
		boot=$(awk -v a="$tq" -v b="$(stat -c %.3Y "$dir/out/started")" 'BEGIN { printf "%.2f", b - a }')
		echo "$boot" >"$dir/boot-seconds"
	fi

	case $E2E_EXPECT in
	kernel-problem)
		if [ -n "$problems" ] && grep -qaE -- "${E2E_EXPECT_KERNEL:-.}" <<<"$problems"; then
			verdict PASS "kernel problem detected as expected"
		fi
		verdict FAIL "expected a kernel problem matching /${E2E_EXPECT_KERNEL:-.}/, the logs show none"
		;;
	timeout)
		[ "$qrc" -eq 124 ] && [ ! -f "$dir/out/result" ] &&
			verdict PASS "timed out after ${E2E_TIMEOUT}s as expected"
		verdict FAIL "expected a timeout, QEMU ended with status $qrc"
		;;
	esac

	# A checker's report first: a scenario that then timed out or failed
	# did so because of it.
	[ -n "$problems" ] && verdict FAIL "kernel problems in the log: $(e2e_kernel_problem_summary "$(head -n1 <<<"$problems")")"
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		verdict FAIL "timed out after ${E2E_TIMEOUT}s${boot:+ (the scenario started ${boot}s after QEMU)}"
	fi
	if [ -z "$grc" ]; then
		reason=$(grep -a -m1 'E2E-INIT-FAIL:' "$dir/serial.log" | sed 's/.*E2E-INIT-FAIL: //')
		if [ -z "$reason" ] && [ "$qrc" -gt 128 ]; then
			reason="QEMU itself was killed by SIG$(kill -l $((qrc - 128))) (see qemu.log; E2E_QEMU_WRAP gives a backtrace)"
		fi
		verdict FAIL "the guest ended without a result: ${reason:-QEMU exit status $qrc}"
	fi
	if [ "$grc" != 0 ]; then
		reason=$(grep -a -m1 'E2E-FAIL:' "$dir/out/failure" 2>/dev/null | sed 's/^E2E-FAIL: //')
		verdict FAIL "guest_main failed (status $grc)${reason:+: $reason}"
	fi
	[ "$hook_rc" = 0 ] || verdict FAIL "host_hook failed ($hook_rc; see host-hook.log)"
	if [ -n "$model" ] && [ "$model" != ok ] && [ "$E2E_MODEL_MAY_EXIT" != 1 ]; then
		verdict FAIL "the model $model (see model.log)"
	fi
	# Only the device may die on purpose: the server must last and stop cleanly.
	if [ -n "$server" ] && [ "$server" != ok ]; then
		verdict FAIL "the model's server $server (see model.log)"
	fi
	if declare -F host_check >/dev/null; then
		(set -eEuo pipefail; host_check) >"$dir/host-check.log" 2>&1
		check_rc=$?
		if [ "$E2E_EXPECT" = host-check-fails ]; then
			[ $check_rc != 0 ] && verdict PASS "host_check failed as expected (status $check_rc)"
			verdict FAIL "expected host_check to fail, it passed"
		fi
		if [ $check_rc != 0 ]; then
			reason=$(grep -a -m1 'E2E-FAIL:' "$dir/host-check.log" | sed 's/^E2E-FAIL: //')
			verdict FAIL "host_check failed (status $check_rc)${reason:+: $reason}"
		fi
	fi
	local on=
	[ "$E2E_KERNEL" != "$E2E_KERNEL_DEFAULT" ] && on=" on $E2E_KVER"
	verdict PASS "${boot:+booted to the scenario in ${boot}s}$on"
}

# report NAME: the line (and on failure the evidence) for one scenario.
report() {
	local name=$1 dir=$E2E_BUILD/$1 v secs detail n
	IFS=$'\t' read -r v secs detail <"$dir/verdict"
	[ -d "$dir/attempt1" ] && detail="$detail [second attempt: QEMU crashed in the first, see attempt1/]"
	printf '%-4s %-28s %6ss  %s\n' "$v" "$name" "$secs" "$detail"
	[ "$v" = FAIL ] || return 0
	n=8; [ $verbose = 1 ] && n=40
	if [ -s "$dir/kernel-problems" ]; then
		echo "     kernel:"
		head -n "$n" "$dir/kernel-problems" | sed 's/^/       /'
	fi
	for f in out/guest.log host-hook.log host-check.log model.log; do
		[ -s "$dir/$f" ] || continue
		echo "     $f (last lines):"
		tail -n "$n" "$dir/$f" | sed 's/^/       /'
	done
	if [ ! -s "$dir/out/guest.log" ] && [ -s "$dir/serial.log" ]; then
		echo "     serial.log (last lines):"
		tail -n "$n" "$dir/serial.log" | sed 's/^/       /'
	fi
	echo "     logs: ${dir#"$E2E_ROOT"/}/"
}

# --- run ---------------------------------------------------------------------
pids=()
stop_all() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	wait # each job stops its QEMU, hook and model (cleanup above)
	echo "run.sh: interrupted" >&2
	exit 2
}
trap stop_all INT TERM

pass=0 fail=0 skip=0
tally() {
	local v
	[ -f "$E2E_BUILD/$1/verdict" ] ||
		printf 'FAIL\t0\tthe runner job for this scenario died\n' >"$E2E_BUILD/$1/verdict"
	report "$1"
	v=$(cut -f1 "$E2E_BUILD/$1/verdict")
	case $v in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
}

# QEMU 7.2's ivshmem-doorbell can leave a stale fd handler behind when the
# device is deleted, and QEMU then dies of SIGSEGV when the freed fd number
# is reused by a readable file (README.md, "Known problems"; the QMP proxy
# closes most of that window, 9p traffic at the instant of unplug can still
# hit it). A scenario whose QEMU died of SIGSEGV runs once more; the first
# attempt's directory is kept as attempt1/ and the line says so. Any other
# failure, and a second crash, stand.
retry_after_qemu_crash() {
	local dir=$E2E_BUILD/$1 f
	grep -q 'QEMU itself was killed by SIGSEGV' "$dir/verdict" 2>/dev/null || return 1
	[ -d "$dir/attempt1" ] && return 1
	mkdir "$dir/attempt1"
	# What prepare made stays for the second attempt (kernel.env too: a
	# retry without it died at once, "the runner job for this scenario
	# died", in a CI rehearsal; harness-qemu-crash-retry checks it).
	for f in "$dir"/* "$dir"/.[!.]*; do
		[ -e "$f" ] || continue
		case ${f##*/} in
		attempt1 | initrd.cpio | extra.cpio | build.log | initramfs.root) ;;
		kernel.env) cp "$f" "$dir/attempt1/" ;;
		*) mv "$f" "$dir/attempt1/" ;;
		esac
	done
	mkdir -p "$dir/out"
	chmod 1777 "$dir/out"
	return 0
}

declare -A running=()
job_done() {
	local name=${running[$1]}
	unset "running[$1]"
	if retry_after_qemu_crash "$name"; then
		run_one "$name" &
		running[$!]=$name
		pids+=($!)
	else
		tally "$name"
	fi
}
for name in "${scenarios[@]}"; do
	prepare "$name"
	if [ -f "$E2E_BUILD/$name/verdict" ]; then
		tally "$name"
		continue
	fi
	while [ ${#running[@]} -ge "$jobs_max" ]; do
		wait -n -p done_pid "${!running[@]}"
		job_done "$done_pid"
	done
	run_one "$name" &
	running[$!]=$name
	pids+=($!)
done
while [ ${#running[@]} -gt 0 ]; do
	wait -n -p done_pid "${!running[@]}"
	job_done "$done_pid"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
