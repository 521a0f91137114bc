# SPDX-License-Identifier: MIT
# Boot history and key names (issue 19, items 2 and 3) in the systemd
# guest with the shipped unit (StateDirectory=otattestd): after two update
# resets, a restart of otattestd and a third reset, `otattestctl history`
# lists every boot of the scenario once, in order (the entries from before
# the restart unchanged), for an unprivileged user too, with --since and
# -n; the key names file the host made with `otimage keygen --name` names
# the creator and owner keys in status, history and metrics, and the
# signer key it leaves out shows as its 16-digit short hex.
E2E_DESCRIPTION="otattestd: boot history across resets and a restart; key names in status, history, metrics"
E2E_MODE=systemd
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c daemon/otattestd/history.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision || return 1
	daemon_key_names
}

guest_setup() {
	daemon_guest_setup
}

ctl() { "$DAEMON_CTL" "$@"; }

history_count() { ctl --json history -n 0 | jq '.entries | length'; }

guest_main() {
	local g0 n t_mid signer short
	daemon_install_key_names
	signer=$(cat "$E2E_OUT/signer.id")
	short=${signer:0:16}

	daemon_start ready
	# The shipped unit's StateDirectory=: the history file is the daemon's, 0600.
	e2e_assert_eq "otattestd 600" "$(stat -c '%U %a' /var/lib/otattestd/history)" "owner and mode of the history file"
	g0=$(daemon_prop Generation | cut -d' ' -f2)
	e2e_wait_for 10 "the first boot in the history" test "$(history_count)" = 1

	# Two resets into the update slots, each a new record.
	ctl -q update-reset --slot b >/dev/null
	ctl -q update-reset --slot a >/dev/null
	e2e_wait_for 15 "three boots in the history" test "$(history_count)" = 3
	ctl --json history -n 0 >/tmp/before.json
	t_mid=$(jq '.entries[1].seen_usec' /tmp/before.json)

	# A restart: the new instance reads the current record again and adds nothing.
	systemctl restart otattestd.service
	e2e_wait_for 15 "otattestd back on the bus" daemon_has_name
	e2e_wait_for 15 "otattest0 ready" daemon_state_is ready
	sleep 1
	e2e_assert_eq 3 "$(history_count)" "boots in the history after the restart (none lost, none repeated)"
	ctl -q update-reset --slot b >/dev/null
	e2e_wait_for 15 "four boots in the history" test "$(history_count)" = 4

	ctl --json history -n 0 >/tmp/after.json
	ctl history -n 0 >/tmp/history.txt
	e2e_save /tmp/after.json
	e2e_save /tmp/history.txt
	cat /tmp/history.txt
	jq -e --argjson g0 "$g0" '[.entries[].generation] | .[0] == $g0 and (. as $g | [range(1; length)] | all($g[.] > $g[. - 1]))' \
		/tmp/after.json >/dev/null || e2e_fail "history generations not in order from $g0: $(jq -c '[.entries[].generation]' /tmp/after.json)"
	jq -e '[.entries[1:][].reset_reason] == ["update", "update", "update"]' /tmp/after.json >/dev/null ||
		e2e_fail "reset reasons: $(jq -c '[.entries[].reset_reason]' /tmp/after.json)"
	jq -e '[.entries[] | [.stages[] | select(.stage == "bl0" and .booted) | .slot][0]] == ["a", "b", "a", "b"]' \
		/tmp/after.json >/dev/null || e2e_fail "booted bl0 slots: $(jq -c '[.entries[] | [.stages[] | select(.booted) | .slot]]' /tmp/after.json)"
	# The entries from before the restart, as they were (seen when first seen).
	jq -e --slurpfile b /tmp/before.json '.entries[0:3] == $b[0].entries' /tmp/after.json >/dev/null ||
		e2e_fail "the entries from before the restart changed"
	jq -e '[.entries[].stages[] | .path_reason] | all(type == "string")' /tmp/after.json >/dev/null ||
		e2e_fail "a stage without its path reason"
	e2e_assert_eq 4 "$(grep -c '^otattest0  generation ' /tmp/history.txt)" "boots in the text history"
	e2e_log "history: generations $(jq -c '[.entries[].generation]' /tmp/after.json), BL0 paths $(jq -c '[.entries[] | [.stages[] | select(.stage == "bl0") | .path + "/" + .path_reason]]' /tmp/after.json)"

	# --since and -n, and an unprivileged user reads it too.
	e2e_assert_eq 3 "$(ctl --json history --since "@$((t_mid / 1000000))" -n 0 | jq '.entries | length')" \
		"boots since the second one was seen (whole seconds: it and the two after)"
	e2e_assert_eq "[$(jq '.entries[2].generation' /tmp/after.json),$(jq '.entries[3].generation' /tmp/after.json)]" \
		"$(ctl --json history -n 2 | jq -c '[.entries[].generation]')" "history -n 2: the last two"
	e2e_assert_eq 4 "$(e2e_as e2e-user "$DAEMON_CTL" --json history | jq '.entries | length')" \
		"boots e2e-user sees"

	# Key names: the file's names, the signer (not in the file) as short hex.
	grep -q "owner-2026 > $short" /tmp/history.txt || e2e_fail "history lacks the BL0 key chain by name"
	ctl status >/tmp/status.txt || true
	cat /tmp/status.txt
	e2e_save /tmp/status.txt
	grep -q "keys: creator-2026$" /tmp/status.txt || e2e_fail "status: no ROM_EXT key chain by name"
	grep -q "keys: owner-2026 > $short$" /tmp/status.txt || e2e_fail "status: no BL0 key chain (owner by name, signer as $short)"
	ctl --json status | jq -e --arg s "$signer" '.devices[0].stages[] | select(.stage == "bl0" and .booted) | .key_chain == [{"key_id": .key_ids[0], "name": "owner-2026"}, {"key_id": $s, "name": null}]' \
		>/dev/null || e2e_fail "status --json key_chain: $(ctl --json status | jq -c '.devices[0].stages[].key_chain')"
	ctl metrics >/tmp/metrics.txt
	e2e_save /tmp/metrics.txt
	grep -q '^otattest_stage_key_info{device="otattest0",stage="bl0",slot="b",position="0",key_id="[0-9a-f]\{64\}",key="owner-2026"} 1$' /tmp/metrics.txt ||
		e2e_fail "metrics: no owner-2026 label"
	grep -q "^otattest_stage_key_info{device=\"otattest0\",stage=\"bl0\",slot=\"b\",position=\"1\",key_id=\"$signer\",key=\"$short\"} 1$" /tmp/metrics.txt ||
		e2e_fail "metrics: the signer is not shown as $short"
	grep -q 'key="creator-2026"' /tmp/metrics.txt || e2e_fail "metrics: no creator-2026 label"
	e2e_log "names in status, history and metrics; the unnamed signer as $short"
	daemon_save_journal
}
