// SPDX-License-Identifier: MIT
/*
 * Building OTP images and programming their counters. Provisioning seals
 * HW_CFG and SECRET with their digests; afterwards only the COUNTERS
 * partition changes, and only by setting bits, exactly as fuses do.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include <otattest/sha256.h>

#include "otimage.h"
#include "otimage_internal.h"

static ota_status_t decode_diag(const struct ota_otp *otp, struct oti_diag *d)
{
	struct ota_otp_info info;
	ota_status_t st = ota_otp_decode(otp, &info);

	OPENSSL_cleanse(&info, sizeof(info));
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	return OTA_OK;
}

ota_status_t oti_otp_build(const struct oti_otp_params *p, struct ota_otp *out,
			   struct oti_diag *d)
{
	uint32_t lc, i;

	memset(out, 0, sizeof(*out));
	lc = ota_otp_lifecycle_encoding(p->lifecycle);
	if (!lc)
		return oti_diag_set(d, OTA_OTP_BAD_LIFECYCLE, NULL, "--lifecycle", NULL);
	if (p->creator_key_count > OTA_OTP_CREATOR_KEYS)
		return oti_diag_set(d, OTA_TOOL_TOO_MANY_KEYS, NULL, "--creator-key",
				    "at most %u creator keys", OTA_OTP_CREATOR_KEYS);
	if (p->epoch > OTA_OTP_EPOCH_BITS)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--epoch", "0..%u",
				    OTA_OTP_EPOCH_BITS);
	if (p->floor_rom_ext > OTA_SVN_LIMIT || p->floor_bl0 > OTA_SVN_LIMIT)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--floor", "0..%u", OTA_SVN_LIMIT);

	out->magic = OTA_OTP_MAGIC;
	out->version = OTA_OTP_VERSION;
	out->size = sizeof(*out);
	memcpy(out->device_id, p->device_id, sizeof(out->device_id));
	out->lifecycle = lc;
	out->features = p->features;
	out->chain_max_svn = p->chain_max_svn ? p->chain_max_svn : OTA_CHAIN_DEFAULT_MAX_SVN;
	memcpy(out->owner_config_digest, p->owner_config_digest, sizeof(out->owner_config_digest));
	memcpy(out->creator_keys, p->creator_keys, p->creator_key_count * sizeof(p->creator_keys[0]));
	ota_sha256((const uint8_t *)out + OTA_OTP_HW_CFG_START,
		   OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, out->hw_cfg_digest);
	memcpy(out->device_secret, p->device_secret, sizeof(out->device_secret));
	ota_sha256(out->device_secret, sizeof(out->device_secret), out->secret_digest);
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++)
		out->creator_key_revoked[i] = p->creator_key_revoked[i] ? OTA_OTP_REVOKED : 0;
	for (i = 0; i < 4; i++)
		out->owner_key_revoked[i] = p->owner_key_revoked[i] ? OTA_OTP_REVOKED : 0;
	ota_thermometer_encode(out->epoch, sizeof(out->epoch), p->epoch);
	ota_thermometer_encode(out->floor_rom_ext, sizeof(out->floor_rom_ext), p->floor_rom_ext);
	ota_thermometer_encode(out->floor_bl0, sizeof(out->floor_bl0), p->floor_bl0);
	return decode_diag(out, d);
}

ota_status_t oti_otp_program_check(const struct ota_otp *prev, const struct ota_otp *next)
{
	const uint8_t *a = (const uint8_t *)prev, *b = (const uint8_t *)next;
	size_t i;

	for (i = 0; i < sizeof(*prev); i++)
		if (a[i] & ~b[i])
			return OTA_OTP_CLEARS_BITS;
	return OTA_OK;
}

/* Commit `next` over *otp only if it is a valid OR-only successor. */
static ota_status_t program(struct ota_otp *otp, const struct ota_otp *next)
{
	struct ota_otp_info info;
	ota_status_t st;

	OTA_TRY(oti_otp_program_check(otp, next));
	st = ota_otp_decode(next, &info);
	OPENSSL_cleanse(&info, sizeof(info));
	if (st != OTA_OK)
		return st;
	*otp = *next;
	return OTA_OK;
}

ota_status_t oti_otp_raise_floor(struct ota_otp *otp, uint32_t stage, uint32_t floor)
{
	struct ota_otp next = *otp;
	uint8_t *bits;
	uint32_t cur;
	ota_status_t st;

	if (stage != OTA_STAGE_ROM_EXT && stage != OTA_STAGE_BL0)
		return OTA_TOOL_BAD_VALUE;
	if (floor > OTA_SVN_LIMIT)
		return OTA_SVN_ABOVE_MAX;
	bits = stage == OTA_STAGE_ROM_EXT ? next.floor_rom_ext : next.floor_bl0;
	OTA_TRY(ota_thermometer_decode(bits, OTA_OTP_FLOOR_BITS / 8, &cur));
	if (floor < cur)
		return OTA_OTP_CLEARS_BITS;
	ota_thermometer_encode(bits, OTA_OTP_FLOOR_BITS / 8, floor);
	st = program(otp, &next);
	OPENSSL_cleanse(&next, sizeof(next));
	return st;
}

ota_status_t oti_otp_bump_epoch(struct ota_otp *otp, uint32_t *new_epoch)
{
	struct ota_otp next = *otp;
	uint32_t cur;
	ota_status_t st;

	OTA_TRY(ota_thermometer_decode(next.epoch, sizeof(next.epoch), &cur));
	if (cur >= OTA_OTP_EPOCH_BITS)
		return OTA_TOOL_TOO_LARGE;
	ota_thermometer_encode(next.epoch, sizeof(next.epoch), cur + 1);
	st = program(otp, &next);
	OPENSSL_cleanse(&next, sizeof(next));
	if (st == OTA_OK && new_epoch)
		*new_epoch = cur + 1;
	return st;
}

ota_status_t oti_otp_revoke(struct ota_otp *otp, bool owner, uint32_t index)
{
	struct ota_otp next = *otp;
	uint32_t *w;
	ota_status_t st;

	if (index >= (owner ? 4u : OTA_OTP_CREATOR_KEYS))
		return OTA_TOOL_BAD_VALUE;
	w = owner ? &next.owner_key_revoked[index] : &next.creator_key_revoked[index];
	/* OR, like a fuse: a partly programmed word still only gains bits. */
	*w |= OTA_OTP_REVOKED;
	st = program(otp, &next);
	OPENSSL_cleanse(&next, sizeof(next));
	return st;
}

ota_status_t oti_otp_set_lifecycle(struct ota_otp *otp, uint32_t lifecycle)
{
	struct ota_otp next = *otp;
	ota_status_t st;

	OTA_TRY(ota_otp_lifecycle_move(otp->lifecycle, otp->lifecycle_transition, lifecycle,
				       &next.lifecycle_transition));
	st = program(otp, &next);
	OPENSSL_cleanse(&next, sizeof(next));
	return st;
}

ota_status_t oti_otp_load(const char *path, struct ota_otp *out, struct oti_diag *d)
{
	uint8_t *buf;
	size_t len;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	st = oti_file_read(path, OTI_MAX_SMALL_FILE, &buf, &len, d);
	if (st != OTA_OK)
		return st;
	if (len != sizeof(*out)) {
		OPENSSL_cleanse(buf, len);
		free(buf);
		return oti_diag_set(d, len < sizeof(*out) ? OTA_OTP_TRUNCATED : OTA_OTP_BAD_SIZE, path,
				    "otp", "%zu bytes, an OTP image is %zu", len, sizeof(*out));
	}
	memcpy(out, buf, sizeof(*out));
	OPENSSL_cleanse(buf, len);
	free(buf);
	st = decode_diag(out, d);
	if (st == OTA_OK && ota_otp_secret_check(out) != OTA_OK)
		st = oti_diag_set(d, OTA_OTP_DIGEST_MISMATCH, NULL, "otp.secret_digest", NULL);
	if (st != OTA_OK) {
		OPENSSL_cleanse(out, sizeof(*out));
		oti_diag_set(d, st, path, NULL, NULL);
	}
	return st;
}
