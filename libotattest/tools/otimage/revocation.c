// SPDX-License-Identifier: MIT
/*
 * Field revocation commands (otattest/revocation.h): fill the fields,
 * check them with the format's own rules, sign with the creator or owner
 * key. Whether a device takes the command is the device's decision
 * (ota_revocation_check, run by its runtime and again by ROM_EXT); the
 * tool refuses only what no device could take.
 */
#include <string.h>

#include "inspect.h"
#include "otimage.h"

/* The 144 bytes of either version, ECDSA-signed; digest: what both halves sign. */
static ota_status_t build(const struct oti_revocation_params *p, const struct oti_key *signer,
			  bool hybrid, struct ota_revocation *out,
			  uint8_t digest[OTA_SHA256_BYTES], struct oti_diag *d)
{
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
	out->version = hybrid ? OTA_REVOCATION_VERSION_HYBRID : OTA_REVOCATION_VERSION;
	out->size = hybrid ? sizeof(struct ota_revocation_hybrid) : sizeof(*out);
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

ota_status_t oti_revocation_build(const struct oti_revocation_params *p,
				  const struct oti_key *signer, struct ota_revocation *out,
				  struct oti_diag *d)
{
	uint8_t digest[OTA_SHA256_BYTES];

	return build(p, signer, false, out, digest, d);
}

ota_status_t oti_revocation_build_hybrid(const struct oti_revocation_params *p,
					 const struct oti_key *signer,
					 struct ota_revocation_hybrid *out, struct oti_diag *d)
{
	uint8_t digest[OTA_SHA256_BYTES];

	memset(out, 0, sizeof(*out));
	if (signer->algorithm != OTA_KEY_ALG_HYBRID)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--key",
				    "a hybrid command needs a hybrid key (KEY.spx)");
	OTA_TRY(build(p, signer, true, &out->cmd, digest, d));
	return oti_spx_sign(signer, digest, sizeof(digest), out->spx_signature);
}

static const char *action_name(uint32_t action)
{
	switch (action) {
	case OTA_REVOKE_RAISE_FLOOR: return "raise-floor";
	case OTA_REVOKE_CREATOR_KEY: return "revoke-creator-key";
	case OTA_REVOKE_OWNER_KEY: return "revoke-owner-key";
	case OTA_REVOKE_BUMP_EPOCH: return "bump-epoch";
	}
	return "unknown";
}

ota_status_t oti_inspect_revocation(struct oti_out *o, const uint8_t *buf, size_t len,
				    struct oti_diag *d)
{
	struct ota_revocation r;
	bool hybrid = len == sizeof(struct ota_revocation_hybrid);

	if (len < sizeof(r) || (len != sizeof(r) && !hybrid))
		return oti_diag_set(d, OTA_REVOKE_MALFORMED, NULL, "revocation",
				    "%zu bytes, expected %zu or %zu (hybrid)", len, sizeof(r),
				    sizeof(struct ota_revocation_hybrid));
	memcpy(&r, buf, sizeof(r));
	if (r.version != (hybrid ? OTA_REVOCATION_VERSION_HYBRID : OTA_REVOCATION_VERSION) ||
	    r.size != len)
		return oti_diag_set(d, OTA_REVOKE_MALFORMED, NULL, "revocation.version", NULL);
	oti_out_str(o, "scheme", hybrid ? "hybrid" : "ecdsa-p256");
	oti_out_str(o, "action", action_name(r.action));
	oti_out_u64(o, "target", r.target);
	oti_out_u64(o, "value", r.value);
	oti_out_u64(o, "sequence", r.sequence);
	if (ota_all_zero(r.device_id, sizeof(r.device_id)))
		oti_out_str(o, "device", "any");
	else
		oti_out_hex(o, "device", r.device_id, sizeof(r.device_id));
	oti_out_hex(o, "signer_key_id", r.signer_key_id, sizeof(r.signer_key_id));
	oti_out_hex(o, "signature", r.signature, sizeof(r.signature));
	return OTA_OK;
}
