// SPDX-License-Identifier: MIT
/*
 * ota_runtime_prepare: the last thing ROM_EXT does with the device root
 * before the key manager moves to RUNTIME. DICE-style layering: the
 * identity key (root only: stable across updates) certifies an alias key
 * derived from the root and the measurements of the code that booted, so
 * the alias key - and every evidence signature - exists only for this
 * exact ROM_EXT and BL0. In the manufacturing lifecycle state the
 * identity key also signs its own certificate request (identity_csr.c).
 * The identity key handle is destroyed before returning: the runtime can
 * never certify another key nor sign another request.
 */
#include <string.h>

#include "rom_ext.h"

static ota_status_t derive_p256(hal_key_t root, const char *label, const uint8_t *ctx,
				uint32_t ctx_len, uint32_t version, hal_key_t *key,
				uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	ota_status_t st;

	*key = HAL_KEY_INVALID;
	st = hal_keymgr_derive(root, label, ctx, ctx_len, version, version, HAL_KEY_PURPOSE_SIGN,
			       key);
	if (st != OTA_OK)
		return st;
	st = hal_ecdsa_pubkey(*key, pub);
	if (st != OTA_OK) {
		hal_key_destroy(*key);
		*key = HAL_KEY_INVALID;
	}
	return st;
}

/*
 * The attempt the record shows booting `stage`: exactly one, accepted,
 * with the SVN and measurement the alias key is derived from. NULL when
 * the record says otherwise - then the certificate would certify results
 * that are not this boot's, and ROM_EXT issues none.
 */
static const struct ota_stage_record *booted_attempt(const struct ota_record *r, uint32_t stage,
						     uint32_t svn, const uint8_t *measurement)
{
	const struct ota_stage_record *found = NULL;
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++) {
		const struct ota_stage_record *s = &r->stage[i];

		if (s->stage != stage || !(s->flags & OTA_STAGE_F_BOOTED))
			continue;
		if (found != NULL || s->status != OTA_OK || s->security_version != svn ||
		    memcmp(s->measurement, measurement, OTA_SHA256_BYTES) != 0)
			return NULL;
		found = s;
	}
	return found;
}

/*
 * The identity certificate and the hand-overs that lead from the identity
 * it certifies to this boot's (keychain.md): the log's chain to the
 * identity in force, cut where the certificate in flash certifies a key of
 * it (the CA may have certified a later identity too). No chain: the
 * certificate must certify this identity, as before hand-overs existed.
 */
static void identity_chain_load(const struct ota_boot_state *bs, struct ota_runtime *rt)
{
	struct ota_flash_layout layout;
	uint32_t n = 0, k;

	if (hal_flash_read(0, &layout, sizeof(layout)) == OTA_OK &&
	    ota_flash_layout_check(&layout, hal_flash_size()) == OTA_OK)
		n = boot_identity_chain(&layout, rt->identity_pubkey, bs->otp.identity_version,
					rt->handover);
	for (k = 0; k <= n; k++) {
		const uint8_t *key = k < n ? rt->handover[k].from_pubkey : rt->identity_pubkey;

		rt->identity_cert_status = ota_identity_cert_load(key, rt->identity_cert,
								  sizeof(rt->identity_cert),
								  &rt->identity_cert_len);
		if (rt->identity_cert_status != OTA_RUNTIME_IDCERT_MISMATCH)
			break;
	}
	if (rt->identity_cert_status != OTA_OK || k > n) {
		rt->identity_cert_len = 0;
		rt->handover_count = 0;
		return;
	}
	memmove(rt->handover, rt->handover + k, (n - k) * sizeof(rt->handover[0]));
	rt->handover_count = n - k;
}

ota_status_t ota_runtime_prepare(const struct ota_boot_state *bs)
{
	struct ota_runtime *rt = &ota_rt;
	uint8_t ctx[OTA_ALIAS_CONTEXT_BYTES];
	struct ota_alias_cert_params cp;
	struct ota_update_claims update;
	hal_key_t root, identity, alias;
	ota_status_t st;

	/* Nothing of the previous boot survives into this one. */
	memset(rt, 0, sizeof(*rt));
	rt->valid = OTA_HARDENED_FALSE;
	hal_key_retained_clear(OTA_RETAINED_KEY_ALIAS);

	if (bs == NULL || bs->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	root = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	if (root == HAL_KEY_INVALID)
		return OTA_HAL_BAD_HANDLE;

	/* At the identity version OTP holds: the key manager derives it at no other (handover.h). */
	st = derive_p256(root, OTA_IDENTITY_LABEL, NULL, 0, bs->otp.identity_version, &identity,
			 rt->identity_pubkey);
	if (st != OTA_OK)
		return st;
	/* In manufacturing, the identity key's certificate request (identity_csr.c). */
	rom_ext_identity_csr_prepare(bs, identity, rt);

	memcpy(ctx, bs->rom_ext_measurement, OTA_SHA256_BYTES);
	memcpy(ctx + OTA_SHA256_BYTES, bs->bl0_measurement, OTA_SHA256_BYTES);
	st = derive_p256(root, OTA_ALIAS_LABEL, ctx, sizeof(ctx), 0, &alias, rt->alias_pubkey);
	if (st != OTA_OK) {
		hal_key_destroy(identity);
		return st;
	}

	memset(&cp, 0, sizeof(cp));
	cp.device_id = bs->otp.device_id;
	cp.subject_pubkey = rt->alias_pubkey;
	cp.issuer_pubkey = rt->identity_pubkey;
	/* What the certificate certifies comes from the record ROM and ROM_EXT wrote. */
	cp.device = &bs->record.hdr;
	/* The update section ROM_EXT filled before this (rom_ext.c), never the runtime's. */
	ota_update_claims_of(&bs->record, &update);
	cp.update = &update;
	cp.booted[0] = booted_attempt(&bs->record, OTA_STAGE_ROM_EXT, bs->rom_ext_svn,
				      bs->rom_ext_measurement);
	cp.booted[1] = booted_attempt(&bs->record, OTA_STAGE_BL0, bs->bl0_svn, bs->bl0_measurement);
	cp.booted_count = 2;
	st = OTA_RECORD_BAD_FIELD;
	if (cp.booted[0] != NULL && cp.booted[1] != NULL)
		st = ota_alias_cert_build(&cp, identity, rt->alias_cert, sizeof(rt->alias_cert),
					  &rt->alias_cert_len);
	/* The identity key has done its jobs, whatever the outcome. */
	hal_key_destroy(identity);
	if (st == OTA_OK)
		st = hal_key_retain(alias, OTA_RETAINED_KEY_ALIAS);
	hal_key_destroy(alias);
	if (st != OTA_OK) {
		hal_key_retained_clear(OTA_RETAINED_KEY_ALIAS);
		rt->alias_cert_len = 0;
		return st;
	}

	identity_chain_load(bs, rt);

	memcpy(rt->rom_ext_measurement, bs->rom_ext_measurement, OTA_SHA256_BYTES);
	memcpy(rt->bl0_measurement, bs->bl0_measurement, OTA_SHA256_BYTES);
	rt->valid = OTA_HARDENED_TRUE;
	return OTA_OK;
}
