# SPDX-License-Identifier: MIT
# RAUC drives an otattest device's BL0 slots (issue 29): Debian's RAUC 1.8
# service with the shipped custom bootloader backend, the rauc.service
# drop-in (the booted slot from the device) and the slot install handler as
# the bundles' install hook (systemd/rauc/). Bundles are signed on the host
# with a throwaway CA. `rauc install` writes BL0 SVN 4 to slot B through
# otattestd; the "reboot" is the device's update reset into B and a restart
# of rauc.service; RAUC then reports B booted, A still primary, and
# `rauc status mark-good` commits B. SVN 5 into A, booted on trial,
# `mark-bad`: the device goes back to B, still primary. SVN 6 into A, then
# a flash programmer corrupts slot A (the model's `install`) before the
# reboot: its boot fails, the device stays on B, and RAUC reports B booted
# and primary, and A bad (the device refused it: RefusedSlots; the record
# still carries A's verified flag from the install, and RAUC said "good").
# SVN 7 into A, whose runtime hangs once booted (the model's "hang bl0 a",
# standing in for a hanging image): the watchdog bites until the trial's
# boots are used up, ROM_EXT boots B again, and RAUC reports B booted and
# primary and A bad (RevertedSlot).
E2E_DESCRIPTION="RAUC 1.8 with the otattest backend: install a bundle, trial boot, mark-good; mark-bad and a failed boot keep the old slot"
E2E_MODE=systemd
E2E_TIMEOUT=600
E2E_MEM=768
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(systemd/rauc/otattest-rauc-backend daemon/otattestd/install.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

# rauc_bundle SVN: BL0 SVN's image in a bundle signed by the scenario's CA,
# its install hook the shipped handler.
rauc_bundle() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates b=$E2E_RUN_DIR/bundle-$1
	mkdir -p "$b"
	e2e_payload bl0 32768 >"$p/bl0-v$1.code"
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn "$1" \
		--version-string "$1.0.0" --payload "$p/bl0-v$1.code" --out "$b/bl0.img" || return 1
	cp "$E2E_ROOT/systemd/rauc/otattest-rauc-install" "$b/hook"
	printf '[update]\ncompatible=otattest\nversion=%s.0.0\n\n[bundle]\nformat=plain\n\n[hooks]\nfilename=hook\n\n[image.bl0]\nfilename=bl0.img\nhooks=install\n' \
		"$1" >"$b/manifest.raucm"
	rauc --cert "$p/rauc.pem" --key "$p/rauc.key" bundle "$b" "$u/bl0-v$1.raucb" \
		>>"$E2E_RUN_DIR/rauc-bundle.log" 2>&1
}

host_prepare() {
	local p=$E2E_RUN_DIR/prov
	ul_provision || return 1
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-subj /CN=otattest-e2e-rauc -keyout "$p/rauc.key" -out "$p/rauc.pem" \
		>>"$E2E_RUN_DIR/rauc-bundle.log" 2>&1 || return 1
	cp "$p/rauc.pem" "$E2E_OUT/rauc-keyring.pem"
	rauc_bundle 4 && rauc_bundle 5 && rauc_bundle 6 && rauc_bundle 7 || return 1
	# What the flash programmer writes over slot A: not an image at all.
	head -c 4096 /dev/urandom >"$E2E_OUT/updates/garbage.img"
	chmod 644 "$E2E_OUT"/updates/*
}

# RAUC as the package and otattest's make install would set it up: the
# shipped system.conf and drop-in, their paths pointed at the tree.
guest_setup() {
	local r=$E2E_SRC/systemd/rauc
	daemon_guest_setup
	mkdir -p /etc/rauc /etc/systemd/system/rauc.service.d
	sed "s|@RAUCLIBDIR@|$r|" "$r/system.conf" >/etc/rauc/system.conf
	sed "s|@RAUCLIBDIR@|$r|" "$r/otattest-rauc.conf" >/etc/systemd/system/rauc.service.d/otattest-rauc.conf
	printf '[Unit]\nDefaultDependencies=no\n[Service]\nEnvironment=OTATTESTCTL=%s\n' \
		"$DAEMON_CTL" >/etc/systemd/system/rauc.service.d/e2e.conf
}

# rauc_json ARGS...: rauc status's JSON; tried three times, as RAUC's client
# gives up on its service after 25 s and each status asks the backend for
# every slot (seconds each in a loaded TCG guest).
rauc_json() {
	local i
	for i in 1 2 3; do
		rauc status "$@" --output-format=json 2>/tmp/rauc-status.err && return 0
		e2e_log "rauc status, try $i: $(cat /tmp/rauc-status.err)"
	done
	return 1
}

# rauc_snap: RAUC's view now (rauc status --detailed as JSON: the booted
# and primary slots and each slot's boot status), read by rauc_status and
# rauc_state until the next snap. One query per checkpoint: each asks the
# backend about every slot, seconds in a TCG guest: with three a checkpoint,
# the first three checkpoints alone took 105 s of a 277 s run.
rauc_snap() {
	rauc_json --detailed >/tmp/rauc-snap.json || e2e_fail "rauc status failed: $(cat /tmp/rauc-status.err)"
}

# rauc_status KEY: booted or primary slot's bootname (A, B) in the snap.
rauc_status() {
	jq -r --arg k "$1" '
		.[$k] as $v | ([.slots[] | to_entries[] | select(.key == $v) | .value.bootname] | first) // $v' \
		/tmp/rauc-snap.json
}

# rauc_state BOOTNAME: RAUC's boot status (good, bad) of the slot in the snap.
rauc_state() {
	jq -r --arg b "$1" '.slots[] | to_entries[] | select(.value.bootname == $b) | .value.boot_status' \
		/tmp/rauc-snap.json
}

# rauc_restart: RAUC's service restarted (it reads the booted slot at start).
rauc_restart() {
	timeout 150 systemctl restart rauc.service || {
		systemctl status rauc.service otattestd.service >/tmp/rauc-restart.txt 2>&1
		journalctl --no-pager -n 80 >>/tmp/rauc-restart.txt 2>&1
		e2e_save /tmp/rauc-restart.txt
		e2e_fail "rauc.service did not restart (out/artifacts/rauc-restart.txt)"
	}
	e2e_log "rauc.service restarted"
}

# rauc_reverted "REASON SLOT": the record's revert, as sysfs reads it now.
rauc_reverted() {
	[ "$(cat "$KT_SYS/update/revert_reason") $(cat "$KT_SYS/update/reverted_slot")" = "$1" ]
}

# rauc_reverted_prop SLOT: otattestd's RevertedSlot reads SLOT now.
rauc_reverted_prop() {
	[ "$(ul_prop RevertedSlot)" = "$1" ]
}

# rauc_reboot SLOT: the device's update reset into SLOT and RAUC restarted,
# as a reboot of the machine restarts it.
rauc_reboot() {
	ul_ctl update-reset --slot "$1" || true
	rauc_restart
}

guest_main() {
	ul_guest_start
	modprobe loop
	modprobe squashfs
	cp "$E2E_OUT/rauc-keyring.pem" /etc/rauc/keyring.pem
	# The slots' device= names (RAUC checks they exist; the hook writes the device).
	mkdir -p /run/otattest
	touch /run/otattest/bl0-a /run/otattest/bl0-b
	# RAUC installs bundles only from a filesystem it trusts (not 9p): /tmp is tmpfs.
	cp "$E2E_OUT"/updates/*.raucb /tmp/
	systemctl start rauc.service
	rauc_snap
	e2e_assert_eq A "$(rauc_status booted)" "RAUC's booted slot at start"
	e2e_assert_eq A "$(rauc_status boot_primary)" "RAUC's primary at start"

	# Install into B through otattestd; reboot into the trial; mark-good commits.
	rauc install /tmp/bl0-v4.raucb | tee /tmp/install-4.txt
	e2e_assert_eq "bl0 b" "$(ul_prop PendingStage) $(ul_prop PendingSlot)" "pending after rauc install"
	e2e_assert_eq 4 "$(cat "$KT_SYS/slot_bl0_b/svn")" "sysfs slot_bl0_b/svn"
	rauc_reboot b
	rauc_snap
	e2e_assert_eq B "$(rauc_status booted)" "RAUC's booted slot after the reboot"
	e2e_assert_eq A "$(rauc_status boot_primary)" "RAUC's primary before mark-good (a trial)"
	e2e_assert_eq bad "$(rauc_state B)" "B's state before mark-good"
	rauc status mark-good
	e2e_assert_eq b "$(ul_prop PrimarySlot)" "PrimarySlot after mark-good"
	rauc_snap
	e2e_assert_eq B "$(rauc_status boot_primary)" "RAUC's primary after mark-good"
	e2e_assert_eq good "$(rauc_state B)" "B's state after mark-good"

	# SVN 5 into A, booted on trial, mark-bad: back on B, B primary.
	rauc install /tmp/bl0-v5.raucb | tee /tmp/install-5.txt
	e2e_assert_eq 5 "$(cat "$KT_SYS/slot_bl0_a/svn")" "sysfs slot_bl0_a/svn"
	rauc_reboot a
	rauc_snap
	e2e_assert_eq A "$(rauc_status booted)" "RAUC's booted slot on the SVN 5 trial"
	rauc status mark-bad
	e2e_assert_eq b "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after mark-bad"
	e2e_assert_eq b "$(ul_prop PrimarySlot)" "PrimarySlot after mark-bad"
	rauc_restart
	rauc_snap
	e2e_assert_eq B "$(rauc_status booted)" "RAUC's booted slot after mark-bad"
	e2e_assert_eq B "$(rauc_status boot_primary)" "RAUC's primary after mark-bad"

	# SVN 6 into A, slot A corrupted before the reboot: the boot fails,
	# the device stays on B and RAUC says so.
	rauc install /tmp/bl0-v6.raucb | tee /tmp/install-6.txt
	e2e_assert_eq 6 "$(cat "$KT_SYS/slot_bl0_a/svn")" "sysfs slot_bl0_a/svn"
	kt_model install bl0 a "$E2E_SRC/build/e2e/$E2E_NAME/out/updates/garbage.img"
	rauc_reboot a
	e2e_assert_eq b "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after the failed boot"
	rauc_snap
	e2e_assert_eq B "$(rauc_status booted)" "RAUC's booted slot after the failed boot"
	e2e_assert_eq B "$(rauc_status boot_primary)" "RAUC's primary after the failed boot"
	e2e_assert_eq bad "$(rauc_state A)" "A's state after its refused boot"
	e2e_assert_eq "a(ssus) 1 \"bl0\" \"a\"" "$(daemon_prop RefusedSlots | cut -d' ' -f1-4)" \
		"RefusedSlots after the refused boot"
	e2e_assert_eq good "$(rauc_state B)" "B's state after A's refused boot"

	# SVN 7 into A, a runtime that hangs: the device reverts the trial, RAUC says so.
	rauc install /tmp/bl0-v7.raucb | tee /tmp/install-7.txt
	e2e_assert_eq "a(ssus) 0" "$(daemon_prop RefusedSlots)" "RefusedSlots after a new image in A"
	kt_host model hang bl0 a >/dev/null || e2e_fail "hang bl0 a"
	ul_ctl update-reset --slot a || true
	e2e_wait_for 60 "the device reverted A's trial" rauc_reverted "watchdog a"
	kt_host model hang off >/dev/null || e2e_fail "hang off"
	e2e_wait_for 20 "RevertedSlot a" rauc_reverted_prop a
	rauc_restart
	rauc_snap
	e2e_assert_eq B "$(rauc_status booted)" "RAUC's booted slot after the reverted trial"
	e2e_assert_eq B "$(rauc_status boot_primary)" "RAUC's primary after the reverted trial"
	e2e_assert_eq bad "$(rauc_state A)" "A's state after its trial was reverted"
	e2e_assert_eq good "$(rauc_state B)" "B's state after A's reverted trial"
	cp /tmp/rauc-snap.json /tmp/rauc-status-end.json
	e2e_save /tmp/rauc-status-end.json
	journalctl --no-pager -u rauc.service >/tmp/rauc-journal.txt 2>&1 || true
	e2e_save /tmp/rauc-journal.txt
}
