# SPDX-License-Identifier: MIT
# The update agent's life cycle with a depth-2 hybrid image (issue 14): a
# second owner root key, hybrid (ECDSA P-256 + SLH-DSA), in the owner
# config; an intermediate and a leaf delegate under it, both hybrid; BL0
# SVN 5 signed by the leaf. As e2e-update with otattestctl: install it into
# slot B, update-reset into it (Stages: hybrid scheme, depth 2), commit, a
# cold boot stays on B, ratchet the BL0 floor to 5 (refused unforced: A's
# SVN 3 would be no fallback; then --force); the SVN 3 image in A is
# then refused on both paths (CheckImage: Rollback; UpdateReset keeps B).
# Before the ratchet, revocations by the hybrid owner key (issue 28 item
# 4): one signed with its ECDSA half alone is refused by the device
# (REVOKE_HYBRID_REQUIRED: PolicyViolation, nothing applied), the hybrid
# command otimage makes with the whole key (8000 bytes, staged in flash by
# the device) raises the BL0 floor to 4.
E2E_DESCRIPTION="update agent with a depth-2 hybrid image: install, update-reset, commit, cold boot, hybrid revocation, ratchet, old image refused"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink-update.c daemon/otattestd/install.c 'firmware/runtime/install*.c'
	firmware/runtime/boot_svc.c firmware/rom_ext/boot_svc.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

host_prepare() {
	local h=$E2E_RUN_DIR/hybrid u=$E2E_OUT/updates k
	mkdir -p "$h" || return 1
	for k in howner hinter hleaf; do
		ul_oi keygen --alg hybrid --out "$h/$k.key" --pub "$h/$k.pub" || return 1
	done
	DAEMON_OWNER_KEY2=$h/howner.pub ul_provision || return 1
	ul_oi delegate --parent-key "$h/howner.key" --delegate-pub "$h/hinter.pub" --type intermediate \
		--svn-min 1 --svn-max 20 --out "$h/hinter.cert" || return 1
	ul_oi delegate --parent-key "$h/hinter.key" --delegate-pub "$h/hleaf.pub" --type leaf \
		--svn-min 1 --svn-max 20 --out "$h/hleaf.cert" || return 1
	e2e_payload bl0 32768 >"$h/bl0-v5.code"
	ul_oi sign --key "$h/hleaf.key" --cert "$h/hinter.cert" --cert "$h/hleaf.cert" --stage bl0 \
		--svn 5 --payload "$h/bl0-v5.code" --out "$u/bl0-hybrid-v5.img" || return 1
	cp "$E2E_RUN_DIR/prov/bl0.bin" "$u/bl0-v3.img" || return 1
	# The hybrid owner key's ECDSA half alone (no howner.key.spx beside it).
	mkdir -p "$h/ecdsa-half" && cp "$h/howner.key" "$h/ecdsa-half/howner.key" || return 1
	ul_oi revocation --key "$h/ecdsa-half/howner.key" --sequence 1 --floor bl0=4 \
		--out "$u/revoke-ecdsa-half.bin" || return 1
	ul_oi revocation --key "$h/howner.key" --sequence 1 --floor bl0=4 \
		--out "$u/revoke-hybrid.bin" || return 1
	[ "$(stat -c %s "$u/revoke-ecdsa-half.bin")" = 144 ] && [ "$(stat -c %s "$u/revoke-hybrid.bin")" = 8000 ] ||
		{ echo "otimage revocation: unexpected sizes"; return 1; }
	chmod 644 "$u"/*.img "$u"/*.bin
}

guest_main() {
	local u=$E2E_OUT/updates
	ul_guest_start

	ul_ctl install "$u/bl0-hybrid-v5.img" | tee /tmp/install.txt
	grep -q 'installed: bl0 image for slot b, SVN 5' /tmp/install.txt || e2e_fail "install: $(cat /tmp/install.txt)"
	e2e_assert_eq "present verified pending" "$(cat "$KT_SYS/slot_bl0_b/flags")" "sysfs slot_bl0_b/flags"
	ul_ctl update-reset --slot b
	daemon_describe >/tmp/describe.json
	jq -e '[.Stages[] | select(.stage == "bl0" and .slot == "b" and .booted and .svn == 5 and
		.scheme == "ecdsa-p256+slh-dsa-sha2-128s" and .delegation_depth == 2)] | length == 1' \
		/tmp/describe.json >/dev/null ||
		e2e_fail "no booted hybrid depth-2 BL0 SVN 5 in Stages: $(head -c 600 /tmp/describe.json)"
	ul_ctl commit
	e2e_wait_for 10 "PrimarySlot b" test "$(ul_prop PrimarySlot)" = b
	ul_cold_boot
	e2e_wait_for 10 "RunningBl0Slot b after a cold boot" test "$(ul_prop RunningBl0Slot)" = b

	ul_refused 13 PolicyViolation "an ECDSA-only revocation by the hybrid owner key" \
		revoke "$u/revoke-ecdsa-half.bin"
	e2e_assert_eq 0 "$(ul_prop RevocationSequence)" "RevocationSequence after the ECDSA-only revocation"
	e2e_assert_eq 0 "$(cat "$KT_SYS/floor_bl0")" "sysfs floor_bl0 after the ECDSA-only revocation"
	ul_ctl --json revoke "$u/revoke-hybrid.bin" | tee /tmp/revoke.json
	grep -q '"boot_status":"OK".*"floor_bl0":4.*"revocation_sequence":1' /tmp/revoke.json ||
		e2e_fail "hybrid revocation: $(cat /tmp/revoke.json)"
	e2e_wait_for 10 "FloorBl0 4" test "$(ul_prop FloorBl0)" = 4

	ul_refused 13 PolicyViolation "a ratchet that leaves no bootable fallback" ratchet 5
	ul_ctl ratchet --force 5
	e2e_wait_for 10 "FloorBl0 5" test "$(ul_prop FloorBl0)" = 5
	e2e_assert_eq 5 "$(cat "$KT_SYS/floor_bl0")" "sysfs floor_bl0"
	ul_refused 14 Rollback "the SVN 3 image checked after the ratchet" check --slot a "$u/bl0-v3.img"
	ul_refused_reset a "an update reset to the SVN 3 image after the ratchet"
	daemon_save_journal
}
