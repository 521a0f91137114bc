// SPDX-License-Identifier: MIT
/*
 * otimage's CoRIM writer: one CoMID per signed image, the whole signed
 * as a COSE_Sign1 with an otimage key. The layout is docs/corim.md's
 * profile; every map is written with its keys in ascending order
 * (deterministic encoding, RFC 8949 section 4.2.1) by the project's one
 * CBOR encoder, so the same release always gives the same payload.
 */
#include <stdlib.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/deleg.h"
#include "otattest/manifest.h"
#include "otattest/sha256.h"

#include "corim_build.h"
#include "otimage_internal.h"

ota_status_t oti_corim_stage_from_image(const uint8_t *img, size_t len,
					struct oti_corim_stage *out, struct oti_diag *d)
{
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
	struct ota_chain_info chain;
	struct ota_image_view v;
	ota_status_t st;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (len > OTI_MAX_IMAGE)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	st = ota_image_parse(img, (uint32_t)len, &v);
	if (st != OTA_OK)
		return oti_image_parse_diag(&v, st, NULL, d);
	if (v.length != len)
		return oti_diag_set(d, OTA_MANIFEST_BAD_LENGTH, NULL, "manifest.image_length",
				    "%u bytes of image in a file of %zu", v.length, len);
	for (i = 0; i < v.cert_count; i++) {
		st = ota_dlgc_read(&v, i, &certs[i]);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, "manifest.ext (DLGC)", NULL);
	}
	/* The key ids the device records for this image: root, then each delegate. */
	st = ota_chain_check(&v.manifest, ota_chain_root_id(&v.manifest, certs, v.cert_count),
			     certs, v.cert_count, &chain);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, "delegation chain", NULL);
	out->stage = v.manifest.identifier == OTA_ID_ROM_EXT ? OTA_STAGE_ROM_EXT : OTA_STAGE_BL0;
	out->svn = v.manifest.security_version;
	ota_image_measure(&v, out->measurement);
	out->key_id_count = chain.depth + 1u;
	memcpy(out->key_ids, chain.key_ids, sizeof(out->key_ids));
	return OTA_OK;
}

static void put_str(struct ota_cbor_enc *e, const char *s)
{
	ota_cbor_put_text(e, s, (uint32_t)strlen(s));
}

/* concise-mid-tag: the stage's class and its one measurement. */
static void put_comid(struct ota_cbor_enc *e, const char *id, const struct oti_corim_stage *s)
{
	static const uint8_t class_ids[OTA_STAGE_COUNT][OTA_CORIM_UUID_BYTES] = {
		OTA_CORIM_CLASS_ROM_EXT, OTA_CORIM_CLASS_BL0
	};
	const char *stage = ota_stage_name(s->stage);
	uint32_t i;

	ota_cbor_put_map(e, 2);
	ota_cbor_put_uint(e, OTA_COMID_K_TAG_IDENTITY);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_TAGID_K_ID);
	/* tag-id: "<corim id>/<stage>", unique within the release */
	ota_cbor_put_head(e, OTA_CBOR_TSTR, strlen(id) + 1u + strlen(stage));
	ota_cbor_put_raw(e, id, (uint32_t)strlen(id));
	ota_cbor_put_raw(e, "/", 1);
	ota_cbor_put_raw(e, stage, (uint32_t)strlen(stage));

	ota_cbor_put_uint(e, OTA_COMID_K_TRIPLES);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_TRIPLES_K_REFERENCE);
	ota_cbor_put_array(e, 1);
	ota_cbor_put_array(e, 2); /* reference-triple-record */
	ota_cbor_put_map(e, 1);   /* environment-map */
	ota_cbor_put_uint(e, OTA_COMID_ENV_K_CLASS);
	ota_cbor_put_map(e, 4);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_ID);
	ota_cbor_put_tag(e, OTA_CORIM_TAG_UUID);
	ota_cbor_put_bytes(e, class_ids[s->stage - 1u], OTA_CORIM_UUID_BYTES);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_VENDOR);
	put_str(e, OTA_CORIM_VENDOR);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_MODEL);
	put_str(e, stage);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_LAYER);
	ota_cbor_put_uint(e, s->stage);

	ota_cbor_put_array(e, 1); /* the measurements */
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_MEAS_K_MVAL);
	ota_cbor_put_map(e, 3);
	ota_cbor_put_uint(e, OTA_COMID_MVAL_K_SVN);
	ota_cbor_put_tag(e, OTA_CORIM_TAG_SVN); /* exactly this SVN: one release */
	ota_cbor_put_uint(e, s->svn);
	ota_cbor_put_uint(e, OTA_COMID_MVAL_K_DIGESTS);
	ota_cbor_put_array(e, 1);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_uint(e, OTA_CORIM_ALG_SHA256);
	ota_cbor_put_bytes(e, s->measurement, OTA_SHA256_BYTES);
	ota_cbor_put_uint(e, OTA_COMID_MVAL_K_CRYPTOKEYS);
	ota_cbor_put_array(e, s->key_id_count);
	for (i = 0; i < s->key_id_count; i++) {
		/* an otattest key id is SHA-256 of the raw point X || Y: a key thumbprint */
		ota_cbor_put_tag(e, OTA_CORIM_TAG_THUMBPRINT);
		ota_cbor_put_array(e, 2);
		ota_cbor_put_uint(e, OTA_CORIM_ALG_SHA256);
		ota_cbor_put_bytes(e, s->key_ids[i], OTA_KEY_ID_BYTES);
	}
}

/*
 * tagged-unsigned-corim-map. Each CoMID is a tagged-concise-mid-tag,
 * 506(<< CoMID >>), as the draft's CDDL has it, or, in Veraison's form, a
 * byte string holding 506(CoMID) (docs/corim.md says why both; otattest's
 * reader and the Veraison scheme take both).
 */
static void put_payload(struct ota_cbor_enc *e, const char *id,
			const struct oti_corim_stage *stages, uint32_t count,
			enum oti_corim_form form)
{
	uint8_t comid[1024];
	struct ota_cbor_enc c;
	uint32_t i, n;

	ota_cbor_put_tag(e, OTA_CORIM_TAG_UNSIGNED);
	ota_cbor_put_map(e, 2);
	ota_cbor_put_uint(e, OTA_CORIM_K_ID);
	put_str(e, id);
	ota_cbor_put_uint(e, OTA_CORIM_K_TAGS);
	ota_cbor_put_array(e, count);
	for (i = 0; i < count; i++) {
		ota_cbor_enc_init(&c, comid, sizeof(comid));
		if (form == OTI_CORIM_FORM_VERAISON)
			ota_cbor_put_tag(&c, OTA_CORIM_TAG_COMID);
		put_comid(&c, id, &stages[i]);
		if (ota_cbor_enc_finish(&c, &n) != OTA_OK) {
			e->err = OTA_CBOR_BUFFER_FULL;
			return;
		}
		if (form == OTI_CORIM_FORM_DRAFT)
			ota_cbor_put_tag(e, OTA_CORIM_TAG_COMID);
		ota_cbor_put_bytes(e, comid, n);
	}
}

static void put_protected(struct ota_cbor_enc *e, const char *signer, const struct oti_key *key)
{
	uint8_t meta[OTA_CORIM_MAX_TEXT + 16];
	struct ota_cbor_enc m;
	uint32_t n = 0;

	ota_cbor_enc_init(&m, meta, sizeof(meta));
	ota_cbor_put_map(&m, 1);
	ota_cbor_put_uint(&m, OTA_CORIM_META_K_SIGNER);
	ota_cbor_put_map(&m, 1);
	ota_cbor_put_uint(&m, OTA_CORIM_SIGNER_K_NAME);
	put_str(&m, signer);
	if (ota_cbor_enc_finish(&m, &n) != OTA_OK)
		e->err = OTA_CBOR_BUFFER_FULL;

	ota_cbor_put_map(e, 4);
	ota_cbor_put_uint(e, OTA_COSE_HDR_ALG);
	ota_cbor_put_int(e, OTA_COSE_ALG_ES256);
	ota_cbor_put_uint(e, OTA_COSE_HDR_CONTENT_TYPE);
	put_str(e, OTA_CORIM_CONTENT_TYPE);
	ota_cbor_put_uint(e, OTA_COSE_HDR_KID); /* the signer's otattest key id */
	ota_cbor_put_bytes(e, key->key_id, OTA_KEY_ID_BYTES);
	ota_cbor_put_uint(e, OTA_CORIM_HDR_META);
	ota_cbor_put_bytes(e, meta, n);
}

/* Encode with put() into a fresh malloc'd buffer of the measured size. */
static ota_status_t encode(void (*put)(struct ota_cbor_enc *, const void *), const void *arg,
			   uint8_t **out, uint32_t *len)
{
	struct ota_cbor_enc e;
	ota_status_t st;

	ota_cbor_enc_init(&e, NULL, UINT32_MAX);
	put(&e, arg);
	st = ota_cbor_enc_finish(&e, len);
	if (st != OTA_OK)
		return st;
	*out = malloc(*len ? *len : 1u);
	if (*out == NULL)
		return OTA_HOST_INTERNAL;
	ota_cbor_enc_init(&e, *out, *len);
	put(&e, arg);
	st = ota_cbor_enc_finish(&e, len);
	if (st != OTA_OK) {
		free(*out);
		*out = NULL;
	}
	return st;
}

struct build {
	const char *id, *signer;
	const struct oti_corim_stage *stages;
	uint32_t count;
	enum oti_corim_form form;
	const struct oti_key *key;
	const uint8_t *prot, *payload, *sig;
	uint32_t prot_len, payload_len;
};

static void put_payload_of(struct ota_cbor_enc *e, const void *arg)
{
	const struct build *b = arg;

	put_payload(e, b->id, b->stages, b->count, b->form);
}

static void put_protected_of(struct ota_cbor_enc *e, const void *arg)
{
	const struct build *b = arg;

	put_protected(e, b->signer, b->key);
}

/* Sig_structure = ["Signature1", protected, external_aad h'', payload] */
static void put_tbs(struct ota_cbor_enc *e, const void *arg)
{
	const struct build *b = arg;

	ota_cbor_put_array(e, 4);
	put_str(e, OTA_COSE_SIG1_CONTEXT);
	ota_cbor_put_bytes(e, b->prot, b->prot_len);
	ota_cbor_put_bytes(e, "", 0);
	ota_cbor_put_bytes(e, b->payload, b->payload_len);
}

static void put_sign1(struct ota_cbor_enc *e, const void *arg)
{
	const struct build *b = arg;

	ota_cbor_put_tag(e, OTA_COSE_SIGN1_TAG);
	ota_cbor_put_array(e, 4);
	ota_cbor_put_bytes(e, b->prot, b->prot_len);
	ota_cbor_put_map(e, 0); /* nothing unsigned */
	ota_cbor_put_bytes(e, b->payload, b->payload_len);
	ota_cbor_put_bytes(e, b->sig, OTA_P256_SIG_BYTES);
}

ota_status_t oti_corim_build(const char *id, const char *signer,
			     const struct oti_corim_stage *stages, uint32_t count,
			     enum oti_corim_form form, const struct oti_key *key, uint8_t **out,
			     size_t *out_len)
{
	struct build b = { id, signer, stages, count, form, key, NULL, NULL, NULL, 0, 0 };
	uint8_t *prot = NULL, *payload = NULL, *tbs = NULL, *signed_corim = NULL;
	uint8_t digest[OTA_SHA256_BYTES], sig[OTA_P256_SIG_BYTES];
	uint32_t tbs_len = 0, len = 0;
	ota_status_t st;

	*out = NULL;
	*out_len = 0;
	if (count == 0 || count > OTI_CORIM_MAX_IMAGES || strlen(id) == 0 ||
	    strlen(id) > OTA_CORIM_MAX_TEXT || strlen(signer) == 0 ||
	    strlen(signer) > OTA_CORIM_MAX_TEXT)
		return OTA_TOOL_BAD_VALUE;
	st = encode(put_protected_of, &b, &prot, &b.prot_len);
	if (st == OTA_OK)
		st = encode(put_payload_of, &b, &payload, &b.payload_len);
	b.prot = prot;
	b.payload = payload;
	if (st == OTA_OK)
		st = encode(put_tbs, &b, &tbs, &tbs_len);
	if (st == OTA_OK) {
		ota_sha256(tbs, tbs_len, digest);
		st = oti_ecdsa_sign(key, digest, sig);
	}
	b.sig = sig;
	if (st == OTA_OK)
		st = encode(put_sign1, &b, &signed_corim, &len);
	if (st == OTA_OK && len > OTA_CORIM_MAX_BYTES)
		st = OTA_TOOL_TOO_LARGE; /* verifiers would refuse it */
	free(prot);
	free(payload);
	free(tbs);
	if (st != OTA_OK) {
		free(signed_corim);
		return st;
	}
	*out = signed_corim;
	*out_len = len;
	return OTA_OK;
}
