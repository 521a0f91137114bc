// SPDX-License-Identifier: MIT
/*
 * otattestctl's key names and boot history output without a bus: the key
 * chain by name (or short hex) in status, record and metrics, history's
 * text and JSON (paths, slow-path reasons, failures, keys), a history
 * holding an invalid record refused, and --since's formats.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otu/hex.h>

#include "../../daemon/otattestctl/ctl.h"
#include "tu_json.h"
#include "tu_main.h"
#include "tu_record.h"

#define ID_ROOT "1111111111111111111111111111111111111111111111111111111111111111"
#define ID_LEAF "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"

static struct otu_keynames names;

/* Names the root key only: the leaf must show as short hex. */
static void load_names(void)
{
	static const char text[] = ID_ROOT " owner-2026\n";
	struct otu_keynames_error err;

	ck_assert_int_eq(otu_keynames_parse(text, strlen(text), &names, &err), 0);
}

static void set_ids(uint8_t (*ids)[OTA_KEY_ID_BYTES])
{
	memset(ids[0], 0x11, OTA_KEY_ID_BYTES);
	ck_assert_int_eq(otu_hex_decode(ID_LEAF, ids[1], OTA_KEY_ID_BYTES), (ssize_t)OTA_KEY_ID_BYTES);
}

static void fill_device(struct ctl_device *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "otattest0");
	snprintf(d->state, sizeof(d->state), "ready");
	d->record_valid = true;
	d->n_stages = 1;
	snprintf(d->stages[0].stage, sizeof(d->stages[0].stage), "bl0");
	snprintf(d->stages[0].slot, sizeof(d->stages[0].slot), "a");
	snprintf(d->stages[0].path, sizeof(d->stages[0].path), "signature");
	d->stages[0].status = OTA_OK;
	d->stages[0].depth = 1;
	d->stages[0].n_keys = 2;
	set_ids(d->stages[0].key_ids);
	d->names = &names;
}

START_TEST(status_shows_key_chain_by_name)
{
	struct ctl_device d;
	struct json_object *doc, *chain, *k;
	char *buf;
	size_t len;
	FILE *f;

	load_names();
	fill_device(&d);
	f = open_memstream(&buf, &len);
	ctl_print_status(f, &d, false);
	fclose(f);
	ck_assert_msg(strstr(buf, "keys: owner-2026 > abcdef0123456789\n"), "%s", buf);
	free(buf);

	f = open_memstream(&buf, &len);
	ctl_print_status_json(f, &d, 1);
	fclose(f);
	doc = tu_json_parse_strict(buf);
	chain = json_object_object_get(
		json_object_array_get_idx(json_object_object_get(
			json_object_array_get_idx(json_object_object_get(doc, "devices"), 0), "stages"), 0),
		"key_chain");
	ck_assert_int_eq(json_object_array_length(chain), 2);
	k = json_object_array_get_idx(chain, 0);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(k, "key_id")), ID_ROOT);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(k, "name")), "owner-2026");
	k = json_object_array_get_idx(chain, 1);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(k, "key_id")), ID_LEAF);
	/* Unnamed: null, so a script tells it from a name. */
	ck_assert(json_object_object_get_ex(k, "name", NULL));
	ck_assert_ptr_null(json_object_object_get(k, "name"));
	json_object_put(doc);
	free(buf);

	/* No names file: every key as short hex. */
	d.names = NULL;
	f = open_memstream(&buf, &len);
	ctl_print_status(f, &d, false);
	fclose(f);
	ck_assert_msg(strstr(buf, "keys: 1111111111111111 > abcdef0123456789\n"), "%s", buf);
	free(buf);
	otu_keynames_free(&names);
}
END_TEST

START_TEST(metrics_key_info_labels)
{
	struct ctl_device d;
	char *buf;
	size_t len;
	FILE *f;

	load_names();
	fill_device(&d);
	f = open_memstream(&buf, &len);
	ctl_metrics_format(f, &d, 1, 1700000000);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "# TYPE otattest_stage_key_info gauge\n"));
	ck_assert_msg(strstr(buf, "otattest_stage_key_info{device=\"otattest0\",stage=\"bl0\",slot=\"a\",position=\"0\",key_id=\"" ID_ROOT "\",key=\"owner-2026\"} 1\n"), "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "position=\"1\",key_id=\"" ID_LEAF "\",key=\"abcdef0123456789\"} 1\n"));
	free(buf);
	otu_keynames_free(&names);
}
END_TEST

/* A record with the given stages: bl0 on each path, with a reason. */
static uint32_t make_record(struct ota_record *r, uint32_t gen, uint32_t path, uint32_t reason,
			    uint32_t status)
{
	tu_record_one_stage(r, 0, gen);
	r->hdr.reset_reason = OTA_RESET_UPDATE;
	r->hdr.boot_status = status;
	r->hdr.tag_key_version = 2;
	r->stage[0].slot = OTA_SLOT_B;
	r->stage[0].status = status;
	r->stage[0].path = path;
	r->stage[0].path_reason = reason;
	r->stage[0].delegation_depth = 1;
	r->stage[0].flags = status == OTA_OK ? OTA_STAGE_F_BOOTED : 0;
	set_ids(r->stage[0].key_ids);
	ck_assert_int_eq(ota_record_validate(r, r->hdr.length), OTA_OK);
	return r->hdr.length;
}

START_TEST(history_text_and_json)
{
	struct ota_record r[2];
	struct ctl_history_entry v[2];
	struct json_object *doc, *e, *st;
	char *buf;
	size_t len;
	FILE *f;

	load_names();
	v[0] = (struct ctl_history_entry){ true, "otattest0", 1764657601000000ull, (const uint8_t *)&r[0],
					   make_record(&r[0], 7, OTA_PATH_SIGNATURE_RETAGGED,
						       OTA_REASON_STALE_KEY_VERSION, OTA_OK) };
	v[1] = (struct ctl_history_entry){ true, "otattest0", 1764657662500000ull, (const uint8_t *)&r[1],
					   make_record(&r[1], 8, OTA_PATH_NONE, OTA_REASON_TAG_MISMATCH,
						       OTA_SIG_ECDSA_INVALID) };
	ck_assert_int_eq(ctl_history_check(v, 2), OTA_OK);
	f = open_memstream(&buf, &len);
	ctl_print_history(f, v, 2, &names);
	fclose(f);
	ck_assert_msg(strstr(buf, "otattest0  generation 7  seen 2025-12-02 06:40:01 UTC  reset update  boot OK  tag key version 2\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "signature-retagged (stale-key-version)"), "%s", buf);
	ck_assert_msg(strstr(buf, "owner-2026 > abcdef0123456789 (booted)\n"), "%s", buf);
	/* The failed boot: its status where a person looks. */
	ck_assert_msg(strstr(buf, "generation 8  seen 2025-12-02 06:41:02 UTC  reset update  boot SIG_ECDSA_INVALID"), "%s", buf);
	ck_assert_msg(strstr(buf, "none (tag-mismatch)"), "%s", buf);
	/* In order. */
	ck_assert(strstr(buf, "generation 7") < strstr(buf, "generation 8"));
	free(buf);

	f = open_memstream(&buf, &len);
	ctl_print_history_json(f, v, 2, &names);
	fclose(f);
	doc = tu_json_parse_strict(buf);
	ck_assert_int_eq(json_object_array_length(json_object_object_get(doc, "entries")), 2);
	e = json_object_array_get_idx(json_object_object_get(doc, "entries"), 1);
	ck_assert_int_eq(json_object_get_int(json_object_object_get(e, "generation")), 8);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(e, "seen")), "2025-12-02T06:41:02.500000Z");
	ck_assert_str_eq(json_object_get_string(json_object_object_get(e, "boot_status")), "SIG_ECDSA_INVALID");
	st = json_object_array_get_idx(json_object_object_get(e, "stages"), 0);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(st, "path_reason")), "tag-mismatch");
	ck_assert_str_eq(json_object_get_string(json_object_object_get(st, "slot")), "b");
	ck_assert_str_eq(json_object_get_string(json_object_object_get(
				 json_object_array_get_idx(json_object_object_get(st, "key_chain"), 0), "name")),
			 "owner-2026");
	json_object_put(doc);
	free(buf);
	otu_keynames_free(&names);
}
END_TEST

START_TEST(history_with_invalid_record_refused)
{
	struct ota_record r;
	struct ctl_history_entry v;
	uint32_t len = make_record(&r, 1, OTA_PATH_TAG, OTA_REASON_NONE, OTA_OK);

	v = (struct ctl_history_entry){ true, "otattest0", 0, (const uint8_t *)&r, len };
	r.stage[0].path_reason = OTA_REASON_NO_TAG; /* a reason on the tag path: invalid */
	ck_assert_int_eq(ctl_history_check(&v, 1), OTA_RECORD_BAD_FIELD);
	v.len = len - 1;
	ck_assert_int_ne(ctl_history_check(&v, 1), OTA_OK);
}
END_TEST

START_TEST(record_names_keys)
{
	struct ota_record r;
	uint32_t len;
	char *buf;
	size_t blen;
	FILE *f;

	load_names();
	len = make_record(&r, 3, OTA_PATH_SIGNATURE, OTA_REASON_NO_TAG, OTA_OK);
	f = open_memstream(&buf, &blen);
	ck_assert_int_eq(ctl_print_record(f, (const uint8_t *)&r, len, &names), OTA_OK);
	fclose(f);
	ck_assert_msg(strstr(buf, "root key id        " ID_ROOT " (owner-2026)\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "delegate key id    " ID_LEAF "\n"), "%s", buf);
	free(buf);
	f = open_memstream(&buf, &blen);
	ck_assert_int_eq(ctl_print_record_json(f, (const uint8_t *)&r, len, &names), OTA_OK);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"key_chain\":[{\"key_id\":\"" ID_ROOT "\",\"name\":\"owner-2026\"},{\"key_id\":\"" ID_LEAF "\",\"name\":null}]"), "%s", buf);
	free(buf);
	otu_keynames_free(&names);
}
END_TEST

START_TEST(since_formats)
{
	const uint64_t now = 1764657600ull * 1000000u; /* 2025-12-02 06:40:00 UTC */
	uint64_t t;

	ck_assert_int_eq(ctl_parse_since("@1700000000", now, &t), 0);
	ck_assert_uint_eq(t, 1700000000ull * 1000000u);
	ck_assert_int_eq(ctl_parse_since("-90s", now, &t), 0);
	ck_assert_uint_eq(t, now - 90000000u);
	ck_assert_int_eq(ctl_parse_since("-2h", now, &t), 0);
	ck_assert_uint_eq(t, now - 7200ull * 1000000u);
	ck_assert_int_eq(ctl_parse_since("-1d", now, &t), 0);
	ck_assert_uint_eq(t, now - 86400ull * 1000000u);
	ck_assert_int_eq(ctl_parse_since("2025-12-02", now, &t), 0);
	ck_assert_uint_eq(t, 1764633600ull * 1000000u);
	ck_assert_int_eq(ctl_parse_since("2025-12-02 06:40", now, &t), 0);
	ck_assert_uint_eq(t, now);
	ck_assert_int_eq(ctl_parse_since("2025-12-02 06:40:30", now, &t), 0);
	ck_assert_uint_eq(t, now + 30000000u);
	/* Nothing guessed. */
	ck_assert_int_eq(ctl_parse_since("", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("yesterday", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("-5", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("-5w", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("--5s", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("@-1", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("@12x", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("2025-12-02x", now, &t), -EINVAL);
	ck_assert_int_eq(ctl_parse_since("2025-12-02 25:00", now, &t), -EINVAL);
	/* Longer ago than 1970. */
	ck_assert_int_eq(ctl_parse_since("-100000d", now, &t), -EINVAL);
}
END_TEST

/*
 * A names file that does not parse, or that cannot be read, ends
 * otattestctl with the code otattest-verify gives for the same file
 * (tests/tools/verify-names.sh): 10 and 22 (it said 11 and 16).
 */
START_TEST(bad_names_file_exits_as_verify_does)
{
	char dir[] = "/tmp/ctl-keys.XXXXXX", bad[64], missing[64];
	struct ctl c;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	f = fopen(bad, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s bad name\n", ID_ROOT);
	fclose(f);
	memset(&c, 0, sizeof(c));
	c.key_names_path = bad;
	ck_assert_int_eq(ctl_load_names(&c), 10);
	memset(&c, 0, sizeof(c));
	c.key_names_path = missing;
	ck_assert_int_eq(ctl_load_names(&c), 22);
	unlink(bad);
	rmdir(dir);
}
END_TEST

static Suite *ctl_keys_suite(void)
{
	Suite *s = suite_create("ctl_keys");
	TCase *t = tcase_create("output");

	tcase_add_test(t, status_shows_key_chain_by_name);
	tcase_add_test(t, metrics_key_info_labels);
	tcase_add_test(t, history_text_and_json);
	tcase_add_test(t, history_with_invalid_record_refused);
	tcase_add_test(t, record_names_keys);
	tcase_add_test(t, since_formats);
	tcase_add_test(t, bad_names_file_exits_as_verify_does);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(ctl_keys_suite)
