// SPDX-License-Identifier: MIT
/*
 * Delegation certificates and containment on hostile bytes. Input layout:
 *   [0, 40)     parent constraints
 *   [40, 44)    image SVN
 *   [44, 76)    image usage
 *   [76, 300)   a DLGC
 *   [300, ...)  a DLGS (or anything) checked against that DLGC
 * Besides "no crash", the containment rules are checked as properties:
 * what ota_constraints_contained accepts really is narrower, valid
 * constraints contain themselves, and a chain of the certificate under
 * itself agrees with the pairwise check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/deleg.h"
#include "otattest/keys.h"
#include "fuzz_require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OFF_PARENT 0u
#define OFF_SVN 40u
#define OFF_USAGE 44u
#define OFF_DLGC 76u
#define OFF_DLGS (OFF_DLGC + sizeof(struct ota_dlgc))

static void check_narrower(const struct ota_constraints *p, const struct ota_constraints *c)
{
	REQUIRE(c->svn_min >= p->svn_min && c->svn_max <= p->svn_max);
	REQUIRE(!(c->usage.slot_mask & ~p->usage.slot_mask));
	REQUIRE(!(c->usage.lifecycle_mask & ~p->usage.lifecycle_mask));
	REQUIRE(!(c->usage.flags & ~p->usage.flags));
	if (p->usage.device_binding != OTA_BINDING_ANY)
		REQUIRE(c->usage.device_binding == OTA_BINDING_DEVICE &&
			!memcmp(c->usage.device_id, p->usage.device_id, OTA_DEVICE_ID_BYTES));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ota_constraints parent;
	struct ota_usage usage;
	struct ota_dlgc c, pair[2];
	struct ota_manifest m;
	uint8_t digest[OTA_SHA256_BYTES], msg[OTA_DLGS_MSG_BYTES], *dlgs;
	uint32_t svn;
	size_t dlgs_len;
	ota_status_t st;

	if (size < OFF_DLGS || size > OFF_DLGS + 2 * sizeof(struct ota_dlgs))
		return 0;
	memcpy(&parent, data + OFF_PARENT, sizeof(parent));
	memcpy(&svn, data + OFF_SVN, sizeof(svn));
	memcpy(&usage, data + OFF_USAGE, sizeof(usage));
	memcpy(&c, data + OFF_DLGC, sizeof(c));
	dlgs_len = size - OFF_DLGS;
	dlgs = malloc(dlgs_len ? dlgs_len : 1);
	if (!dlgs)
		abort();
	memcpy(dlgs, data + OFF_DLGS, dlgs_len);

	st = ota_dlgc_check(&c);
	(void)ota_dlgs_check(&c, dlgs, (uint32_t)dlgs_len);
	ota_dlgc_digest(&c, digest);
	if (st == OTA_OK) {
		REQUIRE(ota_constraints_valid(&c.constraints));
		REQUIRE(ota_constraints_contained(&c.constraints, &c.constraints) == OTA_OK);
		ota_dlgs_message(&c, c.delegate_pubkey, msg);
		REQUIRE(!memcmp(msg, &c, OTA_DLGC_SIGNED_BYTES));
	}
	if (ota_constraints_contained(&parent, &c.constraints) == OTA_OK)
		check_narrower(&parent, &c.constraints);
	if (ota_image_within(&c.constraints, svn, &usage) == OTA_OK) {
		struct ota_constraints img = { svn, svn, usage };

		check_narrower(&c.constraints, &img);
	}

	/* The certificate as a one- and a two-link chain under a root it names. */
	memset(&m, 0, sizeof(m));
	m.security_version = svn;
	m.usage = usage;
	ota_key_id(c.delegate_pubkey, m.signer_key_id);
	if (ota_chain_check(&m, c.parent_key_id, &c, 1, NULL) == OTA_OK)
		REQUIRE(st == OTA_OK && c.cert_type == OTA_CERT_LEAF &&
			ota_image_within(&c.constraints, svn, &usage) == OTA_OK);
	pair[0] = c;
	pair[1] = c;
	pair[0].cert_type = OTA_CERT_INTERMEDIATE;
	pair[0].constraints = parent;
	ota_key_id(pair[0].delegate_pubkey, pair[1].parent_key_id);
	if (ota_chain_check(&m, c.parent_key_id, pair, 2, NULL) == OTA_OK)
		REQUIRE(ota_constraints_contained(&parent, &c.constraints) == OTA_OK);
	(void)ota_chain_floor_check(pair, 2, svn);
	free(dlgs);
	return 0;
}
