// SPDX-License-Identifier: MIT
/*
 * The stable key of an SVN (docs/keychain.md): stable(s) =
 * KDF_ECDSA(link(s), "otattest-stable-key", s), with link(s) stepped down
 * from the retained link of min SVN. The minimum comes from this boot's
 * state as ROM_EXT handed it over, never from retention RAM, which the
 * runtime itself can write.
 */
#include "runtime.h"

ota_status_t ota_keychain_stable_key(uint32_t svn, hal_key_t *out)
{
	const struct ota_boot_state *bs = ota_boot_state();
	hal_key_t link, at;
	uint8_t ctx[4];
	ota_status_t st;

	if (!out)
		return OTA_HAL_BAD_ARGUMENT;
	*out = HAL_KEY_INVALID;
	if (!bs || bs->boot_status != OTA_OK || bs->chain_status != OTA_OK)
		return OTA_CHAIN_NOT_READY;
	if (svn > bs->otp.chain_max_svn)
		return OTA_CHAIN_SVN_ABOVE_MAX;
	/* The minimum from this boot's RAM state, not from retention the runtime can write. */
	if (svn > bs->min_svn)
		return OTA_CHAIN_SVN_ABOVE_MIN;
	if (hal_key_retained(OTA_RETAINED_KEY_CHAIN, &link) != OTA_OK)
		return OTA_CHAIN_NOT_READY;
	OTA_TRY(boot_keychain_crank(link, bs->min_svn, svn, &at));
	boot_le32(ctx, svn);
	st = hal_keymgr_derive(at, OTA_STABLE_KEY_LABEL, ctx, sizeof(ctx), 0, 0,
			       HAL_KEY_PURPOSE_SIGN, out);
	hal_key_destroy(at);
	return st;
}
