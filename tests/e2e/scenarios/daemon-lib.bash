# SPDX-License-Identifier: MIT
# Shared by the daemon-* scenarios (sourced; defines functions only, so
# the runner and the guest may both source it). Not a scenario itself: the
# runner only picks up *.sh.
#
# Host side: daemon_provision (host_prepare) builds keys, signed images,
# an OTP image and a flash image, personalizes the device with a fresh CA
# (lib/personalize.sh), and installs the result as the model's persistent
# state.
# Guest side (systemd mode): daemon_guest_setup installs the shipped
# units, policy and sysusers file into the /etc overlay; daemon_start
# brings up the bus, the driver and otattestd.

# Where otattestd, its tools and its files come from (issue 30).
# E2E_DAEMON_FROM=packages: from the tree's Debian packages: the runner
# puts their files in the guest's root (E2E_DEBS, a root writable as a
# whole) and daemon_guest_setup does what otattestd's postinst does at
# configure. Otherwise (the default, E2E_DAEMON_FROM=tree, until the whole
# set has passed that way: docs/packaging.md) the build tree's binaries
# and systemd/ files. A fast-mode scenario always takes the tree's.
if [ "${E2E_MODE:-fast}" = systemd ] && [ "${E2E_DAEMON_FROM:-tree}" = packages ]; then
	DAEMON_FROM=packages
	E2E_ROOT_WRITABLE=1
	E2E_DEBS=(libotattest2 otattest-tools otattestd)
	DAEMON_BIN=/usr/bin
	DAEMON_EXE=/usr/libexec/otattestd
	DAEMON_UNIT=/usr/lib/systemd/system/otattestd.service
	DAEMON_ACTIVATION=/usr/share/dbus-1/system-services/org.otattest.BootAttest1.service
else
	DAEMON_FROM=tree
	DAEMON_BIN=${E2E_SRC:-${E2E_ROOT:-.}}/build
	DAEMON_EXE=$DAEMON_BIN/otattestd
	DAEMON_UNIT=/etc/systemd/system/otattestd.service
	DAEMON_ACTIVATION=/etc/dbus-1/system-services/org.otattest.BootAttest1.service
fi
DAEMON_CTL=$DAEMON_BIN/otattestctl

DAEMON_BUS=org.otattest.BootAttest1
DAEMON_ROOT=/org/otattest/BootAttest1
DAEMON_DEV=/org/otattest/BootAttest1/device/otattest0
DAEMON_IFACE=org.otattest.BootAttest1.Device

# ---- host ----

# daemon_provision: a provisioned device for the model (CA in $E2E_OUT/ca.pem):
# ROM_EXT signed by the creator key, BL0 by a leaf delegate of the owner,
# both slots filled, tag boot on, personalized in test_unlocked (its CSR
# signed by a fresh CA, the certificate stored), moved to prod, and the
# production images installed and not yet booted. Each
# step checks its own status: host_prepare runs in a context where set -e
# does not apply.
daemon_provision() {
	local p=$E2E_RUN_DIR/prov oi=$E2E_ROOT/build/otimage d=${DAEMON_PROVISION_FROM:-}
	mkdir -p "$p" "$E2E_MODEL_STATE" || return 1
	# make demo hands over the factory images it made (scripts/demo.sh).
	if [ -n "$d" ]; then
		cp "$d/images/flash.img" "$E2E_MODEL_STATE/flash.bin" || return 1
		cp "$d/images/otp.img" "$E2E_MODEL_STATE/otp.bin" || return 1
		cp "$d/keys/ca.pem" "$E2E_OUT/ca.pem" || return 1
		return 0
	fi
	oi() { "$oi" "$@" >>"$p/otimage.log" || { echo "otimage $* failed" >&2; return 1; }; }
	oi keygen --out "$p/creator.key" --pub "$p/creator.pub" || return 1
	oi keygen --out "$p/owner.key" --pub "$p/owner.pub" || return 1
	oi keygen --out "$p/signer.key" --pub "$p/signer.pub" || return 1
	oi delegate --parent-key "$p/owner.key" --delegate-pub "$p/signer.pub" --type leaf \
		--svn-min 1 --svn-max 20 --out "$p/signer.cert" || return 1
	oi ca --key "$p/ca.key" --cert "$p/ca.pem" || return 1
	# Random code for the host build; the real builds with E2E_CORE=rv32 (lib/model.sh).
	e2e_payload rom_ext 16384 >"$p/rom_ext.code"
	e2e_payload bl0 32768 >"$p/bl0.code"
	# shellcheck disable=SC2046 # e2e_salt is one option or none
	oi sign --key "$p/creator.key" --stage rom_ext --svn 2 --payload "$p/rom_ext.code" \
		$(e2e_salt) --out "$p/rom_ext.bin" || return 1
	# shellcheck disable=SC2046
	oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 3 \
		--payload "$p/bl0.code" $(e2e_salt) --out "$p/bl0.bin" || return 1
	# DAEMON_OWNER_KEY2: a second owner root key (a hybrid one, for update-hybrid).
	oi owner-config --key "$p/owner.pub" ${DAEMON_OWNER_KEY2:+--key "$DAEMON_OWNER_KEY2"} \
		--out "$p/owner.cfg" || return 1
	# DAEMON_CREATOR_KEY2: a second creator key in OTP (update-creator-key).
	oi provision --out "$p/otp.img" --creator-key "$p/creator.pub" \
		${DAEMON_CREATOR_KEY2:+--creator-key "$DAEMON_CREATOR_KEY2"} --owner-config "$p/owner.cfg" \
		--lifecycle test_unlocked --tag-boot on || return 1
	# Personalization firmware: the same keys, other code (lib/personalize.sh: why).
	e2e_payload rom_ext 4096 >"$p/rom_ext-perso.code"
	e2e_payload bl0 4096 >"$p/bl0-perso.code"
	if [ "${E2E_CORE:-host}" != rv32 ]; then
		cp "$p/rom_ext-perso.code" "$p/bl0-perso.code" # one code for both, as before
	fi
	# shellcheck disable=SC2046
	oi sign --key "$p/creator.key" --stage rom_ext --svn 2 --payload "$p/rom_ext-perso.code" \
		$(e2e_salt) --out "$p/rom_ext-perso.bin" || return 1
	# shellcheck disable=SC2046
	oi sign --key "$p/signer.key" --cert "$p/signer.cert" --stage bl0 --svn 3 \
		--payload "$p/bl0-perso.code" $(e2e_salt) --out "$p/bl0-perso.bin" || return 1
	oi pack --out "$p/flash-factory.img" --rom-ext-a "$p/rom_ext-perso.bin" \
		--bl0-a "$p/bl0-perso.bin" --owner-config "$p/owner.cfg" || return 1
	e2e_personalize "$p" prod rom_ext.bin bl0.bin bl0.bin || return 1
	# The model's state files are the raw flash and OTP contents.
	cp "$p/flash.img" "$E2E_MODEL_STATE/flash.bin" || return 1
	cp "$p/otp.img" "$E2E_MODEL_STATE/otp.bin" || return 1
	cp "$p/ca.pem" "$E2E_OUT/ca.pem" || return 1
}

# daemon_key_names: a key names file for the provisioned keys, made by
# otimage keygen --name ($E2E_OUT/key-names): the creator's and the
# owner's keys named, the signer's left out, so it must show as its short
# hex (its id in $E2E_OUT/signer.id).
daemon_key_names() {
	local p=$E2E_RUN_DIR/prov oi=$E2E_ROOT/build/otimage
	"$oi" keygen --key "$p/creator.key" --name creator-2026 --names-file "$E2E_OUT/key-names" >/dev/null &&
		"$oi" keygen --key "$p/owner.key" --name owner-2026 --names-file "$E2E_OUT/key-names" >/dev/null &&
		"$oi" inspect --json "$p/signer.pub" | jq -r .key_id >"$E2E_OUT/signer.id" || return 1
	[ "$(wc -l <"$E2E_OUT/key-names")" = 2 ] && [ "$(wc -c <"$E2E_OUT/signer.id")" = 65 ]
}

# ---- guest, chrooted before systemd starts ----

daemon_guest_setup() {
	local src=$E2E_SRC u
	if [ "$DAEMON_FROM" = packages ]; then
		# The packages' files are in place (E2E_DEBS). What otattestd's
		# postinst does at configure that these guests need, done
		# directly (its own script runs Perl's deb-systemd-helper, 30 s
		# under TCG; deb-lifecycle runs it): the accounts from the
		# package's sysusers file (dh_installsysusers' step) and the unit
		# enabled with the alias the D-Bus activation file names
		# (deb-systemd-helper enable). systemd and the bus do not run yet:
		# nothing to reload or start. libotattest2's ldconfig trigger is
		# not needed: the library's directory is one the dynamic linker
		# searches anyway.
		local t0=${EPOCHREALTIME/./}
		grep -q 'systemd-sysusers.* otattestd.conf' /run/e2e/debs/otattestd/postinst &&
			grep -q "deb-systemd-helper enable 'otattestd.service'" /run/e2e/debs/otattestd/postinst ||
			{ echo "otattestd's postinst no longer does what daemon_guest_setup does for it" >&2; return 1; }
		systemd-sysusers otattestd.conf || return 1
		systemctl enable --quiet otattestd.service || return 1
		for u in otattestd.service otattestd.socket; do
			mkdir -p /etc/systemd/system/$u.d
			printf '[Unit]\nDefaultDependencies=no\n' >/etc/systemd/system/$u.d/e2e.conf
		done
		daemon_scale_unit
		id otattestd >/dev/null
		echo "daemon_guest_setup: otattestd's configure steps took $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"
		return
	fi
	# The shipped unit, pointed at the build tree (the host root is
	# visible read-only at its own path). The drop-in only keeps the
	# boot from pulling in sysinit.target; the hardening is untouched.
	sed "s|^ExecStart=.*|ExecStart=$src/build/otattestd|" "$src/build/systemd/otattestd.service" \
		>/etc/systemd/system/otattestd.service
	cp "$src/systemd/otattestd.socket" /etc/systemd/system/
	# Enabled as a package enables it: the alias the D-Bus activation file names.
	systemctl enable --quiet otattestd.service
	local u
	for u in otattestd.service otattestd.socket; do
		mkdir -p /etc/systemd/system/$u.d
		printf '[Unit]\nDefaultDependencies=no\n' >/etc/systemd/system/$u.d/e2e.conf
	done
	daemon_scale_unit
	# The shipped D-Bus policy and activation file; the servicedir line
	# makes the bus (dbus-daemon or dbus-broker, E2E_BUS) read activation
	# files from the writable /etc.
	cp "$src/systemd/org.otattest.BootAttest1.conf" /etc/dbus-1/system.d/
	mkdir -p /etc/dbus-1/system-services
	cp "$src/systemd/org.otattest.BootAttest1.service" /etc/dbus-1/system-services/
	printf '<busconfig><servicedir>/etc/dbus-1/system-services</servicedir></busconfig>\n' \
		>/etc/dbus-1/system.d/e2e-servicedir.conf
	# The shipped sysusers file creates the otattestd user.
	mkdir -p /etc/sysusers.d
	cp "$src/systemd/otattest.sysusers" /etc/sysusers.d/otattest.conf
	systemd-sysusers /etc/sysusers.d/otattest.conf
	id otattestd >/dev/null
}

# daemon_scale_unit: on a slower guest (E2E_WAIT_SCALE above 1:
# E2E_TIMEOUT_SCALE, the debug kernel) systemd gives otattestd.service as
# many times its start and stop timeouts (90 s) as the harness's waits are
# scaled. On the debug kernel, under load, starting the hardened unit
# outlasted the 90 s ("Job for otattestd.service failed because a timeout
# was exceeded", daemon-admin; journald took 28 s to start there). The
# watchdog (30 s, which daemon-unit checks) is left as shipped. The bus's
# own wait for an activated service (dbus-daemon's service_start_timeout,
# 25 s) grows the same way, in the local configuration file dbus-daemon
# reads last: on the debug kernel at E2E_TIMEOUT_SCALE=3 an activation took
# longer ("Failed to activate service 'org.otattest.BootAttest1': timed
# out (service_start_timeout=25000ms)", daemon-activation); dbus-broker
# leaves that wait to systemd's start timeout. Nothing at scale 1: make
# test's units and bus are the shipped ones.
daemon_scale_unit() {
	local s=${E2E_WAIT_SCALE:-1}
	[ "$s" -gt 1 ] || return 0
	mkdir -p /etc/systemd/system/otattestd.service.d
	printf '[Service]\nTimeoutStartSec=%s\nTimeoutStopSec=%s\n' \
		$((90 * s)) $((90 * s)) >/etc/systemd/system/otattestd.service.d/e2e-scale.conf
	[ "${E2E_BUS:-dbus-daemon}" = dbus-daemon ] || return 0
	printf '<busconfig>\n  <limit name="service_start_timeout">%s</limit>\n</busconfig>\n' \
		$((25000 * s)) >/etc/dbus-1/system-local.conf
}

# ---- guest, in guest_main ----

# daemon_install_key_names: the host's key names file where otattestctl reads it.
daemon_install_key_names() {
	mkdir -p /etc/otattest
	cp "$E2E_OUT/key-names" /etc/otattest/key-names
}

daemon_bus_up() {
	systemctl start --job-mode=ignore-dependencies dbus.socket dbus.service
}

daemon_has_name() {
	[ "$(busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
		NameHasOwner s "$DAEMON_BUS" 2>/dev/null)" = "b true" ]
}

daemon_state_is() {
	[ "$(busctl --system get-property "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" State 2>/dev/null)" = "s \"$1\"" ]
}

# daemon_start [WANT_STATE]: bus, driver, otattestd; waits for the name and,
# with an argument, for otattest0 to reach that state.
daemon_start() {
	daemon_bus_up
	e2e_insmod otattest ${DAEMON_INSMOD_ARGS:-}
	systemctl start otattestd.service
	e2e_wait_for 15 "otattestd on the bus" daemon_has_name
	if [ -n "${1:-}" ]; then
		e2e_wait_for 15 "otattest0 $1" daemon_state_is "$1"
	fi
}

daemon_pid() {
	systemctl show -p MainPID --value otattestd.service
}

daemon_prop() {
	busctl --system get-property "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" "$1"
}

# daemon_describe: the device's Describe() JSON (every property, typed).
daemon_describe() {
	busctl --system --json=short call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" Describe |
		jq -c '.data[0] | fromjson'
}

# daemon_watch_subscribed: some client (otattestctl watch) has its match
# for otattestd's signals installed in the bus (dbus-daemon's Debug.Stats,
# which root may call; dbus-broker has no such call): events from then on
# reach it. A watch started in the background may take seconds to get
# there on a loaded machine.
daemon_watch_subscribed() {
	busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.Debug.Stats \
		GetAllMatchRules 2>/dev/null | grep -q "path_namespace=[^,]*'$DAEMON_ROOT"
}

# daemon_ctl ARGS...: otattestctl (the package's or the tree's).
daemon_ctl() {
	"$DAEMON_CTL" "$@"
}

# daemon_install_catalog: the journal catalog as a package installs it: the
# file beside the system's own in /usr/lib/systemd/catalog, indexed by
# journalctl --update-catalog. /usr is the host's, read-only here, so the
# index is built in a scratch root and put where journalctl reads it (/var,
# writable). With the packages (DAEMON_FROM) their otattest.catalog is
# among the system's already.
daemon_install_catalog() {
	local r=/tmp/catalog-root
	mkdir -p $r/usr/lib/systemd/catalog /var/lib/systemd/catalog
	cp /usr/lib/systemd/catalog/*.catalog $r/usr/lib/systemd/catalog/
	[ "$DAEMON_FROM" = packages ] || cp "$E2E_SRC/systemd/otattest.catalog" $r/usr/lib/systemd/catalog/
	journalctl --root=$r --update-catalog || e2e_fail "journalctl --update-catalog refused the catalog"
	cp $r/var/lib/systemd/catalog/database /var/lib/systemd/catalog/database
}

# daemon_expect_exit CODE WHAT CMD...: CMD must exit with CODE.
daemon_expect_exit() {
	local want=$1 what=$2 rc=0
	shift 2
	"$@" >/tmp/expect.out 2>&1 || rc=$?
	[ "$rc" = "$want" ] || e2e_fail "$what: exit $rc, expected $want: $(head -c 300 /tmp/expect.out)"
	e2e_log "$what: exit $rc as expected ($(head -c 160 /tmp/expect.out | tr '\n' ' '))"
}

# daemon_logged WHAT CMD...: CMD must succeed; its time is logged (in
# timed_ms), never judged: the flood scenarios check that a call is served
# while the flood still runs, not how long it took.
daemon_logged() {
	local what=$1 t0 t1 rc=0
	shift
	t0=$(date +%s%N)
	"$@" >/tmp/timed.out 2>&1 || rc=$?
	t1=$(date +%s%N)
	timed_ms=$(((t1 - t0) / 1000000))
	[ "$rc" = 0 ] || e2e_fail "$what failed (exit $rc): $(head -c 300 /tmp/timed.out)"
	e2e_log "$what: $timed_ms ms"
}

# daemon_timed WHAT MAX_S CMD...: CMD must succeed within MAX_S seconds
# (daemon-flood: what must not wait behind 300 held connections). The
# bound grows with E2E_WAIT_SCALE (E2E_TIMEOUT_SCALE, the debug kernel's
# scale) as the harness's waits do: unchanged at scale 1.
daemon_timed() {
	local what=$1 max=$(($2 * ${E2E_WAIT_SCALE:-1} * 1000))
	shift 2
	daemon_logged "$what" "$@"
	e2e_log "$what: bound $max ms"
	[ "$timed_ms" -le "$max" ] || e2e_fail "$what took more than $max ms"
}

# daemon_save_journal: otattestd's structured journal entries, when journald runs.
daemon_save_journal() {
	journalctl --no-pager -o verbose _SYSTEMD_UNIT=otattestd.service >/tmp/otattestd-journal.txt 2>&1 || true
	e2e_save /tmp/otattestd-journal.txt
}

# ---- host: hot-unplug and re-plug of the ivshmem device over QMP ----

daemon_unplug() {
	local i
	e2e_qmp device_del '{"id": "otattest0"}' >/dev/null || return 1
	# device_del only asks: the guest ejects, then QEMU deletes the device.
	for ((i = 0; i < 200; i++)); do
		e2e_qmp qom-list '{"path": "/machine/peripheral"}' |
			jq -e 'map(.name) | index("otattest0") | not' >/dev/null && return 0
		sleep 0.1
	done
	echo "otattest0 still present 20 s after device_del"
	return 1
}

# Re-plugging needs a fresh chardev: an existing one cannot reconnect and
# replay the model's greeting. The old one is removed once QEMU lets go.
daemon_plug() {
	local old new=ivshmem-$RANDOM i
	old=$(cat "$E2E_RUN_DIR/daemon-chardev" 2>/dev/null || echo ivshmem)
	for ((i = 0; i < 50; i++)); do
		e2e_qmp chardev-remove "{\"id\": \"$old\"}" >/dev/null 2>&1 && break
		sleep 0.1
	done
	e2e_qmp chardev-add "{\"id\": \"$new\", \"backend\": {\"type\": \"socket\", \"data\":
		{\"addr\": {\"type\": \"unix\", \"data\": {\"path\": \"$E2E_RUN_DIR/ivshmem.sock\"}},
		 \"server\": false}}}" >/dev/null || return 1
	echo "$new" >"$E2E_RUN_DIR/daemon-chardev"
	e2e_qmp device_add "{\"driver\": \"ivshmem-doorbell\", \"id\": \"otattest0\", \"chardev\": \"$new\", \"vectors\": 2}" >/dev/null
}
