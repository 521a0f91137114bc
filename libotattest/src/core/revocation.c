// SPDX-License-Identifier: MIT
/*
 * Field revocation commands (revocation.h): the one check of a command
 * against a device, run by the runtime before it asks for the reset and
 * by ROM_EXT before it programs OTP, and by otimage's tests. Everything
 * in the command is hostile until it passed: the fields are checked
 * before anything is looked up, the signer is found by the key id the
 * command names among this device's own keys, and nothing is applied
 * here - the caller programs OTP only after OTA_OK.
 */
#include <string.h>

#include "otattest/keys.h"
#include "otattest/sha256.h"
#include "otattest/slhdsa.h"
#include "otattest/stage_check.h"

void ota_revocation_digest(const struct ota_revocation *r, uint8_t out[OTA_SHA256_BYTES])
{
	struct ota_sha256 c;

	ota_sha256_init(&c);
	ota_sha256_update(&c, OTA_REVOCATION_DOMAIN, sizeof(OTA_REVOCATION_DOMAIN) - 1u);
	ota_sha256_update(&c, r, OTA_REVOCATION_SIGNED_BYTES);
	ota_sha256_final(&c, out);
}

uint32_t ota_revocation_series(const struct ota_revocation *r, const struct ota_otp_info *otp,
			       bool creator)
{
	bool fleet = ota_all_zero(r->device_id, OTA_DEVICE_ID_BYTES);

	if (creator)
		return fleet ? otp->revocation_seq : otp->revocation_seq_device;
	return fleet ? otp->revocation_seq_owner : otp->revocation_seq_owner_device;
}

/* Header, action, target and value as the format defines them; hybrid: version 2 came whole. */
static ota_status_t fields(const struct ota_revocation *r, bool hybrid)
{
	if (r->magic != OTA_REVOCATION_MAGIC)
		return OTA_REVOKE_MALFORMED;
	if (hybrid ? r->version != OTA_REVOCATION_VERSION_HYBRID ||
			     r->size != sizeof(struct ota_revocation_hybrid)
		   : r->version != OTA_REVOCATION_VERSION || r->size != sizeof(*r))
		return OTA_REVOKE_MALFORMED;
	if (!ota_all_zero(r->reserved, sizeof(r->reserved)))
		return OTA_MBOX_RESERVED_NONZERO;
	switch (r->action) {
	case OTA_REVOKE_RAISE_FLOOR:
		if (r->target != OTA_STAGE_ROM_EXT && r->target != OTA_STAGE_BL0)
			return OTA_REVOKE_MALFORMED;
		return r->value <= OTA_SVN_LIMIT ? OTA_OK : OTA_REVOKE_MALFORMED;
	case OTA_REVOKE_CREATOR_KEY:
	case OTA_REVOKE_OWNER_KEY:
		return r->target < OTA_OTP_CREATOR_KEYS && r->value == 0 ? OTA_OK
									 : OTA_REVOKE_MALFORMED;
	case OTA_REVOKE_BUMP_EPOCH:
		return r->target == 0 && r->value <= OTA_OTP_EPOCH_BITS ? OTA_OK
									: OTA_REVOKE_MALFORMED;
	}
	return OTA_REVOKE_MALFORMED;
}

/* The signing key among one set of anchors: usable as a stage would use it. */
static const struct ota_root_key *signer_in(const struct ota_anchors *a, const uint8_t *id)
{
	uint32_t i;

	if (a == NULL)
		return NULL;
	for (i = 0; i < a->count; i++)
		if (memcmp(a->key_ids[i], id, OTA_KEY_ID_BYTES) == 0 && !a->revoked[i] &&
		    ((a->keys[i].lifecycle_mask >> a->lifecycle) & 1u))
			return &a->keys[i];
	return NULL;
}

/* The change the command makes: something not yet in force, and the device still boots. */
static ota_status_t effect(const struct ota_revocation *r, const struct ota_revocation_facts *f)
{
	const struct ota_otp_info *otp = f->otp;
	uint8_t id[OTA_KEY_ID_BYTES];

	switch (r->action) {
	case OTA_REVOKE_RAISE_FLOOR: {
		uint32_t now = r->target == OTA_STAGE_ROM_EXT ? otp->floor_rom_ext : otp->floor_bl0;

		if (r->value <= now)
			return OTA_REVOKE_NOT_RAISED;
		return r->value <= f->running_svn[r->target - 1u] ? OTA_OK
								   : OTA_REVOKE_FLOOR_ABOVE_RUNNING;
	}
	case OTA_REVOKE_CREATOR_KEY:
		if (otp->creator_key_revoked[r->target])
			return OTA_REVOKE_NOT_RAISED;
		ota_key_id(otp->creator_keys[r->target].ecdsa_pubkey, id);
		return memcmp(id, f->running_root[OTA_STAGE_ROM_EXT - 1u], sizeof(id)) == 0
			       ? OTA_REVOKE_KEY_IN_USE
			       : OTA_OK;
	case OTA_REVOKE_OWNER_KEY:
		/* Naming a key needs the owner config; without one nothing is known to revoke. */
		if (f->owner == NULL || r->target >= f->owner->count)
			return OTA_REVOKE_MALFORMED;
		if (otp->owner_key_revoked[r->target])
			return OTA_REVOKE_NOT_RAISED;
		return memcmp(f->owner->key_ids[r->target], f->running_root[OTA_STAGE_BL0 - 1u],
			      OTA_KEY_ID_BYTES) == 0
			       ? OTA_REVOKE_KEY_IN_USE
			       : OTA_OK;
	case OTA_REVOKE_BUMP_EPOCH:
		return r->value > otp->epoch ? OTA_OK : OTA_REVOKE_NOT_RAISED;
	}
	return OTA_REVOKE_MALFORMED;
}

bool ota_revocation_by_creator(const struct ota_revocation *r, const struct ota_anchors *creator)
{
	return signer_in(creator, r->signer_key_id) != NULL;
}

ota_status_t ota_revocation_check(const struct ota_revocation *r,
				  const struct ota_revocation_facts *f, ota_ecdsa_verify_fn ecdsa)
{
	return ota_revocation_check_hybrid(r, NULL, f, ecdsa);
}

ota_status_t ota_revocation_check_hybrid(const struct ota_revocation *r, const uint8_t *spx,
					 const struct ota_revocation_facts *f,
					 ota_ecdsa_verify_fn ecdsa)
{
	const struct ota_root_key *key;
	uint8_t digest[OTA_SHA256_BYTES];
	bool creator;

	OTA_TRY(fields(r, spx != NULL));
	if (!ota_all_zero(r->device_id, OTA_DEVICE_ID_BYTES) &&
	    memcmp(r->device_id, f->otp->device_id, OTA_DEVICE_ID_BYTES) != 0)
		return OTA_REVOKE_WRONG_DEVICE;
	if (r->sequence == 0)
		return OTA_REVOKE_MALFORMED;
	if (r->sequence > OTA_REVOCATION_SEQ_MAX)
		return OTA_REVOKE_SEQUENCE_EXHAUSTED;

	key = signer_in(f->creator, r->signer_key_id);
	creator = key != NULL;
	if (!creator)
		key = signer_in(f->owner, r->signer_key_id);
	if (key == NULL)
		return OTA_REVOKE_UNKNOWN_SIGNER;
	/* The signer's own series: an owner command never spends the creator's. */
	if (r->sequence <= ota_revocation_series(r, f->otp, creator))
		return OTA_REVOKE_REPLAYED;
	/* The owner rules BL0 and its own keys; the silicon creator everything. */
	if (!creator && !((r->action == OTA_REVOKE_RAISE_FLOOR && r->target == OTA_STAGE_BL0) ||
			  r->action == OTA_REVOKE_OWNER_KEY))
		return OTA_REVOKE_NOT_AUTHORIZED;
	/*
	 * As strong as an image under the same key must be (stage_policy.c):
	 * a hybrid key admits no command signed with its ECDSA half alone
	 * (revocation.h). An owner config that requires hybrid holds hybrid
	 * keys only (owner_config.c), so this is its rule too.
	 */
	if (key->algorithm == OTA_KEY_ALG_HYBRID && spx == NULL)
		return OTA_REVOKE_HYBRID_REQUIRED;
	ota_revocation_digest(r, digest);
	if (ecdsa(key->ecdsa_pubkey, digest, r->signature) != OTA_OK)
		return OTA_REVOKE_SIG_INVALID;
	/* Both halves: an SLH-DSA signature from a key without one proves nothing. */
	if (spx != NULL && (key->algorithm != OTA_KEY_ALG_HYBRID ||
			    ota_slhdsa_verify(key->spx_pubkey, digest, sizeof(digest), spx) != OTA_OK))
		return OTA_REVOKE_SPX_INVALID;
	return effect(r, f);
}
