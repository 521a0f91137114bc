# SPDX-License-Identifier: MIT
# Host side of the kernel-* scenarios: the bridge that carries out the
# guest's kt_host requests (guest-lib.sh), and the pieces it is built from.
# Sourced by a scenario's host_hook / host_check, after tests/e2e/lib/host.sh.
#
# Bridge commands (one request file per command, one argument per line):
#   model WORDS...     the model's control socket ("fault drop on", "status")
#   qmp CMD [JSON]     one QEMU monitor command (tests/e2e/lib/qmp.py)
#   unplug             device_del the ivshmem device; returns once QEMU
#                      reports it deleted (DEVICE_DELETED)
#   unplugged          check QEMU no longer has it
#   plug               a fresh chardev to the model's socket + device_add
#   model-kill         SIGKILL the model (a device that dies); with
#                      E2E_MODEL_SPLIT=1 the device process only
#   model-start        start a new model on the same state and sockets
#                      (split: a new device process joining the server)
#   bar2 ADDR          read the device's shared memory through QEMU
#                      (pmemsave at guest-physical ADDR), save the record
#                      region's bytes as out/kt-model-record.bin and print
#                      what otattest-recdump makes of them
#   scribble OFF HEX   write bytes into the shared memory at OFF, as any
#                      peer of it could (through the model's memfd)
#   peek OFF LEN       print LEN bytes of the shared memory at OFF as hex

KT_RECDUMP=$E2E_ROOT/build/tests/e2e/kernel/otattest-recdump
KT_MODEL_PID=${E2E_MODEL_PID:-}

# The ivshmem device as run.sh's qemu.sh plugs it: id otattest0, chardev
# ivshmem. Re-plugging needs a new chardev: QEMU has no way to make an
# existing one reconnect and replay the server's greeting.
#
# QEMU 7.2 leaves stale fd handlers behind a deleted ivshmem device (see
# tests/e2e/lib/qmp-proxy.py and README.md here): the harness's QMP proxy
# fills the freed fd numbers when it sees DEVICE_DELETED, and the guest
# touches nothing on the share meanwhile (kt_host --quiet), so no host
# file the 9p server opens can land on one first.
kt_unplug() {
	local events=$E2E_RUN_DIR/qmp-events.log before i
	before=$(grep -c '"DEVICE_DELETED".*"otattest0"' "$events" 2>/dev/null || true)
	e2e_qmp device_del '{"id": "otattest0"}' >/dev/null || return 1
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -c '"DEVICE_DELETED".*"otattest0"' "$events" 2>/dev/null || true)" -gt "${before:-0}" ] &&
			{ echo deleted; return 0; }
		sleep 0.1
	done
	echo "no DEVICE_DELETED for otattest0 in 20 s"
	return 1
}

# Gone from QEMU's device tree (kt_unplug already waited for it).
kt_unplugged() {
	e2e_qmp qom-list '{"path": "/machine/peripheral"}' |
		jq -e 'map(.name) | index("otattest0") | not' >/dev/null ||
		{ echo "otattest0 is still in QEMU"; return 1; }
}

# The old chardev is released some time after QEMU deleted the device,
# so the new one gets its own id and the old is removed when it can be.
kt_plug() {
	local old new=ivshmem-$EPOCHSECONDS-$RANDOM i
	old=$(cat "$E2E_RUN_DIR/kt-chardev" 2>/dev/null || echo ivshmem)
	# Busy until QEMU finalizes the deleted device; the model takes one
	# guest at a time, so the old connection must be gone first.
	for ((i = 0; i < 100; i++)); do
		e2e_qmp chardev-remove "{\"id\": \"$old\"}" >/dev/null 2>&1 && break
		sleep 0.2
	done
	[ "$i" -lt 100 ] || { echo "chardev $old still busy after 20 s"; return 1; }
	e2e_qmp chardev-add "{\"id\": \"$new\", \"backend\": {\"type\": \"socket\", \"data\":
		{\"addr\": {\"type\": \"unix\", \"data\": {\"path\": \"$E2E_RUN_DIR/ivshmem.sock\"}},
		 \"server\": false}}}" >/dev/null || return 1
	echo "$new" >"$E2E_RUN_DIR/kt-chardev"
	e2e_qmp device_add "{\"driver\": \"ivshmem-doorbell\", \"id\": \"otattest0\", \"chardev\": \"$new\", \"vectors\": 2}"
}

kt_model_kill() {
	local i
	[ -n "$KT_MODEL_PID" ] || { echo "no model to kill"; return 1; }
	kill -KILL "$KT_MODEL_PID"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$KT_MODEL_PID" 2>/dev/null || { echo "killed model $KT_MODEL_PID"; return 0; }
		sleep 0.05
	done
	echo "model $KT_MODEL_PID did not die"
	return 1
}

# A new model process: new shared memory, same persistent device state.
kt_model_start() {
	e2e_model_start "$E2E_RUN_DIR" || return 1
	KT_MODEL_PID=$E2E_MODEL_PID
	KT_RESTARTED_PID=$E2E_MODEL_PID
	echo "model $KT_MODEL_PID"
}

# kt_bar2 ADDR: the record region as the device exported it, read by QEMU
# from the shared memory (not through the guest's driver).
kt_bar2() {
	local addr=$1 out=$E2E_RUN_DIR/kt-bar2.bin rec_off len gen1 gen2
	rm -f "$out"
	e2e_qmp pmemsave "{\"val\": $((addr)), \"size\": 65536, \"filename\": \"$out\"}" >/dev/null || return 1
	rec_off=$(od -An -tu4 -j 32 -N4 "$out" | tr -d ' ')
	read -r gen1 len < <(od -An -tu4 -j "$rec_off" -N8 "$out")
	gen2=$gen1
	if [ $((gen1 & 1)) = 1 ]; then
		echo "record region is being written (generation $gen1)"
		return 1
	fi
	tail -c +$((rec_off + 16 + 1)) "$out" | head -c "$len" >"$E2E_OUT/kt-model-record.bin"
	echo "shm_generation=$gen2"
	"$KT_RECDUMP" "$E2E_OUT/kt-model-record.bin"
}

# kt_shm OFF HEX|LEN: the model's shared memory, opened through its memfd
# in /proc (a hostile peer writing BAR2; the guest cannot map a BAR the
# driver claimed, CONFIG_IO_STRICT_DEVMEM).
kt_shm() {
	local mode=$1 off=$2 arg=$3
	[ -n "$KT_MODEL_PID" ] || { echo "no model"; return 1; }
	/usr/bin/python3 - "$KT_MODEL_PID" "$mode" "$off" "$arg" <<'PY'
import mmap, os, sys
pid, mode, off, arg = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
fds = [f"/proc/{pid}/fd/{n}" for n in os.listdir(f"/proc/{pid}/fd")]
shm = [f for f in fds if os.readlink(f).startswith("/memfd:otattest-shm")]
if len(shm) != 1:
    sys.exit(f"expected one otattest-shm memfd, found {len(shm)}")
with open(shm[0], "r+b") as f:
    m = mmap.mmap(f.fileno(), 0)
    if mode == "write":
        data = bytes.fromhex(arg)
        m[off:off + len(data)] = data
        print(f"wrote {len(data)} bytes at {off:#x}")
    else:
        print(m[off:off + int(arg, 0)].hex())
PY
}

kt_host_run() {
	local cmd=$1 a args=()
	shift
	# A systemd guest whose tree lies under /tmp or /run sees it at
	# /run/e2e/src (tests/e2e/guest/init): a file path it names there is
	# this tree's on the host, where the model opens it.
	for a in "$@"; do
		case $a in
		/run/e2e/src/*) args+=("$E2E_ROOT/${a#/run/e2e/src/}") ;;
		*) args+=("$a") ;;
		esac
	done
	set -- "${args[@]}"
	case $cmd in
	model) e2e_model_ctl "$@" ;;
	qmp) e2e_qmp "$@" ;;
	unplug) kt_unplug ;;
	unplugged) kt_unplugged ;;
	plug) kt_plug ;;
	model-kill) kt_model_kill ;;
	model-start) kt_model_start ;;
	bar2) kt_bar2 "$1" ;;
	scribble) kt_shm write "$1" "$2" ;;
	peek) kt_shm read "$1" "$2" ;;
	*) echo "unknown bridge command '$cmd'"; return 2 ;;
	esac
}

# kt_bridge: serve bridge requests in order until the guest has finished
# (its result file exists); then stop a model this hook started itself.
kt_bridge() {
	local dir=$E2E_OUT/kt-bridge n=1 rc out args
	mkdir -p "$dir"
	KT_RESTARTED_PID=
	while [ ! -e "$E2E_OUT/result" ]; do
		if [ ! -e "$dir/req.$n" ]; then
			sleep 0.05
			continue
		fi
		mapfile -t args <"$dir/req.$n"
		rc=0
		# In this shell, not $(...): model-start must keep the new PID.
		kt_host_run "${args[@]}" >"$dir/out.$n" 2>&1 || rc=$?
		out=$(cat "$dir/out.$n")
		e2e_log "bridge $n: ${args[*]} -> $rc $(tr '\n' ' ' <<<"$out" | head -c 300)"
		printf '%s\n%s\n' "$rc" "$out" >"$dir/rep.$n.tmp"
		mv "$dir/rep.$n.tmp" "$dir/rep.$n"
		n=$((n + 1))
	done
	kt_stop_restarted
}

# kt_stop_restarted: a model the hook started (kt_model_start) is the
# hook's child: stop it with SIGTERM (up to 5 s) before the runner ends
# the hook's process group.
kt_stop_restarted() {
	local i
	[ -n "${KT_RESTARTED_PID:-}" ] || return 0
	kill -TERM "$KT_RESTARTED_PID" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$KT_RESTARTED_PID" 2>/dev/null || break
		sleep 0.05
	done
}
