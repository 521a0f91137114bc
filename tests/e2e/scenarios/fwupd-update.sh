# SPDX-License-Identifier: MIT
# fwupd drives an otattest update (issue 29): fwupd 2.0.20 from Debian's
# source with the otattest plugin built in (scripts/fwupd-build.sh, cached
# under /var/cache/otattest/fwupd), run in a systemd guest from its own unit
# and D-Bus files. fwupdmgr lists the device, its BL0 and ROM_EXT with their
# slots and SVNs; installs a cabinet (scripts/fwupd-cab.sh: the signed BL0
# SVN 4 and its metainfo) through InstallImage, the update reset and the
# commit; get-history shows the update; security shows the record's HSI
# attributes. A cabinet of a stranger's image is refused by the device
# (nothing written: the model's flash writes). Stopping otattestd makes the
# devices go from fwupd, which keeps running.
E2E_DESCRIPTION="fwupd with the otattest plugin: get-devices, install a cabinet (trial, commit), history, HSI, otattestd gone"
E2E_MODE=systemd
E2E_TIMEOUT=360
E2E_MEM=768
E2E_DEVICE=1
# fwupd answers no HSI question on a CPU that says it runs under a
# hypervisor (CPUID's hypervisor bit, which QEMU sets by default); the guest
# plays the machine the root of trust is soldered into, so its CPU says no.
E2E_QEMU_ARGS=(-cpu qemu64,hypervisor=off)
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage fwupd)
E2E_REQUIRES=(daemon/fwupd/otattest/fu-otattest-plugin.c daemon/otattestd/install.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

# The provisioned device (BL0 SVN 3 in both slots) and two cabinets.
host_prepare() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates
	ul_provision || return 1
	e2e_payload bl0 32768 >"$p/bl0-v4.code"
	ul_oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 4 \
		--version-string 4.0.0 --payload "$p/bl0-v4.code" --out "$u/bl0-v4.img" || return 1
	ul_oi keygen --out "$p/stranger.key" --pub "$p/stranger.pub" || return 1
	ul_oi sign --key "$p/stranger.key" --stage bl0 --svn 5 --payload "$p/bl0-v4.code" \
		--out "$u/bl0-stranger.img" || return 1
	"$E2E_ROOT/scripts/fwupd-cab.sh" "$u/bl0-v4.img" "$u/bl0-v4.cab" >>"$E2E_RUN_DIR/cab.log" &&
		"$E2E_ROOT/scripts/fwupd-cab.sh" "$u/bl0-stranger.img" "$u/bl0-stranger.cab" \
			>>"$E2E_RUN_DIR/cab.log" || return 1
	chmod 644 "$u"/*
}

# fwupd's unit, D-Bus policy and activation file from its prefix, as its
# package would install them. The cabinets carry no signature fwupd knows
# (the device checks the image's own signatures), so OnlyTrusted is off in
# this guest's fwupd.conf (the prefix's /var overlay; docs/update-agents.md).
guest_setup() {
	local prefix
	daemon_guest_setup
	prefix=$("$E2E_SRC/scripts/fwupd-build.sh" --print-prefix)
	cp "$prefix/lib/systemd/system/fwupd.service" /etc/systemd/system/
	mkdir -p /etc/systemd/system/fwupd.service.d
	printf '[Unit]\nDefaultDependencies=no\n' >/etc/systemd/system/fwupd.service.d/e2e.conf
	cp "$prefix/share/dbus-1/system.d/org.freedesktop.fwupd.conf" /etc/dbus-1/system.d/
	# Its activation file where the bus also looks, in the writable /etc.
	mkdir -p /etc/dbus-1/system-services
	printf '<busconfig><servicedir>/etc/dbus-1/system-services</servicedir></busconfig>\n' \
		>/etc/dbus-1/system.d/e2e-servicedir.conf
	cp "$prefix/share/dbus-1/system-services/org.freedesktop.fwupd.service" /etc/dbus-1/system-services/
	printf '[fwupd]\nOnlyTrusted=false\n' >"$prefix/etc/fwupd/fwupd.conf"
	echo "$prefix" >/etc/e2e-fwupd-prefix
}

fw() {
	"$(cat /etc/e2e-fwupd-prefix)/bin/fwupdmgr" "$@"
}

# fw_device NAME: fwupdmgr get-devices --json's device named NAME (jq), or nothing.
fw_device() {
	fw get-devices --json --show-all | jq -c --arg n "$1" '.Devices[]? | select(.Name == $n)'
}

guest_main() {
	local u=$E2E_OUT/updates dev writes pid
	ul_guest_start
	systemctl start fwupd.service
	pid=$(systemctl show -p MainPID --value fwupd.service)

	# The device and its stages, with their slots and SVNs.
	fw get-devices --show-all | tee /tmp/devices.txt
	e2e_save /tmp/devices.txt
	dev=$(fw_device "otattest BL0 runtime")
	[ -n "$dev" ] || e2e_fail "no BL0 device in fwupdmgr get-devices"
	e2e_assert_eq 3 "$(jq -r .Version <<<"$dev")" "BL0 version (the running SVN)"
	e2e_assert_match 'slot a: .* SVN 3 \[present,verified,running,primary\]; slot b: .* SVN 3 \[present.*\]' \
		"$(jq -r .Summary <<<"$dev")" "BL0 slots"
	jq -e '.Flags | index("updatable") and index("dual-image") and index("signed-payload")' <<<"$dev" >/dev/null ||
		e2e_fail "BL0 flags: $(jq -c .Flags <<<"$dev")"
	[ -n "$(fw_device "otattest ROM EXT")" ] || e2e_fail "no ROM_EXT device"
	e2e_assert_match '.*lifecycle prod,.*' "$(fw_device "otattest root of trust" | jq -r .Summary)" "the device"

	# A stranger's image: the device refuses it, nothing is written.
	writes=$(kt_model_stat flash-writes)
	e2e_expect_fail "fwupdmgr install of a stranger's image" \
		fw install --assume-yes --no-reboot-check --no-unreported-check "$u/bl0-stranger.cab"
	e2e_assert_eq "$writes" "$(kt_model_stat flash-writes)" "flash writes after the refused cabinet"
	e2e_assert_eq a "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after the refused cabinet"

	# The cabinet: written to slot b, booted on trial, committed.
	fw install --assume-yes --no-reboot-check --no-unreported-check "$u/bl0-v4.cab" 2>&1 | tee /tmp/install.txt
	e2e_save /tmp/install.txt
	e2e_assert_eq b "$(ul_prop RunningBl0Slot)" "RunningBl0Slot after fwupdmgr install"
	e2e_assert_eq b "$(ul_prop PrimarySlot)" "PrimarySlot after fwupdmgr install (committed)"
	e2e_assert_eq 4 "$(cat "$KT_SYS/slot_bl0_b/svn")" "sysfs slot_bl0_b/svn"
	fw get-devices --json --show-all >/tmp/devices-after.json
	e2e_save /tmp/devices-after.json
	e2e_wait_for 20 "fwupd shows BL0 SVN 4" test "$(fw_device "otattest BL0 runtime" | jq -r .Version)" = 4

	# History: the update, from 3 to 4, a success.
	fw get-history --json | tee /tmp/history.json >/dev/null
	e2e_save /tmp/history.json
	jq -e '[.Devices[] | select(.Name == "otattest BL0 runtime") | .Releases[0].Version] | index("4")' \
		/tmp/history.json >/dev/null || e2e_fail "no release 4 in get-history: $(head -c 600 /tmp/history.json)"
	fw get-history | tee /tmp/history.txt

	# HSI from the record.
	fw security --json >/tmp/security.json 2>&1 ||
		e2e_fail "fwupdmgr security: $(head -c 600 /tmp/security.json)"
	e2e_save /tmp/security.json
	fw security --no-security-fix | tee /tmp/security.txt
	local id
	for id in Lifecycle DebugImage TagBoot RollbackFloors HybridSignatures; do
		jq -e --arg id "org.fwupd.hsi.Otattest.$id" '.SecurityAttributes[] | select(.AppstreamId == $id)' \
			/tmp/security.json >/dev/null || e2e_fail "no HSI attribute $id"
	done
	e2e_assert_eq locked "$(jq -r '.SecurityAttributes[] | select(.AppstreamId == "org.fwupd.hsi.Otattest.Lifecycle") | .HsiResult' /tmp/security.json)" "HSI lifecycle"
	e2e_assert_eq enabled "$(jq -r '.SecurityAttributes[] | select(.AppstreamId == "org.fwupd.hsi.Otattest.TagBoot") | .HsiResult' /tmp/security.json)" "HSI tag boot"
	grep -q "otattest0: tag boot" /tmp/security.txt || e2e_fail "fwupdmgr security: $(head -c 600 /tmp/security.txt)"

	# otattestd gone: fwupd drops the devices and keeps running.
	systemctl stop otattestd.service
	e2e_wait_for 20 "fwupd drops the otattest devices" test -z "$(fw_device "otattest BL0 runtime")"
	e2e_assert_eq active "$(systemctl is-active fwupd.service)" "fwupd after otattestd stopped"
	e2e_assert_eq "$pid" "$(systemctl show -p MainPID --value fwupd.service)" "fwupd's pid"
	journalctl --no-pager -u fwupd.service >/tmp/fwupd-journal.txt 2>&1 || true
	e2e_save /tmp/fwupd-journal.txt
}
