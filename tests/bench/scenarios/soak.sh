# SPDX-License-Identifier: MIT
# The guest half of `make soak` (tests/bench/soak.sh): 32 clients on the
# shipped otattestd for SOAK_SECONDS (default 240) while things are killed.
#
#   31 readers (e2e-user, unprivileged)  State/Stages reads, GetRecord,
#                                         Attest with every evidence verified
#   1 rotator (e2e-update)               RotateTags every ~15 s
#   guest chaos                          otattestd restarted (SIGTERM) or
#                                         SIGKILLed at random moments in the
#                                         first part of the run
#   host chaos (host_hook)               the device (otattest-model's device
#                                         process, split mode) SIGKILLed at
#                                         random moments and restarted on its
#                                         state: the guest's device goes
#                                         silent, then cold boots and returns
#                                         on the same PCI function
#
# The last SOAK_CALM seconds (default 100) leave otattestd alone so one
# instance lives long enough to judge its memory (otattest-loadgen soak:
# growth from 20 s after it appeared to its end, at most SOAK_RSS_KIB).
# Passes when both loadgen reports pass (no wrong, unexpected or lost
# answer), each kind of chaos happened at least once, and the kernel log is
# clean (the runner's check).
E2E_DESCRIPTION="soak: 32 clients, daemon and model killed at random, every answer judged"
E2E_MODE=systemd
E2E_TIMEOUT=$((${SOAK_SECONDS:-240} + 240))
E2E_DEVICE=1
# The device dies and comes back without a PCI unplug: QEMU 7.2 crashes
# when the ivshmem device is deleted under 9p load (tests/e2e/README.md,
# "Known problems"), and a root of trust that crashes does not take its
# PCI function with it either.
E2E_MODEL_SPLIT=1
E2E_MODEL_MAY_EXIT=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/otimage build/tests/bench/otattest-loadgen)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c tests/bench/stack/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/bench/scenarios/stack-lib.bash" ||
	{ echo "cannot read stack-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
	{
		echo "SOAK_SECONDS=${SOAK_SECONDS:-240}"
		echo "SOAK_CALM=${SOAK_CALM:-100}"
		echo "SOAK_RSS_KIB=${SOAK_RSS_KIB:-2048}"
	} >"$E2E_OUT/soak.conf"
}

guest_setup() {
	daemon_guest_setup
}

# chaos_sleep SECS UNTIL: sleep SECS, but not past SECONDS = UNTIL, so that
# the chaos stops on time and never outlives the clients.
chaos_sleep() {
	local end=$((SECONDS + $1))
	[ "$end" -le "$2" ] || end=$2
	while [ "$SECONDS" -lt "$end" ]; do
		sleep 1
	done
}

# chaos_daemon UNTIL: restart or SIGKILL otattestd at random moments until
# SECONDS reaches UNTIL; one line per event in out/chaos-daemon.
chaos_daemon() {
	local until=$1 what
	while :; do
		chaos_sleep $((10 + RANDOM % 20)) "$until"
		[ "$SECONDS" -lt "$until" ] || break
		if ((RANDOM % 2)); then
			what=restart
			systemctl restart otattestd.service
		else
			what=sigkill
			systemctl kill -s KILL otattestd.service
		fi
		echo "$SECONDS $what" >>"$E2E_OUT/chaos-daemon"
	done
}

guest_main() {
	local readers rotator chaos rc=0
	. "$E2E_OUT/soak.conf"
	daemon_start ready
	: >"$E2E_OUT/chaos-daemon"
	e2e_signal soak-start

	e2e_as e2e-user "$E2E_SRC/$STACK_LOADGEN" soak --role readers --clients 31 \
		--seconds "$SOAK_SECONDS" --ca "$E2E_OUT/ca.pem" --rss-growth-max "$SOAK_RSS_KIB" \
		--out /tmp/readers.json 2>/tmp/readers.err &
	readers=$!
	e2e_as e2e-update "$E2E_SRC/$STACK_LOADGEN" soak --role rotator \
		--seconds "$SOAK_SECONDS" --rotate-every 15 --out /tmp/rotator.json 2>/tmp/rotator.err &
	rotator=$!
	chaos_daemon $((SECONDS + SOAK_SECONDS - SOAK_CALM)) &
	chaos=$!

	wait "$readers" || rc=1
	wait "$rotator" || rc=1
	wait "$chaos"
	cat /tmp/readers.err /tmp/rotator.err
	cp /tmp/readers.json /tmp/rotator.json "$E2E_OUT/" 2>/dev/null || true
	e2e_log "daemon chaos: $(wc -l <"$E2E_OUT/chaos-daemon") events: $(awk '{ print $2 }' "$E2E_OUT/chaos-daemon" | sort | uniq -c | tr '\n' ' ')"
	[ "$rc" = 0 ] || e2e_fail "the soak found wrong, unexpected or lost answers, or memory growth (see readers.json, rotator.json)"
	[ -s "$E2E_OUT/chaos-daemon" ] || e2e_fail "otattestd was never killed: the soak showed nothing"
	daemon_save_journal
}

# Kill the device at random moments and bring it back, until 20 s before
# the clients stop.
host_hook() {
	local until
	e2e_wait_guest soak-start 180
	. "$E2E_OUT/soak.conf"
	until=$((SECONDS + SOAK_SECONDS - 20))
	: >"$E2E_OUT/chaos-model"
	while :; do
		chaos_sleep $((15 + RANDOM % 25)) "$until"
		[ "$SECONDS" -lt "$until" ] || break
		e2e_model_kill
		sleep "$((RANDOM % 3)).$((RANDOM % 10))"
		e2e_model_restart
		echo "$SECONDS model-kill-restart" >>"$E2E_OUT/chaos-model"
	done
}

host_check() {
	local f
	for f in readers rotator; do
		[ -s "$E2E_OUT/$f.json" ] || { echo "E2E-FAIL: no $f report"; exit 1; }
		jq -e .pass "$E2E_OUT/$f.json" >/dev/null ||
			{ echo "E2E-FAIL: the $f report says fail"; jq . "$E2E_OUT/$f.json"; exit 1; }
	done
	[ -s "$E2E_OUT/chaos-model" ] || { echo "E2E-FAIL: the model was never killed"; exit 1; }
	echo "model chaos: $(wc -l <"$E2E_OUT/chaos-model") kill/restart cycles"
}
