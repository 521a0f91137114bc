// SPDX-License-Identifier: MIT
/*
 * Personalization on the emulated device, through the real boot flow and
 * the mailbox (ota_fw_command): in TEST_UNLOCKED the device hands out a
 * PKCS#10 request for its identity key, made by ROM_EXT's freestanding
 * DER writer, which OpenSSL must parse and verify and otimage's CA check
 * must accept; it takes the certificate the CA issued for it only when
 * it certifies its own identity key, refusing everything else with flash
 * unchanged; after the lifecycle leaves manufacturing (the OTP transition
 * word, as the fuse programmer writes it) it serves the certificate in
 * GET_CERTS and refuses both commands.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <otattest/evidence.h>
#include <otattest/shm.h>

#include "../../libotattest/tools/otimage/idcert.h"
#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_main.h"

static struct tu_device dev;
static uint8_t resp[OTA_SHM_RESPONSE_SIZE - sizeof(struct ota_mbox_header)];
static uint32_t resp_len;

static ota_status_t cmd(uint32_t command, const void *req, uint32_t len)
{
	resp_len = 0xdeadbeef;
	return ota_fw_command(command, req, len, resp, sizeof(resp), &resp_len);
}

static void boot(uint32_t lifecycle)
{
	dev.lifecycle = lifecycle;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static void cold_boot(void)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

/* What the fuse programmer does at the end of personalization. */
static void leave_manufacturing(uint32_t lifecycle)
{
	uint32_t word = ota_otp_lifecycle_encoding(lifecycle);

	swhal_external_programmer(true); /* the programmer is outside the chip */
	ck_assert_uint_eq(hal_otp_program(offsetof(struct ota_otp, lifecycle_transition), &word,
					  sizeof(word)),
			  OTA_OK);
	swhal_external_programmer(false);
}

static void setup(void)
{
	tu_device_init(&dev);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

/* The device's CSR, parsed by OpenSSL; the caller frees it. */
static X509_REQ *get_csr(void)
{
	const unsigned char *p = resp;
	X509_REQ *req;

	ck_assert_uint_eq(cmd(OTA_CMD_GET_IDENTITY_CSR, NULL, 0), OTA_OK);
	ck_assert_uint_gt(resp_len, 0);
	ck_assert_uint_le(resp_len, OTA_IDENTITY_CSR_MAX_DER);
	req = d2i_X509_REQ(NULL, &p, resp_len);
	ck_assert_ptr_nonnull(req);
	ck_assert_ptr_eq(p, resp + resp_len); /* one request, nothing after it */
	return req;
}

static void raw_pub(EVP_PKEY *k, uint8_t out[OTA_P256_PUBKEY_BYTES])
{
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	size_t n = 0;

	ck_assert_int_eq(EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
							 point, sizeof(point), &n),
			 1);
	ck_assert_uint_eq(n, sizeof(point));
	memcpy(out, point + 1, OTA_P256_PUBKEY_BYTES);
}

/* A CA and the identity certificate it issues for (device id, key). */
struct ca {
	EVP_PKEY *key;
	X509 *cert;
};

static void ca_open(struct ca *ca)
{
	ck_assert_uint_eq(otimage_ca_create("test CA", &ca->key, &ca->cert), OTA_OK);
}

static void ca_close(struct ca *ca)
{
	EVP_PKEY_free(ca->key);
	X509_free(ca->cert);
}

static struct ota_req_set_identity_cert issue(const struct ca *ca,
					      const uint8_t id[OTA_DEVICE_ID_BYTES],
					      const uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	struct ota_identity_cert_blob blob;
	struct ota_req_set_identity_cert req;
	X509 *cert;

	ck_assert_uint_eq(otimage_identity_cert_issue(ca->key, ca->cert, id, pub, &cert), OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_blob(cert, &blob), OTA_OK);
	X509_free(cert);
	memset(&req, 0, sizeof(req));
	req.der_length = blob.der_length;
	memcpy(req.der, blob.der, blob.der_length);
	return req;
}

/* The whole flash, to compare before and after a refusal. */
static uint8_t *flash_copy(void)
{
	uint32_t n = hal_flash_size();
	uint8_t *buf = malloc(n);

	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(hal_flash_read(0, buf, n), OTA_OK);
	return buf;
}

/* A refused SET_IDENTITY_CERT: its status, no response, not one flash byte changed. */
static void set_refused(ota_status_t want, const void *req, uint32_t len)
{
	uint8_t *before = flash_copy(), *after;
	uint64_t writes = swhal_flash_writes();
	ota_status_t st = cmd(OTA_CMD_SET_IDENTITY_CERT, req, len);

	ck_assert_msg(st == want, "SET_IDENTITY_CERT: %s, want %s",
		      ota_status_name(st) ? ota_status_name(st) : "?", ota_status_name(want));
	ck_assert_uint_eq(resp_len, 0);
	ck_assert_uint_eq(swhal_flash_writes(), writes);
	after = flash_copy();
	ck_assert_mem_eq(before, after, hal_flash_size());
	free(before);
	free(after);
}

START_TEST(test_csr_parses_and_verifies_with_openssl)
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES], id[OTA_DEVICE_ID_BYTES], chk_pub[64];
	const unsigned char *p;
	char cn[80], want_cn[80];
	struct oti_diag d;
	X509_REQ *req;
	X509 *alias;
	EVP_PKEY *key;

	boot(OTA_LC_TEST_UNLOCKED);
	req = get_csr();
	ck_assert_int_eq(X509_REQ_get_version(req), X509_REQ_VERSION_1);
	ck_assert_int_eq(X509_REQ_get_signature_nid(req), NID_ecdsa_with_SHA256);
	key = X509_REQ_get0_pubkey(req);
	ck_assert_ptr_nonnull(key);
	ck_assert(EVP_PKEY_is_a(key, "EC"));
	ck_assert_int_eq(X509_REQ_verify(req, key), 1);
	ck_assert_int_eq(X509_REQ_get_attr_count(req), 0);

	/* Subject: O=otattest, CN=otattest identity <device id>, as the identity certificate. */
	ck_assert_int_eq(X509_NAME_entry_count(X509_REQ_get_subject_name(req)), 2);
	ck_assert_int_gt(X509_NAME_get_text_by_NID(X509_REQ_get_subject_name(req),
						   NID_commonName, cn, sizeof(cn)),
			 0);
	strcpy(want_cn, OTA_CERT_CN_IDENTITY);
	for (unsigned i = 0; i < OTA_DEVICE_ID_BYTES; i++)
		sprintf(want_cn + strlen(want_cn), "%02x", dev.device_id[i]);
	ck_assert_str_eq(cn, want_cn);

	/* The key is the identity key: the one that signed this boot's alias certificate. */
	raw_pub(key, pub);
	ck_assert_mem_eq(pub, ota_rt.identity_pubkey, sizeof(pub));
	p = ota_rt.alias_cert;
	alias = d2i_X509(NULL, &p, ota_rt.alias_cert_len);
	ck_assert_ptr_nonnull(alias);
	ck_assert_int_eq(X509_verify(alias, key), 1);
	X509_free(alias);

	/* The manufacturer CA's check (otimage ca-sign) accepts what the firmware makes. */
	ck_assert_uint_eq(otimage_csr_check(resp, resp_len, id, chk_pub, &d), OTA_OK);
	ck_assert_mem_eq(id, dev.device_id, sizeof(id));
	ck_assert_mem_eq(chk_pub, pub, sizeof(pub));
	X509_REQ_free(req);

	/* Every boot makes a fresh request for the same key. */
	cold_boot();
	req = get_csr();
	raw_pub(X509_REQ_get0_pubkey(req), chk_pub);
	ck_assert_mem_eq(chk_pub, pub, sizeof(pub));
	X509_REQ_free(req);
}
END_TEST

START_TEST(test_csr_refused_outside_manufacturing)
{
	static const uint32_t states[] = { OTA_LC_DEV, OTA_LC_PROD, OTA_LC_PROD_END, OTA_LC_RMA };

	for (unsigned i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		boot(states[i]);
		memset(resp, 0xa5, 64);
		ck_assert_uint_eq(cmd(OTA_CMD_GET_IDENTITY_CSR, NULL, 0),
				  OTA_RUNTIME_NOT_MANUFACTURING);
		ck_assert_uint_eq(resp_len, 0);
		ck_assert_uint_eq(resp[0], 0xa5);
		/* None was even made: the identity key signed nothing but the alias certificate. */
		ck_assert_uint_eq(ota_rt.identity_csr_len, 0);
		swhal_close();
	}
	/* A request with a payload is malformed before anything else. */
	boot(OTA_LC_TEST_UNLOCKED);
	ck_assert_uint_eq(cmd(OTA_CMD_GET_IDENTITY_CSR, resp, 4), OTA_MBOX_BAD_LENGTH);
}
END_TEST

START_TEST(test_set_identity_cert_refusals_change_nothing)
{
	uint8_t other[OTA_P256_PUBKEY_BYTES];
	struct ota_req_set_identity_cert good, r;
	uint8_t big[sizeof(r) + 1];
	struct ca ca;
	EVP_PKEY *k;

	boot(OTA_LC_TEST_UNLOCKED);
	ca_open(&ca);
	good = issue(&ca, dev.device_id, ota_rt.identity_pubkey);

	/* A certificate for another key - another device's, or a key nobody has. */
	k = EVP_EC_gen("P-256");
	raw_pub(k, other);
	EVP_PKEY_free(k);
	r = issue(&ca, dev.device_id, other);
	set_refused(OTA_RUNTIME_IDCERT_NOT_OURS, &r, sizeof(r));

	/* Garbage, and a DER SEQUENCE shorter than the stated length. */
	memset(&r, 0, sizeof(r));
	r.der_length = 100;
	memset(r.der, 0x42, 100);
	set_refused(OTA_IDCERT_BAD_DER, &r, sizeof(r));
	r = good;
	r.der[r.der_length] = 0;
	r.der_length += 1;
	set_refused(OTA_IDCERT_BAD_DER, &r, sizeof(r));
	r = good;
	r.der_length -= 1;
	r.der[r.der_length] = 0;
	set_refused(OTA_IDCERT_BAD_DER, &r, sizeof(r));

	/* Lengths, padding, reserved word, request size. */
	r = good;
	r.der_length = 0;
	set_refused(OTA_MBOX_CERT_LENGTH, &r, sizeof(r));
	r = good;
	r.der_length = OTA_IDCERT_MAX_DER + 1;
	set_refused(OTA_MBOX_CERT_LENGTH, &r, sizeof(r));
	r = good;
	r.der_length = 0xffffffffu;
	set_refused(OTA_MBOX_CERT_LENGTH, &r, sizeof(r));
	r = good;
	r.der[OTA_IDCERT_MAX_DER - 1] = 1;
	set_refused(OTA_MBOX_RESERVED_NONZERO, &r, sizeof(r));
	r = good;
	r.reserved = 1;
	set_refused(OTA_MBOX_RESERVED_NONZERO, &r, sizeof(r));
	set_refused(OTA_MBOX_BAD_LENGTH, &good, sizeof(good) - 1);
	memset(big, 0, sizeof(big));
	memcpy(big, &good, sizeof(good));
	set_refused(OTA_MBOX_BAD_LENGTH, big, sizeof(big));
	set_refused(OTA_MBOX_BAD_LENGTH, NULL, 0);

	/* Still taken after all that. */
	ck_assert_uint_eq(cmd(OTA_CMD_SET_IDENTITY_CERT, &good, sizeof(good)), OTA_OK);
	ck_assert_uint_eq(resp_len, 0);
	ca_close(&ca);
}
END_TEST

START_TEST(test_set_identity_cert_refused_outside_manufacturing)
{
	struct ota_req_set_identity_cert r;
	struct ca ca;

	boot(OTA_LC_DEV);
	ca_open(&ca);
	r = issue(&ca, dev.device_id, ota_rt.identity_pubkey);
	set_refused(OTA_RUNTIME_NOT_MANUFACTURING, &r, sizeof(r));
	ca_close(&ca);
}
END_TEST

/* The whole flow: CSR, CA, certificate back, lifecycle moved, next boot serves it. */
START_TEST(test_personalization_then_get_certs)
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES], id[OTA_DEVICE_ID_BYTES];
	struct ota_req_set_identity_cert r;
	const struct ota_flash_region *reg;
	struct ota_identity_cert_blob blob;
	uint32_t at, n;
	struct oti_diag d;
	struct ca ca;

	boot(OTA_LC_TEST_UNLOCKED);
	ck_assert_uint_eq(cmd(OTA_CMD_GET_CERTS, NULL, 0), OTA_RUNTIME_NO_CERTS);
	ck_assert_uint_eq(cmd(OTA_CMD_GET_IDENTITY_CSR, NULL, 0), OTA_OK);
	ck_assert_uint_eq(otimage_csr_check(resp, resp_len, id, pub, &d), OTA_OK);
	ca_open(&ca);
	r = issue(&ca, id, pub);
	ck_assert_uint_eq(cmd(OTA_CMD_SET_IDENTITY_CERT, &r, sizeof(r)), OTA_OK);

	/* In flash as the blob otimage pack would write. */
	reg = tu_region(OTA_REGION_IDENTITY_CERT);
	ck_assert_uint_eq(hal_flash_read(reg->offset, &blob, sizeof(blob)), OTA_OK);
	ck_assert_uint_eq(blob.magic, OTA_IDCERT_MAGIC);
	ck_assert_uint_eq(blob.der_length, r.der_length);
	ck_assert_mem_eq(blob.der, r.der, sizeof(blob.der));

	leave_manufacturing(OTA_LC_PROD);
	cold_boot();
	ck_assert_uint_eq(tu_record()->hdr.lifecycle, OTA_LC_PROD);
	ck_assert_uint_eq(cmd(OTA_CMD_GET_CERTS, NULL, 0), OTA_OK);
	ck_assert_uint_eq(((struct ota_resp_certs *)resp)->count, 2);
	at = sizeof(struct ota_resp_certs);
	memcpy(&n, resp + at, 4);
	at += 4 + ((n + 3u) & ~3u);
	memcpy(&n, resp + at, 4);
	ck_assert_uint_eq(n, r.der_length);
	ck_assert_mem_eq(resp + at + 4, r.der, n);

	/* Personalization is over: neither command is served, and flash stays as it is. */
	ck_assert_uint_eq(cmd(OTA_CMD_GET_IDENTITY_CSR, NULL, 0), OTA_RUNTIME_NOT_MANUFACTURING);
	set_refused(OTA_RUNTIME_NOT_MANUFACTURING, &r, sizeof(r));
	ca_close(&ca);
}
END_TEST

/* A write that fails leaves no certificate; the station sends it again. */
START_TEST(test_failed_write_is_retried)
{
	struct ota_req_set_identity_cert r;
	struct ca ca;

	boot(OTA_LC_TEST_UNLOCKED);
	ca_open(&ca);
	r = issue(&ca, dev.device_id, ota_rt.identity_pubkey);
	swhal_fault_flash(2, SWHAL_FAULT_WRITE_ERROR); /* the program after the erase */
	ck_assert_uint_eq(cmd(OTA_CMD_SET_IDENTITY_CERT, &r, sizeof(r)),
			  OTA_HAL_FLASH_WRITE_FAILED);
	cold_boot();
	ck_assert_uint_ne(cmd(OTA_CMD_GET_CERTS, NULL, 0), OTA_OK);
	ck_assert_uint_eq(cmd(OTA_CMD_SET_IDENTITY_CERT, &r, sizeof(r)), OTA_OK);
	cold_boot();
	ck_assert_uint_eq(cmd(OTA_CMD_GET_CERTS, NULL, 0), OTA_OK);
	ca_close(&ca);
}
END_TEST

static Suite *personalize_suite(void)
{
	Suite *s = suite_create("personalize");
	TCase *tc = tcase_create("personalize");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_csr_parses_and_verifies_with_openssl);
	tcase_add_test(tc, test_csr_refused_outside_manufacturing);
	tcase_add_test(tc, test_set_identity_cert_refusals_change_nothing);
	tcase_add_test(tc, test_set_identity_cert_refused_outside_manufacturing);
	tcase_add_test(tc, test_personalization_then_get_certs);
	tcase_add_test(tc, test_failed_write_is_retried);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(personalize_suite)
