// SPDX-License-Identifier: MIT
/*
 * Decoding a measured component and a measres group of a profile v2
 * claims set (claims_parts.h). Closed-world like the rest of the claims:
 * exactly the shape docs/evidence.md gives, every value in range.
 */
#include <string.h>

#include "claims_parts.h"

#define BAD OTA_VERIFY_CLAIMS_INVALID

/* A component is a CBOR item of its own inside a byte string: checked again. */
static const struct ota_cbor_limits component_limits = {
	.max_depth = 4, .max_string = 64, .max_count = OTA_MAX_CHAIN_KEYS,
};

static bool text_is(const char *p, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(p, want, n) == 0;
}

/* The stage a name stands for, 0 when it is no stage's. */
static uint32_t stage_named(const char *p, size_t n)
{
	if (text_is(p, n, ota_stage_name(OTA_STAGE_ROM_EXT)))
		return OTA_STAGE_ROM_EXT;
	if (text_is(p, n, ota_stage_name(OTA_STAGE_BL0)))
		return OTA_STAGE_BL0;
	return 0;
}

/* An SVN as the version text: decimal, no sign, no leading zero, in range. */
static ota_status_t svn_text(const char *p, size_t n, uint32_t *svn)
{
	uint32_t v = 0;
	size_t i;

	if (n < 1 || n > 3 || (n > 1 && p[0] == '0'))
		return BAD;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return BAD;
		v = v * 10u + (uint32_t)(p[i] - '0');
	}
	if (v > OTA_SVN_LIMIT)
		return BAD;
	*svn = v;
	return OTA_OK;
}

/* [name] for the ROM, [name, [svn, scheme]] for a stage. */
static ota_status_t get_id(struct ota_cbor_dec *d, bool rom, struct ota_claims_component *c)
{
	const char *p;
	uint64_t n, scheme;
	size_t len;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n != (rom ? 1u : 2u) ||
	    ota_cbor_get_text(d, &p, &len) != OTA_OK)
		return BAD;
	if (rom)
		return text_is(p, len, OTA_MC_NAME_ROM) ? OTA_OK : BAD;
	c->stage = stage_named(p, len);
	if (!c->stage || ota_cbor_get_array(d, &n) != OTA_OK || n != 2 ||
	    ota_cbor_get_text(d, &p, &len) != OTA_OK || svn_text(p, len, &c->svn) != OTA_OK ||
	    ota_cbor_get_uint(d, &scheme) != OTA_OK || scheme != OTA_MC_VERSION_SCHEME)
		return BAD;
	return OTA_OK;
}

static ota_status_t get_digest(struct ota_cbor_dec *d, uint8_t out[OTA_SHA256_BYTES])
{
	const uint8_t *p;
	uint64_t n, alg;
	size_t len;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n != 2 || ota_cbor_get_uint(d, &alg) != OTA_OK ||
	    alg != OTA_MC_ALG_SHA256 || ota_cbor_get_bytes(d, &p, &len) != OTA_OK ||
	    len != OTA_SHA256_BYTES)
		return BAD;
	memcpy(out, p, len);
	return OTA_OK;
}

static ota_status_t get_authorities(struct ota_cbor_dec *d, struct ota_claims_component *c)
{
	const uint8_t *p;
	uint64_t n, k;
	size_t len;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n < 1 || n > OTA_MAX_CHAIN_KEYS)
		return BAD;
	for (k = 0; k < n; k++) {
		if (ota_cbor_get_bytes(d, &p, &len) != OTA_OK || len != OTA_KEY_ID_BYTES)
			return BAD;
		memcpy(c->key_ids[k], p, len);
	}
	c->key_id_count = (uint32_t)n;
	return OTA_OK;
}

ota_status_t ota_claims_get_component(struct ota_cbor_dec *d, bool rom,
				      struct ota_claims_component *out)
{
	struct ota_cbor_dec in;
	const uint8_t *p;
	uint64_t pairs, key, i, want = rom ? 2u : 3u;
	size_t len;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (ota_cbor_get_bytes(d, &p, &len) != OTA_OK ||
	    ota_cbor_check(p, len, &component_limits) != OTA_OK)
		return BAD;
	ota_cbor_dec_init(&in, p, len);
	/* Exactly keys 1, 2 (and 3 for a stage) in order: no raw measurement, no flags. */
	if (ota_cbor_get_map(&in, &pairs) != OTA_OK || pairs != want)
		return BAD;
	for (i = 0; i < pairs; i++) {
		if (ota_cbor_get_uint(&in, &key) != OTA_OK || key != i + 1u)
			return BAD;
		switch (key) {
		case OTA_MC_ID: st = get_id(&in, rom, out); break;
		case OTA_MC_DIGEST: st = get_digest(&in, out->measurement); break;
		default: st = get_authorities(&in, out); break;
		}
		if (st != OTA_OK)
			return st;
	}
	return OTA_OK;
}

/* "otattest-boot/" followed by a path's name. */
static ota_status_t system_path(const char *p, size_t n, uint32_t *path)
{
	static const char prefix[] = OTA_MEASRES_SYSTEM_PREFIX;
	const size_t plen = sizeof(prefix) - 1u;
	uint32_t k;

	if (n < plen || memcmp(p, prefix, plen))
		return BAD;
	for (k = 0; k <= OTA_PATH_MAX; k++)
		if (text_is(p + plen, n - plen, ota_path_name(k))) {
			*path = k;
			return OTA_OK;
		}
	return BAD;
}

ota_status_t ota_claims_get_measres(struct ota_cbor_dec *d, struct ota_claims_measres *out)
{
	const char *p;
	uint64_t n, result;
	size_t len;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n != 2 ||
	    ota_cbor_get_text(d, &p, &len) != OTA_OK || system_path(p, len, &out->path) != OTA_OK)
		return BAD;
	if (ota_cbor_get_array(d, &n) != OTA_OK || n != 1 || ota_cbor_get_array(d, &n) != OTA_OK ||
	    n != 2 || ota_cbor_get_text(d, &p, &len) != OTA_OK)
		return BAD;
	out->stage = stage_named(p, len);
	if (!out->stage || ota_cbor_get_uint(d, &result) != OTA_OK ||
	    result < OTA_MEASRES_SUCCESS || result > OTA_MEASRES_NOT_RUN)
		return BAD;
	out->result = (uint32_t)result;
	return OTA_OK;
}
