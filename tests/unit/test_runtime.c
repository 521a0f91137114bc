// SPDX-License-Identifier: MIT
/*
 * ota_fw_command on a booted device (tu_device: a provisioned device on
 * the software HAL, booted by the real boot flow): every command with
 * every wrong length, reserved fields, nonce and message lengths 15, 16,
 * 64 and 65 with their padding, SVN bounds for the stable key, slots,
 * bounded responses, and a device that did not boot a runtime. A refused
 * request must leave no response and change nothing.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <otattest/sha256.h>
#include <otattest/shm.h>
#include <otattest/verify.h>

#include "../../libotattest/tools/otimage/idcert.h"
#include "firmware.h"
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

/* A refusal: the status, and nothing written back. */
static void refused(ota_status_t want, uint32_t command, const void *req, uint32_t len)
{
	ota_status_t st;

	memset(resp, 0xa5, 64);
	st = cmd(command, req, len);
	ck_assert_msg(st == want, "command %u len %u: %s, want %s", command, len,
		      ota_status_name(st) ? ota_status_name(st) : "?", ota_status_name(want));
	ck_assert_uint_eq(resp_len, 0);
	for (int i = 0; i < 64; i++)
		ck_assert_uint_eq(resp[i], 0xa5);
}

static void boot(void)
{
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
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

static struct ota_req_attest attest_req(uint32_t nonce_len)
{
	struct ota_req_attest r;

	memset(&r, 0, sizeof(r));
	r.nonce_len = nonce_len;
	for (uint32_t i = 0; i < nonce_len && i < OTA_NONCE_MAX; i++)
		r.nonce[i] = (uint8_t)(0x30 + i);
	return r;
}

static struct ota_req_stable_sign sign_req(uint32_t svn, uint32_t msg_len)
{
	struct ota_req_stable_sign r;

	memset(&r, 0, sizeof(r));
	r.svn = svn;
	r.msg_len = msg_len;
	for (uint32_t i = 0; i < msg_len && i < OTA_NONCE_MAX; i++)
		r.msg[i] = (uint8_t)(0x61 + i % 26);
	return r;
}

START_TEST(test_unknown_commands)
{
	boot();
	refused(OTA_MBOX_UNKNOWN_COMMAND, 0, NULL, 0);
	refused(OTA_MBOX_UNKNOWN_COMMAND, OTA_CMD_MAX + 1, NULL, 0);
	refused(OTA_MBOX_UNKNOWN_COMMAND, 0xffffffffu, NULL, 0);
	refused(OTA_MBOX_UNKNOWN_COMMAND, 0x100 | OTA_CMD_ATTEST, NULL, 0);
}
END_TEST

/* Each command of the table (mailbox.h): every length but its own is refused as such. */
START_TEST(test_every_wrong_length)
{
	static uint8_t big[OTA_SHM_REQUEST_MIN_PAYLOAD + 64u];
	uint32_t c, len;

	boot();
	memset(big, 0xff, sizeof(big));
	for (c = 1; c <= OTA_CMD_MAX; c++) { /* dense: test_mbox_table.c */
		const struct ota_mbox_command_desc *d = ota_mbox_command(c);

		for (len = 0; len <= sizeof(big); len++)
			if (len != d->request_len)
				refused(OTA_MBOX_BAD_LENGTH, c, big, len);
		refused(OTA_MBOX_BAD_LENGTH, c, big, d->request_len + 0x10000u);
		refused(OTA_MBOX_BAD_LENGTH, c, big, 0xffffffffu);
		/*
		 * Its own length gets past the length check (all-ones fields are
		 * then refused for what they say); commands that reset the device
		 * are not run with an empty request here.
		 */
		if (d->request_len)
			ck_assert_uint_ne(cmd(c, big, d->request_len), OTA_MBOX_BAD_LENGTH);
		else if (!(d->flags & OTA_MBOX_F_RESETS))
			ck_assert_uint_ne(cmd(c, NULL, 0), OTA_MBOX_BAD_LENGTH);
	}
}
END_TEST

START_TEST(test_get_record)
{
	const struct ota_record *rec;

	boot();
	rec = tu_record();
	ck_assert_uint_eq(cmd(OTA_CMD_GET_RECORD, NULL, 0), OTA_OK);
	ck_assert_uint_eq(resp_len, rec->hdr.length);
	ck_assert_mem_eq(resp, rec, resp_len);
	ck_assert_uint_eq(ota_record_validate(resp, resp_len), OTA_OK);
	/* A response region one byte short: refused, not truncated. */
	resp_len = 7;
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_GET_RECORD, NULL, 0, resp, rec->hdr.length - 1,
					 &resp_len),
			  OTA_MBOX_RESPONSE_TOO_LARGE);
	ck_assert_uint_eq(resp_len, 0);
}
END_TEST

START_TEST(test_attest_nonce_lengths)
{
	struct ota_req_attest r;
	struct ota_cose_sign1 m;
	struct ota_evidence_claims c;

	boot();
	r = attest_req(15);
	refused(OTA_MBOX_NONCE_LENGTH, OTA_CMD_ATTEST, &r, sizeof(r));
	r = attest_req(0);
	refused(OTA_MBOX_NONCE_LENGTH, OTA_CMD_ATTEST, &r, sizeof(r));
	r = attest_req(65);
	refused(OTA_MBOX_NONCE_LENGTH, OTA_CMD_ATTEST, &r, sizeof(r));
	r = attest_req(0xffffffffu);
	refused(OTA_MBOX_NONCE_LENGTH, OTA_CMD_ATTEST, &r, sizeof(r));
	for (uint32_t n = OTA_NONCE_MIN; n <= OTA_NONCE_MAX; n += OTA_NONCE_MAX - OTA_NONCE_MIN) {
		r = attest_req(n);
		ck_assert_uint_eq(cmd(OTA_CMD_ATTEST, &r, sizeof(r)), OTA_OK);
		ck_assert_uint_eq(ota_cose_sign1_decode(resp, resp_len, &m), OTA_OK);
		ck_assert_uint_eq(ota_evidence_decode_claims(m.payload, m.payload_len, &c, NULL, 0), OTA_OK);
		ck_assert_uint_eq(c.nonce_len, n);
		ck_assert_mem_eq(c.nonce, r.nonce, n);
		ck_assert_mem_eq(c.device_id, dev.device_id, sizeof(dev.device_id));
	}
}
END_TEST

START_TEST(test_attest_reserved_and_padding)
{
	struct ota_req_attest r;

	boot();
	r = attest_req(16);
	r.reserved = 1;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_ATTEST, &r, sizeof(r));
	r = attest_req(16);
	r.nonce[16] = 1; /* the first byte past the nonce */
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_ATTEST, &r, sizeof(r));
	r = attest_req(63);
	r.nonce[63] = 0x80; /* the last byte */
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_ATTEST, &r, sizeof(r));
}
END_TEST

START_TEST(test_attest_response_bounded)
{
	struct ota_req_attest r = attest_req(32);
	uint32_t full;

	boot();
	ck_assert_uint_eq(cmd(OTA_CMD_ATTEST, &r, sizeof(r)), OTA_OK);
	full = resp_len;
	resp_len = 7;
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&r, sizeof(r), resp,
					 full - 1, &resp_len),
			  OTA_MBOX_RESPONSE_TOO_LARGE);
	ck_assert_uint_eq(resp_len, 0);
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&r, sizeof(r), resp, full,
					 &resp_len),
			  OTA_OK);
}
END_TEST

/* The stable-sign signature, checked with OpenSSL over the documented message. */
static void check_stable_sig(const struct ota_req_stable_sign *r,
			     const struct ota_resp_stable_sign *s)
{
	uint8_t digest[32], point[65], der[80];
	unsigned char *p = der;
	struct ota_sha256 h;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *pkey = NULL;
	ECDSA_SIG *sig = ECDSA_SIG_new();
	int der_len;

	ota_sha256_init(&h);
	ota_sha256_update(&h, OTA_STABLE_SIGN_DOMAIN, strlen(OTA_STABLE_SIGN_DOMAIN));
	ota_sha256_update(&h, &r->svn, 4);
	ota_sha256_update(&h, r->msg, r->msg_len);
	ota_sha256_final(&h, digest);
	point[0] = 4;
	memcpy(point + 1, s->pubkey, 64);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, 65);
	params[2] = OSSL_PARAM_construct_end();
	ck_assert_int_eq(EVP_PKEY_fromdata_init(ctx), 1);
	ck_assert_int_eq(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params), 1);
	EVP_PKEY_CTX_free(ctx);
	ECDSA_SIG_set0(sig, BN_bin2bn(s->signature, 32, NULL), BN_bin2bn(s->signature + 32, 32, NULL));
	der_len = i2d_ECDSA_SIG(sig, &p);
	ctx = EVP_PKEY_CTX_new(pkey, NULL);
	ck_assert_int_eq(EVP_PKEY_verify_init(ctx), 1);
	ck_assert_int_eq(EVP_PKEY_verify(ctx, der, (size_t)der_len, digest, 32), 1);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	ECDSA_SIG_free(sig);
}

START_TEST(test_stable_sign)
{
	struct ota_resp_stable_sign s5, s5b, s4;
	struct ota_req_stable_sign r;
	uint32_t min_svn;

	boot();
	min_svn = ota_boot_state()->min_svn;
	ck_assert_uint_eq(min_svn, 5); /* tu_device boots BL0 at SVN 5 */

	r = sign_req(min_svn, 16);
	ck_assert_uint_eq(cmd(OTA_CMD_STABLE_SIGN, &r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(resp_len, sizeof(s5));
	memcpy(&s5, resp, sizeof(s5));
	ck_assert_uint_eq(s5.svn, min_svn);
	ck_assert_uint_eq(s5.reserved, 0);
	check_stable_sig(&r, &s5);

	r = sign_req(min_svn, 64);
	ck_assert_uint_eq(cmd(OTA_CMD_STABLE_SIGN, &r, sizeof(r)), OTA_OK);
	memcpy(&s5b, resp, sizeof(s5b));
	check_stable_sig(&r, &s5b);
	ck_assert_mem_eq(s5b.pubkey, s5.pubkey, 64); /* one key per SVN */

	r = sign_req(min_svn - 1, 32);
	ck_assert_uint_eq(cmd(OTA_CMD_STABLE_SIGN, &r, sizeof(r)), OTA_OK);
	memcpy(&s4, resp, sizeof(s4));
	check_stable_sig(&r, &s4);
	ck_assert_mem_ne(s4.pubkey, s5.pubkey, 64);

	r = sign_req(0, 32);
	ck_assert_uint_eq(cmd(OTA_CMD_STABLE_SIGN, &r, sizeof(r)), OTA_OK);
}
END_TEST

START_TEST(test_stable_sign_refusals)
{
	struct ota_req_stable_sign r;

	boot();
	r = sign_req(6, 16); /* min SVN + 1 */
	refused(OTA_CHAIN_SVN_ABOVE_MIN, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(OTA_CHAIN_DEFAULT_MAX_SVN + 1, 16);
	refused(OTA_CHAIN_SVN_ABOVE_MAX, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(OTA_SVN_LIMIT + 1, 16);
	refused(OTA_CHAIN_SVN_ABOVE_MAX, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(0xffffffffu, 16);
	refused(OTA_CHAIN_SVN_ABOVE_MAX, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(5, 15);
	refused(OTA_MBOX_MESSAGE_LENGTH, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(5, 65);
	refused(OTA_MBOX_MESSAGE_LENGTH, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(5, 0);
	refused(OTA_MBOX_MESSAGE_LENGTH, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(5, 20);
	r.msg[20] = 1;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
	r = sign_req(5, 20);
	r.msg[63] = 1;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_STABLE_SIGN, &r, sizeof(r));
}
END_TEST

START_TEST(test_get_certs_and_full_chain)
{
	struct ota_req_attest r = attest_req(32);
	struct ota_trust *trust;
	struct ota_verdict *v;

	boot();
	refused(OTA_RUNTIME_NO_CERTS, OTA_CMD_GET_CERTS, NULL, 0); /* tu_device has none */

	/* Provision one the way otimage provision does, then reboot. */
	trust = tu_identity_provision(&dev);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);

	ck_assert_uint_eq(cmd(OTA_CMD_GET_CERTS, NULL, 0), OTA_OK);
	ck_assert_uint_eq(((struct ota_resp_certs *)resp)->count, 2);

	ck_assert_uint_eq(cmd(OTA_CMD_ATTEST, &r, sizeof(r)), OTA_OK);
	v = calloc(1, sizeof(*v));
	ck_assert_uint_eq(ota_verify_evidence(resp, resp_len, trust, r.nonce, 32, NULL,
					      (const uint8_t *)tu_record(), tu_record()->hdr.length,
					      v),
			  OTA_OK);
	ck_assert(v->authentic);
	free(v);
	ota_trust_free(trust);
}
END_TEST

START_TEST(test_rotate_and_reset_refusals)
{
	struct ota_req_rotate rot = { 0, 0 };
	struct ota_req_update up = { OTA_SLOT_A, 0 };

	boot();
	rot.flags = 1;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot));
	rot.flags = 0;
	rot.reserved = 0x80000000u;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot));
	up.slot = 2;
	refused(OTA_MBOX_BAD_FIELD, OTA_CMD_UPDATE_RESET, &up, sizeof(up));
	up.slot = 0xfffffffeu;
	refused(OTA_MBOX_BAD_FIELD, OTA_CMD_UPDATE_RESET, &up, sizeof(up));
	up.slot = OTA_SLOT_A;
	up.reserved = 1;
	refused(OTA_MBOX_RESERVED_NONZERO, OTA_CMD_UPDATE_RESET, &up, sizeof(up));
}
END_TEST

START_TEST(test_update_to_erased_slot_keeps_running)
{
	struct ota_req_update up = { OTA_UPDATE_SLOT_OTHER, 0 };
	struct ota_req_attest r = attest_req(16);
	struct ota_resp_reset out;
	ota_status_t st;

	boot();
	st = cmd(OTA_CMD_UPDATE_RESET, &up, sizeof(up));
	ck_assert_uint_ne(st, OTA_OK); /* slot B is erased */
	ck_assert_uint_eq(resp_len, sizeof(out));
	memcpy(&out, resp, sizeof(out));
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert_uint_eq(out.reserved, 0);
	/* Still serving, with evidence for the image that runs. */
	ck_assert_uint_eq(cmd(OTA_CMD_ATTEST, &r, sizeof(r)), OTA_OK);
}
END_TEST

START_TEST(test_warm_reset_keeps_serving)
{
	struct ota_req_attest r = attest_req(16);
	struct ota_resp_reset out;

	boot();
	ck_assert_uint_eq(cmd(OTA_CMD_WARM_RESET, NULL, 0), OTA_OK);
	ck_assert_uint_eq(resp_len, sizeof(out));
	memcpy(&out, resp, sizeof(out));
	ck_assert_uint_eq(out.boot_status, OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert_uint_eq(cmd(OTA_CMD_ATTEST, &r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(cmd(OTA_CMD_GET_RECORD, NULL, 0), OTA_OK);
	ck_assert_uint_eq(((struct ota_record_header *)resp)->reset_reason, OTA_RESET_WARM);
}
END_TEST

START_TEST(test_rotate_tags)
{
	struct ota_req_rotate rot = { 0, 0 };
	struct ota_resp_rotate out;

	boot();
	ck_assert_uint_eq(cmd(OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot)), OTA_OK);
	ck_assert_uint_eq(resp_len, sizeof(out));
	memcpy(&out, resp, sizeof(out));
	ck_assert_uint_eq(out.new_key_version, out.old_key_version + 1);
}
END_TEST

START_TEST(test_not_ready_device)
{
	struct ota_req_attest a = attest_req(16);
	struct ota_req_stable_sign s = sign_req(0, 16);
	struct ota_req_rotate rot = { 0, 0 };
	struct ota_req_update up = { OTA_SLOT_A, 0 };

	tu_blob_free(&dev.slot[OTI_BL0_A]); /* no BL0 anywhere */
	tu_device_power_on(&dev);
	ck_assert_uint_ne(ota_fw_boot(OTA_RESET_COLD), OTA_OK);

	ck_assert_uint_eq(cmd(OTA_CMD_GET_RECORD, NULL, 0), OTA_OK); /* it says why */
	ck_assert_uint_ne(((struct ota_record_header *)resp)->boot_status, OTA_OK);
	refused(OTA_MBOX_NOT_READY, OTA_CMD_ATTEST, &a, sizeof(a));
	refused(OTA_MBOX_NOT_READY, OTA_CMD_STABLE_SIGN, &s, sizeof(s));
	refused(OTA_MBOX_NOT_READY, OTA_CMD_GET_CERTS, NULL, 0);
	refused(OTA_MBOX_NOT_READY, OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot));
	refused(OTA_MBOX_NOT_READY, OTA_CMD_UPDATE_RESET, &up, sizeof(up));
	refused(OTA_MBOX_NOT_READY, OTA_CMD_WARM_RESET, NULL, 0);
	/* Malformed requests still get their own reason. */
	refused(OTA_MBOX_BAD_LENGTH, OTA_CMD_ATTEST, &a, sizeof(a) - 1);
	a.nonce_len = 15;
	refused(OTA_MBOX_NONCE_LENGTH, OTA_CMD_ATTEST, &a, sizeof(a));
}
END_TEST

/*
 * BL0's loop body (ota_runtime_serve, what BL0 runs on the emulated core)
 * on the host build: the answers ota_runtime_command gives, through the
 * mbox registers; a reset command gets none until the reset, then the
 * runtime that booted answers it (STATUS.RESUMED, ota_runtime_resume).
 */
START_TEST(test_serve_over_the_registers)
{
	static uint8_t want[sizeof(resp)];
	struct ota_req_attest a = attest_req(16);
	struct ota_resp_reset out;
	uint32_t want_len, reason = 0;
	ota_status_t st = OTA_OK;

	boot();
	ck_assert_uint_eq(cmd(OTA_CMD_GET_RECORD, NULL, 0), OTA_OK);
	memcpy(want, resp, resp_len);
	want_len = resp_len;
	ck_assert_int_eq(swhal_mbox_post(1, OTA_CMD_GET_RECORD, NULL, 0), 0);
	ck_assert(ota_runtime_serve());
	ck_assert(!ota_runtime_serve()); /* answered: nothing waits */
	ck_assert(swhal_mbox_take_response(&st, resp, sizeof(resp), &resp_len));
	ck_assert_uint_eq(st, OTA_OK);
	ck_assert_uint_eq(resp_len, want_len);
	ck_assert_mem_eq(resp, want, want_len);

	ck_assert_int_eq(swhal_mbox_post(2, OTA_CMD_ATTEST, &a, sizeof(a) - 1), 0);
	ck_assert(ota_runtime_serve());
	ck_assert(swhal_mbox_take_response(&st, resp, sizeof(resp), &resp_len));
	ck_assert_uint_eq(st, OTA_MBOX_BAD_LENGTH);
	ck_assert_uint_eq(resp_len, 0);

	ck_assert_int_eq(swhal_mbox_post(3, OTA_CMD_WARM_RESET, NULL, 0), 0);
	ck_assert(!ota_runtime_serve()); /* a reset is pending: no answer, nothing more served */
	ck_assert(!swhal_mbox_take_response(&st, resp, sizeof(resp), &resp_len));
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_WARM);
	ck_assert_uint_eq(swhal_reset(reason), OTA_OK);
	ck_assert_uint_eq(ota_fw_boot(reason), OTA_OK);
	ck_assert(ota_runtime_serve());
	ck_assert(swhal_mbox_take_response(&st, resp, sizeof(resp), &resp_len));
	ck_assert_uint_eq(st, OTA_OK);
	ck_assert_uint_eq(resp_len, sizeof(out));
	memcpy(&out, resp, sizeof(out));
	ck_assert_uint_eq(out.boot_status, OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert(!swhal_mbox_owed());
}
END_TEST

static Suite *runtime_suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *v = tcase_create("validation");
	TCase *c = tcase_create("commands");

	/* Keys are made lazily in each (forked) test: ECDSA only, cheap. */
	tcase_add_checked_fixture(v, setup, teardown);
	tcase_add_checked_fixture(c, setup, teardown);
	tcase_set_timeout(v, 120);
	tcase_set_timeout(c, 120);
	tcase_add_test(v, test_unknown_commands);
	tcase_add_test(v, test_every_wrong_length);
	tcase_add_test(v, test_attest_nonce_lengths);
	tcase_add_test(v, test_attest_reserved_and_padding);
	tcase_add_test(v, test_stable_sign_refusals);
	tcase_add_test(v, test_rotate_and_reset_refusals);
	tcase_add_test(v, test_not_ready_device);
	tcase_add_test(c, test_get_record);
	tcase_add_test(c, test_attest_response_bounded);
	tcase_add_test(c, test_stable_sign);
	tcase_add_test(c, test_get_certs_and_full_chain);
	tcase_add_test(c, test_update_to_erased_slot_keeps_running);
	tcase_add_test(c, test_warm_reset_keeps_serving);
	tcase_add_test(c, test_rotate_tags);
	tcase_add_test(c, test_serve_over_the_registers);
	suite_add_tcase(s, v);
	suite_add_tcase(s, c);
	return s;
}

OTA_TEST_MAIN(runtime_suite)
