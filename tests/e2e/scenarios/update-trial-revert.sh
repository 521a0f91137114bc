# SPDX-License-Identifier: MIT
# Trials revert (issue 28, item 1): as the update agent (e2e-update) with
# otattestctl on the provisioned device (BL0 SVN 3 in both slots, A the
# primary). Warm resets: an update reset into B starts a trial (boot 1 of
# 3), two warm resets use boots 2 and 3, the third finds them used up and
# ROM_EXT boots A again; sysfs's update section says warm-reset, slot b.
# A hung BL0: the model plays the runtime in slot B hung ("hang bl0 b":
# it stops petting the watchdog ROM_EXT armed and answers nothing; a
# stand-in for a BL0 image that hangs while BL0 is not an image on the
# core); a new trial into B (hung once its first boot is read), three
# watchdog bites, and A runs again with the reason watchdog. Each revert is also in the record netlink serves
# (otattest-recdump's update section). What an operator sees of each
# revert: `otattestctl status` exits 3 with the finding reverted-trial,
# one journal entry with its MESSAGE_ID and catalog text, one
# TrialReverted signal (an unprivileged watcher), the TrialReverts counter
# and its metric, and the boot in `history`. And the evidence (item 6):
# ROM_EXT certifies the trial and the revert in the alias certificate, so
# otattest-verify with require_committed refuses the trial
# (VERIFY_NOT_COMMITTED) and the boot after the revert
# (VERIFY_TRIAL_REVERTED), and passes both without the rule.
MID_TRIAL_REVERTED=960c0bb998f84048a0d1347f66715c7a
E2E_DESCRIPTION="trial revert: warm resets and watchdog bites use up a trial's boots, ROM_EXT boots the primary, the record says why"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage
	build/otattest-verify build/tests/e2e/kernel/otattest-nltest build/tests/e2e/kernel/otattest-recdump)
E2E_REQUIRES=(firmware/rom_ext/trial.c qemu-model/board/watchdog.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

host_prepare() {
	ul_provision
}

# tr_update NAME...: sysfs update/NAME, one value per name, space separated.
tr_update() {
	local n out=()
	for n in "$@"; do
		out+=("$(cat "$KT_SYS/update/$n")")
	done
	echo "${out[*]}"
}

# tr_is NAME VALUE: sysfs update/NAME reads VALUE (read at each call: for e2e_wait_for).
tr_is() {
	[ "$(cat "$KT_SYS/update/$1")" = "$2" ]
}

# tr_prop_is NAME VALUE: the device's D-Bus property NAME is VALUE, read at each call.
tr_prop_is() {
	[ "$(ul_prop "$1")" = "$2" ]
}

# tr_reverts_logged N REASON: N journal entries of reverts so far, the last
# for BL0 slot b with REASON, at warning priority.
tr_reverts_logged() {
	e2e_wait_for 10 "$1 trial revert journal entries" sh -c \
		"[ \$(journalctl --no-pager -o json MESSAGE_ID=$MID_TRIAL_REVERTED | wc -l) -ge $1 ]"
	journalctl --no-pager -o json MESSAGE_ID=$MID_TRIAL_REVERTED >/tmp/revert.json
	e2e_assert_eq "$1" "$(wc -l </tmp/revert.json)" "trial revert journal entries"
	e2e_assert_eq "otattest0 b $2 a 4" \
		"$(tail -n 1 /tmp/revert.json | jq -r '"\(.OTATTEST_DEVICE) \(.OTATTEST_SLOT) \(.OTATTEST_REVERT_REASON) \(.OTATTEST_PRIMARY_SLOT) \(.PRIORITY)"')" \
		"the last revert entry's device, slot, reason, primary and priority (warning)"
}

# tr_status_reverted REASON: status exits 3 and names the revert.
tr_status_reverted() {
	daemon_expect_exit 3 "status after a revert ($1)" ul_ctl status
	grep -q "^  attention        the update trial of bl0 slot b was reverted ($1): not committed\$" \
		/tmp/expect.out || e2e_fail "no reverted-trial attention line: $(cat /tmp/expect.out)"
}

# tr_evidence NAME STATE REFUSAL [REASON]: the device's evidence now (in
# $E2E_OUT/evidence-NAME.cose): otattest-verify passes it without a
# policy and shows update state STATE (and the revert REASON of slot B);
# with require_committed it fails with REFUSAL (stage bl0) alone.
tr_evidence() {
	local nonce=00112233445566778899aabbccddeeff01234567 verify="$E2E_SRC/build/otattest-verify"
	e2e_as e2e-user "$DAEMON_CTL" attest --nonce "$nonce" -o /tmp/ev.cose ||
		e2e_fail "attest ($1)"
	cp /tmp/ev.cose "$E2E_OUT/evidence-$1.cose"
	"$verify" --json --ca "$E2E_OUT/ca.pem" --nonce "$nonce" /tmp/ev.cose >/tmp/ev-plain.json ||
		e2e_fail "otattest-verify without a policy ($1): $(head -c 400 /tmp/ev-plain.json)"
	jq -e --arg s "$2" --arg r "${4:-none}" '.verdict == "pass" and .claims.update.state == $s and
		.claims.update.revert_reason == $r and ($r == "none" or .claims.update.reverted_slot == "B")' \
		/tmp/ev-plain.json >/dev/null ||
		e2e_fail "evidence $1: update state: $(jq -c '.claims.update' /tmp/ev-plain.json)"
	printf 'require_committed = true\n' >/tmp/committed.policy
	daemon_expect_exit 1 "otattest-verify require_committed ($1)" "$verify" --json \
		--ca "$E2E_OUT/ca.pem" --nonce "$nonce" --policy /tmp/committed.policy /tmp/ev.cose
	jq -e --arg c "$3" '.verdict == "fail" and .authentic and
		[.failures[] | {check, stage}] == [{check: $c, stage: "bl0"}]' /tmp/expect.out >/dev/null ||
		e2e_fail "evidence $1 under require_committed: $(head -c 400 /tmp/expect.out)"
	e2e_log "evidence $1: passes, and $3 under require_committed"
}

guest_main() {
	local i watch_pid
	daemon_install_catalog
	ul_guest_start
	e2e_as e2e-user "$DAEMON_CTL" --json watch >/tmp/watch.json 2>&1 &
	watch_pid=$!

	# Warm resets use up a trial.
	ul_ctl update-reset --slot b
	e2e_assert_eq "trial b 1 none" "$(tr_update state running_bl0_slot trial_boots revert_reason)" \
		"after the update reset"
	for i in 2 3; do
		ul_ctl warm-reset
		e2e_assert_eq "trial b $i" "$(tr_update state running_bl0_slot trial_boots)" \
			"after warm reset $((i - 1))"
	done
	ul_ctl status >/tmp/status-trial.txt || e2e_fail "status on trial: $(cat /tmp/status-trial.txt)"
	grep -q '^  update trial     boot 3 of 3: commit, or the device reverts$' /tmp/status-trial.txt ||
		e2e_fail "status on trial: no trial line: $(cat /tmp/status-trial.txt)"
	tr_evidence trial trial VERIFY_NOT_COMMITTED
	ul_ctl warm-reset
	e2e_assert_eq "idle a 0 warm-reset b" \
		"$(tr_update state running_bl0_slot trial_boots revert_reason reverted_slot)" \
		"after the warm reset that found the trial's boots used up"
	e2e_assert_eq a "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after the revert"
	# What an operator sees of it.
	e2e_wait_for 20 "TrialReverts 1" tr_prop_is TrialReverts 1
	e2e_assert_eq "warm-reset b" "$(ul_prop RevertReason) $(ul_prop RevertedSlot)" "RevertReason, RevertedSlot"
	tr_status_reverted warm-reset
	tr_reverts_logged 1 warm-reset
	tr_evidence reverted-warm-reset committed VERIFY_TRIAL_REVERTED warm-reset
	journalctl --no-pager -x MESSAGE_ID=$MID_TRIAL_REVERTED >/tmp/revert-x.txt
	grep -q 'Subject: Update trial of BL0 slot b reverted (warm-reset)' /tmp/revert-x.txt ||
		e2e_fail "journalctl -x shows no catalog text: $(head -c 400 /tmp/revert-x.txt)"
	e2e_wait_for 10 "TrialReverted seen by watch" grep -q '"event":"trial-reverted"' /tmp/watch.json
	grep '"event":"trial-reverted"' /tmp/watch.json | jq -e '.slot == "b" and .reason == "warm-reset"' \
		>/dev/null || e2e_fail "TrialReverted event: $(grep trial-reverted /tmp/watch.json)"
	ul_ctl history >/tmp/history.txt || e2e_fail "history: $(head -c 300 /tmp/history.txt)"
	grep -q '^  update trial of bl0 slot b reverted (warm-reset): primary slot a booted$' /tmp/history.txt ||
		e2e_fail "history shows no revert: $(head -c 600 /tmp/history.txt)"
	e2e_as e2e-user "$DAEMON_CTL" metrics >/tmp/metrics.prom
	grep -q '^otattest_trial_reverts_total{device="otattest0"} 1$' /tmp/metrics.prom ||
		e2e_fail "metrics: $(grep trial_reverts /tmp/metrics.prom)"
	grep -q '^otattest_attention{device="otattest0",finding="reverted-trial"} 1$' /tmp/metrics.prom ||
		e2e_fail "metrics: no reverted-trial attention"
	# The same section in the record the driver serves over netlink.
	kt_nl_ok "GET_RECORD" record -o /tmp/nl.bin
	"$E2E_SRC/build/tests/e2e/kernel/otattest-recdump" /tmp/nl.bin >/tmp/recdump.txt 2>&1 ||
		e2e_fail "otattest-recdump: $(head -c 400 /tmp/recdump.txt)"
	grep -qx 'update/revert_reason=warm-reset' /tmp/recdump.txt ||
		e2e_fail "netlink record: $(grep update/ /tmp/recdump.txt | tr '\n' ' ')"
	grep -qx 'update/reverted_slot=b' /tmp/recdump.txt || e2e_fail "netlink record: reverted_slot"
	# It stays said on a warm reset of the primary.
	ul_ctl warm-reset
	e2e_assert_eq "warm-reset b" "$(tr_update revert_reason reverted_slot)" "after a warm reset of A"
	e2e_wait_for 20 "RevertReason still warm-reset" tr_prop_is RevertReason warm-reset
	e2e_assert_eq 1 "$(ul_prop TrialReverts)" "TrialReverts after a warm reset of A (the same revert)"

	# A BL0 in B that hangs: the watchdog bites three times, then A runs again.
	# The hang starts once the trial's first boot is read: a BL0 hung from
	# the update reset on is bitten 2 s (model time) later, which a guest
	# under load can take to read sysfs (seen: trial_boots 2 at the read).
	ul_ctl update-reset --slot b
	e2e_assert_eq "trial b 1 none" "$(tr_update state running_bl0_slot trial_boots revert_reason)" \
		"a new trial clears the old revert"
	kt_host model hang bl0 b >/dev/null || e2e_fail "hang bl0 b"
	e2e_wait_for 30 "revert_reason watchdog" tr_is revert_reason watchdog
	e2e_assert_eq "idle a 0 b" "$(tr_update state running_bl0_slot trial_boots reverted_slot)" \
		"after the bites"
	e2e_assert_eq 3 "$(kt_model_stat watchdog-bites)" "the model's watchdog bites"
	e2e_wait_for 20 "RunningBl0Slot a after the bites" tr_prop_is RunningBl0Slot a
	# A, not hung, serves again and keeps the watchdog fed: no further bite.
	e2e_wait_for 20 "TrialReverts 2" tr_prop_is TrialReverts 2
	tr_status_reverted watchdog
	tr_reverts_logged 2 watchdog
	tr_evidence reverted-watchdog committed VERIFY_TRIAL_REVERTED watchdog
	e2e_assert_eq 2 "$(grep -c '"event":"trial-reverted"' /tmp/watch.json)" "TrialReverted signals in all"
	kill "$watch_pid" 2>/dev/null || true
	sleep 3
	e2e_assert_eq 3 "$(kt_model_stat watchdog-bites)" "bites while A runs"
	kt_host model hang off >/dev/null || e2e_fail "hang off"
	daemon_save_journal
}
