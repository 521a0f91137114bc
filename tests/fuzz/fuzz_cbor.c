// SPDX-License-Identifier: MIT
/*
 * The strict CBOR decoder and the two decoders built on it (COSE_Sign1
 * structure, claims set) on hostile bytes. Properties beyond "no crash":
 * input the checker accepts can be walked item by item with the cursor
 * to exactly its end, and the structural decoders never point outside
 * the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct ota_cbor_limits lim = { .max_depth = 8, .max_string = 4096, .max_count = 32 };

static bool inside(const uint8_t *buf, size_t len, const uint8_t *p, size_t n)
{
	return p >= buf && n <= len && (size_t)(p - buf) <= len - n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ota_evidence_claims claims;
	struct ota_cose_sign1 m;
	struct ota_cbor_dec d;
	uint8_t *buf;
	uint32_t i;

	if (size > 16384)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);

	if (ota_cbor_check(buf, size, &lim) == OTA_OK) {
		ota_cbor_dec_init(&d, buf, size);
		if (ota_cbor_skip(&d) != OTA_OK || d.pos != size)
			abort(); /* checked input must walk to its exact end */
	}
	if (ota_cose_sign1_decode(buf, size, &m) == OTA_OK) {
		if (!inside(buf, size, m.payload, m.payload_len) ||
		    !inside(buf, size, m.signature, m.signature_len) || m.cert_count == 0 ||
		    m.cert_count > OTA_COSE_MAX_CERTS)
			abort();
		for (i = 0; i < m.cert_count; i++)
			if (!inside(buf, size, m.certs[i], m.cert_lens[i]))
				abort();
	}
	if (ota_evidence_decode_claims(buf, size, &claims, NULL, 0) == OTA_OK) {
		if (claims.nonce_len < OTA_NONCE_MIN || claims.nonce_len > OTA_NONCE_MAX ||
		    claims.stage_count > OTA_RECORD_MAX_STAGES)
			abort();
		for (i = 0; i < claims.stage_count; i++)
			if (claims.stage[i].key_id_count != claims.stage[i].depth + 1u)
				abort();
	}
	free(buf);
	return 0;
}
