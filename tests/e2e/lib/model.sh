# SPDX-License-Identifier: MIT
# Starting and stopping otattest-model for a scenario. Host side.
# The model's options are documented in docs/model.md.

E2E_MODEL_BIN=build/otattest-model # make target, relative to the tree

# e2e_model_start DIR: start the model with its state, ivshmem socket and
# control socket in DIR, plus the scenario's E2E_MODEL_ARGS. Returns once
# the ivshmem socket listens (QEMU exits at once if it does not yet).
# Sets E2E_MODEL_PID.
e2e_model_start() {
	local dir=$1 i
	mkdir -p "$dir/state"
	"$E2E_ROOT/$E2E_MODEL_BIN" \
		--state "$dir/state" \
		--socket "$dir/ivshmem.sock" \
		--control "$dir/model.ctl" \
		"${E2E_MODEL_ARGS[@]}" >"$dir/model.log" 2>&1 &
	E2E_MODEL_PID=$!
	for ((i = 0; i < 200; i++)); do
		[ -S "$dir/ivshmem.sock" ] && return 0
		kill -0 "$E2E_MODEL_PID" 2>/dev/null || break
		sleep 0.025
	done
	echo "model did not start listening on $dir/ivshmem.sock (see model.log)"
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
