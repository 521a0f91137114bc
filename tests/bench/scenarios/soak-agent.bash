# SPDX-License-Identifier: MIT
# The guest's update agent, fault injector and judge of `make soak`
# (sourced by tests/bench/scenarios/soak.sh in guest_main; functions only).
#
# One process, sk_agent, drives the device's persistent state through the
# product's public interfaces (otattestctl as e2e-update, the model's
# control socket through the kernel scenarios' bridge) and injects the
# faults, so that it always knows what it asked for and what it saw
# acknowledged:
#
#   cycle  install the next image into the slot not running; update reset
#          into it (trial); commit it, or (1 in 5) leave the trial and let
#          a cold boot revert it, or warm resets until the device reverts
#          it by itself (its third boot is its last, issue 28); the SVN goes up every 3rd cycle and the
#          BL0 floor is ratcheted to it once committed; every 3rd cycle
#          the next signed revocation is applied
#   faults at random inside those steps: power cut inside a flash write
#          (the model's die-at-flash-write, a random write and tear), the
#          device SIGKILLed at a random moment (inside the OTP writes of a
#          revocation too), otattestd SIGKILLed or restarted, a warm reset
#          during an install; after every other cycle, in turn: the driver
#          unloaded and reloaded, otattestd's history file truncated,
#          otattestd SIGKILLed
#
# After every step and every fault the judge (sk_checkpoint) waits for
# the device, then holds it to what the agent knows: the BL0 that runs is
# the image the agent installed (and saw verified) in that slot, in the
# slot the last event must leave running (a cold boot: the last
# acknowledged commit); PrimarySlot is the last acknowledged commit;
# FloorBl0 and RevocationSequence never below what was acknowledged nor
# below what was seen before; and a fresh evidence, verified on the host
# (otattest-verify) against the CA, its nonce and a policy made from the
# expected state (min_svn_bl0 = the acknowledged floor), shows that BL0.
# At the end: the boot history holds every generation seen since the last
# truncation, once, in order.
#
# Every answer to the agent is one of ok, named (Busy, Timeout,
# DeviceUnavailable: what a client must expect while things are killed;
# the step is retried), wrong, unexpected or lost (no answer in 200 s).
#
# Planted faults (SOAK_PLANT, comma-separated; only for showing that the
# judge fails): forget-commit (the first commit acknowledged to the agent
# but never sent, then a cold boot: the device has forgotten it),
# floor-back (likewise for the first ratchet: the floor the agent saw
# acknowledged is not in force), stale-nonce (the host verifier is handed
# the previous evidence with the new nonce).

SK_DIR=${E2E_OUT:-}/soak
SK_CTL=${E2E_SRC:-}/build/otattestctl
declare -A SK_IMG    # slot -> measurement of the image the agent installed there ("torn": a cut install)
declare -A SK_IMGSVN # slot -> its SVN
SK_PRIMARY=a         # last acknowledged commit
SK_PRIMARY_MAYBE=    # a commit in flight when a fault struck
SK_EXPECT_RUN=a      # slots the device may run after the last event (space-separated)
SK_FLOOR=0           # highest acknowledged BL0 floor (ratchet or revocation)
SK_SEEN_FLOOR=0
SK_REVSEQ=0          # highest acknowledged revocation sequence
SK_SEEN_SEQ=0
SK_SEEN_GEN=0
SK_REV_NEXT=1
SK_CYCLE=0
SK_FAULTS_ON=1
SK_CALM_FROM=        # SECONDS from which no fault strikes (sk_agent)
SK_LAST_EVIDENCE=
SK_LAST_TRUNC_T=-1
SK_PLANTED=

sk_now() {
	echo "$SECONDS"
}

# sk_event KIND WORDS...: one line in the event log (the report is made from it).
sk_event() {
	echo "$(sk_now) $*" >>"$SK_DIR/events"
}

# sk_judge_fail MESSAGE: the judge's finding; the run goes on, and fails.
sk_judge_fail() {
	echo "$(sk_now) cycle $SK_CYCLE: $*" >>"$SK_DIR/judge-failures"
	e2e_log "JUDGE: $*"
}

sk_rand() { # sk_rand N: 0..N-1
	echo $((RANDOM % $1))
}

# sk_ctl WHO ARGS...: otattestctl as WHO, output in $SK_DIR/ctl.out, its exit status
# (124: no answer in 200 s).
sk_ctl() {
	local who=$1
	shift
	e2e_as "$who" timeout 200 "$SK_CTL" "$@" >"$SK_DIR/ctl.out" 2>&1
}

# sk_class RC: the answer class of otattestctl's exit status.
sk_class() {
	case $1 in
	0) echo ok ;;
	17 | 18 | 19) echo named ;;
	124) echo lost ;;
	*) echo unexpected ;;
	esac
}

sk_errname() {
	case $1 in
	0) echo - ;; 10) echo InvalidArgument ;; 11) echo Malformed ;; 12) echo VerificationFailed ;; 13) echo PolicyViolation ;;
	14) echo Rollback ;; 15) echo KeyRevoked ;; 16) echo NoSuchDevice ;; 17) echo Busy ;;
	18) echo Timeout ;; 19) echo DeviceUnavailable ;; 20) echo AccessDenied ;; 22) echo IOError ;;
	23) echo ProtocolError ;; 24) echo InternalError ;; 124) echo no-answer ;; *) echo "exit-$1" ;;
	esac
}

# sk_answer OP RC [ACCEPT]: count one answer; ACCEPT is an exit status that is
# right for this attempt (e.g. 14 for a revocation retried after a fault that
# had applied it). Returns 0 for ok (or accepted), 1 for named (retry), 2 otherwise.
sk_answer() {
	local op=$1 rc=$2 accept=${3:-} class
	if [ -n "$accept" ] && [ "$rc" = "$accept" ]; then
		sk_event answer "$op" ok "$(sk_errname "$rc")-after-retry"
		return 0
	fi
	class=$(sk_class "$rc")
	sk_event answer "$op" "$class" "$(sk_errname "$rc")"
	case $class in
	ok) return 0 ;;
	named) return 1 ;;
	*)
		sk_judge_fail "$op: $class answer (exit $rc): $(tr '\n' ' ' <"$SK_DIR/ctl.out" | head -c 300)"
		return 2
		;;
	esac
}

# ---- the model and the device ----

sk_model_alive() {
	kt_host model status >/dev/null 2>&1
}

# sk_model_back: start the device again if it died (a power cut, a kill).
sk_model_back() {
	sk_model_alive && return 0
	kt_host model-start >/dev/null || sk_judge_fail "the model did not start again"
}

# sk_describe: the device's properties from one Describe() call (a TCG
# guest under load spawns processes slowly): SK_D_STATE, SK_D_UPDATE,
# SK_D_PRIMARY, SK_D_FLOOR, SK_D_SEQ, SK_D_GEN, a trial the device gave
# up (SK_D_REVERT: its reason or none, SK_D_REVERTED: its slot), the BL0 that runs:
# SK_D_SLOT, SK_D_MEAS, SK_D_SVN. Fails when otattestd does not answer.
sk_describe() {
	local line
	line=$(timeout 60 busctl --system --json=short call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" Describe 2>/dev/null |
		jq -r '.data[0] | fromjson | [.State, .UpdateState, .PrimarySlot, .FloorBl0, .RevocationSequence, .Generation,
			.RevertReason, .RevertedSlot,
			((.Stages // []) | map(select(.stage == "bl0" and .booted)) | first // {} | .slot, .measurement, .svn)] |
			map(if . == null or . == "" then "-" else tostring end) | join(" ")' 2>/dev/null) || return 1
	read -r SK_D_STATE SK_D_UPDATE SK_D_PRIMARY SK_D_FLOOR SK_D_SEQ SK_D_GEN SK_D_REVERT SK_D_REVERTED \
		SK_D_SLOT SK_D_MEAS SK_D_SVN <<<"$line"
	[ -n "$SK_D_STATE" ]
}

# sk_wait_ready [SECS]: the device back and ready through otattestd (no
# install under way); its properties then in SK_D_*.
sk_wait_ready() {
	local secs=${1:-180} end
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ]; do
		if sk_describe && [ "$SK_D_STATE" = ready ] && [ "$SK_D_UPDATE" != installing ]; then
			return 0
		fi
		sk_model_back
		systemctl is-active --quiet otattestd.service || systemctl start otattestd.service 2>/dev/null || true
		sleep 1
	done
	sk_judge_fail "the device was not ready ${secs}s after the last event (State '${SK_D_STATE:-}', model alive: $(sk_model_alive && echo yes || echo no))"
	return 1
}

# ---- the host verifier ----

# sk_verify_evidence MEAS: a fresh evidence (as an unprivileged user),
# checked on the host against the CA, its nonce and the expected state.
sk_verify_evidence() {
	local meas=$1 nonce n ev out rc=0
	n=$(($(cat "$SK_DIR/evidence.count" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$SK_DIR/evidence.count"
	nonce=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
	ev=$SK_DIR/evidence/ev.$n
	mkdir -p "$SK_DIR/evidence"
	if ! e2e_as e2e-user timeout 60 "$SK_CTL" attest --nonce "$nonce" -o /tmp/soak-ev.$n 2>"$SK_DIR/ctl.out"; then
		sk_event answer verify-attest named "$(tail -n1 "$SK_DIR/ctl.out" | tr ' ' _ | head -c 60)"
		rm -f "/tmp/soak-ev.$n"
		return 0
	fi
	cp "/tmp/soak-ev.$n" "$ev"
	rm -f "/tmp/soak-ev.$n"
	if [[ ,${SOAK_PLANT:-}, == *,stale-nonce,* ]] && [[ $SK_PLANTED != *stale-nonce* ]] && [ -n "$SK_LAST_EVIDENCE" ]; then
		# Planted: the previous evidence handed over with this nonce, as a replay would.
		cp "$SK_LAST_EVIDENCE" "$ev"
		SK_PLANTED+=" stale-nonce"
		sk_event plant stale-nonce
	fi
	SK_LAST_EVIDENCE=$ev
	out=$(kt_host soak-verify "$ev" "$nonce" "$SK_FLOOR" "$meas") || rc=$?
	echo "$out" >"$ev.verdict"
	if [ "$rc" = 0 ]; then
		sk_event answer host-verify ok -
	else
		sk_event answer host-verify wrong -
		sk_judge_fail "host verifier: evidence $n (nonce $nonce, expected BL0 $meas, floor $SK_FLOOR): $(tr '\n' ' ' <<<"$out" | head -c 400)"
	fi
}

# ---- the judge ----

# sk_checkpoint WHAT: after a step or a fault, hold the device to what the
# agent knows (see the file's head).
sk_checkpoint() {
	local what=$1 slot meas svn gen primary floor seq ok s
	# Always 0: a finding is recorded, and the run goes on (the guest's
	# shell stops at a failing command).
	sk_wait_ready || return 0
	slot=$SK_D_SLOT meas=$SK_D_MEAS svn=$SK_D_SVN gen=$SK_D_GEN
	if [ "$slot" = - ]; then
		sk_judge_fail "$what: no booted BL0 in the record"
		return 0
	fi
	ok=0
	for s in $SK_EXPECT_RUN; do [ "$s" = "$slot" ] && ok=1; done
	# The device may give a trial up by itself (issue 28: its 3 boots used
	# up, e.g. by watchdog bites of a starved device): the primary again.
	if [ "$ok" = 0 ] && [ "$slot" = "$SK_PRIMARY" ] && [ "$SK_D_REVERT" != none ] && [ "$SK_D_REVERT" != - ]; then
		for s in $SK_EXPECT_RUN; do
			[ "$s" = "$SK_D_REVERTED" ] && ok=1
		done
		[ "$ok" = 0 ] || sk_event step trial-reverted-by-device "$SK_D_REVERTED" "$SK_D_REVERT"
	fi
	[ "$ok" = 1 ] || sk_judge_fail "$what: BL0 slot $slot runs, the agent's last acknowledged state allows only '$SK_EXPECT_RUN' (primary $SK_PRIMARY${SK_PRIMARY_MAYBE:+, commit of $SK_PRIMARY_MAYBE in flight})"
	if [ "${SK_IMG[$slot]}" = torn ]; then
		sk_judge_fail "$what: slot $slot runs, but the agent's install there was cut and never acknowledged"
	elif [ "$meas" != "${SK_IMG[$slot]}" ]; then
		sk_judge_fail "$what: slot $slot runs measurement $meas, the agent installed ${SK_IMG[$slot]} there"
	fi
	# The slot that runs settles the state the last event left.
	SK_EXPECT_RUN=$slot
	primary=$SK_D_PRIMARY
	if [ "$primary" = "$SK_PRIMARY_MAYBE" ] && [ -n "$primary" ]; then
		SK_PRIMARY=$primary
		SK_PRIMARY_MAYBE=
	elif [ "$primary" != "$SK_PRIMARY" ]; then
		sk_judge_fail "$what: PrimarySlot is '$primary', the last commit acknowledged was of slot $SK_PRIMARY: the device forgot it"
	fi
	SK_PRIMARY_MAYBE=
	floor=$SK_D_FLOOR
	seq=$SK_D_SEQ
	if [ -z "$floor" ] || [ "$floor" -lt "$SK_FLOOR" ] || [ "$floor" -lt "$SK_SEEN_FLOOR" ]; then
		sk_judge_fail "$what: FloorBl0 is '$floor': below the acknowledged $SK_FLOOR or the $SK_SEEN_FLOOR seen before (a floor went back)"
	else
		SK_SEEN_FLOOR=$floor
		[ "$floor" -le "$SK_FLOOR" ] || SK_FLOOR=$floor # an unacknowledged ratchet that landed
	fi
	if [ -z "$seq" ] || [ "$seq" -lt "$SK_REVSEQ" ] || [ "$seq" -lt "$SK_SEEN_SEQ" ]; then
		sk_judge_fail "$what: RevocationSequence is '$seq': below the acknowledged $SK_REVSEQ or the $SK_SEEN_SEQ seen before"
	else
		SK_SEEN_SEQ=$seq
		[ "$seq" -le "$SK_REVSEQ" ] || SK_REVSEQ=$seq
	fi
	if [ "$gen" -lt "$SK_SEEN_GEN" ]; then
		sk_judge_fail "$what: record generation $gen, below the $SK_SEEN_GEN seen before"
	fi
	SK_SEEN_GEN=$gen
	# Generations the boot history must hold (judged at the end).
	echo "$(sk_now) $gen" >>"$SK_DIR/generations"
	sk_verify_evidence "${SK_IMG[$slot]}"
	sk_event checkpoint "$what" "$slot" "$svn"
}

# sk_judge_history: every generation seen since the last truncation is in
# the boot history, and the history is in order with no entry twice.
sk_judge_history() {
	local h missing
	timeout 60 "$SK_CTL" history --json --all -n 0 >"$SK_DIR/history.json" 2>"$SK_DIR/ctl.out" ||
		{ sk_judge_fail "history: otattestctl history failed: $(cat "$SK_DIR/ctl.out")"; return; }
	h=$(jq -r '.entries[] | select(.device == "otattest0") | "\(.generation) \(.seen_usec)"' "$SK_DIR/history.json")
	awk 'NR > 1 && ($1 <= g || $2 <= t) { printf "entry %d (generation %s, seen %s) after generation %s seen %s\n", NR, $1, $2, g, t; bad = 1 }
		{ g = $1; t = $2 } END { exit bad }' <<<"$h" >"$SK_DIR/history-order" ||
		sk_judge_fail "history: out of order or twice: $(head -n3 "$SK_DIR/history-order" | tr '\n' ';')"
	missing=$(awk -v since="$SK_LAST_TRUNC_T" 'NR == FNR { have[$1] = 1; next } $1 > since + 1 && !have[$2] { print $2 }' \
		<(echo "$h") "$SK_DIR/generations" | sort -un | head -n 10 | tr '\n' ' ')
	[ -z "$missing" ] || sk_judge_fail "history: generations seen since the last truncation and missing: $missing"
	sk_event history-entries "$(wc -l <<<"$h")" missing "${missing:-none}"
}

# ---- faults ----

# sk_faults_allowed: whether a fault may strike now. Asked before each one,
# not once per cycle: a cycle takes 30 s or more, and one that began just
# before the calm window struck its faults inside it (make test's soak
# then had no otattestd that lived long enough for its memory to be
# judged, and failed).
sk_faults_allowed() {
	[ "$SK_FAULTS_ON" = 1 ] && { [ -z "$SK_CALM_FROM" ] || [ "$SECONDS" -lt "$SK_CALM_FROM" ]; }
}

# sk_in_op_fault OP: pick the fault to strike inside this step (or none).
sk_in_op_fault() {
	sk_faults_allowed || { echo none; return; }
	# Every 5th cycle's install, the first one's included, has its warm
	# reset, so every run has some: make test's 2-minute run on a loaded
	# machine may get through one cycle only (it then failed "no fault was
	# injected" when its five steps drew none).
	if [ "$1" = install ] && [ $((SK_CYCLE % 5)) = 1 ]; then
		echo warm-reset
		return
	fi
	case $(sk_rand 10) in
	0 | 1) echo flash-cut ;;
	2) echo model-kill ;;
	3) echo daemon-kill ;;
	4) [ "$1" = install ] && echo warm-reset || echo daemon-restart ;;
	*) echo none ;;
	esac
}

# sk_arm FAULT WRITES: before the step; WRITES: flash writes the step makes at most.
sk_arm() {
	local tears=(half none byte word all-but-word all)
	case $1 in
	flash-cut)
		kt_host model fault flash-tear "${tears[$(sk_rand 6)]}" >/dev/null || true
		kt_host model fault die-at-flash-write $((1 + $(sk_rand "$2"))) >/dev/null || true
		;;
	esac
}

# sk_strike FAULT PID: during the step running as PID.
sk_strike() {
	local fault=$1 pid=$2
	case $fault in
	model-kill)
		sleep "0.$(sk_rand 10)"
		kill -0 "$pid" 2>/dev/null || { SK_FAULT=none; return 0; }
		kt_host model-kill >/dev/null || true
		sleep "$(sk_rand 2).$(sk_rand 10)"
		kt_host model-start >/dev/null || true
		sk_event fault model-kill
		;;
	daemon-kill)
		sleep "0.$(sk_rand 10)"
		systemctl kill -s KILL otattestd.service
		sk_event fault daemon-sigkill-in-step
		;;
	daemon-restart)
		sleep "0.$(sk_rand 10)"
		systemctl restart otattestd.service
		sk_event fault daemon-restart-in-step
		;;
	warm-reset)
		sleep "0.$(sk_rand 10)"
		local rc=0
		e2e_as e2e-update timeout 200 "$SK_CTL" warm-reset >"$SK_DIR/warm.out" 2>&1 || rc=$?
		# Busy (the install holds the device) or done: both right.
		sk_event fault warm-reset-in-install "$(sk_errname "$rc")"
		case $rc in 0 | 17 | 18 | 19) ;; *) sk_judge_fail "warm reset during an install: exit $rc: $(cat "$SK_DIR/warm.out")" ;; esac
		;;
	esac
}

# sk_disarm FAULT: after the step. Returns 0 when the fault struck.
sk_disarm() {
	case $1 in
	flash-cut)
		if sk_model_alive; then
			kt_host model fault die-at-flash-write off >/dev/null || true
			kt_host model fault flash-tear off >/dev/null || true
			return 1
		fi
		sk_event fault flash-power-cut
		sk_model_back
		;;
	none) return 1 ;;
	esac
	return 0
}

# sk_step OP WRITES ACCEPT ARGS...: one attempt of a step as the agent, a
# fault maybe striking inside it. Sets SK_RC and SK_FAULT.
sk_step() {
	local op=$1 writes=$2 pid
	shift 2
	if [ -n "${plant:-}" ]; then
		# Planted: the step answered "done" without reaching otattestd.
		SK_FAULT=none SK_RC=0
		echo "planted: $op not sent" >"$SK_DIR/last-$op.out"
		return 0
	fi
	SK_FAULT=$(sk_in_op_fault "$op")
	sk_arm "$SK_FAULT" "$writes"
	sk_ctl e2e-update --json "$@" &
	pid=$!
	sk_strike "$SK_FAULT" "$pid"
	SK_RC=0
	wait "$pid" || SK_RC=$?
	sk_disarm "$SK_FAULT" || { [ "$SK_FAULT" != flash-cut ] || SK_FAULT=none; }
	cp "$SK_DIR/ctl.out" "$SK_DIR/last-$op.out"
}

# Between cycles: every other cycle one of the three in turn (so that a
# 10-minute run has each more than once), at a random moment.
sk_between_faults() {
	[ $((SK_CYCLE % 2)) = 1 ] || return 0
	local size
	sleep "$(sk_rand 3).$(sk_rand 10)"
	sk_faults_allowed || return 0
	case $((SK_CYCLE / 2 % 3)) in
	0)
		if rmmod otattest 2>"$SK_DIR/rmmod.err"; then
			e2e_insmod otattest
			sk_event fault driver-reload
		else
			sk_judge_fail "rmmod otattest: $(cat "$SK_DIR/rmmod.err")"
		fi
		sk_checkpoint driver-reload
		;;
	1)
		# A reader's call can activate otattestd again while it stops: the
		# stop job is then cancelled ("Job for otattestd.service canceled.",
		# exit 1), which under set -e ended the agent and left the readers
		# running out the whole soak. Stop again until it is down.
		local tries
		for ((tries = 0; tries < 20; tries++)); do
			if systemctl stop otattestd.service 2>>"$SK_DIR/stop.err" &&
				! systemctl -q is-active otattestd.service; then
				break
			fi
			sleep 0.5
		done
		[ "$tries" -lt 20 ] || sk_judge_fail "otattestd did not stop in 20 tries: $(tail -n1 "$SK_DIR/stop.err")"
		[ "$tries" = 0 ] || sk_event stop-retried "$tries"
		size=$(stat -c %s /var/lib/otattestd/history 2>/dev/null || echo 0)
		[ "$size" -gt 0 ] && truncate -s $((size * $(sk_rand 100) / 100)) /var/lib/otattestd/history
		SK_LAST_TRUNC_T=$(sk_now)
		systemctl start otattestd.service
		sk_event fault history-truncate
		sk_checkpoint history-truncate
		;;
	2)
		systemctl kill -s KILL otattestd.service
		sk_event fault daemon-sigkill
		sk_checkpoint daemon-sigkill
		;;
	esac
}

# ---- planted faults ----

sk_plant_wanted() {
	[[ ,${SOAK_PLANT:-}, == *,$1,* ]] && [[ $SK_PLANTED != *$1* ]]
}

# sk_plant_strike NAME STEP: after a planted STEP (acknowledged to the
# agent, never sent: what a device that forgets it looks like to the
# agent), a cold boot (the model's power-cycle) and the judge's
# checkpoint, which must find it; SK_D_* then hold the device's state, to
# get back in step with. (Putting flash.bin back to a copy from before the
# step does not make the device forget: it refuses the older boot data,
# BOOT_DATA_ROLLED_BACK, and stays failed.)
sk_plant_strike() {
	kt_host model power-cycle >/dev/null || true
	SK_PLANTED+=" $1"
	sk_event plant "$1"
	SK_EXPECT_RUN=$SK_PRIMARY
	sk_checkpoint "$2+planted-$1"
	sk_describe || true
}

# ---- the update agent ----

# sk_image SVN: the image of this cycle (the host made 3 of each SVN).
sk_image() {
	echo "$E2E_OUT/updates/bl0-svn$1-v$((SK_CYCLE % 3)).img"
}

# sk_cycle: install, update reset, commit or a trial left, ratchet, revoke.
sk_cycle() {
	local run target svn img meas tries rc plant=
	SK_CYCLE=$((SK_CYCLE + 1))
	run=$SK_PRIMARY
	target=$([ "$run" = a ] && echo b || echo a)
	svn=${SK_IMGSVN[$run]}
	[ $((SK_CYCLE % 3)) != 0 ] || [ ! -e "$(SK_CYCLE=0 sk_image $((svn + 1)))" ] || svn=$((svn + 1))
	img=$(sk_image "$svn")

	# Install: retried until acknowledged.
	for ((tries = 0; tries < 8; tries++)); do
		SK_IMG[$target]=torn
		sk_step install 40 install --slot "$target" "$img"
		rc=0
		sk_answer install "$SK_RC" || rc=$?
		if [ "$rc" = 0 ]; then
			meas=$(jq -r 'select(.event == "installed") | .measurement' "$SK_DIR/last-install.out" 2>/dev/null | tail -n1)
			SK_IMG[$target]=$meas
			SK_IMGSVN[$target]=$svn
			sk_event step installed "$target" "$svn"
		fi
		[ "$SK_FAULT" = none ] || sk_checkpoint "install+$SK_FAULT"
		[ "$rc" = 0 ] && break
		[ "$rc" = 1 ] || return 0
		sk_event retried install
	done
	[ "${SK_IMG[$target]}" != torn ] || return 0

	# Update reset into it: trial.
	for ((tries = 0; tries < 8; tries++)); do
		SK_EXPECT_RUN="$SK_PRIMARY $target"
		sk_step update-reset 4 update-reset --slot "$target"
		rc=0
		sk_answer update-reset "$SK_RC" || rc=$?
		[ "$rc" != 0 ] || [ "$SK_FAULT" = model-kill ] || [ "$SK_FAULT" = flash-cut ] || SK_EXPECT_RUN=$target
		sk_checkpoint "update-reset+$SK_FAULT"
		[ "$SK_EXPECT_RUN" = "$target" ] && break
		[ "$rc" != 2 ] || return 0
		sk_event retried update-reset
	done
	[ "$SK_EXPECT_RUN" = "$target" ] || return 0
	sk_event step trial "$target"

	# A trial left: the second cycle's (so that make test's short run has
	# a commit and a revert), then 1 in 5; a cold boot or the device
	# itself must return to the primary.
	if [ "$SK_CYCLE" = 2 ] || { [ "$SK_CYCLE" -gt 2 ] && [ "$(sk_rand 5)" = 0 ]; }; then
		sk_event step trial-left "$target"
		if [ "$SK_CYCLE" != 2 ] && [ "$(sk_rand 2)" = 0 ]; then
			kt_host model power-cycle >/dev/null || sk_judge_fail "power-cycle refused"
			SK_EXPECT_RUN=$SK_PRIMARY
			sk_checkpoint trial-reverted-by-cold-boot
			[ "$SK_EXPECT_RUN" = "$SK_PRIMARY" ] && sk_event step trial-reverted "$target"
			return 0
		fi
		# Warm resets until the device reverts the trial by itself: its
		# third boot is the last (issue 28), so at most 3.
		for ((tries = 0; tries < 3; tries++)); do
			rc=0
			sk_ctl e2e-update warm-reset || rc=$?
			sk_answer warm-reset "$rc" || true
			sk_wait_ready || return 0
			[ "$SK_D_SLOT" != "$target" ] && break
		done
		SK_EXPECT_RUN=$SK_PRIMARY
		sk_checkpoint trial-reverted-by-warm-resets
		if [ "$SK_D_SLOT" = "$SK_PRIMARY" ] && [ "$SK_D_REVERT" = warm-reset ] && [ "$SK_D_REVERTED" = "$target" ]; then
			sk_event step trial-reverted-by-device "$target" warm-reset
		else
			sk_judge_fail "a trial of slot $target left to warm resets: BL0 slot $SK_D_SLOT runs after $tries, revert '$SK_D_REVERT' of '$SK_D_REVERTED'"
		fi
		return 0
	fi

	# Commit.
	sk_plant_wanted forget-commit && plant=forget-commit
	for ((tries = 0; tries < 8; tries++)); do
		SK_PRIMARY_MAYBE=$target
		sk_step commit 4 commit --slot "$target"
		# The device may have ended the trial before the commit came: every
		# reset but a commit spends one of its boots, the rotator's tag
		# rotations too (issue 28's rule). Commit is then PolicyViolation,
		# a named answer, when the device says it reverted this slot.
		if [ "$SK_RC" = 13 ] && sk_describe && [ "$SK_D_REVERTED" = "$target" ] &&
			[ "$SK_D_REVERT" != none ] && [ "$SK_D_REVERT" != - ] && [ "$SK_D_SLOT" = "$SK_PRIMARY" ]; then
			sk_event answer commit named PolicyViolation
			SK_PRIMARY_MAYBE=
			SK_EXPECT_RUN=$SK_PRIMARY
			sk_checkpoint "commit+$SK_FAULT"
			sk_event step trial-reverted-before-commit "$target" "$SK_D_REVERT"
			return 0
		fi
		rc=0
		sk_answer commit "$SK_RC" || rc=$?
		if [ "$rc" = 0 ]; then
			SK_PRIMARY=$target
			SK_PRIMARY_MAYBE=
			sk_event step committed "$target"
		fi
		# A cold boot before the commit landed returns to the old primary.
		case $SK_FAULT in model-kill | flash-cut) SK_EXPECT_RUN="$SK_PRIMARY $target" ;; esac
		if [ -n "$plant" ] && [ "$rc" = 0 ]; then
			# The acknowledged commit forgotten; a cold boot shows it.
			sk_plant_strike forget-commit commit
			SK_PRIMARY=$SK_D_PRIMARY
			SK_EXPECT_RUN=$SK_PRIMARY
			return 0
		fi
		sk_checkpoint "commit+$SK_FAULT"
		[ "$rc" = 0 ] && break
		[ "$rc" = 1 ] || return 0
		# Retried only while the trial still runs.
		[ "$SK_EXPECT_RUN" = "$target" ] || { sk_event step trial-reverted-by-fault "$target"; return 0; }
		sk_event retried commit
	done

	# A signed revocation on every 6th cycle from the 3rd (3, 9, 15, ...; the
	# SVN goes up every 3rd, so the ratchets raise the floor on the others),
	# before that cycle's ratchet, when its floor is not above what runs.
	# The device holds one BL0 floor for both (OTP, issue 28): a revocation
	# whose floor a ratchet already reached raises nothing and is refused
	# (InvalidArgument, REVOKE_NOT_RAISED) and changes nothing. The agent
	# sends each such revocation once, holds that refusal as the right
	# answer, and goes on to the next one in the plan.
	if [ $((SK_CYCLE % 6)) = 3 ] && [ "$SK_PRIMARY" = "$target" ]; then
		local rev rfloor known accept=
		while :; do
			rev=$E2E_OUT/updates/revoke-$SK_REV_NEXT.bin
			[ -e "$rev" ] || break
			rfloor=$(cat "$E2E_OUT/updates/revoke-$SK_REV_NEXT.floor")
			known=$((SK_FLOOR > SK_SEEN_FLOOR ? SK_FLOOR : SK_SEEN_FLOOR))
			[ "$rfloor" -le "$known" ] || break
			sk_step revoke 4 revoke "$rev"
			case $SK_RC in
			10 | 14)
				# InvalidArgument: raises nothing; Rollback: an earlier
				# attempt that a fault hid had applied it.
				sk_event answer revoke ok "$(sk_errname "$SK_RC")-not-raised"
				sk_event step revoke-not-raised "$SK_REV_NEXT" "$rfloor"
				;;
			*)
				sk_answer revoke "$SK_RC" || true
				[ "$SK_RC" = 0 ] && sk_judge_fail "revoke: revocation $SK_REV_NEXT (floor $rfloor) accepted with the floor at $known already"
				;;
			esac
			sk_checkpoint "revoke+$SK_FAULT"
			SK_REV_NEXT=$((SK_REV_NEXT + 1))
		done
		if [ -e "$rev" ] && [ "$rfloor" -le "${SK_IMGSVN[$target]}" ]; then
			for ((tries = 0; tries < 8; tries++)); do
				sk_step revoke 4 revoke "$rev"
				rc=0
				sk_answer revoke "$SK_RC" "$accept" || rc=$?
				if [ "$rc" = 0 ]; then
					SK_REVSEQ=$SK_REV_NEXT
					[ "$rfloor" -le "$SK_FLOOR" ] || SK_FLOOR=$rfloor
					sk_event step revoked "$SK_REV_NEXT" "$rfloor"
					SK_REV_NEXT=$((SK_REV_NEXT + 1))
				fi
				case $SK_FAULT in model-kill | flash-cut) SK_EXPECT_RUN=$SK_PRIMARY ;; esac
				sk_checkpoint "revoke+$SK_FAULT"
				[ "$rc" = 1 ] || break
				# A retry after a fault may find it applied: Rollback is then right.
				accept=14
				sk_event retried revoke
			done
		fi
	fi

	# Ratchet once a committed SVN is above the floor, to that SVN. Forced: the
	# other slot keeps the older image, which the device would otherwise keep
	# as its fallback and refuse the ratchet for (RATCHET_NO_FALLBACK, issue 28).
	if [ "$SK_PRIMARY" = "$target" ] && [ "${SK_IMGSVN[$target]}" -gt "$SK_FLOOR" ]; then
		local floor=${SK_IMGSVN[$target]}
		plant=
		sk_plant_wanted floor-back && plant=floor-back
		for ((tries = 0; tries < 8; tries++)); do
			sk_step ratchet 4 ratchet --force "$floor"
			rc=0
			sk_answer ratchet "$SK_RC" || rc=$?
			if [ "$rc" = 0 ]; then
				SK_FLOOR=$floor
				sk_event step ratcheted "$floor"
			fi
			if [ -n "$plant" ] && [ "$rc" = 0 ]; then
				sk_plant_strike floor-back ratchet
				SK_FLOOR=$SK_D_FLOOR
				SK_SEEN_FLOOR=$SK_FLOOR
				break
			fi
			case $SK_FAULT in model-kill | flash-cut) SK_EXPECT_RUN=$SK_PRIMARY ;; esac
			sk_checkpoint "ratchet+$SK_FAULT"
			[ "$rc" = 1 ] || break
			sk_event retried ratchet
		done
		plant=
	fi
}

# sk_agent UNTIL CALM_FROM: cycles until SECONDS reaches UNTIL; no fault
# strikes from CALM_FROM on (one that struck before may still be
# recovering then).
sk_agent() {
	local until=$1 calm_from=$2 read_slot
	mkdir -p "$SK_DIR"
	: >"$SK_DIR/events"
	: >"$SK_DIR/judge-failures"
	: >"$SK_DIR/generations"
	sk_wait_ready || true
	read_slot=$SK_D_SLOT SK_IMG[a]=$SK_D_MEAS SK_IMGSVN[a]=$SK_D_SVN SK_SEEN_GEN=$SK_D_GEN
	SK_IMG[b]=${SK_IMG[a]}
	SK_IMGSVN[b]=${SK_IMGSVN[a]}
	[ "$read_slot" = a ] || sk_judge_fail "the provisioned device does not run slot a"
	SK_SEEN_GEN=$((SK_SEEN_GEN - 1))
	SK_FLOOR=$SK_D_FLOOR
	SK_REVSEQ=$SK_D_SEQ
	SK_CALM_FROM=$calm_from
	sk_checkpoint start
	# A cycle takes 30 s or more in a TCG guest: none starts after the
	# readers would be gone.
	while [ "$SECONDS" -lt $((until - 30)) ]; do
		sk_cycle
		sk_between_faults
	done
	SK_FAULTS_ON=0
	sk_checkpoint end
	sk_judge_history
	sk_event cycles "$SK_CYCLE"
}
