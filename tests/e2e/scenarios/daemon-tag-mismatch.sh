# SPDX-License-Identifier: MIT
# A forged boot tag (issue 19): someone with a flash programmer changes
# BL0's tag in the tag table and reseals it (the model's "tamper tag"), and
# the device is power-cycled under a running guest. The device still boots,
# on the signature path, and re-tags; everything an operator watches says
# why: otattestctl status (text and --json) shows the stage's path reason
# tag-mismatch and the mismatch count, sysfs stageN/path_reason, the
# journal an entry with its own MESSAGE_ID (and the catalog's text under
# journalctl -x), an unprivileged watcher the TagMismatch signal, and the
# Prometheus text the counter. A restart of otattestd does not report that
# boot again (its history holds it); the boot after is on the tag path
# again and counts nothing more.
E2E_DESCRIPTION="forged BL0 tag: tag-mismatch in status, sysfs, journal (MESSAGE_ID), signal, metrics; boots on the signature path"
E2E_MODE=systemd
E2E_TIMEOUT=90
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/tag_mismatch.c qemu-model/board/tamper.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

MID_TAG_MISMATCH=b0254b0e5eef4751b96507ed0a652fb8

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

# The booted BL0 attempt of otattestctl --json status: "INDEX PATH REASON".
bl0_booted() {
	jq -r '.devices[0].stages | to_entries[] | select(.value.stage == "bl0" and .value.booted)
		| "\(.key) \(.value.path) \(.value.path_reason) \(.value.slot)"' "$1"
}

guest_main() {
	local gen watch_pid idx path reason slot
	daemon_install_catalog
	daemon_start ready
	daemon_ctl --json status >/tmp/before.json || e2e_fail "status failed: $(cat /tmp/before.json)"
	read -r idx path reason slot <<<"$(bl0_booted /tmp/before.json)"
	# The first boot of the production images, written over the factory
	# firmware's tagged slots: another image than the tag was made for.
	e2e_assert_eq "signature-retagged image-changed a" "$path $reason $slot" "BL0 at the first boot"
	e2e_assert_eq "t 0" "$(daemon_prop TagMismatches)" "TagMismatches before"

	e2e_as e2e-user "$DAEMON_CTL" --json watch >/tmp/watch.json 2>&1 &
	watch_pid=$!
	e2e_wait_for 15 "the watcher subscribed" daemon_watch_subscribed
	gen=$(daemon_prop Generation | cut -d' ' -f2)
	e2e_signal tamper
	e2e_wait_host tampered 30
	e2e_wait_for 20 "a newer record" sh -c \
		"[ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE Generation | cut -d' ' -f2)\" -gt $gen ]"
	e2e_wait_for 15 "otattest0 ready" daemon_state_is ready

	# The device booted, on the signature path, and says why.
	e2e_assert_eq "u 1849" "$(daemon_prop BootStatus)" "BootStatus (OTA_OK)"
	# Monitoring's check: status exits 3 (attention) after a tag mismatch, 0 before.
	daemon_expect_exit 3 "otattestctl status after a tag mismatch" sh -c \
		"$DAEMON_CTL --json status >/tmp/after.json"
	e2e_save /tmp/after.json status-after.json
	jq -e '.devices[0].attention | length == 1 and (.[0] | test("bl0 slot a: its boot tag did not match"))' \
		/tmp/after.json >/dev/null || e2e_fail "status --json attention: $(jq -c '.devices[0].attention' /tmp/after.json)"
	read -r idx path reason slot <<<"$(bl0_booted /tmp/after.json)"
	e2e_assert_eq "signature-retagged tag-mismatch a" "$path $reason $slot" "BL0 after the forged tag"
	e2e_assert_eq 1 "$(jq '.devices[0].tag_mismatches' /tmp/after.json)" "status --json tag_mismatches"
	e2e_assert_eq tag-mismatch "$(cat /sys/class/otattest/otattest0/stage$idx/path_reason)" "sysfs stage$idx/path_reason"
	daemon_ctl status >/tmp/after.txt || true
	e2e_save /tmp/after.txt status-after.txt
	grep -q '^  attention        bl0 slot a: its boot tag did not match the image$' /tmp/after.txt ||
		e2e_fail "no attention line: $(cat /tmp/after.txt)"
	grep -qE '^  bl0 +a +signature-retagged +tag-mismatch ' /tmp/after.txt ||
		e2e_fail "the status table does not show the mismatch: $(cat /tmp/after.txt)"
	grep -q '^  tag mismatches   1 seen by otattestd$' /tmp/after.txt || e2e_fail "no 'tag mismatches' line"

	# The journal: one entry with its MESSAGE_ID and fields, explained by the catalog.
	e2e_wait_for 10 "the journal's tag mismatch entry" sh -c \
		"journalctl --no-pager -o json MESSAGE_ID=$MID_TAG_MISMATCH >/tmp/mismatch.json && [ -s /tmp/mismatch.json ]"
	e2e_save /tmp/mismatch.json journal-mismatch.json
	e2e_assert_eq 1 "$(wc -l </tmp/mismatch.json)" "tag mismatch journal entries"
	e2e_assert_eq "otattest0 bl0 a 4" \
		"$(jq -r '"\(.OTATTEST_DEVICE) \(.OTATTEST_STAGE) \(.OTATTEST_SLOT) \(.PRIORITY)"' /tmp/mismatch.json)" \
		"the entry's device, stage, slot and priority (warning)"
	journalctl --no-pager -x MESSAGE_ID=$MID_TAG_MISMATCH >/tmp/mismatch-x.txt
	grep -q 'Subject: Boot tag of bl0 slot a did not match its image' /tmp/mismatch-x.txt ||
		e2e_fail "journalctl -x shows no catalog text: $(cat /tmp/mismatch-x.txt)"

	# The signal, seen by an unprivileged watcher.
	e2e_wait_for 10 "TagMismatch seen by watch" grep -q '"event":"tag-mismatch"' /tmp/watch.json
	grep '"event":"tag-mismatch"' /tmp/watch.json | jq -e '.stage == "bl0" and .slot == "a" and .status == "OK"' \
		>/dev/null || e2e_fail "TagMismatch event: $(grep tag-mismatch /tmp/watch.json)"
	e2e_assert_eq "t 1" "$(daemon_prop TagMismatches)" "TagMismatches after"

	# The Prometheus text.
	e2e_as e2e-user "$DAEMON_CTL" metrics >/tmp/metrics.prom
	e2e_save /tmp/metrics.prom
	grep -qx 'otattest_tag_mismatches_total{device="otattest0"} 1' /tmp/metrics.prom ||
		e2e_fail "no counter at 1: $(grep tag_mismatches /tmp/metrics.prom)"
	grep -qx "otattest_stage_path_reason{device=\"otattest0\",stage=\"bl0\",slot=\"a\",reason=\"tag-mismatch\"} 1" \
		/tmp/metrics.prom || e2e_fail "no tag-mismatch reason sample"
	grep -qx '# TYPE otattest_tag_mismatches_total counter' /tmp/metrics.prom || e2e_fail "the counter is not typed counter"

	# A restarted otattestd finds that boot in its history: no second report.
	systemctl restart otattestd.service
	e2e_wait_for 15 "otattestd back on the bus" daemon_has_name
	e2e_wait_for 15 "otattest0 ready again" daemon_state_is ready
	e2e_wait_for 10 "the record read again" sh -c \
		"[ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE RecordValid)\" = 'b true' ]"
	e2e_assert_eq "t 0" "$(daemon_prop TagMismatches)" "TagMismatches of the restarted otattestd"
	e2e_assert_eq 1 "$(journalctl --no-pager -o json MESSAGE_ID=$MID_TAG_MISMATCH | wc -l)" \
		"tag mismatch journal entries after the restart"

	# Re-tagged: the next boot takes the tag path and counts nothing more.
	gen=$(daemon_prop Generation | cut -d' ' -f2)
	e2e_signal again
	e2e_wait_host again-done 30
	e2e_wait_for 20 "the record of the next boot" sh -c \
		"[ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE Generation | cut -d' ' -f2)\" -gt $gen ]"
	daemon_ctl --json status >/tmp/again.json || e2e_fail "status after a clean boot exits $?"
	read -r idx path reason slot <<<"$(bl0_booted /tmp/again.json)"
	e2e_assert_eq "tag none" "$path $reason" "BL0 the boot after"
	e2e_assert_eq "t 0" "$(daemon_prop TagMismatches)" "TagMismatches after a clean boot"
	e2e_assert_eq 1 "$(journalctl --no-pager -o json MESSAGE_ID=$MID_TAG_MISMATCH | wc -l)" \
		"tag mismatch journal entries in all"
	kill "$watch_pid"
	e2e_assert_eq 1 "$(grep -c '"event":"tag-mismatch"' /tmp/watch.json)" "TagMismatch signals in all"
	e2e_save /tmp/watch.json
	daemon_save_journal
}

host_hook() {
	e2e_wait_guest tamper 60
	e2e_model_ctl tamper tag bl0 a >/dev/null || e2e_fail "tamper tag failed"
	e2e_model_ctl power-cycle >/dev/null || e2e_fail "power-cycle failed"
	e2e_tell_guest tampered
	e2e_wait_guest again 60
	e2e_model_ctl power-cycle >/dev/null || e2e_fail "power-cycle failed"
	e2e_tell_guest again-done
}
