# SPDX-License-Identifier: MIT
# A device's life through the product (issue 14), as the update agent
# (e2e-update, group otattest-update) drives it with otattestctl in a
# systemd guest: check and install BL0 SVN 4 into slot B from a file,
# update-reset into it (trial), commit, a cold boot (the model's
# power-cycle) stays on B; a downgrade update reset to the SVN 3 image in
# A lowers MinSvn and the stable key follows it (SVN 3's key signs, SVN 4's
# is refused), back to B; ratchet the BL0 floor to 4, refused by the device
# unforced (A's SVN 3 would be no fallback: RATCHET_NO_FALLBACK) and taken
# with --force: the SVN 3 image is then refused on both paths (CheckImage:
# Rollback; UpdateReset keeps B);
# a ROM_EXT SVN 3 installed and activated by a warm reset. Bad input, each
# with its named error and no flash write (the model's counter): a
# truncated image, an oversized one, a wrongly signed one, one bound to
# another device, an install into the running slot, a ratchet above the
# running SVN. Waits for the device side's runtime install (E2E_REQUIRES).
E2E_DESCRIPTION="update agent: install, update-reset, commit, cold boot, downgrade, ratchet, ROM_EXT by warm reset, bad input"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink-update.c daemon/otattestd/install.c 'firmware/runtime/install*.c'
	qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

# The provisioned device (ul_provision) and the updates.
host_prepare() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates
	ul_provision || return 1
	e2e_payload bl0 32768 >"$p/bl0-v4.code"
	e2e_payload rom_ext 16384 >"$p/rom_ext-v3.code"
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 4 \
		--payload "$p/bl0-v4.code" --out "$u/bl0-v4.img" || return 1
	ul_oi sign --key "$p/creator.key" --stage rom_ext --svn 3 --payload "$p/rom_ext-v3.code" \
		--out "$u/rom_ext-v3.img" || return 1
	# Bad input: another device's image, a stranger's, and a truncated one.
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 5 \
		--device 0102030405060708090a0b0c0d0e0f10 --payload "$p/bl0-v4.code" \
		--out "$u/bl0-other-device.img" || return 1
	ul_oi keygen --out "$p/stranger.key" --pub "$p/stranger.pub" || return 1
	ul_oi sign --key "$p/stranger.key" --stage bl0 --svn 5 --payload "$p/bl0-v4.code" \
		--out "$u/bl0-stranger.img" || return 1
	head -c 3000 "$u/bl0-v4.img" >"$u/bl0-truncated.img"
	# Larger than a BL0 slot (256 KiB in otimage pack's layout).
	head -c 300000 /dev/zero >"$u/bl0-oversized.img"
	cp "$p/bl0.bin" "$u/bl0-v3.img" || return 1
	chmod 644 "$u"/*.img
}

guest_setup() {
	daemon_guest_setup
	useradd --uid 4013 --user-group -G otattest-sign --no-create-home --shell /usr/sbin/nologin e2e-signer
}

# ul_stable_sign SVN: SignWithStableKey with SVN's key as the signer; its
# output in /tmp/sign.out, busctl's exit status.
ul_stable_sign() {
	# shellcheck disable=SC2046 # the 16 bytes of the message
	e2e_as e2e-signer busctl --system call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" \
		SignWithStableKey ayu 16 $(seq -s ' ' 1 16) "$1" >/tmp/sign.out 2>&1
}

guest_main() {
	local u=$E2E_OUT/updates meas
	ul_guest_start

	# BL0 SVN 4: checked, installed into the slot not running (B), pending.
	ul_ctl check "$u/bl0-v4.img" | tee /tmp/check.txt
	grep -q 'accepted (nothing written): bl0 image for slot b, SVN 4' /tmp/check.txt ||
		e2e_fail "check: $(cat /tmp/check.txt)"
	ul_ctl --json install "$u/bl0-v4.img" | tee /tmp/install.json
	grep -q '"event":"progress"' /tmp/install.json || e2e_fail "no progress in --json"
	grep -q '"event":"installed".*"slot":"b".*"svn":4' /tmp/install.json || e2e_fail "install: $(cat /tmp/install.json)"
	e2e_wait_for 10 "UpdateState pending" test "$(ul_prop UpdateState)" = pending
	e2e_assert_eq "bl0 b" "$(cat "$KT_SYS/update/pending")" "sysfs update/pending"
	e2e_assert_eq 4 "$(cat "$KT_SYS/slot_bl0_b/svn")" "sysfs slot_bl0_b/svn"

	# Bad input: named errors, nothing written.
	ul_refused 11 Malformed "a truncated image" install "$u/bl0-truncated.img"
	ul_refused 21 LimitExceeded "an oversized image" install "$u/bl0-oversized.img"
	ul_refused 12 VerificationFailed "a stranger's image" install "$u/bl0-stranger.img"
	ul_refused 13 PolicyViolation "another device's image" install "$u/bl0-other-device.img"
	ul_refused 13 PolicyViolation "an install into the running slot" install --slot a "$u/bl0-v4.img"

	# Activate on trial, commit, cold boot: B stays.
	ul_ctl update-reset --slot b
	# The measurement the install answered is the one the boot measured.
	meas=$(sed -n 's/.*"event":"installed".*"measurement":"\([0-9a-f]*\)".*/\1/p' /tmp/install.json)
	grep -q "measurement $meas" /tmp/check.txt || e2e_fail "check and install measured differently"
	grep -qx "$meas" "$KT_SYS"/stage*/measurement || e2e_fail "no stage measured $meas"
	e2e_assert_eq trial "$(ul_prop UpdateState)" "UpdateState after the update reset"
	e2e_assert_eq b "$(ul_prop RunningBl0Slot)" "RunningBl0Slot on trial"
	ul_ctl commit
	e2e_wait_for 10 "PrimarySlot b" test "$(ul_prop PrimarySlot)" = b
	e2e_assert_eq b "$(cat "$KT_SYS/update/primary_slot")" "sysfs update/primary_slot"
	ul_cold_boot
	e2e_wait_for 10 "RunningBl0Slot b after a cold boot" test "$(ul_prop RunningBl0Slot)" = b
	e2e_assert_eq 4 "$(ul_prop MinSvn)" "MinSvn after the cold boot on SVN 4"

	# A downgrade update reset: MinSvn follows, and the stable keys with it.
	ul_ctl update-reset --slot a
	e2e_assert_eq 3 "$(ul_prop MinSvn)" "MinSvn after the downgrade to SVN 3"
	ul_stable_sign 3 || e2e_fail "SVN 3's stable key after the downgrade: $(cat /tmp/sign.out)"
	ul_stable_sign 4 && e2e_fail "SVN 4's stable key signed after the downgrade to SVN 3"
	grep -q 'min-SVN' /tmp/sign.out || e2e_fail "SVN 4's refusal: $(cat /tmp/sign.out)"
	ul_ctl update-reset --slot b
	e2e_assert_eq 3 "$(ul_prop MinSvn)" "MinSvn stays 3 until a cold boot"

	# Ratchet: above the running SVN refused; to 4 refused by the device while A
	# (SVN 3) is the only fallback, unless forced; then SVN 3 is refused on both paths.
	ul_refused 13 PolicyViolation "a ratchet above the running SVN" ratchet 5
	ul_refused 13 PolicyViolation "a ratchet that leaves no bootable fallback" ratchet 4
	grep -q 'no bootable fallback' /tmp/expect.out || e2e_fail "unforced ratchet: $(cat /tmp/expect.out)"
	[ "$(ul_prop FloorBl0)" != 4 ] || e2e_fail "FloorBl0 is 4 after the refused ratchet"
	ul_ctl ratchet --force 4
	e2e_wait_for 10 "FloorBl0 4" test "$(ul_prop FloorBl0)" = 4
	ul_refused 14 Rollback "the SVN 3 image checked after the ratchet" check --slot a "$u/bl0-v3.img"
	ul_refused_reset a "an update reset to the SVN 3 image after the ratchet"

	# A ROM_EXT update, activated by a warm reset.
	ul_ctl install --stage rom_ext "$u/rom_ext-v3.img"
	ul_ctl warm-reset
	e2e_wait_for 10 "RunningRomExtSlot b" test "$(ul_prop RunningRomExtSlot)" = b
	e2e_assert_eq 3 "$(cat "$KT_SYS/slot_rom_ext_b/svn")" "sysfs slot_rom_ext_b/svn"
	daemon_save_journal
}
