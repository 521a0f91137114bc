// SPDX-License-Identifier: MIT
/*
 * Field revocation commands (otattest/revocation.h): fill the fields,
 * check them with the format's own rules, sign with the creator or owner
 * key. Whether a device takes the command is the device's decision
 * (ota_revocation_check, run by its runtime and again by ROM_EXT); the
 * tool refuses only what no device could take.
 */
#include <string.h>

#include "otimage.h"

ota_status_t oti_revocation_build(const struct oti_revocation_params *p,
				  const struct oti_key *signer, struct ota_revocation *out,
				  struct oti_diag *d)
{
	uint8_t digest[OTA_SHA256_BYTES];
	bool ok;

	memset(out, 0, sizeof(*out));
	switch (p->action) {
	case OTA_REVOKE_RAISE_FLOOR:
		ok = (p->target == OTA_STAGE_ROM_EXT || p->target == OTA_STAGE_BL0) &&
		     p->value <= OTA_SVN_LIMIT;
		break;
	case OTA_REVOKE_CREATOR_KEY:
	case OTA_REVOKE_OWNER_KEY:
		ok = p->target < OTA_OTP_CREATOR_KEYS && p->value == 0;
		break;
	case OTA_REVOKE_BUMP_EPOCH:
		ok = p->target == 0 && p->value <= OTA_OTP_EPOCH_BITS;
		break;
	default:
		ok = false;
	}
	if (!ok)
		return oti_diag_set(d, OTA_REVOKE_MALFORMED, NULL, "--action",
				    "action, target and value do not fit together");
	if (p->sequence == 0 || p->sequence > OTA_REVOCATION_SEQ_MAX)
		return oti_diag_set(d, OTA_REVOKE_SEQUENCE_EXHAUSTED, NULL, "--sequence",
				    "1..%u", OTA_REVOCATION_SEQ_MAX);
	if (!signer->has_private)
		return oti_diag_set(d, OTA_TOOL_KEY_NOT_PRIVATE, NULL, "--key", NULL);
	out->magic = OTA_REVOCATION_MAGIC;
	out->version = OTA_REVOCATION_VERSION;
	out->size = sizeof(*out);
	out->action = p->action;
	out->target = p->target;
	out->value = p->value;
	out->sequence = p->sequence;
	if (p->device_id)
		memcpy(out->device_id, p->device_id, OTA_DEVICE_ID_BYTES);
	memcpy(out->signer_key_id, signer->key_id, OTA_KEY_ID_BYTES);
	ota_revocation_digest(out, digest);
	return oti_ecdsa_sign(signer, digest, out->signature);
}
