// SPDX-License-Identifier: MIT
/*
 * One stage check, in the order of docs/boot-flow.md on every path:
 *   1. load the slot into RAM once and parse that copy,
 *   2. measure (done while loading),
 *   3. path-independent policy,
 *   4. the tag fast path, which skips only the asymmetric verification,
 *   5. else the slow path, then a fresh tag,
 *   6. the stage record.
 * Steps 3 and 5 are libotattest core's (stage_check.h), the very code
 * otimage runs on the host, with the ECDSA engine (hal_ecdsa_verify) as
 * the verifier.
 */
#include <string.h>

#include <otattest/sha256.h>

#include "fwlib.h"

/*
 * Why the tag path is closed to this image before any tag is read
 * (OTA_REASON_NONE: it is open). Past the image's max key version there
 * is no tag key, so no tag path either.
 */
static uint32_t tag_closed_reason(const struct boot_ctx *b, const struct ota_manifest *m,
				  uint32_t mode)
{
	if (mode == BOOT_MODE_VERIFY || mode == BOOT_MODE_VERIFY_STAGED)
		return OTA_REASON_CHECK_ONLY;
	if (!(b->otp.features & OTA_OTP_F_TAG_BOOT))
		return OTA_REASON_TAG_BOOT_OFF;
	if (!(m->usage.flags & OTA_CAP_TAG_BOOT))
		return OTA_REASON_NOT_TAG_CAPABLE;
	if (b->tag_key_version > m->max_key_version)
		return OTA_REASON_KEY_VERSION_ABOVE_MAX;
	return OTA_REASON_NONE;
}

/* OTA_REASON_NONE when the slot's tag matches the image, else why it does not. */
static uint32_t tag_check(const struct boot_ctx *b, const struct boot_image *img)
{
	const struct ota_tag_entry *e = boot_tag_entry(b, img->stage, img->slot);
	uint8_t tag[OTA_TAG_BYTES];
	bool ok;

	if (e->state != OTA_TAG_STATE_VALID)
		return OTA_REASON_NO_TAG;
	if (e->key_version != b->tag_key_version)
		return OTA_REASON_STALE_KEY_VERSION;
	/* The hint is the measurement's (public): another image is no forgery. */
	if (memcmp(e->tag + OTA_TAG_MAC_BYTES, img->measurement, OTA_TAG_HINT_BYTES) != 0)
		return OTA_REASON_IMAGE_CHANGED;
	if (boot_tag_compute(img->stage, img, b->tag_key_version, tag) != OTA_OK)
		return OTA_REASON_TAG_KEY_UNAVAILABLE; /* the slow path decides */
	ok = ota_ct_equal(tag, e->tag, OTA_TAG_MAC_BYTES);
	memset(tag, 0, sizeof(tag));
	return ok ? OTA_REASON_NONE : OTA_REASON_TAG_MISMATCH;
}

static ota_status_t check(struct boot_ctx *b, const struct ota_anchors *a, uint32_t mode,
			  struct ota_stage_record *rec, struct boot_image *img)
{
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
	const struct ota_manifest *m = &img->view.manifest;
	struct ota_policy_result pol;
	struct ota_signer signer;
	uint8_t tag[OTA_TAG_BYTES];
	uint32_t i, reason;
	bool eligible;

	if (mode == BOOT_MODE_VERIFY_STAGED)
		OTA_TRY(boot_image_measure_staged(rec->stage, rec->slot, b->staged_len, img));
	else
		OTA_TRY(boot_image_load(b, rec->stage, rec->slot, img));
	memcpy(rec->measurement, img->measurement, OTA_SHA256_BYTES);
	rec->security_version = m->security_version;
	for (i = 0; i < img->view.cert_count; i++)
		OTA_TRY(ota_dlgc_read(&img->view, i, &certs[i]));

	OTA_TRY(ota_policy_check(a, rec->stage, rec->slot, &img->view, certs, &pol));
	rec->delegation_depth = pol.chain.depth;
	memcpy(rec->key_ids, pol.chain.key_ids, sizeof(rec->key_ids));
	rec->effective = pol.chain.effective;
	rec->sig_scheme = pol.hybrid || img->view.spxs_offset ? OTA_SCHEME_HYBRID
							      : OTA_SCHEME_ECDSA_P256;

	reason = tag_closed_reason(b, m, mode);
	eligible = reason == OTA_REASON_NONE;
	if (eligible) {
		rec->tag_key_version = b->tag_key_version;
		reason = mode == BOOT_MODE_BOOT ? tag_check(b, img) : OTA_REASON_ROTATION;
		if (reason == OTA_REASON_NONE) {
			rec->path = OTA_PATH_TAG;
			return OTA_OK;
		}
	}
	/* Recorded before the slow path, so a refused attempt keeps it too. */
	rec->path_reason = (uint16_t)reason;

	OTA_TRY(ota_deleg_verify(&img->view, certs, &a->keys[pol.root_index], hal_ecdsa_verify,
				 &signer));
	OTA_TRY(ota_image_sig_verify(&img->view, img->measurement, &signer, hal_ecdsa_verify));
	rec->path = OTA_PATH_SIGNATURE;
	/* A tag that cannot be made (or written, see boot_run_stage) only costs speed. */
	if (eligible && boot_tag_compute(rec->stage, img, b->tag_key_version, tag) == OTA_OK) {
		boot_tag_set(b, rec->stage, rec->slot, b->tag_key_version, tag);
		rec->path = OTA_PATH_SIGNATURE_RETAGGED;
	}
	return OTA_OK;
}

ota_status_t boot_stage_check(struct boot_ctx *b, const struct ota_anchors *a,
			      uint32_t stage, uint32_t slot, uint32_t mode,
			      struct ota_stage_record *rec, struct boot_image *img)
{
	uint64_t c0 = hal_cycles();

	memset(rec, 0, sizeof(*rec));
	rec->stage = stage;
	rec->slot = slot;
	rec->status = check(b, a, mode, rec, img);
	img->status = rec->status;
	if (rec->status != OTA_OK)
		rec->path = OTA_PATH_NONE;
	/* One span: the time is the cycles at the timer's nominal clock. */
	rec->verify_cycles = hal_cycles() - c0;
	rec->verify_time_ns = hal_cycles_to_ns(rec->verify_cycles);
	return rec->status;
}
