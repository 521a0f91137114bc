# SPDX-License-Identifier: MIT
# The D-Bus API against a provisioned device in the systemd guest: every
# property and the record for an unprivileged user, introspection equal
# to the XML in the tree, named errors for malformed calls (and the daemon
# keeps serving), evidence (for a given and a random nonce) that passes
# otattest-verify and the independent COSE check on the host, metrics.
# The privileged calls are daemon-admin's (one scenario each stays under
# a minute beside another guest on two cores).
E2E_DESCRIPTION="otattestd: API as an unprivileged user, named errors, attestation verified on the host"
E2E_MODE=systemd
# Also on dbus-broker, as Fedora's and Arch's system bus (NAME@dbus-broker).
E2E_BUS_VARIANTS=(dbus-broker)
E2E_TIMEOUT=120
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/otimage build/otattest-verify)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

# Every property of the Device interface, from the XML in the tree.
device_properties() {
	/usr/bin/python3 - "$E2E_SRC/daemon/org.otattest.BootAttest1.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
for i in ET.parse(sys.argv[1]).getroot().iter("interface"):
    if i.get("name") == "org.otattest.BootAttest1.Device":
        for p in i.iter("property"):
            print(p.get("name"))
PY
}

# The two interfaces of an introspection document, canonicalised.
canon_xml() {
	/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
for i in root.iter("interface"):
    if not i.get("name").startswith("org.otattest."):
        continue
    for m in i:
        args = ",".join("%s:%s:%s" % (a.get("name"), a.get("type"), a.get("direction", "")) for a in m.iter("arg"))
        # Annotations for code generators (org.gtk.GDBus.*) are in the XML only: the bus carries none.
        ann = ",".join("%s=%s" % (a.get("name"), a.get("value")) for a in m.iter("annotation")
                       if not a.get("name").startswith("org.gtk."))
        print(i.get("name"), m.tag, m.get("name"), m.get("type", ""), m.get("access", ""), args, ann)
'
}

guest_main() {
	local v nonce i props

	daemon_start ready

	# Introspection equals the XML shipped in the tree.
	busctl --system introspect --xml-interface "$DAEMON_BUS" "$DAEMON_DEV" >/tmp/dev.xml
	busctl --system introspect --xml-interface "$DAEMON_BUS" "$DAEMON_ROOT" >/tmp/root.xml
	e2e_save /tmp/dev.xml
	{ canon_xml </tmp/root.xml; canon_xml </tmp/dev.xml; } | sort >/tmp/live.canon
	canon_xml <"$E2E_SRC/daemon/org.otattest.BootAttest1.xml" | sort >/tmp/tree.canon
	diff -u /tmp/tree.canon /tmp/live.canon || e2e_fail "live introspection differs from daemon/org.otattest.BootAttest1.xml"
	e2e_log "introspection matches the XML ($(wc -l </tmp/tree.canon) members)"

	# An unprivileged user reads every property (one busctl call: a process
	# start costs about a second under TCG), and the record.
	mapfile -t props < <(device_properties)
	e2e_as e2e-user busctl --system get-property "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" \
		"${props[@]}" >/tmp/props.txt || e2e_fail "e2e-user cannot read the properties"
	e2e_assert_eq "${#props[@]}" "$(wc -l </tmp/props.txt)" "values read by e2e-user, one per property"
	for ((i = 0; i < ${#props[@]}; i++)); do
		v=$(sed -n "$((i + 1))p" /tmp/props.txt)
		[ -n "$v" ] || e2e_fail "e2e-user read no value of ${props[i]}"
		e2e_log "e2e-user reads ${props[i]} = ${v:0:80}"
	done
	e2e_assert_eq "$(cat /sys/class/otattest/otattest0/generation)" \
		"$(daemon_prop Generation | cut -d' ' -f2)" "Generation equals sysfs"
	e2e_assert_eq "u $(cat /sys/class/otattest/otattest0/min_svn)" "$(daemon_prop MinSvn)" "MinSvn equals sysfs"
	e2e_assert_eq "s \"$(cat /sys/class/otattest/otattest0/lifecycle)\"" "$(daemon_prop Lifecycle)" "Lifecycle equals sysfs"
	e2e_as e2e-user "$DAEMON_CTL" record --raw >/tmp/record.dbus
	cmp /tmp/record.dbus /sys/class/otattest/otattest0/record || e2e_fail "GetRecord differs from sysfs record"
	e2e_log "GetRecord as e2e-user: $(stat -c %s /tmp/record.dbus) bytes, identical to sysfs"
	e2e_as e2e-user "$DAEMON_CTL" --no-color status | tee /tmp/status.txt
	e2e_as e2e-user "$DAEMON_CTL" --json status >/tmp/status.json
	e2e_assert_eq ready "$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["state"])' </tmp/status.json)" "status --json"

	# Attestation: evidence to the share, checked on the host.
	nonce=00112233445566778899aabbccddeeff0123456789abcdef
	e2e_as e2e-user "$DAEMON_CTL" attest --nonce "$nonce" -o /tmp/evidence.cose
	cp /tmp/evidence.cose "$E2E_OUT/evidence.cose"
	cp /sys/class/otattest/otattest0/record "$E2E_OUT/record.bin"
	echo "$nonce" >"$E2E_OUT/nonce"
	# And verified in the guest with the library verifier through otattestctl.
	e2e_as e2e-user "$DAEMON_CTL" verify /tmp/evidence.cose --ca "$E2E_OUT/ca.pem" --nonce "$nonce"
	# Against another nonce the same evidence fails its verdict (exit 1).
	daemon_expect_exit 1 "verify with the wrong nonce" e2e_as e2e-user "$DAEMON_CTL" \
		verify /tmp/evidence.cose --ca "$E2E_OUT/ca.pem" --nonce "ff${nonce:2}"
	# No --nonce: 32 random bytes, said in the JSON; --verify checks at once.
	e2e_as e2e-user "$DAEMON_CTL" --json attest --verify --ca "$E2E_OUT/ca.pem" \
		-o /tmp/evidence-random.cose >/tmp/attest.json 2>/tmp/attest-verify.txt ||
		e2e_fail "attest --verify with a random nonce: $(cat /tmp/attest-verify.txt)"
	v=$(/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["nonce"])' </tmp/attest.json)
	e2e_assert_match '[0-9a-f]{64}' "$v" "random nonce (32 bytes)"
	[ "$v" != "$nonce" ] || e2e_fail "the random nonce is the given one"
	grep -q '"verdict":"pass"\|verdict: PASS' /tmp/attest-verify.txt || e2e_fail "attest --verify: $(cat /tmp/attest-verify.txt)"
	cp /tmp/evidence-random.cose "$E2E_OUT/evidence-random.cose"
	echo "$v" >"$E2E_OUT/nonce-random"

	# Malformed calls: each gets its named error; the daemon keeps serving.
	busctl --system call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" Attest ay 3 1 2 3 2>/tmp/err.txt &&
		e2e_fail "a 3-byte nonce was accepted"
	daemon_expect_exit 10 "nonce of 15 bytes" daemon_ctl attest --nonce 000102030405060708090a0b0c0d0e -o /tmp/x
	daemon_expect_exit 10 "nonce of 65 bytes" daemon_ctl attest --nonce "$(printf '%0130d' 0)" -o /tmp/x
	/usr/bin/python3 - <<'PY' || e2e_fail "named errors over D-Bus"
import dbus
bus = dbus.SystemBus()
dev = bus.get_object("org.otattest.BootAttest1", "/org/otattest/BootAttest1/device/otattest0")
mgr = bus.get_object("org.otattest.BootAttest1", "/org/otattest/BootAttest1")
def expect(name, fn):
    try:
        fn()
    except dbus.exceptions.DBusException as e:
        assert e.get_dbus_name() == name, (name, e.get_dbus_name(), e.get_dbus_message())
        print("named error:", name, "-", e.get_dbus_message())
        return
    raise AssertionError("no error, expected " + name)
D = "org.otattest.BootAttest1.Device"
E = "org.otattest.BootAttest1.Error."
expect(E + "InvalidArgument", lambda: dev.Attest(dbus.ByteArray(b"x" * 15), dbus_interface=D))
expect(E + "InvalidArgument", lambda: dev.Attest(dbus.ByteArray(b"x" * 65), dbus_interface=D))
expect(E + "InvalidArgument", lambda: dev.SignWithStableKey(dbus.ByteArray(b"x" * 16), dbus.UInt32(300), dbus_interface=D))
expect("org.freedesktop.DBus.Error.InvalidArgs", lambda: dev.get_dbus_method("Attest", D)(dbus.String("a string, not bytes"), signature="s"))
expect(E + "NoSuchDevice", lambda: mgr.GetDevice("otattest7", dbus_interface="org.otattest.BootAttest1.Manager"))
expect(E + "NoSuchDevice", lambda: mgr.GetDevice("../../etc/passwd", dbus_interface="org.otattest.BootAttest1.Manager"))
expect("org.freedesktop.DBus.Error.UnknownObject", lambda: bus.get_object("org.otattest.BootAttest1", "/org/otattest/BootAttest1/device/otattest7").GetRecord(dbus_interface=D))
# Still serving.
ev = dev.Attest(dbus.ByteArray(b"n" * 16), dbus_interface=D)
assert len(ev) > 100
sig, pub = dev.SignWithStableKey(dbus.ByteArray(b"m" * 16), dbus.UInt32(0), dbus_interface=D)
assert len(sig) == 64 and len(pub) == 64
certs = dev.GetCertificates(dbus_interface=D)
assert len(certs) >= 1
print("still serving: evidence %d bytes, %d certificates" % (len(ev), len(certs)))
PY
	systemctl is-active otattestd.service >/dev/null || e2e_fail "otattestd died"

	# Metrics for node_exporter, written atomically by an unprivileged user.
	mkdir -p /tmp/textfile && chmod 1777 /tmp/textfile
	e2e_as e2e-user "$DAEMON_CTL" metrics -o /tmp/textfile/otattest.prom
	grep -qx 'otattest_device_up{device="otattest0"} 1' /tmp/textfile/otattest.prom || e2e_fail "metrics: device not up"
	grep -q '^otattest_tag_key_version{device="otattest0"} ' /tmp/textfile/otattest.prom || e2e_fail "metrics: no key version"
	e2e_assert_eq 1 "$(ls -A /tmp/textfile | wc -l)" "only the metrics file in the textfile directory"
	e2e_save /tmp/textfile/otattest.prom
	daemon_save_journal
}

host_check() {
	local nonce
	nonce=$(cat "$E2E_OUT/nonce")
	"$E2E_ROOT/build/otattest-verify" --ca "$E2E_OUT/ca.pem" --nonce "$nonce" \
		--record "$E2E_OUT/record.bin" "$E2E_OUT/evidence.cose"
	/usr/bin/python3 "$E2E_ROOT/tests/interop/evidence_check.py" "$E2E_OUT/evidence.cose" \
		"$E2E_OUT/ca.pem" "$nonce" "$E2E_OUT/record.bin" | tee "$E2E_OUT/evidence-check.txt"
	grep -q ' 0 failed$' "$E2E_OUT/evidence-check.txt" || return 1
	# The random-nonce evidence, with the nonce otattestctl reported.
	"$E2E_ROOT/build/otattest-verify" --ca "$E2E_OUT/ca.pem" --nonce "$(cat "$E2E_OUT/nonce-random")" \
		"$E2E_OUT/evidence-random.cose"
}
