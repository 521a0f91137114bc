// SPDX-License-Identifier: MIT
/*
 * The SVN key chain's one-way step (seed 002, docs/keychain.md):
 *
 *   link(s-1) = KDF(link(s), "otattest-svn-chain", s - 1)
 *
 * one SP 800-108r1 KMAC step in the key manager. Holding link(s) yields
 * every link below s and none above. ROM_EXT steps down when an update
 * reset boots an older SVN; the runtime steps down to the SVN a stable key
 * is asked for.
 */
#include "fwlib.h"

ota_status_t boot_keychain_crank(hal_key_t link, uint32_t from, uint32_t to, hal_key_t *out)
{
	uint8_t ctx[4];
	hal_key_t next;
	ota_status_t st;

	*out = HAL_KEY_INVALID;
	if (to > from) {
		hal_key_destroy(link);
		return OTA_CHAIN_SVN_ABOVE_MIN;
	}
	while (from > to) {
		from--;
		boot_le32(ctx, from);
		st = hal_keymgr_derive(link, OTA_CHAIN_LINK_LABEL, ctx, sizeof(ctx), 0, 0,
				       HAL_KEY_PURPOSE_KDF, &next);
		hal_key_destroy(link);
		if (st != OTA_OK)
			return st;
		link = next;
	}
	*out = link;
	return OTA_OK;
}
