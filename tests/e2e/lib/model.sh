# SPDX-License-Identifier: MIT
# Starting and stopping otattest-model for a scenario. Host side.
# The model's options are documented in docs/model.md.

E2E_MODEL_BIN=build/otattest-model # make target, relative to the tree

# e2e_model_start DIR: start the model with its state directory, ivshmem
# socket and control socket in DIR, plus the scenario's E2E_MODEL_ARGS
# (fault knobs, --load-flash/--load-otp). Returns once the control socket
# answers, which the model guarantees means the ivshmem socket listens and
# the cold boot is done (QEMU exits at once if the socket is not there yet).
# --no-fsync: the directory is thrown away; a SIGKILL stays safe without it.
# Sets E2E_MODEL_PID.
e2e_model_start() {
	local dir=$1 i
	mkdir -p "$dir/state"
	"$E2E_ROOT/$E2E_MODEL_BIN" \
		--state-dir="$dir/state" \
		--socket="$dir/ivshmem.sock" \
		--control="$dir/model.ctl" \
		--no-fsync \
		"${E2E_MODEL_ARGS[@]}" >"$dir/model.log" 2>&1 &
	E2E_MODEL_PID=$!
	for ((i = 0; i < 400; i++)); do
		if [ -S "$dir/model.ctl" ] &&
			"$E2E_ROOT/$E2E_MODEL_BIN" ctl --control="$dir/model.ctl" status >"$dir/model-status.txt" 2>&1; then
			return 0
		fi
		kill -0 "$E2E_MODEL_PID" 2>/dev/null || break
		sleep 0.025
	done
	echo "the model did not become ready (see model.log)"
	return 1
}

# e2e_model_stop: SIGTERM (the model keeps its state and exits 0), then
# SIGKILL after 5 s. Prints how it ended: "ok", "exited N", "killed by SIG".
e2e_model_stop() {
	local i rc
	[ -n "${E2E_MODEL_PID:-}" ] || { echo ok; return 0; }
	if kill -0 "$E2E_MODEL_PID" 2>/dev/null; then
		kill -TERM "$E2E_MODEL_PID" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			kill -0 "$E2E_MODEL_PID" 2>/dev/null || break
			sleep 0.05
		done
		kill -KILL "$E2E_MODEL_PID" 2>/dev/null && { wait "$E2E_MODEL_PID" 2>/dev/null; echo "did not stop on SIGTERM"; return 0; }
		wait "$E2E_MODEL_PID"
		rc=$?
	else
		wait "$E2E_MODEL_PID"
		rc=$?
		[ "$rc" -eq 0 ] && rc=early
	fi
	E2E_MODEL_PID=
	case $rc in
	0) echo ok ;;
	early) echo "exited early" ;;
	*) if [ "$rc" -gt 128 ]; then echo "killed by $(kill -l $((rc - 128)))"; else echo "exited $rc"; fi ;;
	esac
}
