// SPDX-License-Identifier: MIT
/*
 * One measured component (draft-ietf-rats-eat-measured-component, the
 * shape docs/evidence.md gives) as a CBOR byte string: the measurements
 * claim and a refused attempt carry it wrapped, so the component is
 * measured first (the encoder counts without a buffer) and its length
 * heads the byte string.
 */
#include <string.h>

#include "evidence_internal.h"

/* Decimal digits of v, most significant first, no leading zeros. */
static uint32_t u32_decimal(uint32_t v, char out[10])
{
	char tmp[10];
	uint32_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1u - i];
	return n;
}

static void put_component_map(struct ota_cbor_enc *e, const struct ota_component_src *c)
{
	char svn[10];
	uint32_t k, svn_len;

	ota_cbor_put_map(e, c->key_id_count ? 3u : 2u);
	ota_cbor_put_uint(e, OTA_MC_ID);
	ota_cbor_put_array(e, c->versioned ? 2u : 1u);
	ota_cbor_put_text(e, c->name, (uint32_t)strlen(c->name));
	if (c->versioned) {
		svn_len = u32_decimal(c->svn, svn);
		ota_cbor_put_array(e, 2);
		ota_cbor_put_text(e, svn, svn_len);
		ota_cbor_put_uint(e, OTA_MC_VERSION_SCHEME);
	}
	ota_cbor_put_uint(e, OTA_MC_DIGEST);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_uint(e, OTA_MC_ALG_SHA256);
	ota_cbor_put_bytes(e, c->measurement, OTA_SHA256_BYTES);
	if (c->key_id_count) {
		ota_cbor_put_uint(e, OTA_MC_AUTHORITIES);
		ota_cbor_put_array(e, c->key_id_count);
		for (k = 0; k < c->key_id_count; k++)
			ota_cbor_put_bytes(e, c->key_ids[k], OTA_KEY_ID_BYTES);
	}
}

void ota_evidence_put_component(struct ota_cbor_enc *e, const struct ota_component_src *c)
{
	struct ota_cbor_enc measure;
	uint32_t len;

	ota_cbor_enc_init(&measure, NULL, 0);
	put_component_map(&measure, c);
	if (ota_cbor_enc_finish(&measure, &len) != OTA_OK) {
		if (e->err == OTA_OK)
			e->err = measure.err; /* the whole claims set fails with it */
		return;
	}
	ota_cbor_put_head(e, OTA_CBOR_BSTR, len);
	put_component_map(e, c);
}
