// SPDX-License-Identifier: MIT
/*
 * The SVN key chain (seed 002), see docs/keychain.md: ROM_EXT's part,
 * establishing or extending it for the BL0 that booted.
 *
 *   link(max) = KDF(device root, "otattest-svn-chain-top", epoch)
 *   link(s-1) = KDF(link(s), "otattest-svn-chain", s - 1)
 *   stable(s) = KDF_ECDSA(link(s), "otattest-stable-key", s)
 *
 * each KDF one SP 800-108r1 KMAC step in the key manager (label as the
 * customization string, the u32 LE value as context). The top depends on
 * the device secret, the ROM identity and the OTP epoch and on no firmware
 * measurement, so the keys are stable across updates and change with the
 * epoch. Holding link(s) yields every link below s and none above.
 *
 * Cold boot cranks from the top to the booted BL0 SVN: that is min-SVN-
 * since-cold-boot, and its link is parked in the retained vault. A later
 * reset to an older SVN cranks further down and lowers the minimum; to a
 * newer one nothing changes. A non-cold reset never goes back to the top,
 * although the root is available again: retention RAM the runtime could
 * have damaged must not be a way to raise the minimum, so without an
 * intact retained chain there is no chain until the next cold boot.
 */
#include <string.h>

#include "rom_ext.h"

static ota_status_t retain_link(hal_key_t link, uint32_t svn, struct ota_retention *r)
{
	ota_status_t st = hal_key_retain(link, OTA_RETAINED_KEY_CHAIN);

	hal_key_destroy(link);
	if (st != OTA_OK)
		return st;
	r->min_svn = svn;
	r->chain_valid = OTA_HARDENED_TRUE;
	return OTA_OK;
}

static ota_status_t from_top(const struct boot_ctx *b, uint32_t svn, struct ota_retention *r)
{
	hal_key_t root = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), top, link;
	uint8_t ctx[4];

	if (root == HAL_KEY_INVALID)
		return OTA_CHAIN_NOT_READY;
	boot_le32(ctx, b->otp.epoch);
	OTA_TRY(hal_keymgr_derive(root, OTA_CHAIN_TOP_LABEL, ctx, sizeof(ctx), 0, 0,
				  HAL_KEY_PURPOSE_KDF, &top));
	OTA_TRY(boot_keychain_crank(top, b->otp.chain_max_svn, svn, &link));
	return retain_link(link, svn, r);
}

ota_status_t rom_ext_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
				  struct ota_retention *r)
{
	hal_key_t link, lower;
	ota_status_t st;

	r->chain_valid = OTA_HARDENED_FALSE;
	if (bl0_svn > b->otp.chain_max_svn)
		return OTA_CHAIN_SVN_ABOVE_MAX; /* policy refuses such a BL0 first */
	if (b->reset_reason == OTA_RESET_COLD) {
		hal_key_retained_clear(OTA_RETAINED_KEY_CHAIN);
		r->min_svn = bl0_svn;
		return from_top(b, bl0_svn, r);
	}
	if (!b->ret_valid || b->ret.chain_valid != OTA_HARDENED_TRUE ||
	    hal_key_retained(OTA_RETAINED_KEY_CHAIN, &link) != OTA_OK) {
		hal_key_retained_clear(OTA_RETAINED_KEY_CHAIN);
		r->min_svn = b->ret_valid ? b->ret.min_svn : bl0_svn;
		return OTA_CHAIN_NOT_READY;
	}
	r->min_svn = b->ret.min_svn;
	if (bl0_svn >= b->ret.min_svn) {
		hal_key_destroy(link); /* newer or equal: the chain stays where it is */
		r->chain_valid = OTA_HARDENED_TRUE;
		return OTA_OK;
	}
	st = boot_keychain_crank(link, b->ret.min_svn, bl0_svn, &lower);
	if (st != OTA_OK) {
		hal_key_retained_clear(OTA_RETAINED_KEY_CHAIN);
		return st;
	}
	return retain_link(lower, bl0_svn, r);
}
