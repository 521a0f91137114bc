# SPDX-License-Identifier: MIT
# Fleet verification on Veraison (issue 16, docs/veraison.md): Veraison's
# real services (make veraison) on loopback with their stores in the run
# directory, provisioned from otimage's output (the manufacturer CA as a
# trust-anchor CoRIM, the release as otimage's signed CoRIM), appraise
# evidence the guest's otattestd signs for nonces of Veraison sessions.
# An honest device is affirmed; a BL0 the reference values do not list,
# a wrong nonce, a device of another CA, a flipped signature byte, a cut
# evidence, a lying runtime and a byte flipped in each part of the
# evidence each get the status otattest-verify --ear gives the same
# evidence. The lying runtime is, with E2E_CORE=rv32, attacker code: the
# release's BL0 is the hostile BL0 (tests/rv32/hostile/, issue 27), which
# serves honestly until an ATTEST whose nonce is the attacker's knock
# (e2e_hostile_knock) orders it to lie about its epoch; with the host
# build the board plays it (the model's "compromise", docs/model.md).
# Every EAR is verified with PyJWT (host_check, veraison-check.py), and
# with Veraison's own arc (scripts/arc-build.sh), which must show the same statuses,
# reasons and policy ids for Veraison's EAR and otattest-verify's.
E2E_DESCRIPTION="Veraison's services with the otattest scheme appraise the guest's evidence; EARs checked by PyJWT and arc"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service
	build/otimage build/otattest-verify veraison arc build/rv32/hostile-bl0.elf)
E2E_CORE_BL0=build/rv32/hostile-bl0.elf
# Skipped (named so in the verdict) only where Go itself is missing: make
# veraison builds Veraison's services and the scheme with it.
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c
	libotattest/tools/veraison/go.mod "$(command -v go || echo no-Go-toolchain-on-PATH)")

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

# Cases: name, the Veraison instance that appraises it (A: the device's CA
# and the release; B: the CA, a release whose BL0 is another image and a
# policy the ROM_EXT is below; C: another manufacturer's CA and the release).
VERAISON_CASES="honest:A wrongnonce:A flip:A trunc:A notlisted:B otherca:C lie:A"

host_prepare() {
	daemon_provision || return 1
	local p=$E2E_RUN_DIR/prov oi=$E2E_ROOT/build/otimage v=$E2E_ROOT/build/veraison/bin/otattest-veraison
	# What a manufacturer and a release owner hand the fleet's verifier.
	"$oi" keygen --out "$p/release.pem" --pub "$E2E_OUT/release.pub" >/dev/null &&
		"$oi" corim --key "$p/release.pem" --id e2e-release --out "$E2E_OUT/release.corim" \
			"$p/rom_ext.bin" "$p/bl0.bin" >/dev/null &&
		"$oi" corim --key "$p/release.pem" --id e2e-other-bl0 --out "$E2E_OUT/other-bl0.corim" \
			"$p/rom_ext.bin" "$p/bl0-perso.bin" >/dev/null &&
		"$oi" ca --key "$p/other-ca.key" --cert "$E2E_OUT/other-ca.pem" >/dev/null &&
		"$v" ta-corim --ca "$E2E_OUT/ca.pem" --out "$E2E_OUT/ca.corim" &&
		"$v" ta-corim --ca "$E2E_OUT/other-ca.pem" --out "$E2E_OUT/other-ca.corim"
}

guest_setup() {
	daemon_guest_setup
}

# attest_for FILE: evidence for each "name nonce" line of FILE.
attest_for() {
	local name nonce
	while read -r name nonce; do
		e2e_as e2e-user "$DAEMON_CTL" attest --nonce "$nonce" -o "/tmp/$name.cose"
		cp "/tmp/$name.cose" "$E2E_OUT/ev-$name.cose"
	done <"$1"
}

guest_main() {
	daemon_start ready
	e2e_wait_host nonces 120
	attest_for "$E2E_OUT/nonces"
	e2e_signal attested
	e2e_wait_host lie 60
	attest_for "$E2E_OUT/nonces-lie"
	e2e_signal attested-lie
	e2e_wait_host submitted 120
}

# ---- host ----

veraison() { "$E2E_ROOT/libotattest/tools/veraison/deploy/veraison.sh" "$@"; }
vx() { "$E2E_ROOT/build/veraison/bin/otattest-veraison" "$@"; }

# instance X CORIM...: a fresh Veraison in $E2E_RUN_DIR/veraison-X,
# provisioned with the CoRIMs (a .corim is otimage's, signed). A runs
# with TLS (HTTPS APIs, mutual TLS to vts), as a deployment does.
instance() {
	local x=$1 dir=$E2E_RUN_DIR/veraison-$1 f
	shift
	TLS_CA=
	VERAISON_TLS=$([ "$x" = A ] && echo 1 || echo 0) \
		VERAISON_POLICY=$([ -f "$E2E_OUT/policy-$x" ] && echo "$E2E_OUT/policy-$x") \
		veraison start "$dir" >"$E2E_OUT/veraison-$x.env" || return 1
	. "$dir/env"
	tls=()
	[ -n "$TLS_CA" ] && tls=(--tls-ca "$TLS_CA")
	for f in "$@"; do
		case $f in
		*ca.corim) vx provision "${tls[@]}" --url "$PROVISIONING_URL" "$E2E_OUT/$f" ;;
		*) vx provision "${tls[@]}" --url "$PROVISIONING_URL" --corim-key "$E2E_OUT/release.pub" "$E2E_OUT/$f" ;;
		esac >>"$E2E_OUT/provision.log" 2>&1 || return 1
	done
	# The EAR key as relying parties get it: Veraison's discovery document.
	/usr/bin/python3 -c '
import ssl, sys, urllib.request
req = urllib.request.Request(sys.argv[1], headers={"Accept": "application/vnd.veraison.discovery+json"})
ctx = ssl.create_default_context(cafile=sys.argv[2] or None)
sys.stdout.write(urllib.request.urlopen(req, context=ctx, timeout=10).read().decode())' \
		"$VERIFICATION_URL/.well-known/veraison/verification" "$TLS_CA" >"$E2E_OUT/wellknown-$x.json" ||
		return 1
}

# open NAME: a session on the current instance; its URL and nonce kept.
open_session() {
	local at nonce
	read -r at nonce < <(vx session "${tls[@]}" --url "$VERIFICATION_URL" ${2:+--nonce "$2"}) || return 1
	echo "$at" >"$E2E_OUT/session-$1"
	echo "$1 $nonce" >>"$E2E_OUT/nonces-all"
	echo "$nonce"
}

submit() { # NAME [EVIDENCE]
	vx submit "${tls[@]}" --session "$(cat "$E2E_OUT/session-$1")" "${2:-$E2E_OUT/ev-$1.cose}" \
		>"$E2E_OUT/ear-$1.jwt" 2>"$E2E_OUT/submit-$1.err"
}

host_hook() {
	local n tls=()
	# The services run in sessions of their own: stop them however the
	# hook ends (a failed step, the runner's TERM).
	trap 'for x in A B C; do veraison stop "$E2E_RUN_DIR/veraison-$x"; done' EXIT
	trap 'exit 1' TERM
	: >"$E2E_OUT/nonces-all"
	instance A ca.corim release.corim || e2e_fail "Veraison A did not start (logs in veraison-A/logs)"
	case $VERIFICATION_URL in https://*) ;; *) e2e_fail "Veraison A is not on HTTPS" ;; esac
	{
		echo "honest $(open_session honest)"
		open_session wrongnonce >/dev/null
		# The device signs another nonce than the session's.
		echo "wrongnonce $(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
		echo "flip $(open_session flip)"
		echo "trunc $(open_session trunc)"
		# B and C run after A; the nonce is the verifier's all the same:
		# their sessions are opened with it (newSession?nonce=).
		echo "notlisted $(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
		echo "otherca $(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
	} >"$E2E_OUT/nonces"
	e2e_tell_guest nonces
	e2e_wait_guest attested 150
	# A runtime holding the genuine alias key that lies about its epoch:
	# the hostile BL0 told so by the guest's first ATTEST (its evidence
	# ev-knock.cose is not judged), or the board playing it.
	if [ "${E2E_CORE:-host}" = rv32 ]; then
		echo "knock $(e2e_hostile_knock "epoch 9")" >"$E2E_OUT/nonces-lie"
	else
		e2e_model_ctl compromise epoch 9 >"$E2E_OUT/compromise.txt"
		: >"$E2E_OUT/nonces-lie"
	fi
	echo "lie $(open_session lie)" >>"$E2E_OUT/nonces-lie"
	e2e_tell_guest lie
	e2e_wait_guest attested-lie 60
	submit honest
	submit wrongnonce
	cp "$E2E_OUT/ev-flip.cose" "$E2E_OUT/ev-flip-bad.cose"
	n=$(stat -c %s "$E2E_OUT/ev-flip-bad.cose")
	# The last byte: the signature's.
	printf '\x55' | dd of="$E2E_OUT/ev-flip-bad.cose" bs=1 seek=$((n - 1)) conv=notrunc status=none
	submit flip "$E2E_OUT/ev-flip-bad.cose"
	head -c 200 "$E2E_OUT/ev-trunc.cose" >"$E2E_OUT/ev-trunc-bad.cose"
	submit trunc "$E2E_OUT/ev-trunc-bad.cose"
	submit lie
	# Every part of the device's evidence with a byte flipped (the bytes
	# evidence.sh flips, found by evidence_regions.py), each in a session
	# of the honest evidence's nonce.
	local at region honest_nonce
	honest_nonce=$(sed -n 's/^honest //p' "$E2E_OUT/nonces")
	/usr/bin/python3 "$E2E_ROOT/tests/interop/evidence_regions.py" "$E2E_OUT/ev-honest.cose" 151 \
		>"$E2E_OUT/regions"
	: >"$E2E_OUT/flips"
	while read -r at region; do
		cp "$E2E_OUT/ev-honest.cose" "$E2E_OUT/ev-byte$at.cose"
		printf "\\$(printf %03o $(($(od -An -tu1 -j "$at" -N1 "$E2E_OUT/ev-honest.cose") ^ 0xff)))" |
			dd of="$E2E_OUT/ev-byte$at.cose" bs=1 seek="$at" conv=notrunc status=none
		open_session "byte$at" "$honest_nonce" >/dev/null
		submit "byte$at"
		echo "byte$at $region" >>"$E2E_OUT/flips"
	done <"$E2E_OUT/regions"
	veraison stop "$E2E_RUN_DIR/veraison-A"
	# B also applies a policy (the scheme reads otattest-verify's file):
	# the device's ROM_EXT (SVN 2) is below its minimum.
	printf 'min_svn_rom_ext = 3\nallowed_lifecycle = prod\n' >"$E2E_OUT/policy-B"
	instance B ca.corim other-bl0.corim || e2e_fail "Veraison B did not start"
	open_session notlisted "$(sed -n 's/^notlisted //p' "$E2E_OUT/nonces")" >/dev/null
	submit notlisted
	veraison stop "$E2E_RUN_DIR/veraison-B"
	instance C other-ca.corim release.corim || e2e_fail "Veraison C did not start"
	open_session otherca "$(sed -n 's/^otherca //p' "$E2E_OUT/nonces")" >/dev/null
	submit otherca
	veraison stop "$E2E_RUN_DIR/veraison-C"
	e2e_tell_guest submitted
}

host_check() {
	local py311 arc
	py311=$(command -v python3.11) || e2e_fail "python3.11 with PyJWT is needed (scripts/deps.sh)"
	arc=$("$E2E_ROOT/scripts/arc-build.sh" --print-path) || e2e_fail "scripts/arc-build.sh failed"
	"$py311" "$E2E_ROOT/tests/e2e/scenarios/veraison-check.py" "$E2E_OUT" "$E2E_ROOT/build/otattest-verify" \
		"$arc" $VERAISON_CASES
}
