// SPDX-License-Identifier: MIT
/*
 * Decoding the OTP image. HW_CFG and SECRET are locked by digests at
 * provisioning; COUNTERS only ever gain bits, so they carry no digest and
 * are instead checked to be well-formed thermometer codes and revocation
 * words.
 */
#include <string.h>

#include "otattest/keys.h"
#include "otattest/otp.h"
#include "otattest/sha256.h"

OTA_STATIC_ASSERT(offsetof(struct ota_otp, device_id) == OTA_OTP_HW_CFG_START, "hw_cfg start");
OTA_STATIC_ASSERT(offsetof(struct ota_otp, hw_cfg_digest) == OTA_OTP_HW_CFG_END, "hw_cfg end");
OTA_STATIC_ASSERT(offsetof(struct ota_otp, device_secret) == OTA_OTP_SECRET_START, "secret");
OTA_STATIC_ASSERT(offsetof(struct ota_otp, secret_digest) == OTA_OTP_SECRET_END, "secret end");
OTA_STATIC_ASSERT(offsetof(struct ota_otp, creator_key_revoked) == OTA_OTP_COUNTERS_START,
		  "counters");

static const uint32_t lc_encodings[OTA_LC_COUNT] = {
	[OTA_LC_TEST_UNLOCKED] = OTA_OTP_LC_TEST_UNLOCKED,
	[OTA_LC_DEV] = OTA_OTP_LC_DEV,
	[OTA_LC_PROD] = OTA_OTP_LC_PROD,
	[OTA_LC_PROD_END] = OTA_OTP_LC_PROD_END,
	[OTA_LC_RMA] = OTA_OTP_LC_RMA,
};

bool ota_otp_lifecycle_index(uint32_t encoding, uint32_t *index)
{
	uint32_t i;

	for (i = 0; i < OTA_LC_COUNT; i++) {
		if (lc_encodings[i] == encoding) {
			*index = i;
			return true;
		}
	}
	return false;
}

uint32_t ota_otp_lifecycle_encoding(uint32_t index)
{
	return index < OTA_LC_COUNT ? lc_encodings[index] : 0;
}

/* Where manufacturing may hand a device over to (RMA is not an exit from it). */
static bool manufacturing_exit(uint32_t to)
{
	return to == OTA_LC_DEV || to == OTA_LC_PROD || to == OTA_LC_PROD_END;
}

/* The state in effect: HW_CFG's, or the one lifecycle_transition moved it to. */
static ota_status_t lifecycle_in_effect(uint32_t lifecycle, uint32_t transition, uint32_t *index)
{
	uint32_t to;

	if (!ota_otp_lifecycle_index(lifecycle, index))
		return OTA_OTP_BAD_LIFECYCLE;
	if (transition == 0)
		return OTA_OK;
	/* A partly programmed or glitched word is no state at all: fail closed. */
	if (*index != OTA_LC_TEST_UNLOCKED || !ota_otp_lifecycle_index(transition, &to) ||
	    !manufacturing_exit(to))
		return OTA_OTP_BAD_LIFECYCLE;
	*index = to;
	return OTA_OK;
}

ota_status_t ota_otp_lifecycle_move(uint32_t lifecycle, uint32_t transition, uint32_t to,
				    uint32_t *transition_out)
{
	uint32_t now;

	OTA_TRY(lifecycle_in_effect(lifecycle, transition, &now));
	*transition_out = transition;
	if (now == to)
		return OTA_OK;
	if (now != OTA_LC_TEST_UNLOCKED || !manufacturing_exit(to))
		return OTA_OTP_LIFECYCLE_TRANSITION;
	*transition_out = ota_otp_lifecycle_encoding(to);
	return OTA_OK;
}

static ota_status_t creator_keys_check(const struct ota_otp *otp)
{
	uint32_t i, j;

	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++) {
		const struct ota_root_key *k = &otp->creator_keys[i];

		if (ota_root_key_empty(k))
			continue;
		if (!ota_root_key_valid(k))
			return OTA_OTP_BAD_KEY_SLOT;
		for (j = 0; j < i; j++)
			if (!ota_root_key_empty(&otp->creator_keys[j]) &&
			    memcmp(k->ecdsa_pubkey, otp->creator_keys[j].ecdsa_pubkey,
				   sizeof(k->ecdsa_pubkey)) == 0)
				return OTA_OTP_BAD_KEY_SLOT;
	}
	return OTA_OK;
}

ota_status_t ota_otp_decode(const struct ota_otp *otp, struct ota_otp_info *out)
{
	struct ota_otp_info info;
	uint8_t digest[OTA_SHA256_BYTES];
	uint32_t i;

	memset(&info, 0, sizeof(info));
	if (otp->magic != OTA_OTP_MAGIC)
		return OTA_OTP_BAD_MAGIC;
	if (otp->version != OTA_OTP_VERSION)
		return OTA_OTP_BAD_VERSION;
	if (otp->size != sizeof(*otp))
		return OTA_OTP_BAD_SIZE;
	ota_sha256((const uint8_t *)otp + OTA_OTP_HW_CFG_START,
		   OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, digest);
	if (!ota_ct_equal(digest, otp->hw_cfg_digest, sizeof(digest)))
		return OTA_OTP_DIGEST_MISMATCH;
	if (otp->reserved0 != 0 || !ota_all_zero(otp->reserved, sizeof(otp->reserved)))
		return OTA_OTP_RESERVED_NONZERO;
	OTA_TRY(lifecycle_in_effect(otp->lifecycle, otp->lifecycle_transition, &info.lifecycle));
	if (otp->features & ~OTA_OTP_F_ALL)
		return OTA_OTP_BAD_FEATURES;
	if (otp->chain_max_svn < 1 || otp->chain_max_svn > OTA_SVN_LIMIT)
		return OTA_OTP_BAD_FIELD;
	OTA_TRY(creator_keys_check(otp));
	OTA_TRY(ota_thermometer_decode(otp->epoch, sizeof(otp->epoch), &info.epoch));
	OTA_TRY(ota_thermometer_decode(otp->floor_rom_ext, sizeof(otp->floor_rom_ext),
				       &info.floor_rom_ext));
	OTA_TRY(ota_thermometer_decode(otp->floor_bl0, sizeof(otp->floor_bl0), &info.floor_bl0));
	OTA_TRY(ota_thermometer_decode(otp->boot_data_anchor, sizeof(otp->boot_data_anchor),
				       &info.boot_data_anchor));
	OTA_TRY(ota_thermometer_decode(otp->tag_key_version, sizeof(otp->tag_key_version),
				       &info.tag_key_version));
	OTA_TRY(ota_thermometer_decode(otp->revocation_seq, sizeof(otp->revocation_seq),
				       &info.revocation_seq));
	OTA_TRY(ota_thermometer_decode(otp->revocation_seq_device,
				       sizeof(otp->revocation_seq_device),
				       &info.revocation_seq_device));
	OTA_TRY(ota_thermometer_decode(otp->revocation_seq_owner, sizeof(otp->revocation_seq_owner),
				       &info.revocation_seq_owner));
	OTA_TRY(ota_thermometer_decode(otp->revocation_seq_owner_device,
				       sizeof(otp->revocation_seq_owner_device),
				       &info.revocation_seq_owner_device));
	OTA_TRY(ota_thermometer_decode(otp->identity_version, sizeof(otp->identity_version),
				       &info.identity_version));

	info.features = otp->features;
	info.chain_max_svn = otp->chain_max_svn;
	memcpy(info.device_id, otp->device_id, sizeof(info.device_id));
	memcpy(info.owner_config_digest, otp->owner_config_digest,
	       sizeof(info.owner_config_digest));
	memcpy(info.creator_keys, otp->creator_keys, sizeof(info.creator_keys));
	/*
	 * Revocation fails safe: a word that is neither zero nor the REVOKED
	 * value (a partly programmed or glitched word) counts as revoked.
	 */
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++)
		info.creator_key_revoked[i] = otp->creator_key_revoked[i] != 0;
	for (i = 0; i < 4u; i++)
		info.owner_key_revoked[i] = otp->owner_key_revoked[i] != 0;
	*out = info;
	return OTA_OK;
}

ota_status_t ota_otp_secret_check(const struct ota_otp *otp)
{
	uint8_t digest[OTA_SHA256_BYTES];

	ota_sha256(otp->device_secret, sizeof(otp->device_secret), digest);
	return ota_ct_equal(digest, otp->secret_digest, sizeof(digest)) ? OTA_OK
									: OTA_OTP_DIGEST_MISMATCH;
}
