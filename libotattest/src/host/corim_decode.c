// SPDX-License-Identifier: MIT
/*
 * Signed CoRIM (draft-ietf-rats-corim) to reference values: the profile
 * of docs/corim.md, read strictly. A CoRIM is operator input that may
 * come from anywhere, so the whole file is strict CBOR first (only the
 * tags the profile uses), its signature is checked with the key the
 * operator named before anything in the payload is read, and then every
 * map is read key by key: what the profile uses is checked, what only
 * describes (entities, a language, a measurement's key) is stepped over,
 * and everything that would narrow a reference value in a way this
 * verifier does not implement (validity, linked tags, instances, flags,
 * raw values, other triples) is refused - ignoring it would accept more
 * than the CoRIM's author allowed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/corim.h"

#include "fileio.h"

static const uint64_t corim_tags[] = {
	OTA_COSE_SIGN1_TAG, OTA_CORIM_TAG_UNSIGNED, OTA_CORIM_TAG_COMID, OTA_CORIM_TAG_UUID,
	OTA_CORIM_TAG_SVN,  OTA_CORIM_TAG_MIN_SVN,  OTA_CORIM_TAG_THUMBPRINT,
};
#define CORIM_TAG_COUNT (sizeof(corim_tags) / sizeof(corim_tags[0]))

/*
 * Nesting: a thumbprint's bytes sit 11 deep in a CoMID (map, triples,
 * array, record, measurements, measurement, mval, cryptokeys, tag, digest,
 * bytes), 15 deep in a payload that holds the CoMIDs directly (tag 501,
 * map, tags, tag 506 before them).
 */
static const struct ota_cbor_limits corim_limits = {
	.max_depth = 16,
	.max_string = OTA_CORIM_MAX_BYTES,
	.max_count = 16,
};

struct rd {
	struct ota_cbor_dec d;
	char *why;
	size_t why_len;
};

__attribute__((format(printf, 2, 3))) static ota_status_t bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (r->why && r->why_len) {
		va_start(ap, fmt);
		vsnprintf(r->why, r->why_len, fmt, ap);
		va_end(ap);
	}
	return OTA_CORIM_MALFORMED;
}

static void rd_init(struct rd *r, const uint8_t *p, size_t n, char *why, size_t why_len)
{
	ota_cbor_dec_init(&r->d, p, n);
	r->why = why;
	r->why_len = why_len;
}

/* A map's key: the profile's maps are keyed by integers only. */
static ota_status_t key(struct rd *r, const char *map, int64_t *k)
{
	if (ota_cbor_get_int(&r->d, k) != OTA_OK)
		return bad(r, "%s: a key that is not an integer", map);
	return OTA_OK;
}

static ota_status_t text_eq(struct rd *r, const char *what, const char *want)
{
	const char *t;
	size_t n;

	if (ota_cbor_get_text(&r->d, &t, &n) != OTA_OK || n > OTA_CORIM_MAX_TEXT)
		return bad(r, "%s: not a text string of at most %u bytes", what,
			   OTA_CORIM_MAX_TEXT);
	if (n != strlen(want) || memcmp(t, want, n) != 0)
		return bad(r, "%s: \"%.*s\", not \"%s\"", what, (int)n, t, want);
	return OTA_OK;
}

/* $tag-id-type-choice and $corim-id-type-choice: tstr / tagged uuid. */
static ota_status_t id_choice(struct rd *r, const char *what)
{
	const uint8_t *p;
	const char *t;
	uint64_t tag;
	uint32_t major;
	size_t n;

	if (ota_cbor_peek(&r->d, &major) != OTA_OK)
		return bad(r, "%s: missing", what);
	if (major == OTA_CBOR_TSTR) {
		if (ota_cbor_get_text(&r->d, &t, &n) != OTA_OK || n == 0 ||
		    n > OTA_CORIM_MAX_TEXT)
			return bad(r, "%s: empty or longer than %u bytes", what, OTA_CORIM_MAX_TEXT);
		return OTA_OK;
	}
	if (ota_cbor_get_tag(&r->d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_UUID ||
	    ota_cbor_get_bytes(&r->d, &p, &n) != OTA_OK || n != OTA_CORIM_UUID_BYTES)
		return bad(r, "%s: neither text nor a tagged UUID", what);
	return OTA_OK;
}

static ota_status_t skip(struct rd *r, const char *what)
{
	if (ota_cbor_skip(&r->d) != OTA_OK)
		return bad(r, "%s: malformed", what);
	return OTA_OK;
}

/* ---- the COSE_Sign1 envelope ------------------------------------------- */

/* corim-meta-map: a signer with a name (and perhaps a URI); no validity. */
static ota_status_t meta(const uint8_t *p, size_t n, char *why, size_t why_len)
{
	struct rd r;
	uint64_t pairs, sp, i;
	int64_t k;

	rd_init(&r, p, n, why, why_len);
	if (ota_cbor_check_tags(p, n, &corim_limits, corim_tags, CORIM_TAG_COUNT) != OTA_OK ||
	    ota_cbor_get_map(&r.d, &pairs) != OTA_OK)
		return bad(&r, "corim-meta: not a map");
	for (i = 0; i < pairs; i++) {
		OTA_TRY(key(&r, "corim-meta", &k));
		if (k != OTA_CORIM_META_K_SIGNER)
			return bad(&r, "corim-meta: key %lld (a signature validity is not supported)",
				   (long long)k);
		if (ota_cbor_get_map(&r.d, &sp) != OTA_OK || sp == 0)
			return bad(&r, "corim-meta.signer: not a map");
		for (; sp; sp--) {
			OTA_TRY(key(&r, "corim-meta.signer", &k));
			if (k == OTA_CORIM_SIGNER_K_NAME)
				OTA_TRY(id_choice(&r, "corim-meta.signer.name"));
			else
				OTA_TRY(skip(&r, "corim-meta.signer"));
		}
	}
	if (pairs != 1)
		return bad(&r, "corim-meta: no signer");
	return OTA_OK;
}

/*
 * protected-corim-header-map: ES256, the CoRIM content type and the
 * corim-meta; a kid may name the key. Anything else (crit above all) is
 * refused: this verifier would not act on it.
 */
static ota_status_t protected_hdr(const uint8_t *p, size_t n, char *why, size_t why_len)
{
	struct rd r;
	uint64_t pairs, i;
	int64_t k, alg;
	const uint8_t *b;
	size_t bn;
	bool have_alg = false, have_ct = false, have_meta = false;

	rd_init(&r, p, n, why, why_len);
	if (n > OTA_CORIM_MAX_PROTECTED ||
	    ota_cbor_check_tags(p, n, &corim_limits, corim_tags, CORIM_TAG_COUNT) != OTA_OK ||
	    ota_cbor_get_map(&r.d, &pairs) != OTA_OK)
		return bad(&r, "protected header: not a map of at most %u bytes",
			   OTA_CORIM_MAX_PROTECTED);
	for (i = 0; i < pairs; i++) {
		OTA_TRY(key(&r, "protected header", &k));
		switch (k) {
		case OTA_COSE_HDR_ALG:
			if (ota_cbor_get_int(&r.d, &alg) != OTA_OK || alg != OTA_COSE_ALG_ES256)
				return bad(&r, "protected header: alg is not ES256 (-7)");
			have_alg = true;
			break;
		case OTA_COSE_HDR_CONTENT_TYPE:
			OTA_TRY(text_eq(&r, "protected header content-type", OTA_CORIM_CONTENT_TYPE));
			have_ct = true;
			break;
		case OTA_COSE_HDR_KID:
			if (ota_cbor_get_bytes(&r.d, &b, &bn) != OTA_OK || bn == 0 || bn > 64)
				return bad(&r, "protected header: kid is not 1 to 64 bytes");
			break;
		case OTA_CORIM_HDR_META:
			if (ota_cbor_get_bytes(&r.d, &b, &bn) != OTA_OK)
				return bad(&r, "protected header: corim-meta is not a byte string");
			OTA_TRY(meta(b, bn, why, why_len));
			have_meta = true;
			break;
		default:
			return bad(&r, "protected header: label %lld is not supported", (long long)k);
		}
	}
	if (!have_alg || !have_ct || !have_meta)
		return bad(&r, "protected header: alg, content-type and corim-meta are required");
	return OTA_OK;
}

static ota_status_t envelope(const uint8_t *buf, size_t len, struct ota_cose_sign1 *m,
			     char *why, size_t why_len)
{
	struct rd r;
	uint64_t tag, n;

	memset(m, 0, sizeof(*m));
	rd_init(&r, buf, len, why, why_len);
	if (ota_cbor_get_tag(&r.d, &tag) != OTA_OK || tag != OTA_COSE_SIGN1_TAG ||
	    ota_cbor_get_array(&r.d, &n) != OTA_OK || n != 4)
		return bad(&r, "not a tagged COSE_Sign1 (signed-corim)");
	if (ota_cbor_get_bytes(&r.d, &m->protected_hdr, &m->protected_len) != OTA_OK)
		return bad(&r, "protected header: not a byte string");
	OTA_TRY(protected_hdr(m->protected_hdr, m->protected_len, why, why_len));
	/* Nothing unsigned may say anything: the unprotected header is empty. */
	if (ota_cbor_get_map(&r.d, &n) != OTA_OK || n != 0)
		return bad(&r, "unprotected header: not an empty map");
	if (ota_cbor_get_bytes(&r.d, &m->payload, &m->payload_len) != OTA_OK)
		return bad(&r, "payload: not a byte string (a detached payload is not supported)");
	if (ota_cbor_get_bytes(&r.d, &m->signature, &m->signature_len) != OTA_OK ||
	    m->signature_len != OTA_P256_SIG_BYTES)
		return bad(&r, "signature: not %u bytes", OTA_P256_SIG_BYTES);
	return OTA_OK;
}

/* ---- the payload: corim-map, CoMIDs, reference triples ------------------- */

static ota_status_t svn(struct rd *r, struct ota_refval *rv)
{
	uint32_t major;
	uint64_t tag = OTA_CORIM_TAG_SVN, v;

	if (ota_cbor_peek(&r->d, &major) != OTA_OK)
		return bad(r, "mval.svn: missing");
	if (major == OTA_CBOR_TAG && ota_cbor_get_tag(&r->d, &tag) != OTA_OK)
		return bad(r, "mval.svn: malformed");
	if ((tag != OTA_CORIM_TAG_SVN && tag != OTA_CORIM_TAG_MIN_SVN) ||
	    ota_cbor_get_uint(&r->d, &v) != OTA_OK || v > UINT32_MAX)
		return bad(r, "mval.svn: not an SVN, tagged-svn or tagged-min-svn below 2^32");
	rv->svn = (uint32_t)v;
	rv->svn_is_min = tag == OTA_CORIM_TAG_MIN_SVN;
	return OTA_OK;
}

/* digest = [alg: int / text, val: bytes]; SHA-256 ones kept, others stepped over. */
static ota_status_t digests(struct rd *r, struct ota_refval *rv)
{
	uint64_t n, i, two;
	uint32_t major;
	int64_t alg;
	const uint8_t *p;
	size_t len;

	if (ota_cbor_get_array(&r->d, &n) != OTA_OK || n == 0)
		return bad(r, "mval.digests: not a non-empty array");
	for (i = 0; i < n; i++) {
		if (ota_cbor_get_array(&r->d, &two) != OTA_OK || two != 2 ||
		    ota_cbor_peek(&r->d, &major) != OTA_OK)
			return bad(r, "mval.digests[%llu]: not [alg, value]", (unsigned long long)i);
		alg = 0;
		if (major == OTA_CBOR_TSTR) {
			if (ota_cbor_skip(&r->d) != OTA_OK)
				return bad(r, "mval.digests[%llu]: malformed", (unsigned long long)i);
		} else if (ota_cbor_get_int(&r->d, &alg) != OTA_OK) {
			return bad(r, "mval.digests[%llu]: alg is neither an integer nor text",
				   (unsigned long long)i);
		}
		if (alg != OTA_CORIM_ALG_SHA256) {
			/* another algorithm: this verifier compares SHA-256 only */
			if (ota_cbor_get_bytes(&r->d, &p, &len) != OTA_OK)
				return bad(r, "mval.digests[%llu]: value is not bytes",
					   (unsigned long long)i);
			continue;
		}
		if (ota_cbor_get_bytes(&r->d, &p, &len) != OTA_OK || len != OTA_SHA256_BYTES)
			return bad(r, "mval.digests[%llu]: a sha-256 digest that is not 32 bytes",
				   (unsigned long long)i);
		if (rv->digest_count == OTA_CORIM_MAX_DIGESTS)
			return bad(r, "mval.digests: more than %u sha-256 digests",
				   OTA_CORIM_MAX_DIGESTS);
		memcpy(rv->digests[rv->digest_count++], p, OTA_SHA256_BYTES);
	}
	if (rv->digest_count == 0)
		return bad(r, "mval.digests: no sha-256 digest");
	return OTA_OK;
}

/* cryptokeys: the signer key ids, each a thumbprint [sha-256, key id]. */
static ota_status_t cryptokeys(struct rd *r, struct ota_refval *rv)
{
	uint64_t n, i, tag, two;
	int64_t alg;
	const uint8_t *p;
	size_t len;

	if (ota_cbor_get_array(&r->d, &n) != OTA_OK || n == 0 || n > OTA_MAX_CHAIN_KEYS)
		return bad(r, "mval.cryptokeys: not 1 to %u keys", OTA_MAX_CHAIN_KEYS);
	for (i = 0; i < n; i++) {
		if (ota_cbor_get_tag(&r->d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_THUMBPRINT ||
		    ota_cbor_get_array(&r->d, &two) != OTA_OK || two != 2 ||
		    ota_cbor_get_int(&r->d, &alg) != OTA_OK || alg != OTA_CORIM_ALG_SHA256 ||
		    ota_cbor_get_bytes(&r->d, &p, &len) != OTA_OK || len != OTA_KEY_ID_BYTES)
			return bad(r, "mval.cryptokeys[%llu]: not a sha-256 key thumbprint",
				   (unsigned long long)i);
		memcpy(rv->key_ids[i], p, OTA_KEY_ID_BYTES);
	}
	rv->key_id_count = (uint32_t)n;
	return OTA_OK;
}

static ota_status_t mval(struct rd *r, struct ota_refval *rv)
{
	uint64_t pairs;
	int64_t k;
	bool have_svn = false;

	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK)
		return bad(r, "mval: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(r, "mval", &k));
		switch (k) {
		case OTA_COMID_MVAL_K_SVN:
			OTA_TRY(svn(r, rv));
			have_svn = true;
			break;
		case OTA_COMID_MVAL_K_DIGESTS:
			OTA_TRY(digests(r, rv));
			break;
		case OTA_COMID_MVAL_K_NAME:
			OTA_TRY(text_eq(r, "mval.name", ota_stage_name(rv->stage)));
			break;
		case OTA_COMID_MVAL_K_CRYPTOKEYS:
			OTA_TRY(cryptokeys(r, rv));
			break;
		default:
			return bad(r, "mval: key %lld is not in otattest's profile", (long long)k);
		}
	}
	if (!have_svn || rv->digest_count == 0)
		return bad(r, "mval: an svn and sha-256 digests are required");
	return OTA_OK;
}

static ota_status_t measurement(struct rd *r, struct ota_refval *rv)
{
	uint64_t pairs;
	int64_t k;
	bool have_mval = false;

	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK)
		return bad(r, "measurement: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(r, "measurement", &k));
		if (k == OTA_COMID_MEAS_K_MKEY) {
			OTA_TRY(skip(r, "measurement.mkey")); /* a name for it, nothing to match */
		} else if (k == OTA_COMID_MEAS_K_MVAL) {
			OTA_TRY(mval(r, rv));
			have_mval = true;
		} else {
			return bad(r, "measurement: key %lld is not in otattest's profile",
				   (long long)k);
		}
	}
	if (!have_mval)
		return bad(r, "measurement: no mval");
	return OTA_OK;
}

/* class-map: vendor "otattest", model the stage name; class id and layer must agree. */
static ota_status_t stage_class(struct rd *r, uint32_t *stage)
{
	static const uint8_t class_ids[OTA_STAGE_COUNT][OTA_CORIM_UUID_BYTES] = {
		OTA_CORIM_CLASS_ROM_EXT, OTA_CORIM_CLASS_BL0
	};
	const uint8_t *id = NULL, *p;
	const char *t;
	uint64_t pairs, tag, layer = 0;
	int64_t k;
	size_t n;
	bool vendor = false, have_layer = false;

	*stage = 0;
	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK)
		return bad(r, "class: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(r, "class", &k));
		switch (k) {
		case OTA_COMID_CLASS_K_ID:
			if (ota_cbor_get_tag(&r->d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_UUID ||
			    ota_cbor_get_bytes(&r->d, &p, &n) != OTA_OK || n != OTA_CORIM_UUID_BYTES)
				return bad(r, "class.class-id: not a tagged UUID");
			id = p;
			break;
		case OTA_COMID_CLASS_K_VENDOR:
			OTA_TRY(text_eq(r, "class.vendor", OTA_CORIM_VENDOR));
			vendor = true;
			break;
		case OTA_COMID_CLASS_K_MODEL:
			if (ota_cbor_get_text(&r->d, &t, &n) != OTA_OK)
				return bad(r, "class.model: not text");
			if (n == strlen(ota_stage_name(OTA_STAGE_ROM_EXT)) &&
			    !memcmp(t, ota_stage_name(OTA_STAGE_ROM_EXT), n))
				*stage = OTA_STAGE_ROM_EXT;
			else if (n == strlen(ota_stage_name(OTA_STAGE_BL0)) &&
				 !memcmp(t, ota_stage_name(OTA_STAGE_BL0), n))
				*stage = OTA_STAGE_BL0;
			else
				return bad(r, "class.model: \"%.*s\" is not a stage (rom_ext, bl0)",
					   (int)(n > OTA_CORIM_MAX_TEXT ? OTA_CORIM_MAX_TEXT : n), t);
			break;
		case OTA_COMID_CLASS_K_LAYER:
			if (ota_cbor_get_uint(&r->d, &layer) != OTA_OK)
				return bad(r, "class.layer: not an unsigned integer");
			have_layer = true;
			break;
		default:
			return bad(r, "class: key %lld is not in otattest's profile", (long long)k);
		}
	}
	if (!vendor || *stage == 0)
		return bad(r, "class: vendor \"otattest\" and a stage model are required");
	if (have_layer && layer != *stage)
		return bad(r, "class.layer: %llu is not %s's layer %u", (unsigned long long)layer,
			   ota_stage_name(*stage), *stage);
	if (id && memcmp(id, class_ids[*stage - 1u], OTA_CORIM_UUID_BYTES) != 0)
		return bad(r, "class.class-id: not %s's class id", ota_stage_name(*stage));
	return OTA_OK;
}

/* reference-triple-record = [environment-map, [+ measurement-map]] */
static ota_status_t reference_triple(struct rd *r, struct ota_refvals *out)
{
	uint64_t n, pairs, i;
	uint32_t stage = 0;
	int64_t k;

	if (ota_cbor_get_array(&r->d, &n) != OTA_OK || n != 2 ||
	    ota_cbor_get_map(&r->d, &pairs) != OTA_OK || pairs != 1)
		return bad(r, "reference triple: not [environment with a class, measurements]");
	OTA_TRY(key(r, "environment", &k));
	if (k != OTA_COMID_ENV_K_CLASS)
		return bad(r, "environment: key %lld (only a class is in otattest's profile)",
			   (long long)k);
	OTA_TRY(stage_class(r, &stage));
	if (ota_cbor_get_array(&r->d, &n) != OTA_OK || n == 0)
		return bad(r, "reference triple: no measurements");
	for (i = 0; i < n; i++) {
		struct ota_refval *rv;

		if (out->count == OTA_REFVALS_MAX)
			return OTA_CORIM_TOO_MANY;
		rv = &out->rv[out->count];
		memset(rv, 0, sizeof(*rv));
		rv->stage = stage;
		OTA_TRY(measurement(r, rv));
		out->count++;
	}
	return OTA_OK;
}

static ota_status_t triples(struct rd *r, struct ota_refvals *out)
{
	uint64_t pairs, n, i;
	int64_t k;

	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK || pairs != 1)
		return bad(r, "triples: not a map of reference triples alone");
	OTA_TRY(key(r, "triples", &k));
	if (k != OTA_COMID_TRIPLES_K_REFERENCE)
		return bad(r, "triples: key %lld (only reference triples are in otattest's profile)",
			   (long long)k);
	if (ota_cbor_get_array(&r->d, &n) != OTA_OK || n == 0)
		return bad(r, "reference triples: not a non-empty array");
	for (i = 0; i < n; i++)
		OTA_TRY(reference_triple(r, out));
	return OTA_OK;
}

static ota_status_t tag_identity(struct rd *r)
{
	uint64_t pairs, ver;
	int64_t k;
	bool id = false;

	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK)
		return bad(r, "tag-identity: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(r, "tag-identity", &k));
		if (k == OTA_COMID_TAGID_K_ID) {
			OTA_TRY(id_choice(r, "tag-identity.tag-id"));
			id = true;
		} else if (k == OTA_COMID_TAGID_K_VERSION) {
			if (ota_cbor_get_uint(&r->d, &ver) != OTA_OK)
				return bad(r, "tag-identity.tag-version: not an unsigned integer");
		} else {
			return bad(r, "tag-identity: key %lld", (long long)k);
		}
	}
	if (!id)
		return bad(r, "tag-identity: no tag-id");
	return OTA_OK;
}

/* concise-mid-tag: the map. */
static ota_status_t comid(struct rd *r, struct ota_refvals *out)
{
	uint64_t pairs;
	int64_t k;
	bool ident = false, trip = false;

	if (ota_cbor_get_map(&r->d, &pairs) != OTA_OK)
		return bad(r, "CoMID: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(r, "CoMID", &k));
		switch (k) {
		case OTA_COMID_K_LANGUAGE:
		case OTA_COMID_K_ENTITIES:
			OTA_TRY(skip(r, "CoMID")); /* who wrote it: describes, never narrows */
			break;
		case OTA_COMID_K_TAG_IDENTITY:
			OTA_TRY(tag_identity(r));
			ident = true;
			break;
		case OTA_COMID_K_TRIPLES:
			OTA_TRY(triples(r, out));
			trip = true;
			break;
		default:
			return bad(r, "CoMID: key %lld (linked tags are not supported)", (long long)k);
		}
	}
	if (!ident || !trip)
		return bad(r, "CoMID: tag-identity and triples are required");
	return OTA_OK;
}

/* The CoMID inside a byte string (checked as CBOR of its own), optionally
 * behind its own tag 506. */
static ota_status_t comid_in_bytes(struct rd *r, bool tagged_inside, struct ota_refvals *out)
{
	uint64_t tag;
	const uint8_t *p;
	size_t n;
	struct rd in;
	ota_status_t st;

	if (ota_cbor_get_bytes(&r->d, &p, &n) != OTA_OK)
		return bad(r, "tags: a CoMID must be a byte string inside tag 506 "
			      "(tagged-concise-mid-tag)");
	st = ota_cbor_check_tags(p, n, &corim_limits, corim_tags, CORIM_TAG_COUNT);
	if (st != OTA_OK)
		return st;
	rd_init(&in, p, n, r->why, r->why_len);
	if (tagged_inside &&
	    (ota_cbor_get_tag(&in.d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_COMID))
		return bad(r, "tags: a byte string that does not hold a CoMID (tag 506)");
	return comid(&in, out);
}

/*
 * One entry of the corim-map's tags: a CoMID as the draft's CDDL has it,
 * tag 506 around a byte string holding the CoMID (tagged-concise-mid-tag =
 * #6.506(bytes .cbor concise-mid-tag)), or as Veraison's corim library
 * (v1.1) reads and writes it, a byte string holding 506(CoMID)
 * (docs/corim.md). Tag 506 straight around the map is neither.
 */
static ota_status_t concise_tag(struct rd *r, struct ota_refvals *out)
{
	uint32_t major;
	uint64_t tag;

	if (ota_cbor_peek(&r->d, &major) != OTA_OK)
		return bad(r, "tags: truncated");
	if (major == OTA_CBOR_BSTR)
		return comid_in_bytes(r, true, out);
	if (ota_cbor_get_tag(&r->d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_COMID)
		return bad(r, "tags: an entry that is not a CoMID (tag 506)");
	return comid_in_bytes(r, false, out);
}

static ota_status_t corim_map(const uint8_t *p, size_t n, struct ota_refvals *out, char *why,
			      size_t why_len)
{
	struct rd r;
	uint32_t major;
	uint64_t tag, pairs, count, i;
	int64_t k;
	bool id = false, tags = false;
	ota_status_t st;

	st = ota_cbor_check_tags(p, n, &corim_limits, corim_tags, CORIM_TAG_COUNT);
	if (st != OTA_OK)
		return st;
	rd_init(&r, p, n, why, why_len);
	/* tagged-unsigned-corim-map; Veraison's library writes the map untagged. */
	if (ota_cbor_peek(&r.d, &major) == OTA_OK && major == OTA_CBOR_TAG &&
	    (ota_cbor_get_tag(&r.d, &tag) != OTA_OK || tag != OTA_CORIM_TAG_UNSIGNED))
		return bad(&r, "payload: a tag other than unsigned-corim-map (501)");
	if (ota_cbor_get_map(&r.d, &pairs) != OTA_OK)
		return bad(&r, "corim-map: not a map");
	for (; pairs; pairs--) {
		OTA_TRY(key(&r, "corim-map", &k));
		switch (k) {
		case OTA_CORIM_K_ID:
			OTA_TRY(id_choice(&r, "corim-map.id"));
			id = true;
			break;
		case OTA_CORIM_K_TAGS:
			if (ota_cbor_get_array(&r.d, &count) != OTA_OK || count == 0)
				return bad(&r, "corim-map.tags: not a non-empty array");
			for (i = 0; i < count; i++)
				OTA_TRY(concise_tag(&r, out));
			tags = true;
			break;
		case OTA_CORIM_K_ENTITIES:
			OTA_TRY(skip(&r, "corim-map.entities"));
			break;
		default:
			/* dependent RIMs, a profile, a validity: not implemented, so refused */
			return bad(&r, "corim-map: key %lld is not supported", (long long)k);
		}
	}
	if (!id || !tags)
		return bad(&r, "corim-map: id and tags are required");
	return OTA_OK;
}

/* ---- the whole -------------------------------------------------------- */

void ota_refvals_init(struct ota_refvals *r)
{
	r->count = 0;
}

ota_status_t ota_corim_load(const uint8_t *buf, size_t len,
			    const uint8_t signer_pub[OTA_P256_PUBKEY_BYTES], struct ota_refvals *r,
			    char *why, size_t why_len)
{
	struct ota_cose_sign1 m;
	uint32_t before = r->count;
	ota_status_t st;

	if (why && why_len)
		why[0] = '\0';
	if (len > OTA_CORIM_MAX_BYTES) {
		if (why && why_len)
			snprintf(why, why_len, "larger than %u bytes", OTA_CORIM_MAX_BYTES);
		return OTA_CORIM_MALFORMED;
	}
	st = ota_cbor_check_tags(buf, len, &corim_limits, corim_tags, CORIM_TAG_COUNT);
	if (st != OTA_OK)
		return st;
	st = envelope(buf, len, &m, why, why_len);
	if (st != OTA_OK)
		return st;
	/* The payload is read only once the operator's key has signed it. */
	st = ota_cose_sign1_verify(&m, signer_pub);
	if (st != OTA_OK) {
		if (why && why_len)
			snprintf(why, why_len, "the signature does not verify with the key given");
		return st == OTA_COSE_SIG_INVALID ? OTA_CORIM_SIG_INVALID : st;
	}
	st = corim_map(m.payload, m.payload_len, r, why, why_len);
	if (st != OTA_OK)
		r->count = before; /* all of a CoRIM or nothing */
	return st;
}

ota_status_t ota_corim_load_file(const char *path,
				 const uint8_t signer_pub[OTA_P256_PUBKEY_BYTES],
				 struct ota_refvals *r, char *why, size_t why_len)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	ota_status_t st;

	st = ota_read_file(path, OTA_CORIM_MAX_BYTES, &buf, &len);
	if (st == OTA_HOST_BAD_ARGUMENT) {
		if (why && why_len)
			snprintf(why, why_len, "larger than %u bytes", OTA_CORIM_MAX_BYTES);
		return OTA_CORIM_MALFORMED;
	}
	if (st != OTA_OK)
		return st;
	st = ota_corim_load(buf, len, signer_pub, r, why, why_len);
	free(buf);
	return st;
}
