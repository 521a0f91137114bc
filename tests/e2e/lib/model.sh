# SPDX-License-Identifier: MIT
# Starting, stopping and restarting otattest-model for a scenario. Host
# side. The model's options are documented in docs/model.md.
#
# The runner starts the model; a host hook may kill and restart it (the
# device dying and coming back). So that either can stop it and learn how it
# ended, every model runs under a small wrapper that records its pid in
# DIR/model.pid and, when it ends, its wait status in DIR/model.exit.<pid>.

E2E_MODEL_BIN=build/otattest-model # make target, relative to the tree

# e2e_model_spawn DIR ARGS...: start one model process; sets E2E_MODEL_PID
# to the model's own pid (not the wrapper's) once it is known.
e2e_model_spawn() {
	local dir=$1 i
	shift
	rm -f "$dir/model.pid"
	(
		"$E2E_ROOT/$E2E_MODEL_BIN" \
			--state-dir="$dir/state" \
			--socket="$dir/ivshmem.sock" \
			--control="$dir/model.ctl" \
			--no-fsync \
			"$@" >>"$dir/model.log" 2>&1 &
		pid=$!
		echo "$pid" >"$dir/model.pid"
		wait "$pid"
		echo $? >"$dir/model.exit.$pid"
	) </dev/null >/dev/null 2>&1 & # hold no caller's pipe open
	for ((i = 0; i < 200; i++)); do
		[ -s "$dir/model.pid" ] && break
		sleep 0.01
	done
	E2E_MODEL_PID=$(cat "$dir/model.pid" 2>/dev/null)
	export E2E_MODEL_PID
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
e2e_model_start() {
	local dir=$1 load=()
	mkdir -p "$dir/state"
	[ -e "$dir/model.started" ] || load=("${E2E_MODEL_LOAD_ARGS[@]}")
	: >"$dir/model.started"
	e2e_model_spawn "$dir" "${load[@]}" "${E2E_MODEL_ARGS[@]}"
	e2e_model_wait_ready "$dir"
}

# e2e_model_signal DIR SIGNAL: send SIGNAL to the current model and wait up
# to 5 s for it to end. Prints nothing; fails if it is still running.
e2e_model_signal() {
	local dir=${1:-$E2E_RUN_DIR} sig=${2:-TERM} pid i
	pid=$(cat "$dir/model.pid" 2>/dev/null) || return 0
	[ -e "$dir/model.exit.$pid" ] && return 0
	kill -"$sig" "$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		[ -e "$dir/model.exit.$pid" ] && return 0
		sleep 0.05
	done
	return 1
}

# e2e_model_stop DIR: stop the current model with SIGTERM (it keeps its
# state and exits 0), SIGKILL after 5 s. Prints how it ended: "ok",
# "exited early", "exited N", "killed by SIG", "did not stop on SIGTERM".
e2e_model_stop() {
	local dir=${1:-$E2E_RUN_DIR} pid rc
	pid=$(cat "$dir/model.pid" 2>/dev/null) || { echo ok; return 0; }
	if [ -e "$dir/model.exit.$pid" ]; then
		rc=$(cat "$dir/model.exit.$pid")
		[ "$rc" = 0 ] && rc=early
	elif e2e_model_signal "$dir" TERM; then
		rc=$(cat "$dir/model.exit.$pid")
	else
		e2e_model_signal "$dir" KILL
		echo "did not stop on SIGTERM"
		return 0
	fi
	case $rc in
	0) echo ok ;;
	early) echo "exited early" ;;
	*) if [ "$rc" -gt 128 ]; then echo "killed by SIG$(kill -l $((rc - 128)))"; else echo "exited $rc"; fi ;;
	esac
}
