# SPDX-License-Identifier: MIT
# RotateTags opened to users outside otattest-update the way the shipped
# D-Bus policy's comment tells an admin to, with a real polkitd deciding:
#
#  - the shipped polkit action file and rules are installed where polkitd
#    reads them (/usr/share/polkit-1/{actions,rules.d}: the host's /usr is
#    read-only in the guest, so an overlay makes those two directories
#    writable; polkitd 122 reads actions from nowhere else);
#  - a D-Bus policy drop-in in /etc/dbus-1/system.d lets three unprivileged
#    users (e2e-rotator, e2e-user, e2e-norule) send RotateTags, so the bus
#    no longer stops them and otattestd's own check decides;
#  - an admin rule in /etc/polkit-1/rules.d grants rotate-tags to
#    e2e-rotator and refuses it to e2e-user; e2e-norule is left to the
#    action's defaults (auth_admin).
#
# Then: e2e-rotator rotates (TagKeyVersion moves); e2e-user gets
# AccessDenied from otattestd (its message and a MID_ACCESS_DENIED journal
# entry, neither of which the bus policy produces: a user the drop-in does
# not name shows the bus's refusal and leaves no such entry); e2e-norule
# gets otattestd's InteractiveAuthorizationRequired (polkit wants an admin's
# password and there is no authentication agent to ask); with polkitd
# stopped (and masked, so D-Bus activation cannot bring it back)
# e2e-rotator is denied by otattestd too; unmasked, the next call starts
# polkitd by D-Bus activation and e2e-rotator rotates again.
E2E_DESCRIPTION="otattestd + real polkitd: a polkit rule opens RotateTags to one unprivileged user, not another; no polkitd, no rotation"
E2E_MODE=systemd
# Also on dbus-broker, as Fedora's and Arch's system bus (NAME@dbus-broker).
E2E_BUS_VARIANTS=(dbus-broker)
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c
	systemd/org.otattest.BootAttest1.policy)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

POLKIT_ROTATOR=e2e-rotator
POLKIT_NORULE=e2e-norule
POLKIT_BUS=org.freedesktop.PolicyKit1

host_prepare() {
	daemon_provision
}

guest_setup() {
	local src=$E2E_SRC u
	daemon_guest_setup
	# Two more unprivileged users, in no group but their own.
	useradd --uid 4010 --user-group --no-create-home --shell /usr/sbin/nologin "$POLKIT_ROTATOR"
	useradd --uid 4011 --user-group --no-create-home --shell /usr/sbin/nologin "$POLKIT_NORULE"

	# The action and the rule under /usr/share/polkit-1: the package's, or
	# what `make install PREFIX=/usr` puts there. With the tree's, the
	# host's /usr is read-only here: an overlay (tmpfs upper) over
	# /usr/share/polkit-1 stands in for the package manager's write.
	if [ "$DAEMON_FROM" = tree ]; then
		mkdir -p /run/e2e-polkit/upper /run/e2e-polkit/work
		mount -t overlay -o lowerdir=/usr/share/polkit-1,upperdir=/run/e2e-polkit/upper,workdir=/run/e2e-polkit/work \
			e2e-polkit /usr/share/polkit-1
		install -m 0644 "$src/systemd/org.otattest.BootAttest1.policy" /usr/share/polkit-1/actions/
		install -m 0644 "$src/systemd/50-otattest.rules" /usr/share/polkit-1/rules.d/
	fi
	[ -f /usr/share/polkit-1/actions/org.otattest.BootAttest1.policy ] || { echo "no polkit action file" >&2; return 1; }

	# The admin's part. D-Bus: let the three unprivileged users send RotateTags
	# (per-user policies apply after the shipped default context's deny,
	# whatever the file order); polkit decides through otattestd.
	{
		echo '<busconfig>'
		for u in "$POLKIT_ROTATOR" e2e-user "$POLKIT_NORULE"; do
			echo "  <policy user=\"$u\">"
			echo '    <allow send_destination="org.otattest.BootAttest1"'
			echo '           send_interface="org.otattest.BootAttest1.Device" send_member="RotateTags"/>'
			echo '  </policy>'
		done
		echo '</busconfig>'
	} >/etc/dbus-1/system.d/otattest-rotate-polkit.conf
	# polkit: rotate-tags for e2e-rotator, never for e2e-user; anyone else
	# falls to the action's defaults (auth_admin).
	cat >/etc/polkit-1/rules.d/60-otattest-rotator.rules <<-EOF
		polkit.addRule(function(action, subject) {
		    if (action.id == "org.otattest.BootAttest1.rotate-tags") {
		        if (subject.user == "$POLKIT_ROTATOR")
		            return polkit.Result.YES;
		        if (subject.user == "e2e-user")
		            return polkit.Result.NO;
		    }
		});
	EOF
	# The guest runs without sysinit.target: polkit.service must not pull
	# it in, whether started by systemctl or by D-Bus activation.
	mkdir -p /etc/systemd/system/polkit.service.d
	printf '[Unit]\nDefaultDependencies=no\n' >/etc/systemd/system/polkit.service.d/e2e.conf
}

polkit_up() {
	[ "$(busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
		NameHasOwner s "$POLKIT_BUS" 2>/dev/null)" = "b true" ]
}

polkit_down() {
	! polkit_up
}

# The number of otattestd's MID_ACCESS_DENIED journal entries so far.
denials() {
	journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service MESSAGE_ID="$MID_ACCESS_DENIED" | wc -l
}

key_version() {
	daemon_prop TagKeyVersion | cut -d' ' -f2
}

# rotate_as USER: otattestctl rotate as USER; output in /tmp/rot.out, exit code printed.
rotate_as() {
	local rc=0
	e2e_as "$1" "$DAEMON_CTL" rotate >/tmp/rot.out 2>&1 || rc=$?
	sed "s/^/    [$1] /" /tmp/rot.out >&2
	echo "$rc"
}

# The bus policy's refusal, as dbus-daemon and dbus-broker word it.
BUS_REFUSAL='Rejected send message|Sender is not authorized to send message'

# otattestd's own refusals (auth.c): otattestctl says first who may, then
# the refusal's own text as its detail.
DENIED_BY_DAEMON='RotateTags requires root, membership in group otattest-update, or polkit authorization'
CHALLENGED_BY_DAEMON='interactive authentication is required'
WHO_MAY='otattestctl: RotateTags: not allowed: RotateTags needs root, membership in group otattest-update, or polkit authorization for org.otattest.BootAttest1.rotate-tags'

# expect_daemon_denied USER WHY [TEXT [ERROR]]: USER's RotateTags is refused
# by otattestd itself with TEXT and ERROR (default: its AccessDenied).
expect_daemon_denied() {
	local user=$1 why=$2 text=${3:-$DENIED_BY_DAEMON} error=${4:-org.freedesktop.DBus.Error.AccessDenied} n0 kv0 rc
	n0=$(denials)
	kv0=$(key_version)
	rc=$(rotate_as "$user")
	e2e_assert_eq 20 "$rc" "$user's rotate exit code ($why)"
	grep -qF "$WHO_MAY ($error)" /tmp/rot.out && grep -qF "  detail: $text" /tmp/rot.out ||
		e2e_fail "$user ($why): not otattestd's '$text' ($error): $(cat /tmp/rot.out)"
	grep -qE "$BUS_REFUSAL" /tmp/rot.out && e2e_fail "$user ($why): the bus refused, not otattestd"
	e2e_wait_for 5 "otattestd's MID_ACCESS_DENIED entry for $user" test "$(denials)" -gt "$n0"
	e2e_assert_eq "$kv0" "$(key_version)" "TagKeyVersion after $user's refused rotation"
}

expect_rotated() {
	local user=$1 kv0 rc
	kv0=$(key_version)
	rc=$(rotate_as "$user")
	e2e_assert_eq 0 "$rc" "$user's rotate exit code"
	grep -q "tag key version $kv0 -> $((kv0 + 1))" /tmp/rot.out || e2e_fail "$user's rotation: $(cat /tmp/rot.out)"
	e2e_wait_for 10 "TagKeyVersion $((kv0 + 1))" test "$(key_version)" = "$((kv0 + 1))"
}

guest_main() {
	local n0 rc
	MID_ACCESS_DENIED=$(sed -n 's/^#define MID_ACCESS_DENIED "\(.*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	[ -n "$MID_ACCESS_DENIED" ] || e2e_fail "no MID_ACCESS_DENIED in daemon/otattestd/log.h"
	# The premise: e2e-rotator and e2e-user are neither root nor in otattest-update.
	id -nG "$POLKIT_ROTATOR" e2e-user "$POLKIT_NORULE" | grep -qw otattest-update &&
		e2e_fail "a test user is in otattest-update"

	daemon_start ready
	systemctl start polkit.service
	e2e_wait_for 20 "polkitd on the bus" polkit_up
	e2e_log "polkitd: $(ps -o user=,args= -C polkitd)"
	# polkitd read the shipped action file.
	pkaction --verbose --action-id org.otattest.BootAttest1.rotate-tags | tee /tmp/pkaction.txt
	grep -q 'implicit any: *auth_admin' /tmp/pkaction.txt || e2e_fail "polkitd did not load org.otattest.BootAttest1.policy"
	grep -q 'org.freedesktop.policykit.owner -> unix-user:otattestd' /tmp/pkaction.txt ||
		e2e_fail "the action does not name otattestd as its owner: polkitd would refuse its questions"
	# The shipped 50-otattest.rules: polkit grants both actions to otattest-update
	# too (otattestd never asks for them; pkcheck shows polkitd read the rule).
	e2e_as e2e-update sleep 60 &
	e2e_wait_for 10 "a process of e2e-update" pgrep -u e2e-update -x sleep
	for a in rotate-tags update-reset; do
		pkcheck --action-id "org.otattest.BootAttest1.$a" --process "$(pgrep -u e2e-update -x sleep)" ||
			e2e_fail "polkit does not grant $a to otattest-update (50-otattest.rules)"
	done
	pkill -u e2e-update -x sleep
	e2e_log "polkit grants rotate-tags and update-reset to otattest-update (50-otattest.rules)"

	# The bus still refuses a user the drop-in does not name, and such a
	# refusal never reaches otattestd: the discriminator for what follows.
	n0=$(denials)
	rc=$(rotate_as nobody)
	e2e_assert_eq 20 "$rc" "nobody's rotate exit code"
	grep -qE "$BUS_REFUSAL" /tmp/rot.out || e2e_fail "nobody: not the bus policy's refusal: $(cat /tmp/rot.out)"
	sleep 1
	e2e_assert_eq "$n0" "$(denials)" "MID_ACCESS_DENIED entries after a refusal by the bus"

	# polkit grants e2e-rotator; otattestd refuses e2e-user (polkit said
	# no) and e2e-norule (polkit wants an admin's password, and though
	# otattestctl allows interaction there is no agent to ask).
	expect_rotated "$POLKIT_ROTATOR"
	expect_daemon_denied e2e-user "the polkit rule says no"
	expect_daemon_denied "$POLKIT_NORULE" "no polkit rule, auth_admin" "$CHALLENGED_BY_DAEMON" \
		org.freedesktop.DBus.Error.InteractiveAuthorizationRequired

	# No polkitd: masked so that D-Bus activation cannot start it again.
	systemctl mask --runtime polkit.service
	systemctl stop polkit.service
	e2e_wait_for 20 "polkitd gone from the bus" polkit_down
	expect_daemon_denied "$POLKIT_ROTATOR" "polkitd stopped"
	polkit_up && e2e_fail "polkitd came back while masked"

	# Unmasked, otattestd's CheckAuthorization starts polkitd through D-Bus activation.
	systemctl unmask --runtime polkit.service
	expect_rotated "$POLKIT_ROTATOR"
	e2e_assert_eq active "$(systemctl is-active polkit.service)" "polkit.service after D-Bus activation"
	e2e_assert_eq 0 "$(systemctl show -p NRestarts --value otattestd.service)" "otattestd restarts"

	journalctl --no-pager -o verbose _SYSTEMD_UNIT=otattestd.service MESSAGE_ID="$MID_ACCESS_DENIED" \
		>/tmp/access-denied.txt 2>&1 || true
	e2e_save /tmp/access-denied.txt
	daemon_save_journal
}
