# SPDX-License-Identifier: MIT
# The factory line, host side (docs/otimage.md, "Personalization"): a
# device provisioned in test_unlocked boots personalization firmware on a
# model of its own; it hands out its identity CSR, the manufacturer CA signs
# it (otimage ca-sign), the certificate goes back, the fuse programmer moves
# the lifecycle on, and after a power cycle the device must serve that very
# certificate, chained to the CA. Then the production firmware goes in
# through the flash controller (the update agent's path) and the device
# leaves the factory unbooted on it. Sourced by tests/e2e/run.sh (for
# lib/provision.sh and scenarios/daemon-lib.bash); needs E2E_ROOT.
#
# e2e_personalize DIR LIFECYCLE ROM_EXT BL0_A BL0_B
#   DIR holds otp.img (provisioned in test_unlocked), flash-factory.img (the
#   personalization firmware, no identity certificate), ca.key and ca.pem;
#   ROM_EXT, BL0_A, BL0_B are the production images (paths in DIR).
#   Writes DIR/csr.der, DIR/identity.der (the certificate the device
#   accepted and serves), and DIR/otp.img and DIR/flash.img: the device's
#   own OTP and flash as it leaves the factory, in LIFECYCLE (dev, prod or
#   prod_end). Every step is logged to DIR/personalize.log; the device's
#   state directory is DIR/factory. Fails on the first step that fails.
#
# Why the device's own flash and why other firmware for personalization:
# the device's boot data is its own from its first boot on (authenticated,
# anchored in OTP), so no freshly packed flash image would be taken from
# then on; and its boots wrote tags for the firmware it ran, so the
# production images, never booted in the factory, boot first on the
# signature path - as a scenario's first boot expects.
e2e_personalize() {
	local dir=$1 lc=$2 rom_ext=$3 bl0_a=$4 bl0_b=$5 bin=$E2E_ROOT/build
	# Each step checks its own status: callers run this where set -e does not apply.
	(
		model=$bin/otattest-model peer=$bin/tests/model/model-peer dev=$dir/factory
		cd "$dir" || exit 1
		step() {
			echo "+ $*" >>personalize.log
			"$@" >>personalize.log 2>&1 ||
				{ echo "personalization: '${*:1:3}' failed (see $dir/personalize.log)" >&2; exit 1; }
		}
		ctl() { step "$model" ctl --state-dir="$dev" "$@"; }
		rm -rf "$dev" served
		mkdir -p served
		mapfile -t core < <(e2e_model_core_args)
		"$model" --state-dir="$dev" --load-otp=otp.img --load-flash=flash-factory.img \
			--no-fsync --log-level=warn "${core[@]}" >>personalize.log 2>&1 &
		pid=$!
		trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT
		for _ in $(seq 200); do
			"$model" ctl --state-dir="$dev" status >/dev/null 2>&1 && break
			kill -0 "$pid" 2>/dev/null ||
				{ echo "personalization: the factory's model exited (see $dir/personalize.log)" >&2; exit 1; }
			sleep 0.05
		done
		step "$peer" --state-dir="$dev" call get-identity-csr --out=csr.der
		step "$bin/otimage" ca-sign --force --csr csr.der --ca-key ca.key --ca-cert ca.pem \
			--out identity.der
		step "$peer" --state-dir="$dev" call set-identity-cert identity.der
		ctl otp lifecycle "$lc"
		ctl power-cycle
		step "$peer" --state-dir="$dev" certs served
		step cmp served/identity.der identity.der
		step openssl x509 -inform der -in identity.der -out served/identity.pem
		step openssl x509 -inform der -in served/alias.der -out served/alias.pem
		step openssl verify -CAfile ca.pem -untrusted served/identity.pem served/alias.pem
		ctl install rom_ext a "$dir/$rom_ext"
		ctl install rom_ext b "$dir/$rom_ext"
		ctl install bl0 a "$dir/$bl0_a"
		ctl install bl0 b "$dir/$bl0_b"
		ctl stop
		wait "$pid" || { echo "personalization: the factory's model did not stop cleanly" >&2; exit 1; }
		trap - EXIT
		cp "$dev/otp.bin" otp.img && cp "$dev/flash.bin" flash.img
	)
}
