// SPDX-License-Identifier: MIT
/*
 * Delegation certificates: issuing and parsing them (round trip), their
 * structural checks, stricter-only containment, the image-within-leaf
 * rule, the crypto-free chain check and floor revocation. These are the
 * rules the firmware's slow path applies, so every refusal is checked to
 * come with its own status.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/deleg.h>
#include <otattest/slhdsa.h>

#include "../../libotattest/tools/otimage/otimage.h"
#include "testutil.h"
#include "tu_check.h"
#include "tu_main.h"

static struct oti_key root, inter, leaf, other, hroot, hleaf, root_pub;
static struct oti_cert c_inter, c_leaf, hc_leaf, c_root_leaf;
static const uint8_t dev_a[16] = { 0xaa, 1 }, dev_b[16] = { 0xbb, 2 };

static struct ota_constraints base(void)
{
	struct ota_constraints c;

	memset(&c, 0, sizeof(c));
	c.svn_min = 10;
	c.svn_max = 20;
	c.usage.slot_mask = OTA_SLOT_MASK_ALL;
	c.usage.lifecycle_mask = (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD);
	c.usage.flags = OTA_CAP_ALL;
	c.usage.device_binding = OTA_BINDING_ANY;
	return c;
}

static void build_fixtures(void)
{
	struct ota_constraints ci = base(), cl = base();

	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &root, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &inter, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &leaf, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &other, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hroot, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hleaf, NULL));
	FIX(oti_key_public(&root, &root_pub));
	cl.svn_min = 12;
	cl.svn_max = 15;
	cl.usage.lifecycle_mask = 1u << OTA_LC_DEV;
	cl.usage.flags = OTA_CAP_TAG_BOOT;
	FIX(oti_cert_issue(&root, NULL, &inter, OTA_CERT_INTERMEDIATE, &ci, 0, &c_inter, NULL));
	FIX(oti_cert_issue(&inter, &c_inter, &leaf, OTA_CERT_LEAF, &cl, 0, &c_leaf, NULL));
	FIX(oti_cert_issue(&root, NULL, &leaf, OTA_CERT_LEAF, &cl, 0, &c_root_leaf, NULL));
	FIX(oti_cert_issue(&hroot, NULL, &hleaf, OTA_CERT_LEAF, &cl, 0, &hc_leaf, NULL));
}

/* ---- issue and parse ------------------------------------------------------ */

START_TEST(test_issue_fields)
{
	const struct ota_dlgc *c = &c_leaf.dlgc;
	struct ota_constraints cl = base();
	uint8_t digest[32], want[32];

	cl.svn_min = 12;
	cl.svn_max = 15;
	cl.usage.lifecycle_mask = 1u << OTA_LC_DEV;
	cl.usage.flags = OTA_CAP_TAG_BOOT;
	ck_assert_uint_eq(c->hdr.type, OTA_EXT_DLGC);
	ck_assert_uint_eq(c->hdr.version, 1);
	ck_assert_uint_eq(c->hdr.length, sizeof(*c));
	ck_assert_uint_eq(c->cert_type, OTA_CERT_LEAF);
	ck_assert_mem_eq(c->parent_key_id, inter.key_id, 32);
	ck_assert_mem_eq(c->delegate_pubkey, leaf.pub, 64);
	ck_assert_mem_eq(&c->constraints, &cl, sizeof(cl));
	ck_assert(!c_leaf.has_dlgs);
	/* The parent signed SHA-256 of bytes [0, 160), recomputed with OpenSSL. */
	tu_sha256(c, OTA_DLGC_SIGNED_BYTES, want);
	ota_dlgc_digest(c, digest);
	ck_assert_mem_eq(digest, want, 32);
	EXPECT(oti_ecdsa_verify(inter.pub, digest, c->signature), OTA_OK);
	EXPECT(oti_ecdsa_verify(root.pub, digest, c->signature), OTA_SIG_ECDSA_INVALID);
}
END_TEST

START_TEST(test_issue_hybrid_dlgs)
{
	uint8_t msg[OTA_DLGS_MSG_BYTES];

	ck_assert(hc_leaf.has_dlgs);
	ck_assert_uint_eq(hc_leaf.dlgs.hdr.type, OTA_EXT_DLGS);
	ck_assert_uint_eq(hc_leaf.dlgs.hdr.length, sizeof(struct ota_dlgs));
	ck_assert_mem_eq(hc_leaf.dlgs.delegate_key_id, hleaf.key_id, 32);
	ck_assert_mem_eq(hc_leaf.dlgs.delegate_spx_pubkey, hleaf.spx_pk, 32);
	/* The SLH-DSA message is DLGC[0, 160) || delegate SLH-DSA key. */
	ota_dlgs_message(&hc_leaf.dlgc, hleaf.spx_pk, msg);
	ck_assert_mem_eq(msg, &hc_leaf.dlgc, 160);
	ck_assert_mem_eq(msg + 160, hleaf.spx_pk, 32);
	EXPECT(ota_slhdsa_verify(hroot.spx_pk, msg, sizeof(msg), hc_leaf.dlgs.signature), OTA_OK);
	msg[3] ^= 1;
	EXPECT(ota_slhdsa_verify(hroot.spx_pk, msg, sizeof(msg), hc_leaf.dlgs.signature),
	       OTA_SLHDSA_INVALID);
	EXPECT(ota_dlgs_check(&hc_leaf.dlgc, (const uint8_t *)&hc_leaf.dlgs, sizeof(hc_leaf.dlgs)),
	       OTA_OK);
	/*
	 * A hybrid root with an ECDSA-only delegate: the device requires a DLGS
	 * of every certificate under a hybrid root, so otimage refuses it with
	 * the device's status; unchecked, it is issued without one.
	 */
	{
		struct oti_cert c;
		struct ota_constraints k = base();

		ck_assert_uint_eq(oti_cert_issue(&hroot, NULL, &leaf, OTA_CERT_LEAF, &k, 0, &c, NULL),
				  OTA_DELEG_CERT_SPX_MISSING);
		ck_assert_uint_eq(oti_cert_issue(&hroot, NULL, &leaf, OTA_CERT_LEAF, &k, OTI_UNCHECKED,
						 &c, NULL),
				  OTA_OK);
		ck_assert(!c.has_dlgs);
	}
}
END_TEST

START_TEST(test_cert_file_roundtrip)
{
	const struct oti_cert *certs[] = { &c_inter, &c_leaf, &hc_leaf };
	size_t i;

	for (i = 0; i < 3; i++) {
		size_t len = oti_cert_encoded_len(certs[i]);
		uint8_t *b = malloc(len);
		struct oti_cert back;

		ck_assert_uint_eq(len, certs[i]->has_dlgs ? 224 + 7936 : 224);
		oti_cert_encode(certs[i], b);
		EXPECT(oti_cert_parse(b, len, &back, NULL), OTA_OK);
		ck_assert_mem_eq(&back.dlgc, &certs[i]->dlgc, sizeof(back.dlgc));
		ck_assert_int_eq(back.has_dlgs, certs[i]->has_dlgs);
		if (back.has_dlgs)
			ck_assert_mem_eq(&back.dlgs, &certs[i]->dlgs, sizeof(back.dlgs));
		free(b);
	}
}
END_TEST

START_TEST(test_cert_file_refusals)
{
	uint8_t b[224 + 7936 + 1];
	struct oti_cert back;
	struct oti_diag d;
	size_t n;

	oti_cert_encode(&hc_leaf, b);
	/* Truncated anywhere. */
	for (n = 0; n < 224; n += 16)
		EXPECT(oti_cert_parse(b, n, &back, NULL), OTA_CERT_BAD_SIZE);
	EXPECT(oti_cert_parse(b, 223, &back, NULL), OTA_CERT_BAD_SIZE);
	EXPECT(oti_cert_parse(b, 225, &back, NULL), OTA_CERT_BAD_SIZE);
	EXPECT(oti_cert_parse(b, 224 + 7935, &back, NULL), OTA_CERT_BAD_SIZE);
	EXPECT(oti_cert_parse(b, 224 + 7936 + 1, &back, NULL), OTA_CERT_BAD_SIZE);
	/* Bad magic and version, named as such. */
	b[0] ^= 1;
	oti_diag_clear(&d);
	EXPECT(oti_cert_parse(b, 224, &back, &d), OTA_CERT_BAD_MAGIC);
	ck_assert_str_eq(d.field, "dlgc.type");
	b[0] ^= 1;
	b[4] = 9;
	EXPECT(oti_cert_parse(b, 224, &back, NULL), OTA_CERT_BAD_VERSION);
	b[4] = 1;
	/* A DLGS that belongs to another certificate. */
	b[224 + 16] ^= 1;
	EXPECT(oti_cert_parse(b, sizeof(b) - 1, &back, NULL), OTA_CERT_SPX_MISMATCH);
	b[224 + 16] ^= 1;
	b[224 + 8] = 1; /* DLGS length field */
	EXPECT(oti_cert_parse(b, sizeof(b) - 1, &back, NULL), OTA_CERT_BAD_SIZE);
}
END_TEST

/* ---- DLGC / DLGS structure ---------------------------------------------- */

START_TEST(test_dlgc_check)
{
	struct ota_dlgc c;

#define DLGC(stmt, want)        \
	c = c_leaf.dlgc;         \
	stmt;                    \
	EXPECT(ota_dlgc_check(&c), want)

	DLGC((void)0, OTA_OK);
	DLGC(c.hdr.type = OTA_EXT_DLGS, OTA_CERT_BAD_MAGIC);
	DLGC(c.hdr.version = 0, OTA_CERT_BAD_VERSION);
	DLGC(c.hdr.length = 225, OTA_CERT_BAD_SIZE);
	DLGC(c.hdr.reserved = 1, OTA_CERT_RESERVED_NONZERO);
	DLGC(c.hdr.reserved2 = 1, OTA_CERT_RESERVED_NONZERO);
	DLGC(c.reserved = 0x80000000u, OTA_CERT_RESERVED_NONZERO);
	DLGC(c.cert_type = OTA_CERT_LEAF + 1, OTA_CERT_BAD_TYPE);
	DLGC(c.constraints.svn_min = 16, OTA_CERT_BAD_CONSTRAINTS);
	DLGC(c.constraints.svn_max = 256, OTA_CERT_BAD_CONSTRAINTS);
	DLGC(c.constraints.usage.slot_mask = 0, OTA_CERT_BAD_CONSTRAINTS);
	DLGC(c.constraints.usage.flags = 8, OTA_CERT_BAD_CONSTRAINTS);
	DLGC(c.constraints.usage.device_id[3] = 1, OTA_CERT_BAD_CONSTRAINTS);
#undef DLGC
}
END_TEST

START_TEST(test_dlgs_check)
{
	struct ota_dlgs s;

#define DLGS(stmt, want)                                                       \
	s = hc_leaf.dlgs;                                                       \
	stmt;                                                                   \
	EXPECT(ota_dlgs_check(&hc_leaf.dlgc, (const uint8_t *)&s, sizeof(s)), want)

	DLGS((void)0, OTA_OK);
	DLGS(s.hdr.type = OTA_EXT_DLGC, OTA_CERT_BAD_MAGIC);
	DLGS(s.hdr.version = 2, OTA_CERT_BAD_VERSION);
	DLGS(s.hdr.length = 16, OTA_CERT_BAD_SIZE);
	DLGS(s.hdr.reserved = 1, OTA_CERT_RESERVED_NONZERO);
	DLGS(s.delegate_key_id[31] ^= 1, OTA_CERT_SPX_MISMATCH);
#undef DLGS
	EXPECT(ota_dlgs_check(&hc_leaf.dlgc, (const uint8_t *)&hc_leaf.dlgs, 15), OTA_CERT_BAD_SIZE);
	EXPECT(ota_dlgs_check(&hc_leaf.dlgc, (const uint8_t *)&hc_leaf.dlgs, 7935), OTA_CERT_BAD_SIZE);
	/* The DLGS of one certificate against another's DLGC. */
	EXPECT(ota_dlgs_check(&c_leaf.dlgc, (const uint8_t *)&hc_leaf.dlgs, sizeof(hc_leaf.dlgs)),
	       OTA_CERT_SPX_MISMATCH);
}
END_TEST

START_TEST(test_usage_and_constraints_valid)
{
	struct ota_constraints c = base();

	ck_assert(ota_constraints_valid(&c));
	c.svn_min = c.svn_max;
	ck_assert(ota_constraints_valid(&c));
	c.svn_min = 0;
	c.svn_max = OTA_SVN_LIMIT;
	ck_assert(ota_constraints_valid(&c));
	c.usage.slot_mask = 1;
	c.usage.lifecycle_mask = 1u << OTA_LC_RMA;
	c.usage.flags = 0;
	c.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(c.usage.device_id, dev_a, 16);
	ck_assert(ota_constraints_valid(&c));
	c.usage.device_binding = 7;
	ck_assert(!ota_usage_valid(&c.usage));
}
END_TEST

/* ---- containment ---------------------------------------------------------- */

START_TEST(test_containment_equal_and_narrower)
{
	struct ota_constraints p = base(), c = base();

	EXPECT(ota_constraints_contained(&p, &c), OTA_OK);
	c.svn_min = 11;
	c.svn_max = 19;
	c.usage.slot_mask = 1u << OTA_SLOT_B;
	c.usage.lifecycle_mask = 1u << OTA_LC_PROD;
	c.usage.flags = 0;
	c.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(c.usage.device_id, dev_a, 16);
	EXPECT(ota_constraints_contained(&p, &c), OTA_OK);
}
END_TEST

START_TEST(test_containment_each_widening)
{
	struct ota_constraints p = base(), c;

#define WIDER(stmt, want)                                   \
	c = p;                                              \
	stmt;                                               \
	EXPECT(ota_constraints_contained(&p, &c), want)

	WIDER(c.svn_min = 9, OTA_DELEG_WIDER_SVN_MIN);
	WIDER(c.svn_min = 0, OTA_DELEG_WIDER_SVN_MIN);
	WIDER(c.svn_max = 21, OTA_DELEG_WIDER_SVN_MAX);
	WIDER(c.usage.slot_mask = 0, OTA_OK); /* structure is ota_constraints_valid's job */
	p.usage.slot_mask = 1u << OTA_SLOT_A;
	WIDER(c.usage.slot_mask = OTA_SLOT_MASK_ALL, OTA_DELEG_WIDER_SLOTS);
	WIDER(c.usage.slot_mask = 1u << OTA_SLOT_B, OTA_DELEG_WIDER_SLOTS);
	WIDER(c.usage.lifecycle_mask |= 1u << OTA_LC_RMA, OTA_DELEG_WIDER_LIFECYCLE);
	p.usage.flags = OTA_CAP_TAG_BOOT;
	WIDER(c.usage.flags = OTA_CAP_DEBUG, OTA_DELEG_WIDER_FLAGS);
	WIDER(c.usage.flags = OTA_CAP_ALL, OTA_DELEG_WIDER_FLAGS);
	/* The first widening found is reported: SVN before slots before flags. */
	WIDER((c.svn_max = 30, c.usage.flags = OTA_CAP_ALL), OTA_DELEG_WIDER_SVN_MAX);
#undef WIDER
}
END_TEST

START_TEST(test_containment_device_binding)
{
	struct ota_constraints p = base(), c = base();

	/* A bound parent: the child must stay bound to the same device. */
	p.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(p.usage.device_id, dev_a, 16);
	c = p;
	EXPECT(ota_constraints_contained(&p, &c), OTA_OK);
	memcpy(c.usage.device_id, dev_b, 16);
	EXPECT(ota_constraints_contained(&p, &c), OTA_DELEG_WIDER_DEVICE);
	c.usage.device_binding = OTA_BINDING_ANY;
	memset(c.usage.device_id, 0, 16);
	EXPECT(ota_constraints_contained(&p, &c), OTA_DELEG_WIDER_DEVICE);
	/* An unknown binding value never counts as narrower. */
	c = p;
	c.usage.device_binding = 9;
	EXPECT(ota_constraints_contained(&p, &c), OTA_DELEG_WIDER_DEVICE);
}
END_TEST

START_TEST(test_image_within_leaf)
{
	struct ota_constraints l = base();
	struct ota_usage u = l.usage;

	EXPECT(ota_image_within(&l, 10, &u), OTA_OK);
	EXPECT(ota_image_within(&l, 20, &u), OTA_OK);
	EXPECT(ota_image_within(&l, 9, &u), OTA_IMAGE_SVN_BELOW_LEAF);
	EXPECT(ota_image_within(&l, 21, &u), OTA_IMAGE_SVN_ABOVE_LEAF);
	l.usage.slot_mask = 1;
	EXPECT(ota_image_within(&l, 15, &u), OTA_IMAGE_SLOTS_OUTSIDE_LEAF);
	u.slot_mask = 1;
	u.lifecycle_mask |= 1u << OTA_LC_TEST_UNLOCKED;
	EXPECT(ota_image_within(&l, 15, &u), OTA_IMAGE_LIFECYCLE_OUTSIDE_LEAF);
	u.lifecycle_mask = l.usage.lifecycle_mask;
	l.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(l.usage.device_id, dev_a, 16);
	EXPECT(ota_image_within(&l, 15, &u), OTA_IMAGE_DEVICE_OUTSIDE_LEAF);
	u.device_binding = OTA_BINDING_DEVICE;
	memcpy(u.device_id, dev_a, 16);
	EXPECT(ota_image_within(&l, 15, &u), OTA_OK);
	l.usage.flags = 0;
	EXPECT(ota_image_within(&l, 15, &u), OTA_IMAGE_FLAGS_OUTSIDE_LEAF);
}
END_TEST

/* ---- chain check ---------------------------------------------------------- */

static struct ota_manifest manifest_for(const struct oti_key *signer, uint32_t svn)
{
	struct ota_manifest m;

	memset(&m, 0, sizeof(m));
	m.identifier = OTA_ID_BL0;
	m.security_version = svn;
	m.usage = c_leaf.dlgc.constraints.usage;
	memcpy(m.signer_key_id, signer->key_id, 32);
	return m;
}

START_TEST(test_chain_ok_each_depth)
{
	struct ota_dlgc two[2] = { c_inter.dlgc, c_leaf.dlgc }, one[1] = { c_root_leaf.dlgc };
	struct ota_manifest m = manifest_for(&leaf, 13), d = manifest_for(&root, 3);
	struct ota_chain_info info;

	EXPECT(ota_chain_check(&m, root.key_id, two, 2, &info), OTA_OK);
	ck_assert_uint_eq(info.depth, 2);
	EXPECT(ota_chain_check(&m, root.key_id, one, 1, &info), OTA_OK);
	ck_assert_uint_eq(info.depth, 1);
	ck_assert_mem_eq(info.key_ids[1], leaf.key_id, 32);
	ck_assert(ota_all_zero(info.key_ids[2], 32));
	EXPECT(ota_chain_check(&d, root.key_id, NULL, 0, &info), OTA_OK);
	ck_assert_uint_eq(info.depth, 0);
	ck_assert_uint_eq(info.effective.svn_min, 0);
	ck_assert_uint_eq(info.effective.svn_max, OTA_SVN_LIMIT);
	ck_assert_ptr_eq(ota_chain_root_id(&d, NULL, 0), d.signer_key_id);
	ck_assert_ptr_eq(ota_chain_root_id(&m, two, 2), two[0].parent_key_id);
	EXPECT(ota_chain_check(&m, root.key_id, two, 2, NULL), OTA_OK);
}
END_TEST

START_TEST(test_chain_shape)
{
	struct ota_dlgc c[3] = { c_inter.dlgc, c_leaf.dlgc, c_leaf.dlgc };
	struct ota_manifest m = manifest_for(&leaf, 13);
	struct ota_manifest mi = manifest_for(&inter, 13);

	EXPECT(ota_chain_check(&m, root.key_id, c, 3, NULL), OTA_DELEG_BAD_CHAIN_SHAPE);
	/* One certificate must be a leaf. */
	EXPECT(ota_chain_check(&mi, root.key_id, &c[0], 1, NULL), OTA_DELEG_BAD_CHAIN_SHAPE);
	/* Two must be intermediate then leaf. */
	c[0] = c_root_leaf.dlgc;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_DELEG_BAD_CHAIN_SHAPE);
	c[0] = c_inter.dlgc;
	c[1] = c_inter.dlgc;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_DELEG_BAD_CHAIN_SHAPE);
	/* A structurally bad certificate is refused as such first. */
	c[1] = c_leaf.dlgc;
	c[1].reserved = 1;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_CERT_RESERVED_NONZERO);
}
END_TEST

START_TEST(test_chain_links)
{
	struct ota_dlgc c[2] = { c_inter.dlgc, c_leaf.dlgc };
	struct ota_manifest m = manifest_for(&leaf, 13);

	/* The first certificate is not issued by this root. */
	EXPECT(ota_chain_check(&m, other.key_id, c, 2, NULL), OTA_DELEG_PARENT_MISMATCH);
	/* The second names another parent than the first's delegate. */
	c[1].parent_key_id[0] ^= 1;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_DELEG_PARENT_MISMATCH);
	c[1] = c_leaf.dlgc;
	/* Signed by someone other than the leaf. */
	m = manifest_for(&inter, 13);
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_DELEG_SIGNER_MISMATCH);
	m = manifest_for(&root, 13);
	EXPECT(ota_chain_check(&m, other.key_id, NULL, 0, NULL), OTA_DELEG_SIGNER_MISMATCH);
}
END_TEST

START_TEST(test_chain_containment_and_image)
{
	struct ota_dlgc c[2] = { c_inter.dlgc, c_leaf.dlgc };
	struct ota_manifest m = manifest_for(&leaf, 13);

	/* A leaf wider than its intermediate (signatures aside, the check is structural). */
	c[1].constraints.svn_max = 25;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_DELEG_WIDER_SVN_MAX);
	c[1] = c_leaf.dlgc;
	m.security_version = 16;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_IMAGE_SVN_ABOVE_LEAF);
	m.security_version = 13;
	m.usage.flags = OTA_CAP_ALL;
	EXPECT(ota_chain_check(&m, root.key_id, c, 2, NULL), OTA_IMAGE_FLAGS_OUTSIDE_LEAF);
}
END_TEST

START_TEST(test_floor_revokes_delegate)
{
	struct ota_dlgc c[2] = { c_inter.dlgc, c_leaf.dlgc };

	EXPECT(ota_chain_floor_check(c, 2, 0), OTA_OK);
	EXPECT(ota_chain_floor_check(c, 2, 15), OTA_OK);  /* the leaf's ceiling */
	EXPECT(ota_chain_floor_check(c, 2, 16), OTA_DELEG_REVOKED_BY_FLOOR);
	EXPECT(ota_chain_floor_check(c, 1, 16), OTA_OK);  /* the intermediate alone reaches 20 */
	EXPECT(ota_chain_floor_check(c, 1, 21), OTA_DELEG_REVOKED_BY_FLOOR);
	EXPECT(ota_chain_floor_check(NULL, 0, 255), OTA_OK);
}
END_TEST

/* ---- issuing refuses what the device would refuse --------------------------- */

START_TEST(test_issue_refuses_wider_child)
{
	struct ota_constraints c = c_inter.dlgc.constraints;
	struct oti_cert out;
	struct oti_diag d;

	c.svn_min -= 1;
	oti_diag_clear(&d);
	EXPECT(oti_cert_issue(&inter, &c_inter, &leaf, OTA_CERT_LEAF, &c, 0, &out, &d),
	       OTA_DELEG_WIDER_SVN_MIN);
	ck_assert_str_eq(d.field, "constraints.svn_min");
	c = c_inter.dlgc.constraints;
	c.usage.lifecycle_mask = OTA_LC_MASK_ALL;
	EXPECT(oti_cert_issue(&inter, &c_inter, &leaf, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_DELEG_WIDER_LIFECYCLE);
	/* ...unless a fixture asks for it explicitly. */
	EXPECT(oti_cert_issue(&inter, &c_inter, &leaf, OTA_CERT_LEAF, &c, OTI_UNCHECKED, &out, NULL),
	       OTA_OK);
	ck_assert_uint_eq(out.dlgc.constraints.usage.lifecycle_mask, OTA_LC_MASK_ALL);
}
END_TEST

START_TEST(test_issue_refuses_bad_shapes)
{
	struct ota_constraints c = c_leaf.dlgc.constraints;
	struct oti_cert out;

	/* Below a leaf nothing may follow. */
	EXPECT(oti_cert_issue(&leaf, &c_leaf, &other, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_DELEG_BAD_CHAIN_SHAPE);
	/* Below an intermediate only a leaf. */
	EXPECT(oti_cert_issue(&inter, &c_inter, &other, OTA_CERT_INTERMEDIATE, &c, 0, &out, NULL),
	       OTA_DELEG_BAD_CHAIN_SHAPE);
	/* The parent key must be the parent certificate's delegate. */
	EXPECT(oti_cert_issue(&other, &c_inter, &leaf, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_TOOL_KEY_MISMATCH);
	EXPECT(oti_cert_issue(&root, NULL, &leaf, 0x1234, &c, 0, &out, NULL), OTA_CERT_BAD_TYPE);
	c.svn_min = 30;
	EXPECT(oti_cert_issue(&root, NULL, &leaf, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_CERT_BAD_CONSTRAINTS);
	c = c_leaf.dlgc.constraints;
	/* A hybrid delegate's SLH-DSA key can only be vouched for by a hybrid parent. */
	EXPECT(oti_cert_issue(&root, NULL, &hleaf, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_TOOL_HYBRID_PARENT);
	/* And only a private key signs. */
	EXPECT(oti_cert_issue(&root_pub, NULL, &leaf, OTA_CERT_LEAF, &c, 0, &out, NULL),
	       OTA_TOOL_KEY_NOT_PRIVATE);
}
END_TEST

static Suite *cert_suite(void)
{
	Suite *s = suite_create("formats_cert");
	TCase *io = tcase_create("issue_parse");
	TCase *st = tcase_create("structure");
	TCase *ct = tcase_create("containment");
	TCase *ch = tcase_create("chain");

	tcase_add_test(io, test_issue_fields);
	tcase_add_test(io, test_issue_hybrid_dlgs);
	tcase_add_test(io, test_cert_file_roundtrip);
	tcase_add_test(io, test_cert_file_refusals);
	tcase_add_test(io, test_issue_refuses_wider_child);
	tcase_add_test(io, test_issue_refuses_bad_shapes);
	tcase_set_timeout(io, 60);
	suite_add_tcase(s, io);
	tcase_add_test(st, test_dlgc_check);
	tcase_add_test(st, test_dlgs_check);
	tcase_add_test(st, test_usage_and_constraints_valid);
	suite_add_tcase(s, st);
	tcase_add_test(ct, test_containment_equal_and_narrower);
	tcase_add_test(ct, test_containment_each_widening);
	tcase_add_test(ct, test_containment_device_binding);
	tcase_add_test(ct, test_image_within_leaf);
	suite_add_tcase(s, ct);
	tcase_add_test(ch, test_chain_ok_each_depth);
	tcase_add_test(ch, test_chain_shape);
	tcase_add_test(ch, test_chain_links);
	tcase_add_test(ch, test_chain_containment_and_image);
	tcase_add_test(ch, test_floor_revokes_delegate);
	suite_add_tcase(s, ch);
	return s;
}

OTA_TEST_MAIN_PREPARED(build_fixtures(), cert_suite)
