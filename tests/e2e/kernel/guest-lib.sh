# SPDX-License-Identifier: MIT
# Guest side of the kernel-* scenarios (tests/e2e/scenarios/kernel-*.sh):
# helpers on top of tests/e2e/lib/guest.sh. A scenario ships this file
# with E2E_FILES (KT_GUEST_FILES below) and sources it in guest_main.
#
# The host half is host-lib.sh: kt_host sends a request to the scenario's
# host hook (the "bridge"), which drives the model's control socket, QEMU's
# monitor, or the model process itself, and sends back the output.

KT_NLTEST=$E2E_SRC/build/tests/e2e/kernel/otattest-nltest
KT_DEV=otattest0
KT_SYS=/sys/class/otattest/$KT_DEV
KT_BRIDGE=$E2E_OUT/kt-bridge
KT_REPLY=

kt_nl() {
	"$KT_NLTEST" "$@"
}

# kt_get KEY TEXT: the value of the first KEY=... line (or word) of TEXT.
kt_get() {
	tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p" | head -n1
}

# kt_model_stat NAME: NAME's value in the model's status (NAME=VALUE words
# from its control socket: flash-writes, requests, record-generation, ...).
kt_model_stat() {
	local status
	status=$(kt_host model status) || return
	kt_get "$1" "$status"
}

# kt_oneline TEXT: TEXT on one line, for failure messages.
kt_oneline() {
	tr '\n' ' ' <<<"$1"
}

# kt_nl_ok WHAT ARGS...: otattest-nltest ARGS must succeed; its output is
# left in KT_REPLY.
kt_nl_ok() {
	local what=$1
	shift
	KT_REPLY=$("$KT_NLTEST" "$@") || e2e_fail "$what: $(kt_oneline "$KT_REPLY")"
	e2e_log "ok: $what"
}

# kt_nl_err ERRNAME WHAT ARGS...: otattest-nltest ARGS must fail with the
# kernel's error ERRNAME (e.g. ETIMEDOUT); output in KT_REPLY.
kt_nl_err() {
	local want=$1 what=$2 rc=0
	shift 2
	KT_REPLY=$("$KT_NLTEST" "$@") || rc=$?
	if [ "$rc" != 1 ] || [ "$(kt_get error "$KT_REPLY")" != "$want" ]; then
		e2e_fail "$what: expected $want, got exit $rc: $(kt_oneline "$KT_REPLY")"
	fi
	e2e_log "ok: $what ($want, \"$(sed -n 's/^msg="\(.*\)"$/\1/p' <<<"$KT_REPLY")\")"
}

# kt_msg: the extack message of the last kt_nl_* reply.
kt_msg() {
	sed -n 's/^msg="\(.*\)"$/\1/p' <<<"$KT_REPLY"
}

# kt_elapsed: elapsed_ms of the last reply.
kt_elapsed() {
	kt_get elapsed_ms "$KT_REPLY"
}

# kt_host CMD ARG...: run a bridge command on the host (host-lib.sh lists
# them), print its output, return its exit status.
kt_host() {
	local n i rc quiet=0
	if [ "$1" = --quiet ]; then
		quiet=$2
		shift 2
	fi
	mkdir -p "$KT_BRIDGE"
	# Numbered from the files, not a variable: callers use $(kt_host ...).
	n=$(($(find "$KT_BRIDGE" -name 'req.*' ! -name '*.tmp' | wc -l) + 1))
	printf '%s\n' "$@" >"$KT_BRIDGE/req.$n.tmp"
	mv "$KT_BRIDGE/req.$n.tmp" "$KT_BRIDGE/req.$n"
	# --quiet S: touch no file on the share for S seconds (see kt_unplug
	# in host-lib.sh: new host files opened by QEMU's 9p server right
	# after an ivshmem unplug can land on fd numbers QEMU left a stale
	# handler on).
	[ "$quiet" = 0 ] || sleep "$quiet"
	for ((i = 0; i < 1200; i++)); do
		[ -e "$KT_BRIDGE/rep.$n" ] && break
		sleep 0.05
	done
	[ -e "$KT_BRIDGE/rep.$n" ] || e2e_fail "the host did not answer bridge request '$*' in 60 s"
	rc=$(head -n1 "$KT_BRIDGE/rep.$n")
	tail -n +2 "$KT_BRIDGE/rep.$n"
	return "$rc"
}

# kt_model REQUEST...: one request to the model's control socket; must be ok.
kt_model() {
	local out
	out=$(kt_host model "$@") || e2e_fail "model request '$*': $out"
	e2e_log "model: $* -> $out"
}

# kt_insmod [PARAM=VALUE...]: load otattest.ko and wait for otattest0.
kt_insmod() {
	e2e_insmod otattest "$@"
	e2e_wait_for 10 "$KT_SYS" test -d "$KT_SYS"
}

# kt_state: the device's state as sysfs shows it.
kt_state() {
	cat "$KT_SYS/state"
}

# kt_wait_state STATE [SECONDS]: until sysfs state reads STATE.
kt_wait_state() {
	e2e_wait_for "${2:-10}" "state $1 (now $(cat "$KT_SYS/state" 2>/dev/null))" \
		grep -qx "$1" "$KT_SYS/state"
}

# kt_wait_runtime [SECONDS]: until the driver knows the runtime's version
# (sysfs runtime_version reads): after a boot of other images it asks
# GET_INFO once the device is ready, so a scenario that counts the
# device's requests waits for that one first.
kt_wait_runtime() {
	e2e_wait_for "${1:-10}" "runtime_version known" cat "$KT_SYS/runtime_version"
}

# kt_detail_name: the status name of state_detail, as status.h spells it;
# the guest has no status table, so this compares numbers.
kt_assert_detail() {
	e2e_assert_eq "$1" "$(cat "$KT_SYS/state_detail")" "state_detail ($2)"
}

# kt_listen NAME nltest-listener-args...: start "otattest-nltest monitor"
# or "uevents" in the background, output in /tmp/NAME.out, and return once
# it is listening. kt_listen_wait NAME waits for it to end.
kt_listen() {
	local name=$1 a args=() t=0
	shift
	# Its -t grows with the guest's other waits (E2E_WAIT_SCALE: the
	# debug kernel).
	for a in "$@"; do
		[ $t = 1 ] && a=$((a * ${E2E_WAIT_SCALE:-1}))
		t=0; [ "$a" = -t ] && t=1
		args+=("$a")
	done
	# RUNTIME_CHANGED comes whenever the runtime answers the driver's own
	# GET_INFO after a boot of other images (kernel/state.c, in the
	# background): a monitor counting other events prints it and does not
	# count it, unless the caller says what to skip itself.
	[ "$1" != monitor ] || [[ " $* " == *" -x "* ]] || args+=(-x event=runtime_changed)
	"$KT_NLTEST" "${args[@]}" >"/tmp/$name.out" 2>&1 &
	eval "KT_LISTENER_$name=\$!"
	local i
	for ((i = 0; i < 100; i++)); do
		grep -qs '^listening' "/tmp/$name.out" && return 0
		sleep 0.05
	done
	e2e_fail "listener $name did not start: $(kt_oneline "$(cat "/tmp/$name.out")")"
}

kt_listen_wait() {
	local pid
	eval "pid=\$KT_LISTENER_$1"
	wait "$pid" || e2e_fail "listener $1 ended with $?: $(kt_oneline "$(cat "/tmp/$1.out")")"
}

# kt_bg NAME ARGS...: run otattest-nltest ARGS in the background (output
# in /tmp/NAME.out, exit status in /tmp/NAME.rc once done).
kt_bg() {
	local name=$1
	shift
	rm -f "/tmp/$name.rc"
	( rc=0; "$KT_NLTEST" "$@" >"/tmp/$name.out" 2>&1 || rc=$?; echo $rc >"/tmp/$name.rc" ) &
}

# kt_bg_wait NAME SECONDS: wait for it; KT_REPLY gets its output.
kt_bg_wait() {
	e2e_wait_for "$2" "background request $1" test -e "/tmp/$1.rc"
	KT_REPLY=$(cat "/tmp/$1.out")
}

# kt_pci: sysfs path of the ivshmem function the driver is bound to.
kt_pci() {
	readlink -f "$KT_SYS/device"
}

# kt_dmesg_has REGEX WHAT: the kernel log must contain a line matching.
kt_dmesg_has() {
	dmesg | grep -qE -- "$1" || e2e_fail "$2: no kernel log line matches /$1/"
	e2e_log "ok: $2 ($(dmesg | grep -E -- "$1" | tail -n1 | sed 's/^\[ *[0-9.]*\] //'))"
}

# A nonce/message of N bytes as hex: kt_hex N [SEED]
kt_hex() {
	local n=$1 seed=${2:-0} i out=
	for ((i = 0; i < n; i++)); do
		out+=$(printf '%02x' $(((i * 7 + seed) & 255)))
	done
	echo "$out"
}

# kt_nl_answered WHAT ARGS...: the device must answer the request: success,
# or a failure the device reported (a provisioned device attests, an
# unprovisioned one says MBOX_NOT_READY), but not a timeout, a vanished
# device or a protocol error. Output in KT_REPLY.
kt_nl_answered() {
	local what=$1 rc=0 err
	shift
	KT_REPLY=$("$KT_NLTEST" "$@") || rc=$?
	err=$(kt_get error "$KT_REPLY")
	case $rc:$err in
	0:) e2e_log "ok: $what (answered, $(kt_elapsed) ms)" ;;
	1:ETIMEDOUT | 1:ENODEV | 1:EPROTO | 1:)
		e2e_fail "$what: the device did not answer properly: exit $rc $(kt_oneline "$KT_REPLY")" ;;
	1:*) e2e_log "ok: $what (answered with $err \"$(kt_msg)\", $(kt_elapsed) ms)" ;;
	*) e2e_fail "$what: otattest-nltest exit $rc: $(kt_oneline "$KT_REPLY")" ;;
	esac
}

# kt_assert_between LO HI VALUE WHAT: LO <= VALUE < HI (integers).
kt_assert_between() {
	[ "$3" -ge "$1" ] && [ "$3" -lt "$2" ] || e2e_fail "$4: $3 is not in [$1, $2)"
	e2e_log "ok: $4 = $3 (in [$1, $2))"
}

# kt_line_has FILE WHAT WORD...: some line of FILE holds every WORD (as a
# space-separated word), e.g. an event with its attributes.
kt_line_has() {
	local file=$1 what=$2 line w ok
	shift 2
	while read -r line; do
		ok=1
		for w in "$@"; do
			[[ " $line " == *" $w "* ]] || { ok=0; break; }
		done
		if [ $ok = 1 ]; then
			e2e_log "ok: $what"
			return 0
		fi
	done <"$file"
	e2e_fail "$what: no line of $file holds $*: $(kt_oneline "$(cat "$file")")"
}

# kt_now_ms: a monotonic-enough clock in ms (bash's EPOCHREALTIME; busybox
# date has no %N).
kt_now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# kt_wait_line FILE SECONDS WHAT WORD...: until a line of FILE (a listener's
# output) holds every WORD.
kt_wait_line() {
	local file=$1 secs=$2 what=$3 i
	shift 3
	for ((i = 0; i < secs * 20; i++)); do
		if (kt_line_has "$file" "$what" "$@") >/dev/null 2>&1; then
			e2e_log "ok: $what"
			return 0
		fi
		sleep 0.05
	done
	kt_line_has "$file" "$what" "$@"
}

# kt_listen_stop NAME: end a listener started with kt_listen.
kt_listen_stop() {
	local pid
	eval "pid=\$KT_LISTENER_$1"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
