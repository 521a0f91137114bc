// SPDX-License-Identifier: MIT
/*
 * The kernel driver's checks on what the device wrote (kernel/parse.h,
 * compiled into otattest.ko unchanged): each lie a device can tell in a
 * record region header, a response header or a payload is refused with
 * its own status, and what is accepted is exactly what the driver may use.
 * tests/fuzz/fuzz_kernel_parse.c attacks the same functions at random.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/parse.h"
#include "tu_main.h"

/* A valid record with no stages (enough for the region checks). */
static struct ota_record rec;

static void make_record(void)
{
	memset(&rec, 0, sizeof(rec));
	rec.hdr.magic = OTA_RECORD_MAGIC;
	rec.hdr.version = OTA_RECORD_VERSION;
	rec.hdr.header_size = sizeof(rec.hdr);
	rec.hdr.length = sizeof(rec.hdr);
	rec.hdr.reset_reason = OTA_RESET_COLD;
	rec.hdr.lifecycle = OTA_LC_DEV;
	rec.hdr.boot_status = OTA_OK;
}

static struct ota_shm_record region_hdr(uint32_t length)
{
	struct ota_shm_record rh = { .generation = 2, .length = length };

	return rh;
}

START_TEST(test_record_copy_len)
{
	struct ota_shm_record rh = region_hdr(576);

	ck_assert_uint_eq(otattest_record_copy_len(&rh, 0x1000), 576);
	/* Bounded by struct ota_record, even in a larger region. */
	rh.length = sizeof(struct ota_record);
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 0x1000), sizeof(struct ota_record));
	rh.length = sizeof(struct ota_record) + 1;
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 0x1000), 0);
	/* Bounded by the region. */
	rh.length = 100;
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 16 + 100), 100);
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 16 + 99), 0);
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 15), 0);
	rh.length = 0xffffffffu;
	ck_assert_uint_eq(otattest_record_copy_len(&rh, 0xffffffffu), 0);
}
END_TEST

START_TEST(test_record_check)
{
	struct ota_shm_record rh = region_hdr(sizeof(rec.hdr));

	make_record();
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_OK);
	rh.reserved[1] = 1;
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_RECORD_RESERVED_NONZERO);
	rh = region_hdr(0);
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_DRIVER_NO_RECORD);
	rh = region_hdr(0x2000);
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_DRIVER_RECORD_OVERSIZE);
	rh = region_hdr(sizeof(struct ota_record) + 1);
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_DRIVER_RECORD_OVERSIZE);
	/* A length that fits but is not the record's own. */
	rh = region_hdr(sizeof(rec.hdr) + 4);
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_RECORD_BAD_LENGTH);
	/* The record itself goes through ota_record_validate. */
	rh = region_hdr(sizeof(rec.hdr));
	rec.hdr.magic ^= 0xff;
	ck_assert_uint_eq(otattest_record_check(&rh, 0x1000, &rec), OTA_RECORD_BAD_MAGIC);
}
END_TEST

static struct ota_mbox_header resp(uint32_t seq, uint32_t cmd, uint32_t len, uint32_t status)
{
	struct ota_mbox_header h = { .seq = seq, .command = cmd, .length = len, .status = status };

	return h;
}

START_TEST(test_response_check)
{
	struct ota_mbox_header h = resp(42, OTA_CMD_ATTEST, 1700, OTA_OK);
	/* The default region, and the bound the driver gives ATTEST (the evidence limit). */
	const uint32_t region = OTA_SHM_RESPONSE_SIZE;
	const uint32_t cap = ota_mbox_command(OTA_CMD_ATTEST)->response_max;

	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap), OTA_OK);
	/* Someone else's answer, or an answer to another command. */
	ck_assert_uint_eq(otattest_response_check(&h, 43, OTA_CMD_ATTEST, region, cap), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_GET_CERTS, region, cap), OTA_HOST_PROTOCOL);
	/* Longer than the region (checked before the status), or than the command allows. */
	h = resp(42, OTA_CMD_ATTEST, region - 16 + 1, OTA_MBOX_BUSY);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_RESPONSE_OVERSIZE);
	h = resp(42, OTA_CMD_ATTEST, cap + 1, OTA_OK);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_RESPONSE_OVERSIZE);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, 8, cap),
			  OTA_DRIVER_RESPONSE_OVERSIZE);
	/* The device's own refusal passes, payload or not. */
	h = resp(42, OTA_CMD_STABLE_SIGN, 0, OTA_CHAIN_SVN_ABOVE_MIN);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_STABLE_SIGN, region,
						  ota_mbox_command(OTA_CMD_STABLE_SIGN)->response_max),
			  OTA_CHAIN_SVN_ABOVE_MIN);
	h = resp(42, OTA_CMD_UPDATE_RESET, 16, OTA_RUNTIME_UPDATE_REJECTED);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_UPDATE_RESET, region,
						  ota_mbox_command(OTA_CMD_UPDATE_RESET)->response_max),
			  OTA_RUNTIME_UPDATE_REJECTED);
	/* Zero is not success; unknown codes and host-side codes are lies. */
	h = resp(42, OTA_CMD_ATTEST, 0, 0);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_UNKNOWN_STATUS);
	h = resp(42, OTA_CMD_ATTEST, 0, 0x12345678u);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_UNKNOWN_STATUS);
	h = resp(42, OTA_CMD_ATTEST, 0, OTA_HOST_PERMISSION);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_UNKNOWN_STATUS);
	h = resp(42, OTA_CMD_ATTEST, 0, OTA_HOST_TIMEOUT);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_UNKNOWN_STATUS);
	h = resp(42, OTA_CMD_ATTEST, 0, OTA_VERIFY_NONCE_MISMATCH);
	ck_assert_uint_eq(otattest_response_check(&h, 42, OTA_CMD_ATTEST, region, cap),
			  OTA_DRIVER_UNKNOWN_STATUS);
}
END_TEST

/* Build a certificate list; returns its length. */
static uint32_t cert_list(uint8_t *out, uint32_t count, const uint32_t *lens)
{
	uint32_t off = 8, i;

	memset(out, 0, 4096);
	memcpy(out, &count, 4);
	for (i = 0; i < count; i++) {
		memcpy(out + off, &lens[i], 4);
		memset(out + off + 4, 0x30 + (int)i, lens[i]);
		off += 4 + ((lens[i] + 3) & ~3u);
	}
	return off;
}

START_TEST(test_certs)
{
	static uint8_t b[4096];
	const uint32_t two[] = { 267, 156 }, one_odd[] = { 5 };
	uint32_t len, off, clen, bad;

	len = cert_list(b, 2, two);
	ck_assert_uint_eq(otattest_certs_check(b, len), 2);
	otattest_cert_at(b, 0, &off, &clen);
	ck_assert_uint_eq(off, 12);
	ck_assert_uint_eq(clen, 267);
	otattest_cert_at(b, 1, &off, &clen);
	ck_assert_uint_eq(off, 8 + 4 + 268 + 4);
	ck_assert_uint_eq(clen, 156);
	ck_assert_uint_eq(b[off], 0x31);
	/* Nothing may follow the last certificate, or be missing from it. */
	ck_assert_uint_eq(otattest_certs_check(b, len + 1), 0);
	ck_assert_uint_eq(otattest_certs_check(b, len - 1), 0);
	/* Padding must be zero. */
	len = cert_list(b, 1, one_odd);
	ck_assert_uint_eq(otattest_certs_check(b, len), 1);
	b[8 + 4 + 5] = 1;
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	/* Count 0, above OTA_CERTS_MAX, reserved set, empty certificate. */
	len = cert_list(b, 0, NULL);
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	len = cert_list(b, 1, one_odd);
	b[0] = OTA_CERTS_MAX + 1;
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	b[0] = 1;
	b[4] = 1;
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	b[4] = 0;
	memset(b + 8, 0, 4);
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	/* Lengths that would wrap a 32-bit sum. */
	len = cert_list(b, 1, one_odd);
	bad = 0xfffffffdu;
	memcpy(b + 8, &bad, 4);
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	bad = 0xffffffffu;
	memcpy(b + 8, &bad, 4);
	ck_assert_uint_eq(otattest_certs_check(b, len), 0);
	/* Too short for the header. */
	ck_assert_uint_eq(otattest_certs_check(b, 7), 0);
}
END_TEST

START_TEST(test_fixed_responses)
{
	struct ota_resp_stable_sign s = { .svn = 3 };
	struct ota_resp_rotate r = { .old_key_version = 1, .new_key_version = 2 };
	struct ota_resp_reset u = { .boot_status = OTA_OK, .generation = 9, .booted_slot = OTA_SLOT_B };

	ck_assert_uint_eq(otattest_stable_sign_check(&s, sizeof(s), 3), OTA_OK);
	ck_assert_uint_eq(otattest_stable_sign_check(&s, sizeof(s), 2), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_stable_sign_check(&s, sizeof(s) - 1, 3), OTA_HOST_PROTOCOL);
	s.reserved = 1;
	ck_assert_uint_eq(otattest_stable_sign_check(&s, sizeof(s), 3), OTA_HOST_PROTOCOL);

	ck_assert_uint_eq(otattest_rotate_check(&r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(otattest_rotate_check(&r, 12), OTA_HOST_PROTOCOL);
	r.reserved = 7;
	ck_assert_uint_eq(otattest_rotate_check(&r, sizeof(r)), OTA_HOST_PROTOCOL);

	ck_assert_uint_eq(otattest_reset_check(&u, sizeof(u)), OTA_OK);
	u.booted_slot = 2;
	ck_assert_uint_eq(otattest_reset_check(&u, sizeof(u)), OTA_HOST_PROTOCOL);
	u.booted_slot = OTA_SLOT_A;
	u.reserved = 1;
	ck_assert_uint_eq(otattest_reset_check(&u, sizeof(u)), OTA_HOST_PROTOCOL);
	u.reserved = 0;
	ck_assert_uint_eq(otattest_reset_check(&u, 0), OTA_HOST_PROTOCOL);
}
END_TEST

/* Install answers: only the session the driver opened, and exactly where it stands. */
START_TEST(test_install_responses)
{
	struct ota_resp_install i = { .stage = OTA_STAGE_BL0, .slot = OTA_SLOT_B, .received = 4096,
				      .length = 10000 };
	struct ota_resp_install_finish f = { .stage = OTA_STAGE_BL0, .slot = OTA_SLOT_B,
					     .length = 10000, .security_version = 2,
					     .flags = OTA_INSTALL_RESULT_F_WRITTEN };

	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER,
						 10000, 4096), OTA_OK);
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_SLOT_B, 10000, 4096),
			  OTA_OK);
	/* Another slot than asked, another stage, length or count: a lie. */
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_SLOT_A, 10000, 4096),
			  OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_ROM_EXT,
						 OTA_UPDATE_SLOT_OTHER, 10000, 4096), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER,
						 9999, 4096), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER,
						 10000, 8192), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i) - 4, OTA_STAGE_BL0,
						 OTA_UPDATE_SLOT_OTHER, 10000, 4096), OTA_HOST_PROTOCOL);
	i.slot = OTA_UPDATE_SLOT_OTHER; /* never resolved: not a slot */
	ck_assert_uint_eq(otattest_install_check(&i, sizeof(i), OTA_STAGE_BL0, OTA_UPDATE_SLOT_OTHER,
						 10000, 4096), OTA_HOST_PROTOCOL);

	memcpy(f.version, "bl0-2.0", 7);
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							false), OTA_OK);
	/* A real install answered as a dry run (or the reverse) did not do what was asked. */
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							true), OTA_HOST_PROTOCOL);
	f.version[7] = '\n'; /* not printable */
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							false), OTA_HOST_PROTOCOL);
	f.version[7] = 0;
	f.version[9] = 'x'; /* text after the NUL padding */
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							false), OTA_HOST_PROTOCOL);
	f.version[9] = 0;
	f.security_version = OTA_SVN_LIMIT + 1;
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							false), OTA_HOST_PROTOCOL);
	f.security_version = 2;
	f.reserved = 1;
	ck_assert_uint_eq(otattest_install_finish_check(&f, sizeof(f), OTA_STAGE_BL0, OTA_SLOT_B, 10000,
							false), OTA_HOST_PROTOCOL);
}
END_TEST

/* The driver's hold on an install session: who may continue it, and with what. */
START_TEST(test_install_chunk_fits)
{
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 4096, 10000, 4096, 4096), OTA_OK);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 8192, 10000, 8192, 1808), OTA_OK);
	/* No session, or another socket's. */
	ck_assert_uint_eq(otattest_install_chunk_fits(false, 7, 7, 0, 10000, 0, 1), OTA_INSTALL_NOT_STARTED);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 8, 0, 10000, 0, 1), OTA_INSTALL_NOT_STARTED);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 0, 10000, 0, 0), OTA_INSTALL_CHUNK_LENGTH);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 0, 10000, 0, 4097),
			  OTA_INSTALL_CHUNK_LENGTH);
	/* Out of order: again, skipped, or before. */
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 4096, 10000, 0, 4096),
			  OTA_INSTALL_BAD_OFFSET);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 4096, 10000, 8192, 1808),
			  OTA_INSTALL_BAD_OFFSET);
	/* Past the end, including where offset + len would wrap. */
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 8192, 10000, 8192, 1809),
			  OTA_INSTALL_OVERRUN);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 0xffffefffu, 0xffffffffu, 0xffffefffu,
						      4096), OTA_OK);
	ck_assert_uint_eq(otattest_install_chunk_fits(true, 7, 7, 0xfffff000u, 0xffffffffu, 0xfffff000u,
						      4096), OTA_INSTALL_OVERRUN);
}
END_TEST

/* GET_INFO: the runtime's version as the driver will show it, or nothing. */
START_TEST(test_info_response)
{
	struct ota_resp_info r;

	memset(&r, 0, sizeof(r));
	memcpy(r.runtime_version, "2.0.0", 5);
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r) - 1), OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r) + 4), OTA_HOST_PROTOCOL);
	memset(r.runtime_version, 'v', sizeof(r.runtime_version)); /* 16 characters, no NUL: fits */
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_OK);
	r.runtime_version[3] = '\n'; /* not printable */
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_HOST_PROTOCOL);
	memset(r.runtime_version, 0, sizeof(r.runtime_version));
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_HOST_PROTOCOL); /* empty */
	memcpy(r.runtime_version, "1.0.0", 5);
	r.runtime_version[7] = 'x'; /* text after the NUL padding */
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_HOST_PROTOCOL);
	r.runtime_version[7] = 0;
	r.reserved[3] = 1;
	ck_assert_uint_eq(otattest_info_check(&r, sizeof(r)), OTA_HOST_PROTOCOL);
}
END_TEST

START_TEST(test_boot_svc_responses)
{
	struct ota_resp_boot_svc b = { .boot_status = OTA_OK, .generation = 5, .booted_slot = OTA_SLOT_B,
				       .primary_slot = OTA_SLOT_B, .floor_rom_ext = 1, .floor_bl0 = 2,
				       .revocation_sequence = 4 };

	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b)), OTA_OK);
	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b) - 4), OTA_HOST_PROTOCOL);
	b.primary_slot = 2;
	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b)), OTA_HOST_PROTOCOL);
	b.primary_slot = OTA_SLOT_A;
	b.floor_bl0 = OTA_SVN_LIMIT + 1;
	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b)), OTA_HOST_PROTOCOL);
	b.floor_bl0 = 2;
	b.revocation_sequence = OTA_REVOCATION_SEQ_MAX + 1;
	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b)), OTA_HOST_PROTOCOL);
	b.revocation_sequence = 4;
	b.reserved = 1;
	ck_assert_uint_eq(otattest_boot_svc_check(&b, sizeof(b)), OTA_HOST_PROTOCOL);
}
END_TEST

static Suite *kernel_parse_suite(void)
{
	Suite *s = suite_create("kernel_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_record_copy_len);
	tcase_add_test(tc, test_record_check);
	tcase_add_test(tc, test_response_check);
	tcase_add_test(tc, test_certs);
	tcase_add_test(tc, test_fixed_responses);
	tcase_add_test(tc, test_install_responses);
	tcase_add_test(tc, test_install_chunk_fits);
	tcase_add_test(tc, test_boot_svc_responses);
	tcase_add_test(tc, test_info_response);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(kernel_parse_suite)
