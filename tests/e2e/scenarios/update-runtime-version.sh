# SPDX-License-Identifier: MIT
# The version the running BL0 reports about its own code (GET_INFO,
# docs/mailbox.md), read in the guest the ways an operator reads it:
# sysfs runtime_version, otattestd's RuntimeVersion property (and its
# PropertiesChanged, seen by `otattestctl --json watch`) and `otattestctl
# status` (text and --json). BL0 v2 (with E2E_CORE=rv32 the real
# build/rv32/bl0-v2.elf, whose GET_INFO says 2.0.0) is installed by the
# update agent into slot B: 1.0.0 before, 2.0.0 after the update reset
# into B, 1.0.0 again after an update reset back to A (v1). The host
# build runs one runtime whatever the slot holds and answers 1.0.0
# throughout: there the same steps show 1.0.0 each time.
E2E_DESCRIPTION="runtime version in sysfs, D-Bus and otattestctl: v1, BL0 v2 after an update reset, v1 after the revert"
E2E_MODE=systemd
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/state.c daemon/otattestd/device_link.c firmware/runtime/info.c
	qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

# The provisioned device (BL0 SVN 3 in both slots) and BL0 v2 as SVN 4,
# and what v2 answers on this model (lib/model.sh, e2e_code).
host_prepare() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates
	ul_provision || return 1
	e2e_code bl0-v2 >"$p/bl0-v2.code"
	# shellcheck disable=SC2046 # e2e_salt is one option or none
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 4 \
		--payload "$p/bl0-v2.code" $(e2e_salt) --out "$u/bl0-v2.img" || return 1
	chmod 644 "$u"/*.img
	if [ "${E2E_CORE:-host}" = rv32 ]; then echo 2.0.0; else echo 1.0.0; fi >"$E2E_OUT/v2-version"
}

# version_is WANT WHEN: sysfs, the D-Bus property, `otattestctl status`
# and its --json all say WANT.
version_is() {
	local want=$1 when=$2 rc=0
	e2e_wait_for 10 "sysfs runtime_version $want $when" grep -qx "$want" "$KT_SYS/runtime_version"
	e2e_wait_for 10 "RuntimeVersion $want $when" test "$(ul_prop RuntimeVersion)" = "$want"
	"$DAEMON_CTL" status >/tmp/status.txt 2>/tmp/status.err || rc=$?
	# 0, or 3 while an operator should look (a trial is not that, but a
	# finding the record reports must not hide the line).
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || e2e_fail "otattestctl status $when: exit $rc: $(cat /tmp/status.txt /tmp/status.err)"
	grep -qx "  runtime version  $want" /tmp/status.txt ||
		e2e_fail "otattestctl status $when: no 'runtime version  $want': $(cat /tmp/status.txt)"
	"$DAEMON_CTL" --json status >/tmp/status.json 2>/tmp/status.err || true
	e2e_assert_eq "$want" "$(jq -r '.devices[0].runtime_version' /tmp/status.json)" \
		"otattestctl status --json runtime_version $when"
	e2e_log "ok: runtime version $want $when (sysfs, D-Bus, otattestctl)"
}

guest_main() {
	local u=$E2E_OUT/updates v2 watch_pid
	v2=$(cat "$E2E_OUT/v2-version")
	ul_guest_start
	"$DAEMON_CTL" --json watch >/tmp/watch.jsonl 2>/tmp/watch.err &
	watch_pid=$!
	e2e_wait_for 30 "otattestctl watch subscribed" daemon_watch_subscribed
	version_is 1.0.0 "before the update"

	ul_ctl install "$u/bl0-v2.img" >/tmp/install.txt 2>&1 || e2e_fail "install: $(cat /tmp/install.txt)"
	e2e_wait_for 10 "UpdateState pending" test "$(ul_prop UpdateState)" = pending
	version_is 1.0.0 "after the install (nothing runs it yet)"

	ul_ctl update-reset --slot b
	e2e_assert_eq b "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after the update reset"
	version_is "$v2" "after the update reset into BL0 v2"
	if [ "$v2" != 1.0.0 ]; then
		e2e_wait_for 10 "PropertiesChanged with RuntimeVersion $v2" \
			grep -q "\"RuntimeVersion\":\"$v2\"" /tmp/watch.jsonl
	fi

	ul_ctl update-reset --slot a
	e2e_assert_eq a "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after the revert"
	version_is 1.0.0 "after the update reset back to A (v1)"
	if [ "$v2" != 1.0.0 ]; then
		e2e_wait_for 10 "PropertiesChanged with RuntimeVersion 1.0.0" \
			grep -q '"RuntimeVersion":"1.0.0"' /tmp/watch.jsonl
	fi
	kill "$watch_pid" 2>/dev/null || true
	e2e_save /tmp/watch.jsonl
	daemon_save_journal
}
