// SPDX-License-Identifier: MIT
/*
 * The mailbox command table (otattest/mailbox.h) walked row by row: the
 * lookup every layer uses agrees with the table, numbers are dense and
 * names unique, every request fits the smallest request region and every
 * response the smallest response region a driver accepts, and the
 * evidence size limit holds for the largest claims set and certificates
 * the firmware can put in. test_runtime.c checks the firmware refuses
 * every other request length, row by row.
 */
#include <check.h>
#include <string.h>

#include <otattest/evidence.h>
#include <otattest/flash.h>
#include <otattest/shm.h>

#include "tu_main.h"

/* The rows as the macro spells them, to hold the lookup to them. */
struct row {
	uint32_t command, number;
	const char *name;
	uint32_t request_len, response_max, flags, lane;
};

static const struct row rows[] = {
#define X(name, num, str, req, resp, fl, ln) { OTA_CMD_##name, num, str, req, resp, fl, ln },
	OTA_MBOX_COMMAND_LIST(X)
#undef X
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

START_TEST(lookup_agrees_with_every_row)
{
	ck_assert_uint_eq(N_ROWS, OTA_CMD_MAX);
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct ota_mbox_command_desc *d = ota_mbox_command(rows[i].number);

		ck_assert_uint_eq(rows[i].command, rows[i].number);
		ck_assert_ptr_nonnull(d);
		ck_assert_str_eq(d->name, rows[i].name);
		ck_assert_str_eq(ota_mbox_command_name(rows[i].number), rows[i].name);
		ck_assert_uint_eq(d->request_len, rows[i].request_len);
		ck_assert_uint_eq(d->response_max, rows[i].response_max);
		ck_assert_uint_eq(d->flags, rows[i].flags);
		ck_assert_uint_eq(d->lane, rows[i].lane);
	}
}
END_TEST

/*
 * The lane column: the reads are these six; every other command (resets,
 * installs, fuses, the identity certificate) changes the device, and an
 * unknown number is treated as a change (never queued ahead of a reader).
 */
START_TEST(lanes_read_and_change)
{
	static const uint32_t reads[] = { OTA_CMD_GET_RECORD, OTA_CMD_ATTEST, OTA_CMD_STABLE_SIGN,
					  OTA_CMD_GET_CERTS, OTA_CMD_GET_IDENTITY_CSR,
					  OTA_CMD_GET_INFO };
	size_t i, k;

	for (i = 0; i < N_ROWS; i++) {
		bool read = false;

		for (k = 0; k < sizeof(reads) / sizeof(reads[0]); k++)
			read |= rows[i].number == reads[k];
		ck_assert_msg(rows[i].lane == (read ? OTA_MBOX_LANE_READ : OTA_MBOX_LANE_CHANGE),
			      "%s: lane %u", rows[i].name, rows[i].lane);
		ck_assert_uint_eq(ota_mbox_command_lane(rows[i].number), rows[i].lane);
	}
	ck_assert_uint_eq(ota_mbox_command_lane(0), OTA_MBOX_LANE_CHANGE);
	ck_assert_uint_eq(ota_mbox_command_lane(OTA_CMD_MAX + 1), OTA_MBOX_LANE_CHANGE);
}
END_TEST

START_TEST(numbers_dense_and_nothing_else_is_a_command)
{
	const uint32_t not_commands[] = { 0, OTA_CMD_MAX + 1u, OTA_CMD_MAX + 2u, 0x100u | OTA_CMD_ATTEST,
					  0x80000000u, 0xffffffffu };
	uint32_t seen = 0;

	for (size_t i = 0; i < N_ROWS; i++) {
		ck_assert_uint_ge(rows[i].number, 1);
		ck_assert_uint_le(rows[i].number, OTA_CMD_MAX);
		ck_assert_msg(!(seen & (1u << rows[i].number)), "command %u twice", rows[i].number);
		seen |= 1u << rows[i].number;
	}
	for (size_t i = 0; i < sizeof(not_commands) / sizeof(not_commands[0]); i++) {
		ck_assert_ptr_null(ota_mbox_command(not_commands[i]));
		ck_assert_str_eq(ota_mbox_command_name(not_commands[i]), "unknown");
	}
}
END_TEST

START_TEST(names_unique_and_plain)
{
	for (size_t i = 0; i < N_ROWS; i++) {
		const char *n = rows[i].name;

		ck_assert_uint_gt(strlen(n), 0);
		ck_assert_str_ne(n, "unknown");
		/* Logs print it unquoted and tests grep it: lower case and '-' only. */
		ck_assert_uint_eq(strspn(n, "abcdefghijklmnopqrstuvwxyz-"), strlen(n));
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(n, rows[j].name);
	}
}
END_TEST

START_TEST(requests_fit_the_smallest_request_region)
{
	uint32_t max = 0;

	for (size_t i = 0; i < N_ROWS; i++) {
		ck_assert_uint_eq(rows[i].request_len % 4u, 0);
		ck_assert_uint_le(rows[i].request_len, OTA_SHM_REQUEST_MIN_PAYLOAD);
		if (rows[i].request_len > max)
			max = rows[i].request_len;
	}
	ck_assert_uint_eq(OTA_MBOX_REQUEST_MAX_ANY, max);
}
END_TEST

START_TEST(responses_fit_the_smallest_response_region)
{
	uint32_t max = 0;

	for (size_t i = 0; i < N_ROWS; i++) {
		/* 0 is allowed: a command answered by its status alone. */
		ck_assert_uint_eq(rows[i].response_max % 4u, 0);
		ck_assert_uint_le(rows[i].response_max, OTA_SHM_RESPONSE_MIN_PAYLOAD);
		ck_assert_uint_le(rows[i].response_max,
				  OTA_SHM_RESPONSE_SIZE - sizeof(struct ota_mbox_header));
		if (rows[i].response_max > max)
			max = rows[i].response_max;
	}
	ck_assert_uint_eq(OTA_MBOX_RESPONSE_MAX_ANY, max);
	ck_assert_uint_eq(ota_mbox_command(OTA_CMD_ATTEST)->response_max, OTA_EVIDENCE_MAX_BYTES);
}
END_TEST

/* The default layout the model publishes. */
static struct ota_shm_info default_info(void)
{
	struct ota_shm_info in;

	memset(&in, 0, sizeof(in));
	in.magic = OTA_SHM_MAGIC;
	in.abi_major = OTA_SHM_ABI_MAJOR;
	in.info_size = sizeof(in);
	in.shm_size = OTA_SHM_SIZE;
	in.device_state = OTA_DEV_READY;
	in.record_offset = OTA_SHM_RECORD_OFFSET;
	in.record_size = OTA_SHM_RECORD_SIZE;
	in.request_offset = OTA_SHM_REQUEST_OFFSET;
	in.request_size = OTA_SHM_REQUEST_SIZE;
	in.response_offset = OTA_SHM_RESPONSE_OFFSET;
	in.response_size = OTA_SHM_RESPONSE_SIZE;
	return in;
}

START_TEST(driver_refuses_a_region_too_small_for_a_response)
{
	struct ota_shm_info in = default_info();

	ck_assert_uint_eq(ota_shm_info_validate(&in, OTA_SHM_SIZE), OTA_OK);
	in.response_size = sizeof(struct ota_mbox_header) + OTA_MBOX_RESPONSE_MAX_ANY;
	ck_assert_uint_eq(ota_shm_info_validate(&in, OTA_SHM_SIZE), OTA_OK);
	in.response_size -= 4u;
	ck_assert_uint_eq(ota_shm_info_validate(&in, OTA_SHM_SIZE), OTA_SHM_BAD_LAYOUT);

	in = default_info();
	in.request_size = sizeof(struct ota_mbox_header) + OTA_SHM_REQUEST_MIN_PAYLOAD;
	ck_assert_uint_eq(ota_shm_info_validate(&in, OTA_SHM_SIZE), OTA_OK);
	in.request_size -= 4u;
	ck_assert_uint_eq(ota_shm_info_validate(&in, OTA_SHM_SIZE), OTA_SHM_BAD_LAYOUT);
}
END_TEST

/* The largest record there can be: every stage, every chain full, every number wide. */
static void largest_record(struct ota_record *r)
{
	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = OTA_RECORD_MAX_STAGES;
	r->hdr.length = (uint32_t)OTA_RECORD_MAX_BYTES;
	r->hdr.generation = r->hdr.epoch = r->hdr.tag_key_version = 0xffffffffu;
	r->hdr.floor_rom_ext = r->hdr.floor_bl0 = 0xffffffffu;
	r->hdr.reset_reason = OTA_RESET_UPDATE;
	r->hdr.lifecycle = OTA_LC_RMA;
	r->hdr.flags = OTA_RECORD_F_ALL;
	r->hdr.min_svn = r->hdr.chain_max_svn = OTA_SVN_LIMIT;
	for (uint32_t i = 0; i < OTA_RECORD_MAX_STAGES; i++) {
		struct ota_stage_record *s = &r->stage[i];

		s->stage = OTA_STAGE_BL0;
		s->slot = OTA_SLOT_B;
		s->status = 0xffffffffu; /* not judged by the record; widest to encode */
		s->path = OTA_PATH_MAX;
		s->sig_scheme = OTA_SCHEME_HYBRID;
		s->delegation_depth = OTA_MAX_DELEGATION_DEPTH;
		s->security_version = OTA_SVN_LIMIT;
		s->tag_key_version = 0xffffffffu;
		memset(s->measurement, 0xaa, sizeof(s->measurement));
		memset(s->key_ids, 0xbb, sizeof(s->key_ids));
		s->flags = OTA_STAGE_F_ALL;
		s->verify_time_ns = UINT64_MAX;
	}
}

START_TEST(evidence_limit_holds_at_the_extremes)
{
	static uint8_t claims[2 * OTA_CLAIMS_MAX_BYTES], payload[OTA_CLAIMS_MAX_BYTES];
	static uint8_t alias[OTA_CERT_MAX_DER], identity[OTA_CERT_MAX_DER];
	const uint8_t *certs[2] = { alias, identity };
	const uint32_t cert_lens[2] = { sizeof(alias), sizeof(identity) };
	uint8_t digest[OTA_SHA256_BYTES] = { 0 }, nonce[OTA_NONCE_MAX] = { 0 };
	uint8_t sig[OTA_P256_SIG_BYTES] = { 0 };
	struct ota_record rec;
	uint32_t len, need;

	/* The firmware's claims buffer holds the largest claims set. */
	largest_record(&rec);
	ck_assert_uint_eq(ota_record_validate(&rec, rec.hdr.length), OTA_OK);
	ck_assert_uint_eq(ota_evidence_encode_claims(&rec, digest, nonce, sizeof(nonce), claims,
						     sizeof(claims), &len),
			  OTA_OK);
	ck_assert_uint_le(len, OTA_CLAIMS_MAX_BYTES);
	/* Every attempt refused instead: each image in its attempt, not in measurements. */
	for (uint32_t i = 0; i < OTA_RECORD_MAX_STAGES; i++)
		rec.stage[i].flags = OTA_STAGE_F_FALLBACK;
	ck_assert_uint_eq(ota_evidence_encode_claims(&rec, digest, nonce, sizeof(nonce), claims,
						     sizeof(claims), &len),
			  OTA_OK);
	ck_assert_uint_le(len, OTA_CLAIMS_MAX_BYTES);

	/* The identity certificate is held to the same bound as the alias certificate. */
	ck_assert_uint_le(OTA_IDCERT_MAX_DER, OTA_CERT_MAX_DER);

	/* A full claims buffer and two certificates of the largest size, framed. */
	ck_assert_uint_eq(ota_evidence_encode_sign1(payload, sizeof(payload), certs, cert_lens, 2,
						    sig, NULL, 0, &need),
			  OTA_OK);
	ck_assert_uint_le(need, OTA_EVIDENCE_MAX_BYTES);
	ck_assert_uint_le(OTA_EVIDENCE_MAX_BYTES, OTA_SHM_RESPONSE_MIN_PAYLOAD);
}
END_TEST

static Suite *mbox_table_suite(void)
{
	Suite *s = suite_create("mbox_table");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, lookup_agrees_with_every_row);
	tcase_add_test(tc, lanes_read_and_change);
	tcase_add_test(tc, numbers_dense_and_nothing_else_is_a_command);
	tcase_add_test(tc, names_unique_and_plain);
	tcase_add_test(tc, requests_fit_the_smallest_request_region);
	tcase_add_test(tc, responses_fit_the_smallest_response_region);
	tcase_add_test(tc, driver_refuses_a_region_too_small_for_a_response);
	tcase_add_test(tc, evidence_limit_holds_at_the_extremes);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(mbox_table_suite)
