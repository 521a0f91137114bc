# SPDX-License-Identifier: MIT
# A provisioned device for scenarios with E2E_PROVISION=1, made with otimage
# the way an operator would (docs/otimage.md). Host side.
#
# e2e_provision DIR writes into DIR:
#   creator.key/.pub  ROM_EXT signing root (in OTP)
#   owner.key/.pub    owner root (in the owner config)
#   signer.key/.pub, signer.cert   a leaf delegate of the owner, SVN 1..20
#   rom_ext.img       ROM_EXT, SVN 1, signed by the creator key
#   bl0-a.img, bl0-b.img   BL0 SVN 1 for both slots, signed by the delegate
#   bl0-v2.img        BL0 SVN 2 (an update to install with the model's
#                     'install bl0 b' and take with an update reset)
#   bl0-untrusted.img BL0 signed by a key the device does not trust
#   owner.cfg, ca.key, ca.pem (the manufacturer CA: otattest-verify --ca),
#   identity.der, otp.img, flash.img (for --load-otp / --load-flash)
# and the log of every command in DIR/provision.log. Fails on the first
# command that fails.
e2e_provision() {
	local dir=$1 otimage=$E2E_ROOT/build/otimage i
	mkdir -p "$dir"
	(
		cd "$dir" || exit 1
		step() {
			echo "+ otimage $*" >>provision.log
			"$otimage" "$@" >>provision.log 2>&1 ||
				{ echo "otimage $1 failed (see $dir/provision.log)" >&2; exit 1; }
		}
		# Opaque code bytes: the model measures them, it never runs them.
		for i in rom_ext bl0-a bl0-b bl0-v2; do
			seq 1 64 | sed "s/^/$i code line /" >"$i.code"
		done
		for i in creator owner signer stranger; do
			step keygen --out "$i.key" --pub "$i.pub"
		done
		step delegate --parent-key owner.key --delegate-pub signer.pub --type leaf \
			--svn-min 1 --svn-max 20 --out signer.cert
		step sign --key creator.key --stage rom_ext --svn 1 --payload rom_ext.code --out rom_ext.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 1 --payload bl0-a.code --out bl0-a.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 1 --payload bl0-b.code --out bl0-b.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 2 --payload bl0-v2.code --out bl0-v2.img
		step sign --key stranger.key --stage bl0 --svn 3 --payload bl0-v2.code --out bl0-untrusted.img
		step owner-config --key owner.pub --out owner.cfg
		step ca --key ca.key --cert ca.pem
		step provision --out otp.img --creator-key creator.pub --owner-config owner.cfg \
			--lifecycle dev --ca-key ca.key --ca-cert ca.pem --identity-cert identity.der
		step pack --out flash.img --rom-ext-a rom_ext.img --rom-ext-b rom_ext.img \
			--bl0-a bl0-a.img --bl0-b bl0-b.img --owner-config owner.cfg \
			--identity-cert identity.der
	)
}
