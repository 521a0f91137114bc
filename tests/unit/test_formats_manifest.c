// SPDX-License-Identifier: MIT
/*
 * The image manifest and its extension table: images built with
 * libotimage parse back to the same fields, and every structural rule of
 * manifest.h refuses with its own status (and names the extension).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/deleg.h>
#include <otattest/manifest.h>

#include "../../libotattest/tools/otimage/otimage.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_check.h"
#include "tu_main.h"

/* Fixtures, built once in main() and inherited by every forked test. */
static struct oti_key root, inter, leaf, hroot, hinter, hleaf;
static struct oti_cert c_inter, c_leaf, hc_inter, hc_leaf;
static uint8_t payload[777];
static const uint8_t salt[32] = { 0x5a, 0x17, [31] = 0x99 };
static uint8_t *img_direct, *img_chain, *img_hybrid, *img_unknown;
static size_t len_direct, len_chain, len_hybrid, len_unknown;
static const uint8_t unknown_body[40] = { 1, 2, 3 };

static struct oti_image_params base_params(void)
{
	struct oti_image_params p;

	memset(&p, 0, sizeof(p));
	p.identifier = OTA_ID_BL0;
	p.security_version = 7;
	p.max_key_version = 12;
	p.usage.slot_mask = OTA_SLOT_MASK_ALL;
	p.usage.lifecycle_mask = (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD);
	p.usage.flags = OTA_CAP_TAG_BOOT;
	p.usage.device_binding = OTA_BINDING_ANY;
	p.payload = payload;
	p.payload_len = sizeof(payload);
	return p;
}

static struct ota_constraints wide(void)
{
	struct ota_constraints c;

	memset(&c, 0, sizeof(c));
	c.svn_min = 1;
	c.svn_max = 50;
	c.usage.slot_mask = OTA_SLOT_MASK_ALL;
	c.usage.lifecycle_mask = OTA_LC_MASK_ALL;
	c.usage.flags = OTA_CAP_ALL;
	c.usage.device_binding = OTA_BINDING_ANY;
	return c;
}

static void build_fixtures(void)
{
	struct ota_constraints ci = wide(), cl = wide();
	struct oti_image_params p = base_params();
	struct oti_raw_ext extra[2] = {
		{ OTA_FOURCC('Z', 'Z', 'Z', '1'), 0, true, unknown_body, sizeof(unknown_body) },
		{ OTA_FOURCC('Z', 'Z', 'Z', '2'), 0, false, unknown_body, 8 },
	};
	struct oti_cert chain[2], hchain[2];
	size_t i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 3);
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &root, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &inter, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &leaf, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hroot, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hinter, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hleaf, NULL));

	cl.svn_min = 5;
	cl.svn_max = 9;
	FIX(oti_cert_issue(&root, NULL, &inter, OTA_CERT_INTERMEDIATE, &ci, 0,
					 &c_inter, NULL));
	FIX(oti_cert_issue(&inter, &c_inter, &leaf, OTA_CERT_LEAF, &cl, 0, &c_leaf,
					 NULL));
	FIX(oti_cert_issue(&hroot, NULL, &hinter, OTA_CERT_INTERMEDIATE, &ci, 0,
					 &hc_inter, NULL));
	FIX(oti_cert_issue(&hinter, &hc_inter, &hleaf, OTA_CERT_LEAF, &cl, 0,
					 &hc_leaf, NULL));

	p.has_salt = true;
	memcpy(p.salt, salt, sizeof(salt));
	FIX(oti_image_build(&p, &root, NULL, 0, &img_direct, &len_direct, NULL));
	p.has_salt = false;
	chain[0] = c_inter;
	chain[1] = c_leaf;
	FIX(oti_image_build(&p, &leaf, chain, 2, &img_chain, &len_chain, NULL));
	hchain[0] = hc_inter;
	hchain[1] = hc_leaf;
	p.has_salt = true;
	FIX(oti_image_build(&p, &hleaf, hchain, 2, &img_hybrid, &len_hybrid, NULL));
	p.extra = extra;
	p.extra_count = 2;
	FIX(oti_image_build(&p, &root, NULL, 0, &img_unknown, &len_unknown, NULL));
}

/* A private, writable copy of a fixture (each test mutates its own). */
static uint8_t *dup_img(const uint8_t *img, size_t len)
{
	uint8_t *b = malloc(len + 64);

	ck_assert_ptr_nonnull(b);
	memset(b, 0xee, len + 64);
	memcpy(b, img, len);
	return b;
}

/* Manifest of a copy: images start at malloc alignment, so this is aligned. */
static struct ota_manifest *man(uint8_t *img)
{
	return (struct ota_manifest *)(void *)img;
}

/* Edit an extension header in place; headers may sit at any alignment. */
#define SET_HDR(img, i, assign)                                              \
	do {                                                                 \
		struct ota_ext_header h_;                                    \
		uint8_t *p_ = (img) + man(img)->ext[i].offset;               \
		memcpy(&h_, p_, sizeof(h_));                                 \
		h_.assign;                                                   \
		memcpy(p_, &h_, sizeof(h_));                                 \
	} while (0)

static ota_status_t parse(const uint8_t *img, size_t len, struct ota_image_view *v)
{
	return ota_image_parse(img, (uint32_t)len, v);
}

static void expect(const uint8_t *img, size_t len, ota_status_t want)
{
	struct ota_image_view v;
	ota_status_t st = parse(img, len, &v);

	ck_assert_msg(st == want, "got %s, want %s", ota_status_name(st), ota_status_name(want));
	if (want != OTA_OK)
		ck_assert_ptr_null(v.image); /* nothing usable handed out on failure */
}

static void expect_ext(const uint8_t *img, size_t len, ota_status_t want, uint32_t index)
{
	struct ota_image_view v;
	ota_status_t st = parse(img, len, &v);

	ck_assert_msg(st == want, "got %s, want %s", ota_status_name(st), ota_status_name(want));
	ck_assert_uint_eq(v.bad_ext, index);
}

/* Index of the first extension of a type in a fixture. */
static uint32_t ext_index(const uint8_t *img, uint32_t type)
{
	const struct ota_manifest *m = (const struct ota_manifest *)(const void *)img;
	uint32_t i;

	for (i = 0; i < m->ext_count; i++)
		if (m->ext[i].type == type)
			return i;
	ck_abort_msg("no such extension");
	return 0;
}

/* ---- round trips -------------------------------------------------------- */

static void check_common_fields(const struct ota_image_view *v, const struct oti_key *signer)
{
	const struct ota_manifest *m = &v->manifest;
	struct oti_image_params p = base_params();
	uint8_t want[32], got[32];

	ck_assert_uint_eq(m->identifier, p.identifier);
	ck_assert_uint_eq(m->security_version, p.security_version);
	ck_assert_uint_eq(m->max_key_version, p.max_key_version);
	ck_assert_mem_eq(&m->usage, &p.usage, sizeof(p.usage));
	ck_assert_mem_eq(m->signer_key_id, signer->key_id, 32);
	ck_assert_uint_eq(m->payload_offset, sizeof(struct ota_manifest));
	ck_assert_uint_eq(m->payload_length, sizeof(payload));
	ck_assert_mem_eq(v->image + m->payload_offset, payload, sizeof(payload));
	/* The measurement, recomputed independently with OpenSSL. */
	tu_sha256(v->image + 64, m->signed_end - 64, want);
	ota_image_measure(v, got);
	ck_assert_mem_eq(got, want, 32);
	/* ...and it is what the ECDSA signature covers. */
	ck_assert_uint_eq(oti_ecdsa_verify(signer->pub, want, v->image), OTA_OK);
}

START_TEST(test_roundtrip_direct)
{
	struct ota_image_view v;
	struct ota_root_key r;

	ck_assert_uint_eq(parse(img_direct, len_direct, &v), OTA_OK);
	ck_assert_ptr_eq(v.image, img_direct);
	ck_assert_uint_eq(v.length, len_direct);
	check_common_fields(&v, &root);
	ck_assert_uint_eq(v.cert_count, 0);
	ck_assert_uint_eq(v.spxs_offset, 0);
	ck_assert_uint_ne(v.salt_offset, 0);
	ck_assert_mem_eq(img_direct + v.salt_offset + 16, salt, 32);
	/* The SALT is signed: the signed region ends after it. */
	ck_assert_uint_eq(v.manifest.signed_end, v.salt_offset + sizeof(struct ota_ext_salt));
	ck_assert_uint_eq(v.manifest.signed_end, len_direct);
	oti_key_root_entry(&root, OTA_LC_MASK_ALL, &r);
	ck_assert_uint_eq(tu_verify(img_direct, len_direct, &r), OTA_OK);
}
END_TEST

START_TEST(test_roundtrip_two_delegates)
{
	struct ota_image_view v;
	struct ota_dlgc c;
	struct ota_chain_info info;
	struct ota_root_key r;

	ck_assert_uint_eq(parse(img_chain, len_chain, &v), OTA_OK);
	check_common_fields(&v, &leaf);
	ck_assert_uint_eq(v.cert_count, 2);
	ck_assert_uint_eq(v.cert_spx_offset[0], 0);
	ck_assert_uint_eq(v.salt_offset, 0);
	ck_assert_uint_eq(ota_dlgc_read(&v, 0, &c), OTA_OK);
	ck_assert_mem_eq(&c, &c_inter.dlgc, sizeof(c));
	ck_assert_uint_eq(ota_dlgc_read(&v, 1, &c), OTA_OK);
	ck_assert_mem_eq(&c, &c_leaf.dlgc, sizeof(c));
	ck_assert_uint_eq(ota_dlgc_read(&v, 2, &c), OTA_EXT_NO_SUCH_CERT);
	ck_assert_uint_eq(ota_dlgs_header_check(&v, 0), OTA_DELEG_CERT_SPX_MISSING);
	/* Certificates are unsigned: the signed region ends with the payload. */
	ck_assert_uint_eq(v.manifest.signed_end, sizeof(struct ota_manifest) + sizeof(payload));
	{
		struct ota_dlgc certs[2] = { c_inter.dlgc, c_leaf.dlgc };

		ck_assert_uint_eq(ota_chain_check(&v.manifest, root.key_id, certs, 2, &info), OTA_OK);
		ck_assert_uint_eq(info.depth, 2);
		ck_assert_mem_eq(info.key_ids[0], root.key_id, 32);
		ck_assert_mem_eq(info.key_ids[1], inter.key_id, 32);
		ck_assert_mem_eq(info.key_ids[2], leaf.key_id, 32);
		ck_assert_uint_eq(info.effective.svn_min, 5);
		ck_assert_uint_eq(info.effective.svn_max, 9);
	}
	oti_key_root_entry(&root, OTA_LC_MASK_ALL, &r);
	ck_assert_uint_eq(tu_verify(img_chain, len_chain, &r), OTA_OK);
}
END_TEST

START_TEST(test_roundtrip_hybrid)
{
	struct ota_image_view v;
	struct ota_root_key r;
	uint8_t m[32], sb[32], want[32];
	EVP_MD_CTX *ctx;
	unsigned int n;

	ck_assert_uint_eq(parse(img_hybrid, len_hybrid, &v), OTA_OK);
	check_common_fields(&v, &hleaf);
	ck_assert_uint_eq(v.cert_count, 2);
	ck_assert_uint_ne(v.cert_spx_offset[0], 0);
	ck_assert_uint_ne(v.cert_spx_offset[1], 0);
	ck_assert_uint_ne(v.spxs_offset, 0);
	ck_assert_uint_eq(ota_dlgs_header_check(&v, 0), OTA_OK);
	ck_assert_uint_eq(ota_dlgs_header_check(&v, 1), OTA_OK);
	ck_assert_mem_eq(img_hybrid + v.cert_spx_offset[0], &hc_inter.dlgs, sizeof(hc_inter.dlgs));
	ck_assert_mem_eq(img_hybrid + v.cert_spx_offset[1], &hc_leaf.dlgs, sizeof(hc_leaf.dlgs));
	ck_assert_uint_eq(len_hybrid, v.manifest.signed_end + 2 * sizeof(struct ota_dlgc) +
					      2 * sizeof(struct ota_dlgs) + sizeof(struct ota_spxs));
	/* The signature block: [0, 64) || [signed_end, image_length), via OpenSSL. */
	ctx = EVP_MD_CTX_new();
	ck_assert_int_eq(EVP_DigestInit_ex(ctx, EVP_sha256(), NULL), 1);
	ck_assert_int_eq(EVP_DigestUpdate(ctx, img_hybrid, 64), 1);
	ck_assert_int_eq(EVP_DigestUpdate(ctx, img_hybrid + v.manifest.signed_end,
					  len_hybrid - v.manifest.signed_end), 1);
	ck_assert_int_eq(EVP_DigestFinal_ex(ctx, want, &n), 1);
	EVP_MD_CTX_free(ctx);
	ota_image_sigblock_digest(&v, sb);
	ck_assert_mem_eq(sb, want, 32);
	ota_image_measure(&v, m);
	ck_assert_mem_ne(m, sb, 32);
	oti_key_root_entry(&hroot, OTA_LC_MASK_ALL, &r);
	ck_assert_uint_eq(tu_verify(img_hybrid, len_hybrid, &r), OTA_OK);
}
END_TEST

START_TEST(test_image_in_larger_slot)
{
	/* A slot is larger than its image: trailing erased bytes are not the image's. */
	uint8_t *b = malloc(len_chain + 4096);
	struct ota_image_view v;

	memcpy(b, img_chain, len_chain);
	memset(b + len_chain, 0xff, 4096);
	ck_assert_uint_eq(parse(b, len_chain + 4096, &v), OTA_OK);
	ck_assert_uint_eq(v.length, len_chain);
	free(b);
}
END_TEST

START_TEST(test_unknown_noncritical_skipped)
{
	struct ota_image_view v;
	uint32_t i1 = ext_index(img_unknown, OTA_FOURCC('Z', 'Z', 'Z', '1'));
	uint32_t i2 = ext_index(img_unknown, OTA_FOURCC('Z', 'Z', 'Z', '2'));
	const struct ota_manifest *m = (const struct ota_manifest *)(const void *)img_unknown;

	ck_assert_uint_eq(parse(img_unknown, len_unknown, &v), OTA_OK);
	/* One in each region, both inside the digests' coverage. */
	ck_assert_uint_lt(m->ext[i1].offset, m->signed_end);
	ck_assert_uint_ge(m->ext[i2].offset, m->signed_end);
	ck_assert_uint_ne(v.salt_offset, 0);
}
END_TEST

/* ---- LOAD: where the payload's code runs ------------------------------------ */

/* An image with LOAD (load_address, entry) and extra, unchecked by the builder. */
static uint8_t *load_image(uint32_t load_address, uint32_t entry, const struct oti_raw_ext *extra,
			   uint32_t extra_count, size_t *len)
{
	struct oti_image_params p = base_params();
	uint8_t *img = NULL;

	p.has_load = true;
	p.load.load_address = load_address;
	p.load.entry = entry;
	p.extra = extra;
	p.extra_count = extra_count;
	p.flags = OTI_UNCHECKED;
	FIX(oti_image_build(&p, &root, NULL, 0, &img, len, NULL));
	return img;
}

/* Edit the LOAD extension's body (after its 16-byte header) of an image in place. */
static void set_load_word(uint8_t *img, uint32_t word, uint32_t value)
{
	uint32_t i = ext_index(img, OTA_EXT_LOAD);

	memcpy(img + man(img)->ext[i].offset + 16 + 4 * word, &value, 4);
}

START_TEST(test_load_extension)
{
	static const uint32_t body[4] = { 0x10200000u, 0x10200000u, 0, 0 };
	const uint32_t base = 0x10200000u, n = sizeof(payload);
	const struct oti_raw_ext unsigned_load = { OTA_EXT_LOAD, OTA_EXT_F_CRITICAL, false,
						   (const uint8_t *)body, sizeof(body) };
	const struct oti_raw_ext second_load = { OTA_EXT_LOAD, OTA_EXT_F_CRITICAL, true,
						 (const uint8_t *)body, sizeof(body) };
	struct { uint32_t word, value; ota_status_t want; } bad[] = {
		{ 0, base + 2, OTA_EXT_BAD_LOAD },           /* load address not 4-byte aligned */
		{ 1, base + 5, OTA_EXT_BAD_LOAD },           /* odd entry */
		{ 1, base + n, OTA_EXT_BAD_LOAD },           /* entry just past the payload */
		{ 1, base - 4, OTA_EXT_BAD_LOAD },           /* entry before it */
		{ 0, 0xfffffffcu, OTA_EXT_BAD_LOAD },        /* the span wraps */
		{ 2, 1, OTA_EXT_RESERVED_NONZERO },
		{ 3, 0x80000000u, OTA_EXT_RESERVED_NONZERO },
	};
	struct ota_image_view v;
	struct ota_ext_load l;
	uint8_t *img, *b;
	size_t len, i;

	img = load_image(base, base + 8, NULL, 0, &len);
	ck_assert_uint_eq(parse(img, len, &v), OTA_OK);
	ck_assert_uint_ne(v.load_offset, 0);
	/* Signed: inside the measured region. */
	ck_assert_uint_le(v.load_offset + sizeof(l), v.manifest.signed_end);
	memcpy(&l, img + v.load_offset, sizeof(l));
	ck_assert_uint_eq(l.hdr.type, OTA_EXT_LOAD);
	ck_assert_uint_eq(l.load_address, base);
	ck_assert_uint_eq(l.entry, base + 8);
	/* The last byte of the payload may be the entry's. */
	set_load_word(img, 1, base + ((n - 1) & ~1u));
	ck_assert_uint_eq(parse(img, len, &v), OTA_OK);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b = dup_img(img, len);
		set_load_word(b, 1, base + 8);
		set_load_word(b, bad[i].word, bad[i].value);
		ck_assert_msg(parse(b, len, &v) == bad[i].want, "case %zu: %s", i,
			      ota_status_name(parse(b, len, &v)));
		ck_assert_uint_eq(v.bad_ext, ext_index(b, OTA_EXT_LOAD));
		free(b);
	}
	b = dup_img(img, len);
	SET_HDR(b, ext_index(b, OTA_EXT_LOAD), version = 2);
	expect(b, len, OTA_EXT_BAD_HEADER);
	free(b);
	free(img);
	img = load_image(base, base, &second_load, 1, &len);
	expect(img, len, OTA_EXT_DUPLICATE);
	free(img);
	img = load_image(base, base, &unsigned_load, 1, &len);
	expect(img, len, OTA_EXT_WRONG_REGION);
	free(img);
}
END_TEST

/* ---- truncation ---------------------------------------------------------- */

/* Lengths to cut the hybrid image at: every field and extension boundary. */
static size_t cut_at(int i)
{
	const struct ota_manifest *m = (const struct ota_manifest *)(const void *)img_hybrid;
	static const size_t fixed[] = { 0, 1, 63, 64, 67, 68, 171, 319 };

	if (i < 8)
		return fixed[i];
	if (i == 8)
		return m->payload_offset;                  /* header only */
	if (i == 9)
		return m->payload_offset + m->payload_length - 1;
	if (i == 10)
		return m->signed_end - 1;
	i -= 11;                                           /* each extension: start, mid, end-1 */
	if ((uint32_t)(i / 3) < m->ext_count) {
		const struct ota_ext_entry *e = &m->ext[i / 3];

		return i % 3 == 0 ? e->offset : i % 3 == 1 ? e->offset + 15 : e->offset + e->length - 1;
	}
	return len_hybrid - 1;
}
#define N_CUTS (11 + 3 * 6 + 1)

START_TEST(test_truncated)
{
	size_t n = cut_at(_i);
	uint8_t *b = dup_img(img_hybrid, len_hybrid);

	/* The buffer really ends there: copy into an exactly sized allocation. */
	uint8_t *t = malloc(n ? n : 1);

	memcpy(t, b, n);
	expect(t, n, n < sizeof(struct ota_manifest) ? OTA_MANIFEST_TRUNCATED : OTA_MANIFEST_BAD_LENGTH);
	free(t);
	free(b);
}
END_TEST

START_TEST(test_null_buffer)
{
	expect(NULL, 0, OTA_MANIFEST_TRUNCATED);
	expect(NULL, 1000, OTA_MANIFEST_TRUNCATED);
}
END_TEST

/* ---- header fields ------------------------------------------------------- */

#define MUTATE(fixture, stmt, want)                                   \
	do {                                                          \
		uint8_t *b = dup_img(img_##fixture, len_##fixture);   \
		struct ota_manifest *m = man(b);                      \
		(void)m;                                              \
		stmt;                                                 \
		expect(b, len_##fixture, want);                       \
		free(b);                                              \
	} while (0)

START_TEST(test_bad_magic)
{
	MUTATE(chain, m->magic = OTA_FOURCC('O', 'T', 'A', 'N'), OTA_MANIFEST_BAD_MAGIC);
	MUTATE(chain, m->magic = 0, OTA_MANIFEST_BAD_MAGIC);
	MUTATE(chain, m->magic = 0xffffffffu, OTA_MANIFEST_BAD_MAGIC);
}
END_TEST

START_TEST(test_bad_version)
{
	MUTATE(chain, m->version = 0, OTA_MANIFEST_BAD_VERSION);
	MUTATE(chain, m->version = 2, OTA_MANIFEST_BAD_VERSION);
	MUTATE(chain, m->version = 0xffff, OTA_MANIFEST_BAD_VERSION);
}
END_TEST

START_TEST(test_bad_header_size)
{
	MUTATE(chain, m->header_size = 319, OTA_MANIFEST_BAD_HEADER_SIZE);
	MUTATE(chain, m->header_size = 336, OTA_MANIFEST_BAD_HEADER_SIZE);
	MUTATE(chain, m->header_size = 0, OTA_MANIFEST_BAD_HEADER_SIZE);
}
END_TEST

START_TEST(test_unknown_flags)
{
	MUTATE(chain, m->flags = 1, OTA_MANIFEST_UNKNOWN_FLAGS);
	MUTATE(chain, m->flags = 0x80000000u, OTA_MANIFEST_UNKNOWN_FLAGS);
}
END_TEST

START_TEST(test_reserved_nonzero)
{
	size_t i;

	MUTATE(chain, m->reserved0 = 1, OTA_MANIFEST_RESERVED_NONZERO);
	for (i = 0; i < sizeof(((struct ota_manifest *)0)->version_string); i++)
		MUTATE(chain, m->version_string[i] = 0x01, OTA_MANIFEST_BAD_VERSION_STRING);
}
END_TEST

START_TEST(test_bad_image_length)
{
	MUTATE(chain, m->image_length = (uint32_t)len_chain + 1, OTA_MANIFEST_BAD_LENGTH);
	MUTATE(chain, m->image_length = 0xffffffffu, OTA_MANIFEST_BAD_LENGTH);
	MUTATE(chain, m->image_length = 319, OTA_MANIFEST_BAD_LENGTH);
	MUTATE(chain, m->image_length = 0, OTA_MANIFEST_BAD_LENGTH);
	/* Shorter but still holding the header: the extensions now stick out. */
	MUTATE(chain, m->image_length = m->signed_end, OTA_EXT_BAD_RANGE);
}
END_TEST

START_TEST(test_bad_signed_region)
{
	MUTATE(chain, m->signed_end = 319, OTA_MANIFEST_BAD_SIGNED_REGION);
	MUTATE(chain, m->signed_end = 0, OTA_MANIFEST_BAD_SIGNED_REGION);
	MUTATE(chain, m->signed_end = m->image_length + 1, OTA_MANIFEST_BAD_SIGNED_REGION);
	MUTATE(chain, m->signed_end = 0xffffffffu, OTA_MANIFEST_BAD_SIGNED_REGION);
}
END_TEST

START_TEST(test_bad_payload)
{
	MUTATE(chain, m->payload_offset = 321, OTA_MANIFEST_BAD_PAYLOAD);
	MUTATE(chain, m->payload_offset = 0, OTA_MANIFEST_BAD_PAYLOAD);
	MUTATE(chain, m->payload_length = m->signed_end - 319, OTA_MANIFEST_BAD_PAYLOAD);
	/* An overflowing length must not wrap around into range. */
	MUTATE(chain, m->payload_length = 0xffffffffu, OTA_MANIFEST_BAD_PAYLOAD);
	MUTATE(chain, m->payload_length = 0xffffffffu - 319, OTA_MANIFEST_BAD_PAYLOAD);
}
END_TEST

START_TEST(test_payload_gap_is_uncovered)
{
	/* A shorter payload leaves signed bytes nothing accounts for. */
	MUTATE(chain, m->payload_length -= 1, OTA_EXT_UNCOVERED_BYTES);
	MUTATE(chain, m->payload_length = 0, OTA_EXT_UNCOVERED_BYTES);
}
END_TEST

START_TEST(test_bad_identifier)
{
	MUTATE(chain, m->identifier = OTA_FOURCC('O', 'T', 'B', '1'), OTA_MANIFEST_WRONG_IDENTIFIER);
	MUTATE(chain, m->identifier = 0, OTA_MANIFEST_WRONG_IDENTIFIER);
	MUTATE(chain, m->identifier = OTA_ID_ROM_EXT, OTA_OK); /* structure only: either stage */
}
END_TEST

START_TEST(test_svn_above_limit)
{
	MUTATE(chain, m->security_version = OTA_SVN_LIMIT, OTA_OK);
	MUTATE(chain, m->security_version = OTA_SVN_LIMIT + 1, OTA_SVN_ABOVE_MAX);
	MUTATE(chain, m->security_version = 0xffffffffu, OTA_SVN_ABOVE_MAX);
}
END_TEST

START_TEST(test_bad_usage)
{
	MUTATE(chain, m->usage.slot_mask = 0, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, m->usage.slot_mask = 4, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, m->usage.lifecycle_mask = 0, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, m->usage.lifecycle_mask = 0x20, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, m->usage.flags = 4, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, m->usage.device_binding = 2, OTA_MANIFEST_BAD_CONSTRAINTS);
	/* A wildcard carrying a device id would read as bound to some readers. */
	MUTATE(chain, m->usage.device_id[15] = 1, OTA_MANIFEST_BAD_CONSTRAINTS);
	MUTATE(chain, (m->usage.device_binding = OTA_BINDING_DEVICE, m->usage.device_id[0] = 9), OTA_OK);
}
END_TEST

/* ---- extension table ----------------------------------------------------- */

START_TEST(test_ext_count_too_large)
{
	MUTATE(chain, m->ext_count = OTA_MANIFEST_MAX_EXT + 1, OTA_EXT_TOO_MANY);
	MUTATE(chain, m->ext_count = 0xffffffffu, OTA_EXT_TOO_MANY);
}
END_TEST

START_TEST(test_unused_entry_nonzero)
{
	uint32_t field;

	/* Every word of every unused entry is checked. */
	for (field = 0; field < 4; field++) {
		uint8_t *b = dup_img(img_chain, len_chain);
		uint32_t *w = (uint32_t *)(void *)&man(b)->ext[7];

		w[field] = 1;
		expect_ext(b, len_chain, OTA_EXT_RESERVED_NONZERO, 7);
		free(b);
	}
	{
		uint8_t *b = dup_img(img_chain, len_chain);

		man(b)->ext[2].length = 16; /* the first unused entry */
		expect_ext(b, len_chain, OTA_EXT_RESERVED_NONZERO, 2);
		free(b);
	}
}
END_TEST

START_TEST(test_ext_count_too_small_leaves_bytes)
{
	/* Dropping the last entry from the count: its bytes are uncovered, its entry not unused-zero. */
	uint8_t *b = dup_img(img_chain, len_chain);

	man(b)->ext_count = 1;
	expect_ext(b, len_chain, OTA_EXT_RESERVED_NONZERO, 1);
	memset(&man(b)->ext[1], 0, sizeof(struct ota_ext_entry));
	expect(b, len_chain, OTA_EXT_UNCOVERED_BYTES);
	free(b);
}
END_TEST

START_TEST(test_ext_unknown_entry_flags)
{
	uint8_t *b = dup_img(img_chain, len_chain);

	man(b)->ext[1].flags |= 0x2;
	expect_ext(b, len_chain, OTA_EXT_RESERVED_NONZERO, 1);
	free(b);
}
END_TEST

START_TEST(test_ext_out_of_range)
{
	uint8_t *b = dup_img(img_chain, len_chain);
	struct ota_manifest *m = man(b);

	m->ext[1].length += 1;
	expect_ext(b, len_chain, OTA_EXT_BAD_RANGE, 1);
	m->ext[1].length = 0xffffffffu; /* offset + length overflows */
	expect_ext(b, len_chain, OTA_EXT_BAD_RANGE, 1);
	m->ext[1].length = 224;
	m->ext[1].offset = 0xfffffff0u;
	expect_ext(b, len_chain, OTA_EXT_BAD_RANGE, 1);
	free(b);
}
END_TEST

START_TEST(test_ext_shorter_than_header)
{
	uint8_t *b = dup_img(img_chain, len_chain);

	man(b)->ext[0].length = 15;
	expect_ext(b, len_chain, OTA_EXT_BAD_HEADER, 0);
	man(b)->ext[0].length = 0;
	expect_ext(b, len_chain, OTA_EXT_BAD_HEADER, 0);
	free(b);
}
END_TEST

START_TEST(test_ext_overlap)
{
	uint8_t *b = dup_img(img_chain, len_chain);
	struct ota_manifest *m = man(b);

	/* The second certificate moved back into the first. */
	m->ext[1].offset -= 8;
	expect_ext(b, len_chain, OTA_EXT_OVERLAP, 1);
	/* Both entries naming the same bytes. */
	m->ext[1].offset = m->ext[0].offset;
	expect_ext(b, len_chain, OTA_EXT_OVERLAP, 1);
	/* An extension reaching back into the payload. */
	m->ext[1].offset = m->ext[0].offset + 224;
	m->ext[0].offset -= 4;
	expect_ext(b, len_chain, OTA_EXT_OVERLAP, 0);
	free(b);
}
END_TEST

START_TEST(test_ext_out_of_table_order)
{
	/* Tiling is in table order: swapping two entries is refused. */
	uint8_t *b = dup_img(img_chain, len_chain);
	struct ota_manifest *m = man(b);
	struct ota_ext_entry t = m->ext[0];

	m->ext[0] = m->ext[1];
	m->ext[1] = t;
	expect_ext(b, len_chain, OTA_EXT_UNCOVERED_BYTES, 0);
	free(b);
}
END_TEST

START_TEST(test_ext_gap)
{
	/* Shrink the direct image's SALT entry: a gap before the end of the signed region. */
	uint8_t *b = dup_img(img_unknown, len_unknown);
	struct ota_manifest *m = man(b);
	uint32_t i = ext_index(b, OTA_FOURCC('Z', 'Z', 'Z', '1'));

	m->ext[i].offset += 4;
	expect_ext(b, len_unknown, OTA_EXT_UNCOVERED_BYTES, i);
	free(b);

	/* A gap in the unsigned region: after the first DLGS, before the second DLGC. */
	b = dup_img(img_hybrid, len_hybrid);
	m = man(b);
	ck_assert_uint_eq(m->ext[3].type, OTA_EXT_DLGC);
	m->ext[3].offset += 1;
	expect_ext(b, len_hybrid, OTA_EXT_UNCOVERED_BYTES, 3);
	free(b);

	/* The last extension moved: it then sticks out of the image, which is checked first. */
	b = dup_img(img_chain, len_chain);
	m = man(b);
	m->ext[1].offset += 1;
	expect_ext(b, len_chain, OTA_EXT_BAD_RANGE, 1);
	free(b);

	/* Bytes after the last extension. */
	b = dup_img(img_chain, len_chain);
	man(b)->image_length += 16;
	expect(b, len_chain + 16, OTA_EXT_UNCOVERED_BYTES);
	free(b);
}
END_TEST

START_TEST(test_signed_region_not_tiled)
{
	/* signed_end past the SALT: signed bytes no extension accounts for. */
	uint8_t *b = dup_img(img_direct, len_direct);
	struct ota_manifest *m = man(b);

	m->image_length += 32;
	m->signed_end += 32;
	expect(b, len_direct + 32, OTA_EXT_UNCOVERED_BYTES);
	free(b);
}
END_TEST

START_TEST(test_ext_straddles_signed_end)
{
	uint8_t *b = dup_img(img_direct, len_direct);

	man(b)->signed_end -= 8; /* the SALT now crosses it */
	expect_ext(b, len_direct, OTA_EXT_WRONG_REGION, 0);
	free(b);
}
END_TEST

START_TEST(test_ext_header_mismatch)
{
	uint8_t *b = dup_img(img_chain, len_chain);

	SET_HDR(b, 1, type = OTA_EXT_DLGS);
	expect_ext(b, len_chain, OTA_EXT_BAD_HEADER, 1);
	free(b);
	b = dup_img(img_chain, len_chain);
	SET_HDR(b, 1, length = 223);
	expect_ext(b, len_chain, OTA_EXT_BAD_HEADER, 1);
	free(b);
}
END_TEST

START_TEST(test_ext_header_reserved)
{
	uint8_t *b = dup_img(img_direct, len_direct);

	SET_HDR(b, 0, reserved = 1);
	expect_ext(b, len_direct, OTA_EXT_RESERVED_NONZERO, 0);
	SET_HDR(b, 0, reserved = 0);
	SET_HDR(b, 0, reserved2 = 0x100);
	expect_ext(b, len_direct, OTA_EXT_RESERVED_NONZERO, 0);
	free(b);
}
END_TEST

START_TEST(test_unknown_critical)
{
	uint8_t *b = dup_img(img_unknown, len_unknown);
	uint32_t i = ext_index(b, OTA_FOURCC('Z', 'Z', 'Z', '2'));

	man(b)->ext[i].flags = OTA_EXT_F_CRITICAL;
	expect_ext(b, len_unknown, OTA_EXT_UNKNOWN_CRITICAL, i);
	free(b);
	b = dup_img(img_unknown, len_unknown);
	i = ext_index(b, OTA_FOURCC('Z', 'Z', 'Z', '1'));
	man(b)->ext[i].flags = OTA_EXT_F_CRITICAL;
	expect_ext(b, len_unknown, OTA_EXT_UNKNOWN_CRITICAL, i);
	free(b);
}
END_TEST

/* An image with extra raw extensions, built unchecked so the parser is what refuses. */
static uint8_t *build_with(const struct oti_raw_ext *extra, uint32_t n, bool salt_too,
			   const struct oti_key *signer, size_t *len)
{
	struct oti_image_params p = base_params();
	uint8_t *img;

	p.flags = OTI_UNCHECKED;
	p.extra = extra;
	p.extra_count = n;
	p.has_salt = salt_too;
	ck_assert_uint_eq(oti_image_build(&p, signer, NULL, 0, &img, len, NULL), OTA_OK);
	return img;
}

START_TEST(test_salt_rules)
{
	static const uint8_t body[40];
	struct oti_raw_ext long_salt = { OTA_EXT_SALT, OTA_EXT_F_CRITICAL, true, body, 40 };
	struct oti_raw_ext unsigned_salt = { OTA_EXT_SALT, OTA_EXT_F_CRITICAL, false, body, 32 };
	uint8_t *b;
	size_t len;

	b = dup_img(img_direct, len_direct);
	SET_HDR(b, 0, version = 2);
	expect_ext(b, len_direct, OTA_EXT_BAD_HEADER, 0);
	free(b);

	b = build_with(&long_salt, 1, false, &root, &len);
	expect_ext(b, len, OTA_EXT_BAD_HEADER, 0);
	free(b);

	b = build_with(&unsigned_salt, 1, false, &root, &len);
	expect_ext(b, len, OTA_EXT_WRONG_REGION, 0);
	free(b);

	/* The same by moving signed_end in front of a real SALT. */
	b = dup_img(img_direct, len_direct);
	man(b)->signed_end = man(b)->ext[0].offset;
	expect_ext(b, len_direct, OTA_EXT_WRONG_REGION, 0);
	free(b);
}
END_TEST

START_TEST(test_duplicate_salt)
{
	static const uint8_t body[32] = { 7 };
	struct oti_raw_ext second = { OTA_EXT_SALT, OTA_EXT_F_CRITICAL, true, body, 32 };
	size_t len;
	uint8_t *b = build_with(&second, 1, true, &root, &len);

	expect_ext(b, len, OTA_EXT_DUPLICATE, 1);
	free(b);
}
END_TEST

START_TEST(test_dlgc_in_signed_region)
{
	uint8_t *b = dup_img(img_chain, len_chain);

	man(b)->signed_end = man(b)->ext[0].offset + 224;
	expect_ext(b, len_chain, OTA_EXT_WRONG_REGION, 0);
	free(b);
}
END_TEST

START_TEST(test_dlgc_contents)
{
	uint8_t *b;
	struct ota_dlgc copy, *c = &copy;

#define DLGC_CASE(stmt, want)                                             \
	b = dup_img(img_chain, len_chain);                                \
	memcpy(c, b + man(b)->ext[1].offset, sizeof(*c));                 \
	stmt;                                                             \
	memcpy(b + man(b)->ext[1].offset, c, sizeof(*c));                 \
	expect_ext(b, len_chain, want, 1);                                \
	free(b)

	DLGC_CASE(c->hdr.version = 2, OTA_CERT_BAD_VERSION);
	DLGC_CASE(c->cert_type = 0, OTA_CERT_BAD_TYPE);
	DLGC_CASE(c->cert_type = OTA_FOURCC('L', 'E', 'A', 'G'), OTA_CERT_BAD_TYPE);
	DLGC_CASE(c->reserved = 1, OTA_CERT_RESERVED_NONZERO);
	DLGC_CASE(c->constraints.svn_min = c->constraints.svn_max + 1, OTA_CERT_BAD_CONSTRAINTS);
	DLGC_CASE(c->constraints.svn_max = OTA_SVN_LIMIT + 1, OTA_CERT_BAD_CONSTRAINTS);
	DLGC_CASE(c->constraints.usage.slot_mask = 0, OTA_CERT_BAD_CONSTRAINTS);
	DLGC_CASE(c->constraints.usage.lifecycle_mask = 0x40, OTA_CERT_BAD_CONSTRAINTS);
	/* Content the parser does not judge: a bad signature is the verifier's finding. */
	b = dup_img(img_chain, len_chain);
	b[man(b)->ext[1].offset + offsetof(struct ota_dlgc, signature) + 5] ^= 1;
	expect(b, len_chain, OTA_OK);
	free(b);
#undef DLGC_CASE
}
END_TEST

START_TEST(test_dlgc_wrong_size)
{
	/* A DLGC entry 16 bytes too long (header agreeing) is refused before being copied. */
	uint8_t *b = dup_img(img_chain, len_chain);
	struct ota_manifest *m = man(b);

	m->ext[0].length = 240;
	SET_HDR(b, 0, length = 240);
	m->ext[1].offset += 16;
	m->ext[1].length -= 16;
	memmove(b + m->ext[1].offset, b + m->ext[1].offset - 16, 16);
	expect_ext(b, len_chain, OTA_CERT_BAD_SIZE, 0);
	free(b);
}
END_TEST

START_TEST(test_too_many_certs)
{
	/* Three DLGCs: rebuild the chain image with a third certificate, unchecked. */
	struct oti_image_params p = base_params();
	struct oti_cert chain[3] = { c_inter, c_leaf, c_leaf };
	struct oti_raw_ext extra = { OTA_EXT_DLGC, OTA_EXT_F_CRITICAL, false,
				     (const uint8_t *)&c_leaf.dlgc + 16, 224 - 16 };
	uint8_t *img;
	size_t len;

	p.flags = OTI_UNCHECKED;
	p.extra = &extra;
	p.extra_count = 1;
	(void)chain;
	ck_assert_uint_eq(oti_image_build(&p, &leaf, chain, 2, &img, &len, NULL), OTA_OK);
	expect_ext(img, len, OTA_EXT_TOO_MANY_CERTS, 2);
	free(img);
}
END_TEST

START_TEST(test_dlgs_rules)
{
	uint8_t *b;
	struct ota_manifest *m;
	uint32_t s0 = ext_index(img_hybrid, OTA_EXT_DLGS);
	uint32_t s1 = s0 + 2; /* DLGC, DLGS, DLGC, DLGS */

	ck_assert_uint_eq(((struct ota_manifest *)(void *)img_hybrid)->ext[s1].type, OTA_EXT_DLGS);

	/* A DLGS naming no DLGC of the image. */
	b = dup_img(img_hybrid, len_hybrid);
	m = man(b);
	b[m->ext[s0].offset + 16] ^= 1;
	expect_ext(b, len_hybrid, OTA_CERT_SPX_MISMATCH, s0);
	free(b);

	/* Two DLGS naming the same DLGC. */
	b = dup_img(img_hybrid, len_hybrid);
	m = man(b);
	memcpy(b + m->ext[s1].offset + 16, b + m->ext[s0].offset + 16, 32);
	expect_ext(b, len_hybrid, OTA_EXT_DUPLICATE, s1);
	free(b);

	/* DLGS header version. */
	b = dup_img(img_hybrid, len_hybrid);
	SET_HDR(b, s0, version = 0);
	expect_ext(b, len_hybrid, OTA_CERT_BAD_VERSION, s0);
	free(b);

	/* A DLGS in the signed region. */
	b = dup_img(img_hybrid, len_hybrid);
	m = man(b);
	m->signed_end = m->ext[s0].offset + m->ext[s0].length;
	ck_assert_uint_eq(m->ext[0].type, OTA_EXT_SALT);
	expect_ext(b, len_hybrid, OTA_EXT_WRONG_REGION, 1);
	free(b);
}
END_TEST

START_TEST(test_spxs_rules)
{
	uint32_t i = ext_index(img_hybrid, OTA_EXT_SPXS);
	uint8_t *b;

	b = dup_img(img_hybrid, len_hybrid);
	b[man(b)->ext[i].offset + 16 + 31] ^= 0x80;
	expect_ext(b, len_hybrid, OTA_EXT_SPXS_SIGNER_MISMATCH, i);
	free(b);

	b = dup_img(img_hybrid, len_hybrid);
	SET_HDR(b, i, version = 3);
	expect_ext(b, len_hybrid, OTA_EXT_BAD_HEADER, i);
	free(b);
}
END_TEST

START_TEST(test_duplicate_spxs)
{
	/* The hybrid signer's own SPXS plus a second one as an extra. */
	static uint8_t body[sizeof(struct ota_spxs) - 16];
	struct oti_raw_ext extra = { OTA_EXT_SPXS, OTA_EXT_F_CRITICAL, false, body, sizeof(body) };
	size_t len;
	uint8_t *img;

	memcpy(body, hroot.key_id, 32);
	img = build_with(&extra, 1, false, &hroot, &len);
	expect_ext(img, len, OTA_EXT_DUPLICATE, 1);
	free(img);
}
END_TEST

START_TEST(test_bit_flips_never_crash_and_change_nothing)
{
	/* Every single-bit flip of the header either parses or is refused; a copy stays put. */
	uint8_t *ref = dup_img(img_hybrid, len_hybrid);
	uint8_t *b = dup_img(img_hybrid, len_hybrid);
	struct ota_image_view v;
	size_t bit;

	for (bit = 0; bit < 8 * sizeof(struct ota_manifest); bit++) {
		b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		(void)parse(b, len_hybrid, &v);
		b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	ck_assert_mem_eq(b, ref, len_hybrid);
	free(b);
	free(ref);
}
END_TEST

static Suite *manifest_suite(void)
{
	Suite *s = suite_create("formats_manifest");
	TCase *rt = tcase_create("roundtrip");
	TCase *tr = tcase_create("truncation");
	TCase *hd = tcase_create("header");
	TCase *ex = tcase_create("extensions");

	tcase_add_test(rt, test_roundtrip_direct);
	tcase_add_test(rt, test_roundtrip_two_delegates);
	tcase_add_test(rt, test_roundtrip_hybrid);
	tcase_add_test(rt, test_image_in_larger_slot);
	tcase_add_test(rt, test_unknown_noncritical_skipped);
	tcase_add_test(rt, test_load_extension);
	suite_add_tcase(s, rt);

	tcase_add_loop_test(tr, test_truncated, 0, N_CUTS);
	tcase_add_test(tr, test_null_buffer);
	suite_add_tcase(s, tr);

	tcase_add_test(hd, test_bad_magic);
	tcase_add_test(hd, test_bad_version);
	tcase_add_test(hd, test_bad_header_size);
	tcase_add_test(hd, test_unknown_flags);
	tcase_add_test(hd, test_reserved_nonzero);
	tcase_add_test(hd, test_bad_image_length);
	tcase_add_test(hd, test_bad_signed_region);
	tcase_add_test(hd, test_bad_payload);
	tcase_add_test(hd, test_payload_gap_is_uncovered);
	tcase_add_test(hd, test_bad_identifier);
	tcase_add_test(hd, test_svn_above_limit);
	tcase_add_test(hd, test_bad_usage);
	tcase_add_test(hd, test_bit_flips_never_crash_and_change_nothing);
	suite_add_tcase(s, hd);

	tcase_add_test(ex, test_ext_count_too_large);
	tcase_add_test(ex, test_unused_entry_nonzero);
	tcase_add_test(ex, test_ext_count_too_small_leaves_bytes);
	tcase_add_test(ex, test_ext_unknown_entry_flags);
	tcase_add_test(ex, test_ext_out_of_range);
	tcase_add_test(ex, test_ext_shorter_than_header);
	tcase_add_test(ex, test_ext_overlap);
	tcase_add_test(ex, test_ext_out_of_table_order);
	tcase_add_test(ex, test_ext_gap);
	tcase_add_test(ex, test_signed_region_not_tiled);
	tcase_add_test(ex, test_ext_straddles_signed_end);
	tcase_add_test(ex, test_ext_header_mismatch);
	tcase_add_test(ex, test_ext_header_reserved);
	tcase_add_test(ex, test_unknown_critical);
	tcase_add_test(ex, test_salt_rules);
	tcase_add_test(ex, test_duplicate_salt);
	tcase_add_test(ex, test_dlgc_in_signed_region);
	tcase_add_test(ex, test_dlgc_contents);
	tcase_add_test(ex, test_dlgc_wrong_size);
	tcase_add_test(ex, test_too_many_certs);
	tcase_add_test(ex, test_dlgs_rules);
	tcase_add_test(ex, test_spxs_rules);
	tcase_add_test(ex, test_duplicate_spxs);
	suite_add_tcase(s, ex);
	return s;
}

OTA_TEST_MAIN_PREPARED(build_fixtures(), manifest_suite)
