// SPDX-License-Identifier: MIT
/*
 * The device check: an image judged by the device's own code (libotattest
 * core, otattest/stage_check.h: the stage's trust anchors, the
 * path-independent policy, the slow path's signatures) on the device
 * otimage is told about, with OpenSSL as the ECDSA verifier the firmware
 * gets from its engine.
 *
 * The device is described by the files it would read: the OTP image
 * (creator keys, lifecycle, device id, revocation, floors, chain length,
 * the owner config's digest) and the owner config (BL0's root keys and
 * rules). What is not given is taken to let the image pass - the first
 * lifecycle state and slot the image allows, its own device, no floor,
 * no revocation, an owner config holding just the root key with every
 * rule open - and each such part is named in the verdict, so "accepted"
 * always says on what. Without any root key the chain's own claim stands
 * in for it and what only that key could verify is not verified.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>

#include <otattest/keys.h>
#include <otattest/sha256.h>

#include "otimage.h"
#include "otimage_internal.h"

/* What the device check ran without, in the order they are found. */
static const char N_OTP_LIFECYCLE[] = "lifecycle state: no --otp; the first state the image and its root key allow";
static const char N_OTP_DEVICE[] = "device binding: no --otp; the image's own device";
static const char N_OTP_REVOKED[] = "root key revocation: no --otp";
static const char N_OTP_FLOOR[] = "anti-rollback floor and SVN ceiling in OTP: no --otp";
static const char N_OTP_CREATOR[] = "creator keys: no --otp; the root key as the one creator key";
static const char N_OTP_OWNER_DIGEST[] = "owner config digest in OTP: no --otp";
static const char N_OWNER[] = "owner config (root keys, their revocation, depth, direct boot, hybrid required): no --owner-config";
static const char N_ROOT_CHAIN[] = "root key: none given; certificate 1's signatures not verified";
static const char N_ROOT_DIRECT[] = "root key: none given; the image's signatures not verified";
static const char N_SLOT[] = "slot: no --slot; the first slot the image allows";
static const char N_BOOT_DATA[] = "anti-rollback floor in boot data: kept in the device's flash";
static const char N_POLICY_ONLY[] = "signatures: policy only, nothing verified";

/* What the check runs with, built from the parts of struct oti_device given. */
struct device_model {
	struct ota_otp_info otp;
	struct ota_owner_config owner;
	struct ota_root_key creator_keys[OTA_OTP_CREATOR_KEYS]; /* ROM_EXT's, the core's copy */
	struct ota_anchors anchors;
	bool keys_from_files;  /* --otp (ROM_EXT) or --owner-config (BL0) named the root keys */
	bool root_synthetic;   /* no root key at all: the chain's claim stands in */
};

static void note(struct oti_verdict *out, const char *what)
{
	if (out->not_applied_count < OTI_NOT_APPLIED_MAX)
		out->not_applied[out->not_applied_count++] = what;
}

/* Index of the lowest bit set; masks the parser accepted are never empty. */
static uint32_t lowest(uint32_t mask)
{
	uint32_t i;

	for (i = 0; i < 32 && !((mask >> i) & 1u); i++)
		;
	return i;
}

/*
 * The root key when otimage was given none: the key id the chain claims
 * (patched into the anchors after they are built), hybrid when the chain
 * starts hybrid. Its public key is any valid-looking point: nothing is
 * ever verified with it.
 */
static void synthetic_root(const struct ota_image_view *v, struct ota_root_key *k)
{
	bool hybrid = v->cert_count ? v->cert_spx_offset[0] != 0 : v->spxs_offset != 0;

	memset(k, 0, sizeof(*k));
	k->state = OTA_KEY_STATE_PROVISIONED;
	k->algorithm = hybrid ? OTA_KEY_ALG_HYBRID : OTA_KEY_ALG_ECDSA_P256;
	k->lifecycle_mask = OTA_LC_MASK_ALL;
	memset(k->ecdsa_pubkey, 0x01, sizeof(k->ecdsa_pubkey));
	if (hybrid)
		memset(k->spx_pubkey, 0x01, sizeof(k->spx_pubkey));
}

/* The first state the image allows and, when it is among keys, its root key does. */
static uint32_t assumed_lifecycle(const struct ota_manifest *m, const struct ota_root_key *keys,
				  uint32_t n, const uint8_t *root_id)
{
	uint32_t allowed = m->usage.lifecycle_mask, i;
	uint8_t id[OTA_KEY_ID_BYTES];

	for (i = 0; i < n; i++) {
		if (!ota_root_key_valid(&keys[i]))
			continue;
		ota_key_id(keys[i].ecdsa_pubkey, id);
		if (memcmp(id, root_id, sizeof(id)) == 0 && (allowed & keys[i].lifecycle_mask))
			allowed &= keys[i].lifecycle_mask;
	}
	return lowest(allowed);
}

/* The owner config of a device whose owner config otimage was not given. */
static ota_status_t open_owner_config(const struct ota_root_key *root,
				      struct ota_owner_config *oc, struct oti_diag *d)
{
	struct oti_owner_params p;

	memset(&p, 0, sizeof(p));
	p.keys[0] = *root;
	p.key_count = 1;
	p.max_delegation_depth = OTA_MAX_DELEGATION_DEPTH;
	p.flags = OTA_OWNER_F_DIRECT_BOOT;
	return oti_owner_config_build(&p, oc, d);
}

static ota_status_t build_model(const struct oti_device *dev, uint32_t stage,
				const struct ota_image_view *v, const struct ota_dlgc *certs,
				struct device_model *dm, struct oti_verdict *out, struct oti_diag *d)
{
	const struct ota_manifest *m = &v->manifest;
	const uint8_t *root_id = ota_chain_root_id(m, certs, v->cert_count);
	struct ota_root_key root;
	uint32_t floor;
	ota_status_t st;

	memset(dm, 0, sizeof(*dm));
	if (dev->has_otp) {
		st = ota_otp_decode(&dev->otp, &dm->otp);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, "--otp", NULL);
	}
	dm->keys_from_files = stage == OTA_STAGE_ROM_EXT ? dev->has_otp : dev->has_owner;
	if (dm->keys_from_files && dev->has_root)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--root-key",
				    "the %s image's root keys are the %s's", ota_stage_name(stage),
				    stage == OTA_STAGE_ROM_EXT ? "OTP image" : "owner config");
	dm->root_synthetic = !dm->keys_from_files && !dev->has_root;
	if (dev->has_root)
		root = dev->root;
	else
		synthetic_root(v, &root);

	if (stage == OTA_STAGE_ROM_EXT) {
		if (!dev->has_otp) {
			dm->otp.creator_keys[0] = root;
			note(out, N_OTP_CREATOR);
		}
	} else {
		if (dev->has_owner) {
			dm->owner = dev->owner;
		} else {
			OTA_TRY(open_owner_config(&root, &dm->owner, d));
			/* Owner keys are revoked by their index in the real owner config. */
			memset(dm->otp.owner_key_revoked, 0, sizeof(dm->otp.owner_key_revoked));
			note(out, N_OWNER);
		}
		if (!dev->has_otp || !dev->has_owner) {
			ota_sha256(&dm->owner, sizeof(dm->owner), dm->otp.owner_config_digest);
			if (dev->has_owner)
				note(out, N_OTP_OWNER_DIGEST);
		}
	}

	if (!dev->has_otp) {
		const struct ota_root_key *keys = stage == OTA_STAGE_ROM_EXT ? dm->otp.creator_keys
									      : dm->owner.keys;
		uint32_t n = stage == OTA_STAGE_ROM_EXT ? OTA_OTP_CREATOR_KEYS : dm->owner.key_count;

		dm->otp.lifecycle = assumed_lifecycle(m, keys, n, root_id);
		note(out, N_OTP_LIFECYCLE);
		if (m->usage.device_binding == OTA_BINDING_DEVICE) {
			memcpy(dm->otp.device_id, m->usage.device_id, sizeof(dm->otp.device_id));
			note(out, N_OTP_DEVICE);
		}
		dm->otp.chain_max_svn = OTA_SVN_LIMIT;
		note(out, N_OTP_REVOKED);
		note(out, N_OTP_FLOOR);
	}

	floor = stage == OTA_STAGE_ROM_EXT ? dm->otp.floor_rom_ext : dm->otp.floor_bl0;
	if (stage == OTA_STAGE_ROM_EXT) {
		ota_anchors_rom_ext(&dm->otp, floor, dm->creator_keys, &dm->anchors);
	} else {
		st = ota_anchors_bl0(&dm->otp, &dm->owner, floor, &dm->anchors);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, "--owner-config", NULL);
	}
	/* The key the chain names, whatever it is: only its id is known. */
	if (dm->root_synthetic && dm->anchors.count == 1)
		memcpy(dm->anchors.key_ids[0], root_id, OTA_KEY_ID_BYTES);
	note(out, N_BOOT_DATA);
	return OTA_OK;
}

/* "manifest.ext[k] (DLGC)" for the extension at offset, plus a sub-field. */
static const char *ext_at(const struct ota_image_view *v, uint32_t offset, const char *sub,
			  char *buf, size_t n)
{
	uint32_t k;

	for (k = 0; k < v->manifest.ext_count && k < OTA_MANIFEST_MAX_EXT; k++)
		if (v->manifest.ext[k].offset == offset)
			break;
	oti_ext_field(&v->manifest, k, buf, n);
	if (sub)
		snprintf(buf + strlen(buf), n - strlen(buf), ".%s", sub);
	return buf;
}

/* Where a policy refusal points, and the device fact it was checked against. */
static ota_status_t policy_diag(ota_status_t st, const struct ota_image_view *v,
				const struct ota_dlgc *certs, const struct device_model *dm,
				struct oti_verdict *out, struct oti_diag *d)
{
	const struct ota_anchors *a = &dm->anchors;
	const char *field = oti_status_field(st);
	char buf[96];
	uint32_t i;

	switch (st) {
	case OTA_SLOT_NOT_ALLOWED:
		return oti_diag_set(d, st, NULL, "manifest.usage.slot_mask", "slot %c",
				    'a' + (char)out->slot);
	case OTA_LIFECYCLE_NOT_ALLOWED:
		return oti_diag_set(d, st, NULL, "manifest.usage.lifecycle_mask",
				    "the device is in %s", ota_lifecycle_name(a->lifecycle));
	case OTA_DEVICE_NOT_ALLOWED:
		return oti_diag_set(d, st, NULL, "manifest.usage.device", NULL);
	case OTA_ROOT_KEY_UNKNOWN:
	case OTA_ROOT_KEY_REVOKED:
	case OTA_ROOT_KEY_LIFECYCLE:
		field = v->cert_count ? ext_at(v, v->cert_offset[0], "parent_key_id", buf, sizeof(buf))
				      : "manifest.signer_key_id";
		if (st == OTA_ROOT_KEY_LIFECYCLE)
			return oti_diag_set(d, st, NULL, field, "the device is in %s",
					    ota_lifecycle_name(a->lifecycle));
		break;
	case OTA_DELEG_DEPTH_EXCEEDED:
		out->cert_index = a->max_depth;
		field = ext_at(v, v->cert_offset[a->max_depth], NULL, buf, sizeof(buf));
		if (out->stage == OTA_STAGE_ROM_EXT)
			return oti_diag_set(d, st, NULL, field, "the ROM takes no delegation");
		return oti_diag_set(d, st, NULL, field, "the owner config allows %u", a->max_depth);
	case OTA_DELEG_DIRECT_BOOT_FORBIDDEN:
		field = "manifest.signer_key_id";
		break;
	case OTA_SIG_SPX_KEY_MISSING:
		field = "root key";
		break;
	case OTA_DELEG_CERT_SPX_MISSING:
		for (i = 0; i < v->cert_count && v->cert_spx_offset[i]; i++)
			;
		out->cert_index = i;
		field = ext_at(v, v->cert_offset[i], NULL, buf, sizeof(buf));
		break;
	case OTA_SIG_SPX_MISSING:
		field = "manifest.ext";
		break;
	case OTA_DELEG_REVOKED_BY_FLOOR:
		for (i = 0; i < v->cert_count && certs[i].constraints.svn_max >= a->floor; i++)
			;
		out->cert_index = i;
		return oti_diag_set(d, st, NULL,
				    ext_at(v, v->cert_offset[i], "constraints.svn_max", buf, sizeof(buf)),
				    "floor %u", a->floor);
	case OTA_SVN_BELOW_FLOOR:
		return oti_diag_set(d, st, NULL, "manifest.security_version", "floor %u", a->floor);
	case OTA_SVN_ABOVE_MAX:
		return oti_diag_set(d, st, NULL, "manifest.security_version", "at most %u",
				    a->svn_max);
	}
	return oti_diag_set(d, st, NULL, field, NULL);
}

/* Where a signature refusal points. */
static ota_status_t signature_diag(ota_status_t st, const struct ota_image_view *v,
				   uint32_t cert, struct oti_verdict *out, struct oti_diag *d)
{
	char buf[96];
	uint32_t k;

	switch (st) {
	case OTA_DELEG_CERT_SIG_INVALID:
	case OTA_DELEG_CERT_SPX_INVALID:
		out->cert_index = cert;
		return oti_diag_set(d, st, NULL,
				    ext_at(v, st == OTA_DELEG_CERT_SIG_INVALID ? v->cert_offset[cert]
									       : v->cert_spx_offset[cert],
					   NULL, buf, sizeof(buf)),
				    NULL);
	case OTA_SIG_BAD_PUBKEY:
		/* The signer's key: the leaf delegate's, or the root key itself. */
		if (!v->cert_count)
			return oti_diag_set(d, st, NULL, "root key", NULL);
		out->cert_index = v->cert_count - 1;
		return oti_diag_set(d, st, NULL,
				    ext_at(v, v->cert_offset[v->cert_count - 1], "delegate_pubkey", buf,
					   sizeof(buf)),
				    NULL);
	case OTA_SIG_SPX_INVALID:
		for (k = 0; k < v->manifest.ext_count && v->manifest.ext[k].type != OTA_EXT_SPXS; k++)
			;
		oti_ext_field(&v->manifest, k, buf, sizeof(buf));
		return oti_diag_set(d, st, NULL, buf, NULL);
	}
	return oti_diag_set(d, st, NULL, "manifest.signature", NULL);
}

/*
 * The slow path. With no root key, the chain below the first certificate
 * is verified from that certificate's delegate: the view and the
 * certificates shifted by one, that delegate as the root.
 */
static ota_status_t slow_path(const struct device_model *dm, const struct ota_policy_result *pol,
			      const struct ota_image_view *v, const struct ota_dlgc *certs,
			      struct oti_verdict *out, struct oti_diag *d)
{
	struct ota_image_view sub = *v;
	struct ota_dlgc sub_certs[OTA_MAX_DELEGATION_DEPTH];
	struct ota_root_key from;
	struct ota_signer s;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t shift = 0, i;
	ota_status_t st;

	from = dm->anchors.keys[pol->root_index];
	memcpy(sub_certs, certs, sizeof(sub_certs));
	if (dm->root_synthetic) {
		if (v->cert_count == 0) {
			note(out, N_ROOT_DIRECT);
			return OTA_OK;
		}
		note(out, N_ROOT_CHAIN);
		shift = 1;
		memset(&from, 0, sizeof(from));
		from.algorithm = v->cert_spx_offset[0] ? OTA_KEY_ALG_HYBRID : OTA_KEY_ALG_ECDSA_P256;
		memcpy(from.ecdsa_pubkey, certs[0].delegate_pubkey, sizeof(from.ecdsa_pubkey));
		if (v->cert_spx_offset[0])
			memcpy(from.spx_pubkey,
			       v->image + v->cert_spx_offset[0] + offsetof(struct ota_dlgs, delegate_spx_pubkey),
			       sizeof(from.spx_pubkey));
		sub.cert_count = v->cert_count - 1;
		memset(sub.cert_offset, 0, sizeof(sub.cert_offset));
		memset(sub.cert_spx_offset, 0, sizeof(sub.cert_spx_offset));
		for (i = 0; i < sub.cert_count; i++) {
			sub.cert_offset[i] = v->cert_offset[i + 1];
			sub.cert_spx_offset[i] = v->cert_spx_offset[i + 1];
			sub_certs[i] = certs[i + 1];
		}
	}
	st = ota_deleg_verify(&sub, sub_certs, &from, oti_ecdsa_verify, &s);
	if (st != OTA_OK)
		return signature_diag(st, v, s.depth + shift, out, d);
	ota_image_measure(v, measurement);
	st = ota_image_sig_verify(v, measurement, &s, oti_ecdsa_verify);
	if (st != OTA_OK)
		return signature_diag(st, v, 0, out, d);
	out->signatures = !dm->root_synthetic;
	return OTA_OK;
}

static ota_status_t check(const struct oti_device *dev, const uint8_t *img, size_t len,
			  uint32_t flags, struct oti_verdict *out, struct oti_diag *d)
{
	static const struct oti_device nothing;
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
	struct ota_policy_result pol;
	struct ota_image_view v;
	struct device_model dm;
	uint32_t i;
	ota_status_t st;

	if (!dev)
		dev = &nothing;
	if (len > UINT32_MAX)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	st = ota_image_parse(img, (uint32_t)len, &v);
	if (st != OTA_OK)
		return oti_image_parse_diag(&v, st, NULL, d);
	for (i = 0; i < v.cert_count; i++)
		OTA_TRY(ota_dlgc_read(&v, i, &certs[i]));
	out->stage = v.manifest.identifier == OTA_ID_ROM_EXT ? OTA_STAGE_ROM_EXT : OTA_STAGE_BL0;
	OTA_TRY(build_model(dev, out->stage, &v, certs, &dm, out, d));
	out->lifecycle = dm.anchors.lifecycle;
	out->slot = dev->has_slot ? dev->slot : lowest(v.manifest.usage.slot_mask);
	if (!dev->has_slot)
		note(out, N_SLOT);
	out->root_known = !dm.root_synthetic;

	memset(&pol, 0, sizeof(pol));
	st = ota_policy_check(&dm.anchors, out->stage, out->slot, &v, certs, &pol);
	if (st != OTA_OK)
		return policy_diag(st, &v, certs, &dm, out, d);
	memcpy(out->root_key_id, pol.chain.key_ids[0], OTA_KEY_ID_BYTES);
	out->hybrid = pol.hybrid;
	if (flags & OTI_CHECK_POLICY) {
		note(out, N_POLICY_ONLY);
		return OTA_OK;
	}
	return slow_path(&dm, &pol, &v, certs, out, d);
}

ota_status_t oti_device_check(const struct oti_device *dev, const uint8_t *img, size_t len,
			      uint32_t flags, struct oti_verdict *out, struct oti_diag *d)
{
	memset(out, 0, sizeof(*out));
	out->cert_index = OTA_MAX_DELEGATION_DEPTH;
	out->status = check(dev, img, len, flags, out, d);
	return out->status;
}

ota_status_t oti_device_load(const char *otp_path, const char *owner_path, const char *root_path,
			     const char *slot, struct oti_device *out, struct oti_diag *d)
{
	struct oti_key k;
	uint32_t mask;

	memset(out, 0, sizeof(*out));
	if (otp_path) {
		OTA_TRY(oti_otp_load(otp_path, &out->otp, d));
		/* No check reads the device secret: keep no copy of it (ota_otp_decode skips it). */
		OPENSSL_cleanse((uint8_t *)&out->otp + OTA_OTP_SECRET_START,
				OTA_OTP_COUNTERS_START - OTA_OTP_SECRET_START);
		out->has_otp = true;
	}
	if (owner_path) {
		OTA_TRY(oti_owner_config_load(owner_path, &out->owner, d));
		out->has_owner = true;
	}
	if (root_path) {
		OTA_TRY(oti_key_load(root_path, false, &k, d));
		oti_key_root_entry(&k, OTA_LC_MASK_ALL, &out->root);
		oti_key_free(&k);
		out->has_root = true;
	}
	if (slot) {
		if (oti_parse_slot_mask(slot, &mask) != OTA_OK || (mask != 1u && mask != 2u))
			return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--slot", "'%s', expected a or b",
					    slot);
		out->slot = mask == 1u ? OTA_SLOT_A : OTA_SLOT_B;
		out->has_slot = true;
	}
	return OTA_OK;
}
