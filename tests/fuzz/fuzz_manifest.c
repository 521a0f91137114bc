// SPDX-License-Identifier: MIT
/*
 * ota_image_parse on hostile bytes, then everything a boot stage does
 * with what it reports: read every certificate and companion, both
 * digests, the chain check and the floor check. The input sits in a heap
 * block of exactly its size so ASan sees any read past the buffer; an
 * accepted image must satisfy every bound the parser promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/deleg.h"
#include "otattest/manifest.h"
#include "fuzz_require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use_image(const struct ota_image_view *v, size_t size)
{
	const struct ota_manifest *m = &v->manifest;
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
	struct ota_chain_info info;
	uint8_t digest[OTA_SHA256_BYTES], id[OTA_KEY_ID_BYTES];
	uint32_t i;

	/* What the parser promises about an accepted image. */
	REQUIRE(v->length == m->image_length && v->length <= size);
	REQUIRE(m->header_size == sizeof(*m) && m->signed_end >= m->header_size);
	REQUIRE(m->signed_end <= v->length);
	REQUIRE(m->payload_offset + m->payload_length <= m->signed_end);
	REQUIRE(m->ext_count <= OTA_MANIFEST_MAX_EXT && v->cert_count <= OTA_MAX_DELEGATION_DEPTH);
	REQUIRE(ota_usage_valid(&m->usage) && m->security_version <= OTA_SVN_LIMIT);
	REQUIRE(v->bad_ext == OTA_MANIFEST_MAX_EXT);

	for (i = 0; i < v->cert_count; i++) {
		REQUIRE(v->cert_offset[i] >= m->signed_end);
		REQUIRE(v->cert_offset[i] + sizeof(struct ota_dlgc) <= v->length);
		REQUIRE(ota_dlgc_read(v, i, &certs[i]) == OTA_OK);
		if (v->cert_spx_offset[i]) {
			REQUIRE(v->cert_spx_offset[i] + sizeof(struct ota_dlgs) <= v->length);
			REQUIRE(ota_dlgs_header_check(v, i) == OTA_OK);
		} else {
			REQUIRE(ota_dlgs_header_check(v, i) == OTA_DELEG_CERT_SPX_MISSING);
		}
	}
	REQUIRE(ota_dlgc_read(v, v->cert_count, &certs[0]) == OTA_EXT_NO_SUCH_CERT ||
		v->cert_count == 0);
	if (v->cert_count)
		REQUIRE(ota_dlgc_read(v, 0, &certs[0]) == OTA_OK);
	if (v->spxs_offset) {
		REQUIRE(v->spxs_offset >= m->signed_end);
		REQUIRE(v->spxs_offset + sizeof(struct ota_spxs) <= v->length);
		memcpy(id, v->image + v->spxs_offset + offsetof(struct ota_spxs, signer_key_id), 32);
		REQUIRE(memcmp(id, m->signer_key_id, 32) == 0);
	}
	if (v->salt_offset)
		REQUIRE(v->salt_offset + sizeof(struct ota_ext_salt) <= m->signed_end);

	/* Touch every byte, through both digests. */
	ota_image_measure(v, digest);
	ota_image_sigblock_digest(v, digest);
	if (ota_chain_check(m, ota_chain_root_id(m, certs, v->cert_count), certs, v->cert_count,
			    &info) == OTA_OK) {
		REQUIRE(info.depth == v->cert_count);
		REQUIRE(info.effective.svn_min <= m->security_version &&
			m->security_version <= info.effective.svn_max);
	}
	(void)ota_chain_floor_check(certs, v->cert_count, m->security_version);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ota_image_view v, again;
	ota_status_t st;
	uint8_t *buf;

	if (size > 256 * 1024)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	st = ota_image_parse(buf, (uint32_t)size, &v);
	/* Deterministic, and nothing usable handed out on failure. */
	REQUIRE(ota_image_parse(buf, (uint32_t)size, &again) == st);
	if (st == OTA_OK) {
		REQUIRE(v.image == buf);
		use_image(&v, size);
	} else {
		REQUIRE(v.image == NULL && ota_status_message(st) != NULL);
		REQUIRE(v.bad_ext <= OTA_MANIFEST_MAX_EXT);
	}
	free(buf);
	return 0;
}
