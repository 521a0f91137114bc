# SPDX-License-Identifier: MIT
# otattestd from other languages (issue 29): a Python client on Debian's
# python3-dbus-next and a C client on gdbus-codegen's proxies, both made
# from the shipped introspection XML (tests/e2e/clients/), read Describe's
# JSON, the typed Stages (aa{sv}) and the typed history, and ask Attest
# for evidence over a nonce full of zero bytes; both evidences verify on the
# host with otattest-verify against that nonce (a client that cut the
# nonce at its first zero byte would get evidence over another nonce, or
# InvalidArgument for a short one). Both watch the device's signals while
# root resets the device into its other slot: RecordChanged reaches them.
E2E_DESCRIPTION="Python (dbus-next) and gdbus-codegen C clients: Describe, typed stages and history, Attest with zero bytes verified on the host, watch"
E2E_MODE=systemd
E2E_TIMEOUT=600
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage
	build/otattest-verify build/tests/e2e/clients/otattest-gdbus-client)
E2E_REQUIRES=(daemon/otattestd/bus-json.c qemu-model/board/*.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

# 32 bytes, zeros first, in the middle and last.
CLIENTS_NONCE=0000010200000003040000000000000506000000000000000007080000000000

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

# Both evidences verify against the nonce with the zero bytes.
host_check() {
	local f
	for f in evidence-py.cbor evidence-c.cbor; do
		"$E2E_ROOT/build/otattest-verify" --ca "$E2E_OUT/ca.pem" --nonce "$CLIENTS_NONCE" \
			"$E2E_OUT/$f" || { echo "$f does not verify" >&2; return 1; }
	done
}

py() {
	/usr/bin/python3 "$E2E_SRC/tests/e2e/clients/otattest_client.py" \
		"$E2E_SRC/daemon/org.otattest.BootAttest1.xml" "$@"
}

cc_client() {
	"$E2E_SRC/build/tests/e2e/clients/otattest-gdbus-client" "$@"
}

guest_main() {
	local nonce=$CLIENTS_NONCE
	daemon_start ready
	e2e_assert_eq 32 $((${#nonce} / 2)) "nonce length"

	# Describe: JSON of the manager (Python) and the device (C).
	py describe >/tmp/describe-py.json
	e2e_assert_eq otattest0 "$(jq -r '.Devices[0].Name' /tmp/describe-py.json)" "Python: Describe's device"
	e2e_assert_eq ready "$(jq -r '.Devices[0].State' /tmp/describe-py.json)" "Python: Describe's state"
	cc_client describe >/tmp/describe-c.json
	e2e_assert_eq otattest0 "$(jq -r .Name /tmp/describe-c.json)" "C: Describe's name"

	# The typed stages: the booted BL0 with its 32-byte measurement.
	py stages >/tmp/stages-py.json
	e2e_assert_eq 64 "$(jq -r '[.[] | select(.stage == "bl0" and .booted)][0].measurement | length' /tmp/stages-py.json)" \
		"Python: the booted BL0's measurement (hex digits)"
	cc_client stages | tee /tmp/stages-c.txt
	grep -q '^stage=bl0 slot=a svn=3 booted=1 measurement_bytes=32$' /tmp/stages-c.txt ||
		e2e_fail "C: no booted BL0 stage: $(cat /tmp/stages-c.txt)"

	# The typed history: at least the boot the daemon saw at start.
	py history >/tmp/history-py.jsonl
	[ "$(jq -s 'map(select(.device == "otattest0")) | length' /tmp/history-py.jsonl)" -ge 1 ] ||
		e2e_fail "Python: no history entry: $(head -c 300 /tmp/history-py.jsonl)"
	cc_client history >/tmp/history-c.txt
	grep -q "'device': <'otattest0'>" /tmp/history-c.txt || e2e_fail "C: no history entry: $(head -c 300 /tmp/history-c.txt)"

	# Attest with the zero bytes; the host verifies (host_check).
	py attest "$nonce" "$E2E_OUT/evidence-py.cbor"
	cc_client attest "$nonce" "$E2E_OUT/evidence-c.cbor"

	e2e_log "both evidences written"

	# Watch: both subscribed, then root resets the device into slot b (the
	# same SVN 3 image): a new record, RecordChanged. Their output goes to
	# the host, so a watcher that never subscribes says why.
	local w=$E2E_OUT/artifacts
	mkdir -p "$w"
	py watch 1 /tmp/py.ready >"$w/watch-py.txt" 2>&1 &
	local pypid=$!
	cc_client watch 1 /tmp/c.ready >"$w/watch-c.txt" 2>&1 &
	local cpid=$!
	e2e_wait_for 120 "the Python watcher subscribed" test -e /tmp/py.ready
	e2e_wait_for 120 "the C watcher subscribed" test -e /tmp/c.ready
	e2e_log "watchers subscribed"
	daemon_ctl update-reset --slot b
	wait "$pypid" || e2e_fail "Python watch: $(cat "$w/watch-py.txt")"
	wait "$cpid" || e2e_fail "C watch: $(cat "$w/watch-c.txt")"
	cat "$w/watch-py.txt" "$w/watch-c.txt"
	grep -q '"signal": "RecordChanged"' "$w/watch-py.txt" ||
		e2e_fail "Python watch: $(cat "$w/watch-py.txt")"
	grep -q '^RecordChanged generation=[0-9]*$' "$w/watch-c.txt" || e2e_fail "C watch: $(cat "$w/watch-c.txt")"
}
