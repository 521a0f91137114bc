# SPDX-License-Identifier: MIT
# A provisioned device for scenarios with E2E_PROVISION=1, made with otimage
# the way an operator would (docs/otimage.md) and personalized the way a
# factory does (lib/personalize.sh). Host side.
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
#   rom_ext-perso.img, bl0-perso.img, flash-factory.img: the personalization
#   firmware and the flash it runs from (no identity certificate),
#   csr.der and identity.der (the device's request, the CA's certificate),
#   otp.img, flash.img: the personalized device as it leaves the factory,
#   in dev, the images above in its slots (for --load-otp / --load-flash)
# and the log of every command in DIR/provision.log. Fails on the first
# command that fails.
e2e_provision() {
	local dir=$1 otimage=$E2E_ROOT/build/otimage i salt
	mkdir -p "$dir"
	(
		cd "$dir" || exit 1
		step() {
			echo "+ otimage $*" >>provision.log
			"$otimage" "$@" >>provision.log 2>&1 ||
				{ echo "otimage $1 failed (see $dir/provision.log)" >&2; exit 1; }
		}
		# Opaque code bytes the host build measures and never runs, or
		# with E2E_CORE=rv32 the real builds (lib/model.sh, e2e_code),
		# salted so that each image is its own.
		for i in rom_ext bl0-a bl0-b bl0-v2 rom_ext-perso bl0-perso; do
			e2e_code "$i" >"$i.code"
		done
		salt=()
		[ "${E2E_CORE:-host}" = rv32 ] && salt=(--salt random)
		for i in creator owner signer stranger; do
			step keygen --out "$i.key" --pub "$i.pub"
		done
		step delegate --parent-key owner.key --delegate-pub signer.pub --type leaf \
			--svn-min 1 --svn-max 20 --out signer.cert
		step sign --key creator.key --stage rom_ext --svn 1 --payload rom_ext.code "${salt[@]}" --out rom_ext.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 1 --payload bl0-a.code "${salt[@]}" --out bl0-a.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 1 --payload bl0-b.code "${salt[@]}" --out bl0-b.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 2 --payload bl0-v2.code "${salt[@]}" --out bl0-v2.img
		step sign --key stranger.key --stage bl0 --svn 3 --payload bl0-v2.code --out bl0-untrusted.img
		step sign --key creator.key --stage rom_ext --svn 1 --payload rom_ext-perso.code \
			"${salt[@]}" --out rom_ext-perso.img
		step sign --key signer.key --cert signer.cert --stage bl0 --svn 1 \
			--payload bl0-perso.code "${salt[@]}" --out bl0-perso.img
		step owner-config --key owner.pub --out owner.cfg
		step ca --key ca.key --cert ca.pem
		step provision --out otp.img --creator-key creator.pub --owner-config owner.cfg \
			--lifecycle test_unlocked
		step pack --out flash-factory.img --rom-ext-a rom_ext-perso.img \
			--bl0-a bl0-perso.img --owner-config owner.cfg
		e2e_personalize "$dir" dev rom_ext.img bl0-a.img bl0-b.img || exit 1
	)
}
