// SPDX-License-Identifier: MIT
/*
 * otimage's own formats and glue: P-256 PEM keys and the SLH-DSA key file
 * (round trips and refusals), raw ECDSA against OpenSSL, host-side image
 * verification against tampering, value parsers, atomic output files and
 * the one-line diagnostics.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/pem.h>

#include <otattest/slhdsa.h>

#include "../../libotattest/tools/otimage/otimage.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_check.h"
#include "tu_main.h"

static struct oti_key ec, hy, hy_leaf;
static struct oti_cert hy_cert;
static uint8_t *img, *img_ec;
static size_t img_len, img_ec_len;

static void build_fixtures(void)
{
	struct oti_image_params p;
	struct ota_constraints c;
	static const uint8_t payload[100] = { 1 };

	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &ec, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hy, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &hy_leaf, NULL));
	memset(&c, 0, sizeof(c));
	c.svn_max = 10;
	c.usage.slot_mask = OTA_SLOT_MASK_ALL;
	c.usage.lifecycle_mask = OTA_LC_MASK_ALL;
	c.usage.flags = OTA_CAP_ALL;
	FIX(oti_cert_issue(&hy, NULL, &hy_leaf, OTA_CERT_LEAF, &c, 0, &hy_cert, NULL));
	memset(&p, 0, sizeof(p));
	p.identifier = OTA_ID_BL0;
	p.security_version = 3;
	p.usage = c.usage;
	p.payload = payload;
	p.payload_len = sizeof(payload);
	FIX(oti_image_build(&p, &hy_leaf, &hy_cert, 1, &img, &img_len, NULL));
	FIX(oti_image_build(&p, &ec, NULL, 0, &img_ec, &img_ec_len, NULL));
}

/* ---- keys ------------------------------------------------------------------ */

START_TEST(test_key_roundtrip_ecdsa)
{
	uint8_t *pem;
	size_t len;
	struct oti_key back, pub;

	EXPECT(oti_key_encode(&ec, false, &pem, &len, NULL), OTA_OK);
	ck_assert_ptr_nonnull(memmem(pem, len, "BEGIN PRIVATE KEY", 17));
	EXPECT(oti_key_parse(pem, len, NULL, 0, &back, NULL), OTA_OK);
	ck_assert(back.has_private);
	ck_assert_uint_eq(back.algorithm, OTA_KEY_ALG_ECDSA_P256);
	ck_assert_mem_eq(back.pub, ec.pub, 64);
	ck_assert_mem_eq(back.key_id, ec.key_id, 32);
	oti_key_free(&back);
	free(pem);

	EXPECT(oti_key_encode(&ec, true, &pem, &len, NULL), OTA_OK);
	ck_assert_ptr_nonnull(memmem(pem, len, "BEGIN PUBLIC KEY", 16));
	ck_assert_ptr_null(memmem(pem, len, "PRIVATE", 7));
	EXPECT(oti_key_parse(pem, len, NULL, 0, &pub, NULL), OTA_OK);
	ck_assert(!pub.has_private);
	ck_assert_mem_eq(pub.key_id, ec.key_id, 32);
	oti_key_free(&pub);
	free(pem);
}
END_TEST

START_TEST(test_key_id_is_sha256_of_point)
{
	uint8_t want[32];

	tu_sha256(ec.pub, 64, want);
	ck_assert_mem_eq(ec.key_id, want, 32);
	ota_key_id(hy.pub, want);
	ck_assert_mem_eq(hy.key_id, want, 32);
}
END_TEST

START_TEST(test_key_roundtrip_hybrid)
{
	struct oti_spx_keyfile f;
	uint8_t *pem, sig[OTA_SLHDSA_SIG_BYTES];
	static const uint8_t msg[] = "hybrid";
	size_t len;
	struct oti_key back;

	EXPECT(oti_key_encode(&hy, false, &pem, &len, &f), OTA_OK);
	ck_assert_uint_eq(f.magic, OTI_SPXKEY_MAGIC);
	ck_assert_uint_eq(f.kind, OTI_SPXKEY_KIND_SECRET);
	ck_assert_mem_eq(f.pk, hy.spx_pk, 32);
	ck_assert_mem_eq(f.sk + 32, hy.spx_pk, 32); /* SK embeds PK.seed || PK.root */
	EXPECT(oti_key_parse(pem, len, (const uint8_t *)&f, sizeof(f), &back, NULL), OTA_OK);
	ck_assert_uint_eq(back.algorithm, OTA_KEY_ALG_HYBRID);
	ck_assert_mem_eq(back.spx_pk, hy.spx_pk, 32);
	ck_assert_mem_eq(back.spx_sk, hy.spx_sk, 64);
	/* The loaded key signs, and the signature verifies under the public key. */
	EXPECT(oti_spx_sign(&back, msg, sizeof(msg), sig), OTA_OK);
	EXPECT(ota_slhdsa_verify(hy.spx_pk, msg, sizeof(msg), sig), OTA_OK);
	oti_key_free(&back);
	free(pem);

	EXPECT(oti_key_encode(&hy, true, &pem, &len, &f), OTA_OK);
	ck_assert_uint_eq(f.kind, OTI_SPXKEY_KIND_PUBLIC);
	ck_assert(ota_all_zero(f.sk, sizeof(f.sk)));
	EXPECT(oti_key_parse(pem, len, (const uint8_t *)&f, sizeof(f), &back, NULL), OTA_OK);
	ck_assert(!back.has_private);
	ck_assert(ota_all_zero(back.spx_sk, 64));
	EXPECT(oti_spx_sign(&back, msg, sizeof(msg), sig), OTA_TOOL_KEY_NOT_PRIVATE);
	oti_key_free(&back);
	free(pem);
}
END_TEST

START_TEST(test_spx_keyfile_refusals)
{
	struct oti_spx_keyfile good, f;
	uint8_t *pem, *pub_pem;
	size_t len, pub_len;
	struct oti_key back;

	EXPECT(oti_key_encode(&hy, false, &pem, &len, &good), OTA_OK);
	EXPECT(oti_key_encode(&hy, true, &pub_pem, &pub_len, NULL), OTA_OK);

#define SPX(stmt, size, want)                                                            \
	f = good;                                                                         \
	stmt;                                                                             \
	EXPECT(oti_key_parse(pem, len, (const uint8_t *)&f, size, &back, NULL), want)

	SPX((void)0, sizeof(f), OTA_OK);
	oti_key_free(&back);
	SPX(f.magic ^= 1, sizeof(f), OTA_TOOL_SPXKEY_BAD_MAGIC);
	SPX(f.version = 2, sizeof(f), OTA_TOOL_SPXKEY_BAD_VERSION);
	SPX(f.size = 111, sizeof(f), OTA_TOOL_SPXKEY_BAD_SIZE);
	SPX((void)0, sizeof(f) - 1, OTA_TOOL_SPXKEY_BAD_SIZE);
	SPX((void)0, 4, OTA_TOOL_SPXKEY_BAD_SIZE);
	SPX(f.algorithm = OTA_FOURCC('S', 'L', 'H', 'F'), sizeof(f), OTA_TOOL_SPXKEY_BAD_ALG);
	SPX(f.kind = 0, sizeof(f), OTA_TOOL_SPXKEY_BAD_KIND);
	/* A secret whose public half does not match its seeds. */
	SPX(f.pk[31] ^= 1, sizeof(f), OTA_TOOL_SPXKEY_MISMATCH);
	SPX(f.sk[0] ^= 1, sizeof(f), OTA_TOOL_SPXKEY_MISMATCH);
	SPX(f.sk[63] ^= 1, sizeof(f), OTA_TOOL_SPXKEY_MISMATCH);
	/* A public key file with secret bytes in it. */
	SPX((f.kind = OTI_SPXKEY_KIND_PUBLIC, f.sk[9] = 0), sizeof(f), OTA_TOOL_SPXKEY_RESERVED_NONZERO);
	/* Halves that disagree on being private. */
	SPX(f.kind = OTI_SPXKEY_KIND_PUBLIC, sizeof(f), OTA_TOOL_SPXKEY_RESERVED_NONZERO);
	memset(f.sk, 0, sizeof(f.sk));
	EXPECT(oti_key_parse(pem, len, (const uint8_t *)&f, sizeof(f), &back, NULL),
	       OTA_TOOL_KEY_MISMATCH);
	EXPECT(oti_key_parse(pub_pem, pub_len, (const uint8_t *)&good, sizeof(good), &back, NULL),
	       OTA_TOOL_KEY_MISMATCH);
#undef SPX
	free(pem);
	free(pub_pem);
}
END_TEST

START_TEST(test_pem_refusals)
{
	static const char junk[] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
	EVP_PKEY *p384 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384");
	EVP_PKEY *ed = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	BIO *bio;
	char *data;
	long n;
	struct oti_key k;

	EXPECT(oti_key_parse((const uint8_t *)junk, sizeof(junk) - 1, NULL, 0, &k, NULL),
	       OTA_TOOL_KEY_MALFORMED);
	EXPECT(oti_key_parse((const uint8_t *)"hello", 5, NULL, 0, &k, NULL), OTA_TOOL_KEY_MALFORMED);

	bio = BIO_new(BIO_s_mem());
	ck_assert_int_eq(PEM_write_bio_PrivateKey(bio, p384, NULL, NULL, 0, NULL, NULL), 1);
	n = BIO_get_mem_data(bio, &data);
	EXPECT(oti_key_parse((const uint8_t *)data, (size_t)n, NULL, 0, &k, NULL), OTA_TOOL_KEY_NOT_P256);
	BIO_free(bio);

	bio = BIO_new(BIO_s_mem());
	ck_assert_int_eq(PEM_write_bio_PUBKEY(bio, ed), 1);
	n = BIO_get_mem_data(bio, &data);
	EXPECT(oti_key_parse((const uint8_t *)data, (size_t)n, NULL, 0, &k, NULL), OTA_TOOL_KEY_NOT_P256);
	BIO_free(bio);

	/* An encrypted key is refused, never prompted for. */
	bio = BIO_new(BIO_s_mem());
	ck_assert_int_eq(PEM_write_bio_PKCS8PrivateKey(bio, ec.pkey, EVP_aes_128_cbc(), NULL, 0, NULL,
						       (void *)"secret"), 1);
	n = BIO_get_mem_data(bio, &data);
	EXPECT(oti_key_parse((const uint8_t *)data, (size_t)n, NULL, 0, &k, NULL), OTA_TOOL_KEY_ENCRYPTED);
	BIO_free(bio);
	EVP_PKEY_free(p384);
	EVP_PKEY_free(ed);
}
END_TEST

/* ---- ECDSA ----------------------------------------------------------------- */

START_TEST(test_ecdsa_raw)
{
	uint8_t digest[32], sig[64];
	uint8_t bad_point[64];
	int i;

	for (i = 0; i < 32; i++)
		digest[i] = (uint8_t)i;
	EXPECT(oti_ecdsa_sign(&ec, digest, sig), OTA_OK);
	EXPECT(oti_ecdsa_verify(ec.pub, digest, sig), OTA_OK);
	EXPECT(oti_ecdsa_verify(hy.pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	digest[0] ^= 1;
	EXPECT(oti_ecdsa_verify(ec.pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	digest[0] ^= 1;
	sig[63] ^= 1;
	EXPECT(oti_ecdsa_verify(ec.pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	/* r = 0 and r = s = 0xff..ff are out of range, not a crash. */
	memset(sig, 0, 32);
	EXPECT(oti_ecdsa_verify(ec.pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	memset(sig, 0xff, 64);
	EXPECT(oti_ecdsa_verify(ec.pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	/* A point off the curve. */
	memcpy(bad_point, ec.pub, 64);
	bad_point[63] ^= 1;
	EXPECT(oti_ecdsa_verify(bad_point, digest, sig), OTA_SIG_BAD_PUBKEY);
	memset(bad_point, 0, 64);
	EXPECT(oti_ecdsa_verify(bad_point, digest, sig), OTA_SIG_BAD_PUBKEY);
}
END_TEST

/* ---- host verification of whole images ------------------------------------ */

START_TEST(test_image_verify_detects_tampering)
{
	struct ota_root_key r, wrong;
	struct ota_image_view v;
	uint8_t *b = malloc(img_len);

	oti_key_root_entry(&hy, OTA_LC_MASK_ALL, &r);
	oti_key_root_entry(&ec, OTA_LC_MASK_ALL, &wrong);
	EXPECT(tu_verify(img, img_len, &r), OTA_OK);
	EXPECT(tu_verify(img, img_len, &wrong), OTA_ROOT_KEY_UNKNOWN);
	ck_assert_uint_eq(ota_image_parse(img, (uint32_t)img_len, &v), OTA_OK);

#define TAMPER(off, want)                                       \
	memcpy(b, img, img_len);                                \
	b[off] ^= 0x01;                                         \
	EXPECT(tu_verify(b, img_len, &r), want)

	TAMPER(v.manifest.payload_offset + 5, OTA_SIG_ECDSA_INVALID);    /* payload */
	TAMPER(3, OTA_SIG_ECDSA_INVALID);                                 /* signature */
	TAMPER(v.cert_offset[0] + 170, OTA_DELEG_CERT_SIG_INVALID);       /* DLGC signature */
	/* The delegate key: its DLGS then names another key, caught before any signature. */
	TAMPER(v.cert_offset[0] + 60, OTA_CERT_SPX_MISMATCH);
	TAMPER(v.cert_offset[0] + 120, OTA_DELEG_CERT_SIG_INVALID);       /* svn_min 0 -> 1 */
	TAMPER(v.cert_spx_offset[0] + 100, OTA_DELEG_CERT_SPX_INVALID);   /* DLGS signature */
	TAMPER(v.cert_spx_offset[0] + 50, OTA_DELEG_CERT_SPX_INVALID);    /* delegate SLH-DSA key */
	TAMPER(v.spxs_offset + 2000, OTA_SIG_SPX_INVALID);                /* image SLH-DSA */
#undef TAMPER
	/*
	 * The same root key provisioned ECDSA-only: the DLGS has no trusted
	 * SLH-DSA key to be checked under, and the device refuses it as
	 * invalid (docs/boot-flow.md), not as a missing key.
	 */
	r.algorithm = OTA_KEY_ALG_ECDSA_P256;
	memset(r.spx_pubkey, 0, sizeof(r.spx_pubkey));
	EXPECT(tu_verify(img, img_len, &r), OTA_DELEG_CERT_SPX_INVALID);
	/* An ECDSA-only image verifies without any SLH-DSA key. */
	oti_key_root_entry(&ec, OTA_LC_MASK_ALL, &r);
	EXPECT(tu_verify(img_ec, img_ec_len, &r), OTA_OK);
	free(b);
}
END_TEST

START_TEST(test_image_resign)
{
	struct ota_root_key r;
	uint8_t *b = malloc(img_ec_len);

	oti_key_root_entry(&ec, OTA_LC_MASK_ALL, &r);
	memcpy(b, img_ec, img_ec_len);
	((struct ota_manifest *)(void *)b)->security_version = 9;
	EXPECT(tu_verify(b, img_ec_len, &r), OTA_SIG_ECDSA_INVALID);
	EXPECT(oti_image_resign(b, img_ec_len, &ec), OTA_OK);
	EXPECT(tu_verify(b, img_ec_len, &r), OTA_OK);
	((struct ota_manifest *)(void *)b)->signed_end = (uint32_t)img_ec_len + 1;
	EXPECT(oti_image_resign(b, img_ec_len, &ec), OTA_MANIFEST_BAD_SIGNED_REGION);
	free(b);
}
END_TEST

START_TEST(test_image_build_refusals)
{
	struct oti_image_params p;
	struct oti_key pub;
	uint8_t *out;
	size_t len;
	struct oti_diag d;

	memset(&p, 0, sizeof(p));
	p.identifier = OTA_ID_BL0;
	p.usage.slot_mask = 1;
	p.usage.lifecycle_mask = 1;
	EXPECT(oti_image_build(&p, &ec, NULL, 0, &out, &len, NULL), OTA_OK);
	free(out);
	/* The signer must be the leaf's delegate (refused before SLH-DSA signs anything). */
	oti_diag_clear(&d);
	EXPECT(oti_image_build(&p, &hy, &hy_cert, 1, &out, &len, &d), OTA_DELEG_SIGNER_MISMATCH);
	ck_assert_str_eq(d.field, "--key");
	ck_assert_ptr_null(out);
	p.security_version = 11;
	EXPECT(oti_image_build(&p, &hy_leaf, &hy_cert, 1, &out, &len, NULL), OTA_IMAGE_SVN_ABOVE_LEAF);
	p.security_version = 300;
	EXPECT(oti_image_build(&p, &ec, NULL, 0, &out, &len, NULL), OTA_SVN_ABOVE_MAX);
	p.security_version = 0;
	p.usage.slot_mask = 0;
	EXPECT(oti_image_build(&p, &ec, NULL, 0, &out, &len, NULL), OTA_MANIFEST_BAD_CONSTRAINTS);
	p.usage.slot_mask = 1;
	p.identifier = 0;
	EXPECT(oti_image_build(&p, &ec, NULL, 0, &out, &len, NULL), OTA_MANIFEST_WRONG_IDENTIFIER);
	p.identifier = OTA_ID_BL0;
	ck_assert_uint_eq(oti_key_public(&ec, &pub), OTA_OK);
	EXPECT(oti_image_build(&p, &pub, NULL, 0, &out, &len, NULL), OTA_TOOL_KEY_NOT_PRIVATE);
	oti_key_free(&pub);
	EXPECT(oti_image_build(&p, &ec, &hy_cert, 3, &out, &len, NULL), OTA_DELEG_BAD_CHAIN_SHAPE);
}
END_TEST

/* ---- values ----------------------------------------------------------------- */

START_TEST(test_value_parsers)
{
	uint32_t v;
	uint8_t h[4];
	struct ota_usage u;
	bool b;

	EXPECT(oti_parse_u32("0", 5, &v), OTA_OK);
	EXPECT(oti_parse_u32("0x10", 255, &v), OTA_OK);
	ck_assert_uint_eq(v, 16);
	EXPECT(oti_parse_u32("256", 255, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_u32("-1", 255, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_u32(" 1", 255, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_u32("1x", 255, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_u32("", 255, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_u32("99999999999999999999", UINT32_MAX, &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_slot_mask("a,b", &v), OTA_OK);
	ck_assert_uint_eq(v, 3);
	EXPECT(oti_parse_slot_mask("b", &v), OTA_OK);
	ck_assert_uint_eq(v, 2);
	EXPECT(oti_parse_slot_mask("c", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_slot_mask("4", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_slot_mask("0", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_lifecycle_mask("dev,prod", &v), OTA_OK);
	ck_assert_uint_eq(v, (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD));
	EXPECT(oti_parse_lifecycle_mask("all", &v), OTA_OK);
	ck_assert_uint_eq(v, OTA_LC_MASK_ALL);
	EXPECT(oti_parse_lifecycle_mask("dev,,prod", &v), OTA_OK);
	EXPECT(oti_parse_lifecycle_mask("devel", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_lifecycle("rma", &v), OTA_OK);
	ck_assert_uint_eq(v, OTA_LC_RMA);
	EXPECT(oti_parse_caps("none", &v), OTA_OK);
	ck_assert_uint_eq(v, 0);
	EXPECT(oti_parse_caps("tag-boot,debug", &v), OTA_OK);
	ck_assert_uint_eq(v, OTA_CAP_ALL);
	EXPECT(oti_parse_caps("fast", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_hex("00ff7A10", h, 4), OTA_OK);
	ck_assert_uint_eq(h[2], 0x7a);
	EXPECT(oti_parse_hex("00ff7A1", h, 4), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_hex("00ff7A1g", h, 4), OTA_TOOL_BAD_VALUE);
	memset(&u, 0x55, sizeof(u));
	EXPECT(oti_parse_device("any", &u), OTA_OK);
	ck_assert_uint_eq(u.device_binding, OTA_BINDING_ANY);
	ck_assert(ota_all_zero(u.device_id, 16));
	EXPECT(oti_parse_device("000102030405060708090a0b0c0d0e0f", &u), OTA_OK);
	ck_assert_uint_eq(u.device_binding, OTA_BINDING_DEVICE);
	ck_assert_uint_eq(u.device_id[15], 15);
	EXPECT(oti_parse_device("0001", &u), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_stage("rom-ext", &v), OTA_OK);
	ck_assert_uint_eq(v, OTA_STAGE_ROM_EXT);
	EXPECT(oti_parse_stage("bl1", &v), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_parse_bool("off", &b), OTA_OK);
	ck_assert(!b);
	EXPECT(oti_parse_bool("maybe", &b), OTA_TOOL_BAD_VALUE);
}
END_TEST

/* ---- files and diagnostics -------------------------------------------------- */

START_TEST(test_files_atomic)
{
	char dir[] = "/tmp/otimage-test.XXXXXX", a[256], b[256], missing[256];
	struct oti_output outs[2];
	uint8_t *back;
	size_t len;
	struct stat sb;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(missing, sizeof(missing), "%s/no/such/c", dir);
	outs[0] = (struct oti_output){ a, "alpha", 5, 0600 };
	outs[1] = (struct oti_output){ b, "beta", 4, 0644 };
	EXPECT(oti_files_write(outs, 2, false, NULL), OTA_OK);
	EXPECT(oti_file_read(a, 100, &back, &len, NULL), OTA_OK);
	ck_assert_uint_eq(len, 5);
	ck_assert_mem_eq(back, "alpha", 5);
	free(back);
	ck_assert_int_eq(stat(a, &sb), 0);
	ck_assert_uint_eq(sb.st_mode & 0777, 0600);
	/* Existing targets are kept unless forced. */
	outs[0].data = "ALPHA";
	EXPECT(oti_files_write(outs, 2, false, NULL), OTA_TOOL_EXISTS);
	EXPECT(oti_file_read(a, 100, &back, &len, NULL), OTA_OK);
	ck_assert_mem_eq(back, "alpha", 5);
	free(back);
	/* One output that cannot be written: none is, and no temporary is left. */
	unlink(a);
	unlink(b);
	outs[1].path = missing;
	EXPECT(oti_files_write(outs, 2, false, NULL), OTA_HOST_IO);
	ck_assert_int_ne(access(a, F_OK), 0);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A %s)\"", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	EXPECT(oti_file_read(a, 100, &back, &len, NULL), OTA_HOST_IO);
	EXPECT(oti_file_read(dir, 100, &back, &len, NULL), OTA_HOST_IO); /* not a regular file */
	outs[0].path = a;
	EXPECT(oti_files_write(outs, 1, false, NULL), OTA_OK);
	EXPECT(oti_file_read(a, 4, &back, &len, NULL), OTA_TOOL_TOO_LARGE);
	unlink(a);
	rmdir(dir);
}
END_TEST

START_TEST(test_diag_line_and_exit_codes)
{
	struct oti_diag d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	oti_diag_clear(&d);
	oti_diag_set(&d, OTA_MANIFEST_BAD_SIGNED_REGION, "image.bin", "manifest.signed_end", NULL);
	oti_diag_print(f, &d, OTA_MANIFEST_BAD_SIGNED_REGION);
	fclose(f);
	ck_assert_str_eq(text,
			 "otimage: image.bin: manifest.signed_end: signed region is out of range\n");
	free(text);
	ck_assert_int_eq(oti_exit_code(OTA_OK), 0);
	ck_assert_int_eq(oti_exit_code(OTA_MANIFEST_BAD_SIGNED_REGION), 11);
	ck_assert_int_eq(oti_exit_code(OTA_DELEG_WIDER_SVN_MIN), 13);
	ck_assert_int_eq(oti_exit_code(OTA_SIG_ECDSA_INVALID), 12);
	ck_assert_int_eq(oti_exit_code(OTA_HOST_IO), 22);
	ck_assert_int_eq(oti_exit_code(OTA_TOOL_BAD_VALUE), 10);
	ck_assert_int_eq(oti_exit_code(OTA_TOOL_TOO_LARGE), 21);
}
END_TEST

START_TEST(test_file_detect)
{
	static const uint8_t pem[] = "-----BEGIN PUBLIC KEY-----";
	uint8_t buf[80] = { 0 };
	uint32_t m = OTA_OTP_MAGIC;

	ck_assert_int_eq(oti_file_detect(img, img_len), OTI_FILE_IMAGE);
	ck_assert_int_eq(oti_file_detect((const uint8_t *)&hy_cert.dlgc, 224), OTI_FILE_CERT);
	memcpy(buf, &m, 4);
	ck_assert_int_eq(oti_file_detect(buf, sizeof(buf)), OTI_FILE_OTP);
	ck_assert_int_eq(oti_file_detect(pem, sizeof(pem)), OTI_FILE_KEY_PEM);
	ck_assert_int_eq(oti_file_detect(buf, 3), OTI_FILE_UNKNOWN);
	ck_assert_int_eq(oti_file_detect(buf + 8, 64), OTI_FILE_UNKNOWN);
}
END_TEST

static Suite *keys_suite(void)
{
	Suite *s = suite_create("formats_keys");
	TCase *k = tcase_create("keys");
	TCase *v = tcase_create("verify");
	TCase *m = tcase_create("misc");

	tcase_add_test(k, test_key_roundtrip_ecdsa);
	tcase_add_test(k, test_key_id_is_sha256_of_point);
	tcase_add_test(k, test_key_roundtrip_hybrid);
	tcase_add_test(k, test_spx_keyfile_refusals);
	tcase_add_test(k, test_pem_refusals);
	tcase_add_test(k, test_ecdsa_raw);
	tcase_set_timeout(k, 60);
	suite_add_tcase(s, k);
	tcase_add_test(v, test_image_verify_detects_tampering);
	tcase_add_test(v, test_image_resign);
	tcase_add_test(v, test_image_build_refusals);
	tcase_set_timeout(v, 120);
	suite_add_tcase(s, v);
	tcase_add_test(m, test_value_parsers);
	tcase_add_test(m, test_files_atomic);
	tcase_add_test(m, test_diag_line_and_exit_codes);
	tcase_add_test(m, test_file_detect);
	suite_add_tcase(s, m);
	return s;
}

OTA_TEST_MAIN_PREPARED(build_fixtures(), keys_suite)
