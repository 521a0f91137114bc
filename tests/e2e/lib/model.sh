# SPDX-License-Identifier: MIT
# Starting, stopping and restarting otattest-model for a scenario. Host
# side. The model's options are documented in docs/model.md.
#
# The runner starts the model; a host hook may kill and restart it (the
# device dying and coming back). So that either can stop it and learn how it
# ended, every model runs under a small wrapper that records its pid in
# DIR/model.pid and, when it ends, its wait status in DIR/model.exit.<pid>.
#
# With E2E_MODEL_SPLIT=1 the model is split (docs/model.md, "Split mode"):
# 'otattest-model server' holds QEMU's ivshmem connection and the shared
# memory (DIR/model-server.pid, DIR/model-server.exit.<pid>), and the
# device process joins it on DIR/device.sock. model.pid is then the
# device's: killing and restarting "the model" kills and restarts the
# device only, and QEMU meets the new one without a replug.

E2E_MODEL_BIN=build/otattest-model # make target, relative to the tree

# E2E_CORE=rv32 (run.sh --help): the model runs the stage images on its
# emulated core, starting in this mask ROM; provisioning signs these builds.
E2E_CORE_IMAGES=(build/rv32/rom.elf build/rv32/rom_ext.elf build/rv32/bl0.elf build/rv32/bl0-v2.elf)

# e2e_model_core_args: the model's options for E2E_CORE, one per line.
e2e_model_core_args() {
	[ "${E2E_CORE:-host}" = rv32 ] || return 0
	printf '%s\n' --core=rv32 "--rom-image=$E2E_ROOT/build/rv32/rom.elf"
}

# e2e_payload STAGE BYTES: a payload for a scenario's own image: BYTES of
# random bytes for the host build, the stage's real build (STAGE rom_ext or
# bl0; bl0 is E2E_CORE_BL0: build/rv32/bl0.elf unless the scenario names
# another, such as issue 27's hostile BL0) with E2E_CORE=rv32. e2e_salt:
# the signing option that keeps images of the same build apart with
# E2E_CORE=rv32 (--salt random), nothing otherwise.
e2e_payload() {
	case ${E2E_CORE:-host}:$1 in
	rv32:bl0) cat "$E2E_ROOT/${E2E_CORE_BL0:-build/rv32/bl0.elf}" ;;
	rv32:*) cat "$E2E_ROOT/build/rv32/$1.elf" ;;
	*) head -c "$2" /dev/urandom ;;
	esac
}
e2e_salt() {
	[ "${E2E_CORE:-host}" = rv32 ] && echo --salt random
	return 0
}

# e2e_code STAGE-NAME: code for an image (lib/provision.sh): opaque bytes
# for the host build, which measures them and never runs them; with
# E2E_CORE=rv32 the stage's real build (rom_ext* names ROM_EXT, bl0-v2 BL0
# v2, whose GET_INFO says 2.0.0, the rest BL0: E2E_CORE_BL0).
e2e_code() {
	case ${E2E_CORE:-host}:$1 in
	rv32:rom_ext*) cat "$E2E_ROOT/build/rv32/rom_ext.elf" ;;
	rv32:bl0-v2) cat "$E2E_ROOT/build/rv32/bl0-v2.elf" ;;
	rv32:*) cat "$E2E_ROOT/${E2E_CORE_BL0:-build/rv32/bl0.elf}" ;;
	*) seq 1 64 | sed "s/^/$1 code line /" ;;
	esac
}

# e2e_model_run DIR NAME ARGS...: start one process of the model binary
# with ARGS, its output appended to DIR/model.log; DIR/NAME.pid gets its own
# pid (not the wrapper's) once it is known, DIR/NAME.exit.<pid> its wait
# status once it ended. Prints the pid.
e2e_model_run() {
	local dir=$1 name=$2 i
	shift 2
	rm -f "$dir/$name.pid"
	(
		"$E2E_ROOT/$E2E_MODEL_BIN" "$@" >>"$dir/model.log" 2>&1 &
		pid=$!
		echo "$pid" >"$dir/$name.pid"
		wait "$pid"
		echo $? >"$dir/$name.exit.$pid"
	) </dev/null >/dev/null 2>&1 & # hold no caller's pipe open
	for ((i = 0; i < 200; i++)); do
		[ -s "$dir/$name.pid" ] && break
		sleep 0.01
	done
	cat "$dir/$name.pid" 2>/dev/null
}

# e2e_model_spawn DIR ARGS...: start the model (with E2E_MODEL_SPLIT=1 the
# device process, joined to the running server); sets E2E_MODEL_PID.
e2e_model_spawn() {
	local dir=$1 bus core
	shift
	bus=(--socket="$dir/ivshmem.sock")
	[ "${E2E_MODEL_SPLIT:-0}" = 1 ] && bus=(--connect="$dir/device.sock")
	mapfile -t core < <(e2e_model_core_args)
	E2E_MODEL_PID=$(e2e_model_run "$dir" model --state-dir="$dir/state" "${bus[@]}" \
		--control="$dir/model.ctl" --no-fsync "${core[@]}" "$@")
	export E2E_MODEL_PID
}

# e2e_model_server_start DIR: E2E_MODEL_SPLIT=1: start the server unless
# it runs, and wait until it listens on both sockets (the device socket
# is made last). Sets E2E_MODEL_SERVER_PID. 10 s at most.
e2e_model_server_start() {
	local dir=$1 pid i
	pid=$(cat "$dir/model-server.pid" 2>/dev/null)
	if [ -z "$pid" ] || [ -e "$dir/model-server.exit.$pid" ]; then
		pid=$(e2e_model_run "$dir" model-server server --socket="$dir/ivshmem.sock" \
			--device-socket="$dir/device.sock")
	fi
	E2E_MODEL_SERVER_PID=$pid
	export E2E_MODEL_SERVER_PID
	for ((i = 0; i < 400; i++)); do
		[ -S "$dir/device.sock" ] && return 0
		[ -n "$pid" ] && [ -e "$dir/model-server.exit.$pid" ] && break
		sleep 0.025
	done
	echo "the model's server did not start (see model.log)"
	return 1
}

# e2e_model_wait_ready DIR: until the control socket answers, which the
# model guarantees means the ivshmem socket listens and the cold boot is
# done (QEMU exits at once if the socket is not there yet). 10 s at most.
e2e_model_wait_ready() {
	local dir=$1 i pid
	for ((i = 0; i < 400; i++)); do
		pid=$(cat "$dir/model.pid" 2>/dev/null)
		if [ -n "$pid" ] && [ -S "$dir/model.ctl" ] &&
			"$E2E_ROOT/$E2E_MODEL_BIN" ctl --control="$dir/model.ctl" status >"$dir/model-status.txt" 2>&1; then
			return 0
		fi
		[ -n "$pid" ] && [ -e "$dir/model.exit.$pid" ] && break
		sleep 0.025
	done
	echo "the model did not become ready (see model.log)"
	return 1
}

# e2e_model_start DIR: start a model with the scenario's E2E_MODEL_ARGS and
# wait until it is ready. The first start of a scenario also programs the
# provisioning images (E2E_MODEL_LOAD_ARGS: --load-flash/--load-otp); a
# later one (a host hook bringing a dead device back) keeps what the device
# persisted. --no-fsync: the directory is thrown away; a SIGKILL stays safe
# without it.
#
# With E2E_MODEL_SPLIT=1 the server is started first if it is not running
# (only the first time: it outlives every device), then the device.
e2e_model_start() {
	local dir=$1 load=()
	mkdir -p "$dir/state"
	if [ "${E2E_MODEL_SPLIT:-0}" = 1 ]; then
		e2e_model_server_start "$dir" || return 1
	fi
	[ -e "$dir/model.started" ] || load=("${E2E_MODEL_LOAD_ARGS[@]}")
	: >"$dir/model.started"
	e2e_model_spawn "$dir" "${load[@]}" "${E2E_MODEL_ARGS[@]}"
	e2e_model_wait_ready "$dir"
}

# e2e_model_signal DIR SIGNAL [NAME]: send SIGNAL to the current model
# (NAME model, the default: the model or the split model's device process;
# model-server: the split model's server) and wait up to 5 s for it to end.
# Prints nothing; fails if it is still running.
e2e_model_signal() {
	local dir=${1:-$E2E_RUN_DIR} sig=${2:-TERM} name=${3:-model} pid i
	pid=$(cat "$dir/$name.pid" 2>/dev/null) || return 0
	[ -e "$dir/$name.exit.$pid" ] && return 0
	kill -"$sig" "$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		[ -e "$dir/$name.exit.$pid" ] && return 0
		sleep 0.05
	done
	return 1
}

# e2e_model_stop DIR [NAME]: stop the current model (NAME as for
# e2e_model_signal) with SIGTERM (it keeps its state and exits 0), SIGKILL
# after 5 s. Prints how it ended: "ok", "exited early", "exited N",
# "killed by SIG", "did not stop on SIGTERM". Stop the split model's
# device before its server: a device whose server goes exits 19.
e2e_model_stop() {
	local dir=${1:-$E2E_RUN_DIR} name=${2:-model} pid rc
	pid=$(cat "$dir/$name.pid" 2>/dev/null) || { echo ok; return 0; }
	if [ -e "$dir/$name.exit.$pid" ]; then
		rc=$(cat "$dir/$name.exit.$pid")
		[ "$rc" = 0 ] && rc=early
	elif e2e_model_signal "$dir" TERM "$name"; then
		rc=$(cat "$dir/$name.exit.$pid")
	else
		e2e_model_signal "$dir" KILL "$name"
		echo "did not stop on SIGTERM"
		return 0
	fi
	case $rc in
	0) echo ok ;;
	early) echo "exited early" ;;
	*) if [ "$rc" -gt 128 ]; then echo "killed by SIG$(kill -l $((rc - 128)))"; else echo "exited $rc"; fi ;;
	esac
}
