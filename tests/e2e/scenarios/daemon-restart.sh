# SPDX-License-Identifier: MIT
# otattestd restarted while clients call: nothing the kernel accepted is
# lost.
# (1) Three clients attest in loops while the device answers each request
#     a second late (model fault delay=1000) and otattestd is restarted
#     three times, each time with an attestation inside the driver (a
#     thread of otattestd in otattest_mbox_call) that the device cannot
#     answer before SIGTERM: the host freezes the model (SIGSTOP) first and
#     thaws it once the stopping instance has logged its SIGTERM. Every
#     stopping instance's journal says it is finishing N >= 1 accepted
#     calls, and no client call fails: the stopping instance releases its
#     name and answers what it accepted, new calls wait in the bus for the
#     next one.
# (2) An attestation the device is still working on (the model frozen
#     before it was asked) when SIGTERM arrives is answered before the
#     daemon exits ("finishing 1 accepted call(s)").
#
# No step races a delay against the guest's speed: a model delay long
# enough to outlast `systemctl restart` on a loaded guest (it was scaled
# with E2E_WAIT_SCALE) made three clients' calls queue past their D-Bus
# timeout on the debug kernel. What waits for the frozen model (the
# driver's timeout_ms, otattestd's --request-timeout, the clients' D-Bus
# timeout) grows with E2E_WAIT_SCALE instead; at scale 1 all are the
# defaults but timeout_ms (20 s, as before).
# (3) A rotation the kernel accepted completes on the device even when
#     otattestd is SIGKILLed first: the model is frozen (SIGSTOP) before
#     the rotation is asked for, so when otattestd is killed the request
#     is inside the driver and the device has not started it (TagKeyVersion
#     and sysfs still show the old key version). The killed process leaves
#     at once (the driver's waits are killable) while its request stays in
#     flight in the driver. Thawed, the device runs it (host_check: the
#     model's rotate-tags request comes after the freeze) and the next
#     instance shows the new key version.
E2E_DESCRIPTION="otattestd: restarts under load lose no request the kernel accepted"
E2E_MODE=systemd
# Also on dbus-broker, as Fedora's and Arch's system bus (NAME@dbus-broker).
E2E_BUS_VARIANTS=(dbus-broker)
# 240: four held restarts (the guest sees SIGTERM in the journal before the
# model thaws) take some 20 s more than the raced ones did on a loaded host.
E2E_TIMEOUT=240
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)
# timeout_ms: restart_timeout_ms in guest_main (20 s at scale 1).
DAEMON_INSMOD_ARGS=timeout_ms=20000

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

RESTART_CLIENTS=3
RESTART_SYSFS=/sys/class/otattest/otattest0

host_prepare() {
	daemon_provision
}

# How long the driver (timeout_ms: 20 s times the scale, at most its
# 60 s), otattestd (--request-timeout: 30 s times it) and the clients
# (SYSTEMD_BUS_TIMEOUT: 25 s times it, lib/guest.sh) wait for the device: the frozen
# model answers only after the guest has seen SIGTERM logged and told the
# host, which takes longer on a slower guest (E2E_WAIT_SCALE).
restart_scale() { echo "${E2E_WAIT_SCALE:-1}"; }
restart_timeout_ms() {
	local ms=$((20000 * $(restart_scale)))
	[ "$ms" -le 60000 ] || ms=60000
	echo "$ms"
}

guest_setup() {
	local s
	daemon_guest_setup
	s=$(restart_scale)
	if [ "$s" -gt 1 ]; then
		mkdir -p /etc/systemd/system/otattestd.service.d
		printf '[Service]\nExecStart=\nExecStart=%s --request-timeout=%s\n' \
			"$DAEMON_EXE" $((30 * s)) >/etc/systemd/system/otattestd.service.d/e2e-timeout.conf
	fi
}

# attest_loop ID: attest as e2e-user until /tmp/stop-loops exists; one
# "ID N EXIT" line per call in /tmp/loop.rc.
attest_loop() {
	local id=$1 i=0 rc
	while [ ! -e /tmp/stop-loops ]; do
		rc=0
		e2e_as e2e-user "$DAEMON_CTL" -q attest \
			--nonce "$(printf '%08x%024x' "$id" "$i")" -o "/tmp/loop-ev.$id" >>"/tmp/loop.$id.log" 2>&1 || rc=$?
		echo "$id $i $rc" >>/tmp/loop.rc
		i=$((i + 1))
	done
}

# A request is inside the driver: a thread of the current otattestd is in
# otattest_mbox_call (waiting for the mailbox or for the device's answer).
daemon_in_driver() {
	local pid t
	pid=$(daemon_pid)
	[ -n "$pid" ] && [ "$pid" != 0 ] || return 1
	for t in /proc/"$pid"/task/*/stack; do
		grep -q otattest_mbox_call "$t" 2>/dev/null && return 0
	done
	return 1
}

# Each client's loop has had a call answered (a line in /tmp/loop.rc).
clients_calling() {
	local id
	for ((id = 1; id <= RESTART_CLIENTS; id++)); do
		awk -v id="$id" '$1 == id { found = 1 } END { exit !found }' /tmp/loop.rc 2>/dev/null || return 1
	done
}

# The N of every "finishing N accepted call(s)" otattestd logged, in order.
finishing_counts() {
	journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service |
		sed -n 's/.*stopping on Terminated; finishing \([0-9]*\) accepted call(s).*/\1/p'
}

# A stopping instance logged its SIGTERM: more "finishing" lines than $1.
stopping_logged() {
	[ "$(finishing_counts | wc -l)" -gt "$1" ]
}

# held_restart N: with the model frozen by the host (e2e_signal holdN
# before), restart otattestd once an attestation is inside the driver,
# thaw the model once the stopping instance has logged SIGTERM, and wait
# for the restart. The call inside the driver cannot be answered before
# SIGTERM whatever the guest's speed.
held_restart() {
	local n=$1 pid_before before rpid rc=0
	e2e_wait_for 30 "an attestation inside the driver before restart $n" daemon_in_driver
	pid_before=$(daemon_pid)
	before=$(finishing_counts | wc -l)
	systemctl restart otattestd.service &
	rpid=$!
	e2e_wait_for 30 "otattestd $pid_before logging its SIGTERM (restart $n)" stopping_logged "$before"
	e2e_signal "thaw$n"
	e2e_wait_host "thaw$n" 20
	wait "$rpid" || rc=$?
	[ "$rc" = 0 ] || e2e_fail "systemctl restart otattestd.service (restart $n) exited $rc"
	[ "$(daemon_pid)" != "$pid_before" ] || e2e_fail "restart $n did not replace the process"
	e2e_log "restart $n: otattestd $pid_before -> $(daemon_pid), SIGTERM with a call inside the driver and the model frozen"
}

# held NAME: the host froze the model (and thaws it on thawN).
held() {
	e2e_signal "hold$1"
	e2e_wait_host "hold$1" 20
}

guest_main() {
	local pid_before kv rc n stops before after pids=() id counts

	DAEMON_INSMOD_ARGS=timeout_ms=$(restart_timeout_ms)
	daemon_start ready
	cat "/proc/$(daemon_pid)/stack" >/dev/null || e2e_fail "cannot read /proc/PID/stack: cannot see requests inside the driver"

	# (1) Three restarts while three clients attest, each with an
	# attestation inside the driver at that moment.
	e2e_signal slow1
	e2e_wait_host slow1 20
	stops=$(finishing_counts | wc -l)
	for ((id = 1; id <= RESTART_CLIENTS; id++)); do
		attest_loop "$id" &
		pids+=($!)
	done
	# The clients are calling before the first restart: under load their
	# first calls came only after it, and the request daemon_in_driver saw
	# inside the driver was otattestd's own (restart 1 "finishing 0
	# accepted call(s)", no client's call in its journal).
	e2e_wait_for 120 "an attestation answered for each of the $RESTART_CLIENTS clients" clients_calling
	for n in 1 2 3; do
		held "$n"
		held_restart "$n"
	done
	# One more round after the last restart, then stop the clients.
	e2e_wait_for 30 "an attestation inside the driver after the restarts" daemon_in_driver
	: >/tmp/stop-loops
	wait "${pids[@]}"
	cat /tmp/loop.*.log
	counts=$(finishing_counts | tail -n +$((stops + 1)) | tr '\n' ' ')
	e2e_log "the three stopping instances were finishing ${counts}accepted call(s)"
	e2e_assert_eq 3 "$(echo $counts | wc -w)" "stops logged by restarts in part 1"
	for n in $counts; do
		[ "$n" -ge 1 ] || e2e_fail "a restart found no accepted call in flight (finishing: $counts)"
	done
	n=$(wc -l </tmp/loop.rc)
	[ "$n" -ge $((RESTART_CLIENTS * 2)) ] || e2e_fail "only $n attestations in part 1"
	e2e_assert_eq 0 "$(awk '$3 != 0' /tmp/loop.rc | wc -l)" "of $n attestations by $RESTART_CLIENTS clients, those that failed across 3 restarts"

	# (2) SIGTERM while the device holds an accepted attestation's answer
	# (the model frozen before it is asked).
	held 4
	rc=0
	e2e_as e2e-user "$DAEMON_CTL" attest --nonce 0123456789abcdef0123456789abcdef \
		-o /tmp/slow-ev >/tmp/slow.log 2>&1 &
	pids=($!)
	before=$(finishing_counts | wc -l)
	held_restart 4
	wait "${pids[0]}" || rc=$?
	cat /tmp/slow.log
	e2e_assert_eq 0 "$rc" "attestation in flight across a restart"
	[ -s /tmp/slow-ev ] || e2e_fail "no evidence from the attestation in flight"
	e2e_assert_eq 1 "$(finishing_counts | tail -n +$((before + 1)) | head -1)" \
		"accepted calls the instance stopped during the slow attestation was finishing"
	e2e_wait_for 15 "otattest0 ready after the restart" daemon_state_is ready

	# (3) SIGKILL while a rotation is inside the driver and the device has
	# not run it: the host freezes the model first.
	kv=$(daemon_prop TagKeyVersion | cut -d' ' -f2)
	e2e_assert_eq "$kv" "$(cat $RESTART_SYSFS/tag_key_version)" "sysfs tag_key_version before the rotation"
	e2e_signal freeze
	e2e_wait_host freeze 20
	e2e_as e2e-update "$DAEMON_CTL" rotate >/tmp/rot.log 2>&1 &
	pids=($!)
	e2e_wait_for 20 "the rotation inside the driver" daemon_in_driver
	# Not finished, not even started: the daemon and the driver still show the old key version.
	e2e_assert_eq "u $kv" "$(daemon_prop TagKeyVersion)" "TagKeyVersion with the rotation inside the driver"
	e2e_assert_eq ready "$(cat $RESTART_SYSFS/state)" "device state with the rotation not yet run"
	pid_before=$(daemon_pid)
	systemctl kill -s KILL otattestd.service
	# The driver's waits are killable: the process leaves at once, and its
	# request stays in flight in the driver until the device answers it.
	e2e_wait_for 5 "killed otattestd $pid_before gone although the device is frozen" \
		test ! -e /proc/"$pid_before"
	e2e_log "killed otattestd $pid_before left at once; its rotation is still owed its answer"
	e2e_assert_eq "$kv" "$(cat $RESTART_SYSFS/tag_key_version)" "sysfs tag_key_version after SIGKILL, device frozen"
	e2e_signal thaw
	e2e_wait_host thaw 20
	wait "${pids[0]}" || e2e_log "the rotating client lost its daemon (exit $?), as it must"
	cat /tmp/rot.log
	# Restart=on-failure brings it back; the device finished the rotation.
	e2e_wait_for 30 "a new otattestd after SIGKILL" sh -c "p=\$(systemctl show -p MainPID --value otattestd.service); [ \"\$p\" != 0 ] && [ \"\$p\" != $pid_before ]"
	e2e_wait_for 20 "otattestd back on the bus" daemon_has_name
	e2e_wait_for 20 "the rotation's result in TagKeyVersion" \
		test "$(daemon_prop TagKeyVersion 2>/dev/null)" = "u $((kv + 1))"
	e2e_assert_eq "$((kv + 1))" "$(cat $RESTART_SYSFS/tag_key_version)" "sysfs tag_key_version after the thaw"
	after=$(daemon_pid)
	journalctl --no-pager -q -o cat _PID="$after" | tee /tmp/new-instance.txt
	grep -q "tag key version $((kv + 1))\$" /tmp/new-instance.txt ||
		e2e_fail "the new otattestd ($after) did not log the record with key version $((kv + 1))"
	e2e_log "TagKeyVersion $kv -> $((kv + 1)): the rotation survived the SIGKILL of otattestd $pid_before; otattestd $after shows it"
	[ "$(systemctl show -p NRestarts --value otattestd.service)" -ge 1 ] ||
		e2e_fail "systemd did not restart otattestd after SIGKILL (Restart=on-failure)"
	daemon_save_journal
}

# Wait for the guest's NAME without failing (the model must be thawed
# whatever happens).
restart_wait_guest_quietly() {
	local i
	for ((i = 0; i < $2 * 20 * ${E2E_WAIT_SCALE:-1}; i++)); do
		[ -e "$E2E_OUT/signals/$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# restart_hold N: freeze the model on the guest's holdN, thaw it on its
# thawN (or anyway, if the guest never says so).
restart_hold() {
	local pid
	pid=$(cat "$E2E_RUN_DIR/model.pid")
	e2e_wait_guest "hold$1" 120
	kill -STOP "$pid"
	e2e_tell_guest "hold$1"
	restart_wait_guest_quietly "thaw$1" 120 || echo "no 'thaw$1' from the guest; thawing the model anyway"
	kill -CONT "$pid"
	e2e_tell_guest "thaw$1"
}

host_hook() {
	local pid n
	e2e_wait_guest slow1 120
	# Each answer a second late, so that calls are inside the driver most
	# of the time; the restarts themselves do not rely on it (restart_hold).
	# It was scaled by E2E_WAIT_SCALE once, to outlast systemctl restart on
	# a loaded guest: 6 s on the debug kernel, where three clients' calls
	# then queued past their D-Bus timeout and part 1 never finished.
	e2e_model_ctl fault delay 1000 >/dev/null
	e2e_tell_guest slow1
	for n in 1 2 3 4; do
		restart_hold "$n"
	done
	e2e_wait_guest freeze 120
	e2e_model_ctl fault delay 0 >/dev/null
	pid=$(cat "$E2E_RUN_DIR/model.pid")
	wc -l <"$E2E_RUN_DIR/model.log" >"$E2E_RUN_DIR/freeze-line"
	kill -STOP "$pid"
	e2e_tell_guest freeze
	restart_wait_guest_quietly thaw 60 || echo "no 'thaw' from the guest; thawing the model anyway"
	kill -CONT "$pid"
	e2e_tell_guest thaw
}

# The device ran the rotation only after the freeze, i.e. after the guest
# had the request inside the driver and killed otattestd.
host_check() {
	local n log=$E2E_RUN_DIR/model.log
	n=$(cat "$E2E_RUN_DIR/freeze-line")
	if head -n "$n" "$log" | grep -q 'command=rotate-tags'; then
		e2e_fail "the model ran rotate-tags before it was frozen"
	fi
	tail -n +"$((n + 1))" "$log" | grep 'mbox-request .*command=rotate-tags .*status=OK' ||
		e2e_fail "the model did not run rotate-tags after the thaw"
}
