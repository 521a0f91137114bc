# SPDX-License-Identifier: MIT
# A field revocation applied from the guest (issue 14): the update agent
# (e2e-update) first moves the device to BL0 SVN 5 (install into B, update
# reset, commit) and installs an image of an old delegate (SVN ceiling 4)
# into A. Revocation commands made by otimage revocation: one signed by a
# key the device does not know (VerificationFailed) and one bound to
# another device (PolicyViolation) are refused and change nothing (no
# flash write, RevocationSequence 0); the owner's command raising the BL0
# floor to 5, above the old delegate's ceiling, is applied (FloorBl0 5,
# RevocationSequence 1, sysfs update/revocation_sequence); the same command
# again is refused as replayed (Rollback). The old delegate's image is then
# refused on both paths: CheckImage (Rollback) and an update reset into A
# (B keeps running).
E2E_DESCRIPTION="signed revocation from the guest: wrong key and other device refused, floor above a delegate applied, replay refused"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink-update.c daemon/otattestd/install.c 'firmware/runtime/install*.c'
	firmware/lib/revoke_check.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

host_prepare() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates
	ul_provision || return 1
	e2e_payload bl0 32768 >"$p/bl0-v5.code"
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 5 \
		--payload "$p/bl0-v5.code" --out "$u/bl0-v5.img" || return 1
	# The old delegate: SVN 1..4, so a floor of 5 revokes it.
	ul_oi keygen --out "$p/old.key" --pub "$p/old.pub" || return 1
	ul_oi delegate --parent-key "$p/owner.key" --delegate-pub "$p/old.pub" --type leaf \
		--svn-min 1 --svn-max 4 --out "$p/old.cert" || return 1
	ul_oi sign --key "$p/old.key" --cert "$p/old.cert" --stage bl0 --svn 4 \
		--payload "$p/bl0-v5.code" --out "$u/bl0-old-delegate.img" || return 1
	ul_oi keygen --out "$p/stranger.key" --pub "$p/stranger.pub" || return 1
	ul_oi revocation --key "$p/stranger.key" --sequence 1 --floor bl0=5 \
		--out "$u/revoke-stranger.bin" || return 1
	ul_oi revocation --key "$p/owner.key" --sequence 1 --floor bl0=5 \
		--device 0102030405060708090a0b0c0d0e0f10 --out "$u/revoke-other-device.bin" || return 1
	ul_oi revocation --key "$p/owner.key" --sequence 1 --floor bl0=5 \
		--out "$u/revoke-floor5.bin" || return 1
	chmod 644 "$u"/*
}

guest_main() {
	local u=$E2E_OUT/updates
	ul_guest_start

	# BL0 SVN 5 in B, committed; the old delegate's SVN 4 image waiting in A.
	ul_ctl install "$u/bl0-v5.img"
	ul_ctl update-reset --slot b
	ul_ctl commit
	e2e_wait_for 10 "PrimarySlot b" test "$(ul_prop PrimarySlot)" = b
	ul_ctl install --slot a "$u/bl0-old-delegate.img"
	e2e_assert_eq 0 "$(ul_prop RevocationSequence)" "RevocationSequence before any revocation"

	# Refused: nothing written, nothing applied.
	ul_refused 12 VerificationFailed "a revocation signed by a stranger" revoke "$u/revoke-stranger.bin"
	ul_refused 13 PolicyViolation "a revocation bound to another device" revoke "$u/revoke-other-device.bin"
	e2e_assert_eq 0 "$(ul_prop RevocationSequence)" "RevocationSequence after the refused revocations"
	e2e_assert_eq 0 "$(cat "$KT_SYS/update/revocation_sequence")" "sysfs update/revocation_sequence"

	# The owner's: the BL0 floor to 5, above the old delegate's ceiling.
	ul_ctl --json revoke "$u/revoke-floor5.bin" | tee /tmp/revoke.json
	grep -q '"boot_status":"OK".*"floor_bl0":5.*"revocation_sequence":1' /tmp/revoke.json ||
		e2e_fail "revocation: $(cat /tmp/revoke.json)"
	e2e_wait_for 10 "RevocationSequence 1" test "$(ul_prop RevocationSequence)" = 1
	e2e_assert_eq 1 "$(cat "$KT_SYS/update/revocation_sequence")" "sysfs update/revocation_sequence"
	e2e_assert_eq 5 "$(ul_prop FloorBl0)" "FloorBl0 after the revocation"

	# Replayed: refused.
	ul_refused 14 Rollback "the same revocation again" revoke "$u/revoke-floor5.bin"
	grep -q 'sequence number is not above' /tmp/expect.out || e2e_fail "replay: $(cat /tmp/expect.out)"

	# The old delegate's image, refused on both paths.
	ul_refused 14 Rollback "the old delegate's image checked" check --slot a "$u/bl0-old-delegate.img"
	grep -q 'delegate revoked' /tmp/expect.out || e2e_fail "not refused as a revoked delegate: $(cat /tmp/expect.out)"
	ul_refused_reset a "an update reset into the old delegate's image"
	daemon_save_journal
}
