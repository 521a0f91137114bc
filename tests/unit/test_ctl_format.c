// SPDX-License-Identifier: MIT
/*
 * otattestctl's output without a bus: the record decoder (validated before
 * it prints anything), JSON (checked by jq when it is installed, and by
 * structure here), Prometheus metrics and the atomic file write.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../daemon/common/hex.h"
#include "../../daemon/common/json.h"
#include "../../daemon/otattestctl/ctl.h"

static void build_record(struct ota_record *r, uint32_t *len)
{
	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = 1;
	r->hdr.length = sizeof(r->hdr) + sizeof(struct ota_stage_record);
	r->hdr.generation = 9;
	r->hdr.reset_reason = OTA_RESET_UPDATE;
	r->hdr.lifecycle = OTA_LC_DEV;
	memset(r->hdr.device_id, 0xab, sizeof(r->hdr.device_id));
	r->hdr.min_svn = 5;
	r->hdr.boot_status = OTA_OK;
	r->stage[0].stage = OTA_STAGE_BL0;
	r->stage[0].slot = OTA_SLOT_B;
	r->stage[0].status = OTA_SIG_ECDSA_INVALID;
	r->stage[0].path = OTA_PATH_NONE;
	r->stage[0].delegation_depth = 2;
	memset(r->stage[0].key_ids, 0x42, sizeof(r->stage[0].key_ids));
	*len = r->hdr.length;
}

/* Capture what fn prints. */
static char *capture(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, arg);
	fclose(f);
	return buf;
}

/* jq validates a document when it is installed (it is in scripts/deps.sh). */
static void assert_valid_json(const char *doc)
{
	char path[] = "/tmp/ctl-json.XXXXXX", cmd[128];
	int fd = mkstemp(path);
	int r;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, doc, strlen(doc)), (int)strlen(doc));
	close(fd);
	if (system("command -v jq >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd), "jq -e . %s >/dev/null 2>&1", path);
		r = system(cmd);
		ck_assert_msg(r == 0, "jq rejects: %s", doc);
	}
	unlink(path);
}

struct rec_arg {
	const uint8_t *buf;
	size_t len;
	ota_status_t s;
};

static void print_json(FILE *f, void *arg)
{
	struct rec_arg *a = arg;

	a->s = ctl_print_record_json(f, a->buf, a->len);
}

static void print_text(FILE *f, void *arg)
{
	struct rec_arg *a = arg;

	a->s = ctl_print_record(f, a->buf, a->len);
}

START_TEST(record_json_decodes_fields)
{
	struct ota_record r;
	struct rec_arg a;
	uint32_t len;
	char *out;

	build_record(&r, &len);
	a.buf = (const uint8_t *)&r;
	a.len = len;
	out = capture(print_json, &a);
	ck_assert_uint_eq(a.s, OTA_OK);
	assert_valid_json(out);
	ck_assert_ptr_nonnull(strstr(out, "\"generation\":9"));
	ck_assert_ptr_nonnull(strstr(out, "\"reset_reason\":\"update\""));
	ck_assert_ptr_nonnull(strstr(out, "\"device_id\":\"abababababababababababababababab\""));
	ck_assert_ptr_nonnull(strstr(out, "\"status\":\"SIG_ECDSA_INVALID\""));
	ck_assert_ptr_nonnull(strstr(out, "\"slot\":\"b\""));
	/* depth 2: three key ids */
	ck_assert_ptr_nonnull(strstr(out, "\"key_ids\":[\"4242"));
	ck_assert_int_eq(out[strlen(out) - 1], '\n');
	free(out);
	out = capture(print_text, &a);
	ck_assert_uint_eq(a.s, OTA_OK);
	ck_assert_ptr_nonnull(strstr(out, "stage 0: bl0 slot b"));
	ck_assert_ptr_nonnull(strstr(out, "SIG_ECDSA_INVALID"));
	free(out);
}
END_TEST

START_TEST(record_invalid_is_refused_unprinted)
{
	struct ota_record r;
	struct rec_arg a;
	uint32_t len;
	char *out;

	build_record(&r, &len);
	r.hdr.reserved[1] = 1;
	a.buf = (const uint8_t *)&r;
	a.len = len;
	out = capture(print_json, &a);
	ck_assert_uint_eq(a.s, OTA_RECORD_RESERVED_NONZERO);
	ck_assert_str_eq(out, "");
	free(out);

	build_record(&r, &len);
	a.len = len - 1; /* length disagrees */
	out = capture(print_text, &a);
	ck_assert_uint_eq(a.s, OTA_RECORD_BAD_LENGTH);
	ck_assert_str_eq(out, "");
	free(out);

	a.len = sizeof(r) + 1; /* larger than any record: not even copied */
	out = capture(print_text, &a);
	ck_assert_uint_eq(a.s, OTA_RECORD_BAD_LENGTH);
	free(out);
}
END_TEST

static void json_escapes(FILE *f, void *arg)
{
	struct json j;

	(void)arg;
	json_begin(&j, f);
	json_object_open(&j);
	json_kv_string(&j, "s", "q\"b\\n\n\t\x01\x7f");
	json_key(&j, "a");
	json_array_open(&j);
	json_uint(&j, 18446744073709551615ull);
	json_int(&j, -5);
	json_bool(&j, false);
	json_null(&j);
	json_array_close(&j);
	json_object_close(&j);
	ck_assert_int_eq(json_end(&j), 0);
}

START_TEST(json_escaping_and_commas)
{
	char *out = capture(json_escapes, NULL);

	ck_assert_str_eq(out, "{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\\u007f\",\"a\":[18446744073709551615,-5,false,null]}\n");
	assert_valid_json(out);
	free(out);
}
END_TEST

static void json_misuse(FILE *f, void *arg)
{
	struct json j;

	(void)arg;
	json_begin(&j, f);
	json_object_open(&j);
	json_key(&j, "dangling");
	json_object_close(&j);
	ck_assert_int_eq(json_end(&j), -1);
}

START_TEST(json_misuse_detected)
{
	free(capture(json_misuse, NULL));
}
END_TEST

static void fill_device(struct ctl_device *d, const char *name, const char *state)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->state, sizeof(d->state), "%s", state);
	d->record_valid = true;
	d->generation = 7;
	d->min_svn = 3;
	d->floor_bl0 = 2;
	d->tag_boot_enabled = true;
	d->tag_key_version = 4;
	d->boot_time_ns = 1500000000;
	d->n_stages = 1;
	snprintf(d->stages[0].stage, sizeof(d->stages[0].stage), "bl0");
	snprintf(d->stages[0].slot, sizeof(d->stages[0].slot), "a");
	snprintf(d->stages[0].path, sizeof(d->stages[0].path), "tag");
	d->stages[0].svn = 3;
	d->stages[0].status = OTA_OK;
	d->stages[0].verify_time_ns = 250000;
}

struct met_arg {
	struct ctl_device d[2];
};

static void metrics(FILE *f, void *arg)
{
	struct met_arg *a = arg;

	ctl_metrics_format(f, a->d, 2, 1700000000);
}

START_TEST(metrics_exposition_format)
{
	struct met_arg a;
	char *out, *line, *save;
	int helps = 0, types = 0, samples = 0;

	fill_device(&a.d[0], "otattest0", "ready");
	fill_device(&a.d[1], "otattest1", "absent");
	a.d[1].record_valid = false;
	a.d[1].n_stages = 0;
	out = capture(metrics, &a);
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_up{device=\"otattest0\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_up{device=\"otattest1\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_state{device=\"otattest1\",state=\"absent\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_tag_key_version{device=\"otattest0\"} 4\n"));
	ck_assert_ptr_null(strstr(out, "otattest_tag_key_version{device=\"otattest1\""));
	ck_assert_ptr_nonnull(strstr(out, "otattest_boot_time_seconds{device=\"otattest0\"} 1.500000000\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_tag_path{device=\"otattest0\",stage=\"bl0\",slot=\"a\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_verify_seconds{device=\"otattest0\",stage=\"bl0\",slot=\"a\"} 0.000250000\n"));
	/* Every line is a comment or "name{labels} value"; each family has HELP and TYPE. */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "# HELP otattest_", 16))
			helps++;
		else if (!strncmp(line, "# TYPE otattest_", 16)) {
			types++;
			ck_assert_ptr_nonnull(strstr(line, " gauge"));
		} else {
			ck_assert_msg(!strncmp(line, "otattest_", 9), "bad line: %s", line);
			ck_assert_ptr_nonnull(strrchr(line, ' '));
			samples++;
		}
	}
	ck_assert_int_eq(helps, types);
	ck_assert_int_ge(helps, 10);
	ck_assert_int_gt(samples, helps);
	free(out);
}
END_TEST

START_TEST(metrics_label_escaping)
{
	struct met_arg a;
	char *out;

	fill_device(&a.d[0], "a\"b\\c\nd", "ready");
	fill_device(&a.d[1], "x", "ready");
	out = capture(metrics, &a);
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_up{device=\"a\\\"b\\\\c\\nd\"} 1\n"));
	free(out);
}
END_TEST

START_TEST(atomic_write_replaces)
{
	char dir[] = "/tmp/ctl-metrics.XXXXXX", path[64], buf[64];
	struct stat st;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/otattest.prom", dir);
	ck_assert_int_eq(ctl_write_atomic(path, "first\n", 6), 0);
	ck_assert_int_eq(ctl_write_atomic(path, "second\n", 7), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(memcmp(buf, "second\n", 7), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644);
	/* No temporary left behind. */
	snprintf(buf, sizeof(buf), "ls -A %s | wc -l | grep -qx 1", dir);
	ck_assert_int_eq(system(buf), 0);
	/* A directory that does not exist: an error, nothing written. */
	ck_assert_int_lt(ctl_write_atomic("/nonexistent-dir/x.prom", "x", 1), 0);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(hex_round_trip_and_refusals)
{
	uint8_t b[4];
	char s[9];

	ck_assert_int_eq(ota_hex_decode(b, 4, "00fFa5"), 3);
	ota_hex_encode(s, b, 3);
	ck_assert_str_eq(s, "00ffa5");
	ck_assert_int_eq(ota_hex_decode(b, 4, "abc"), -1);
	ck_assert_int_eq(ota_hex_decode(b, 4, "zz"), -1);
	ck_assert_int_eq(ota_hex_decode(b, 4, "0011223344"), -1);
	ck_assert_int_eq(ota_hex_decode(b, 4, "0x11"), -1);
	ck_assert_int_eq(ota_hex_decode(b, 4, ""), 0);
}
END_TEST

static void status_table(FILE *f, void *arg)
{
	ctl_print_status(f, arg, false);
}

static void status_table_color(FILE *f, void *arg)
{
	ctl_print_status(f, arg, true);
}

/*
 * Columns of the stage table: where VERIFY ends and STATUS starts in the
 * header, and where " ms" ends in the bl0 row; false when one is missing.
 * noinline: inlined into a test, gcc 12 takes the pointers into the
 * memstream buffer for dangling ones (-Wdangling-pointer false positive).
 */
static __attribute__((noinline)) bool stage_columns(const char *table, long *verify_end,
						     long *status_col, long *ms_end)
{
	const char *head = strstr(table, "  STAGE "), *row = strstr(table, "\n  bl0 ");
	const char *v, *st, *ms;

	if (!head || !row)
		return false;
	row++;
	v = strstr(head, "VERIFY");
	st = strstr(head, "STATUS");
	ms = strstr(row, " ms  ");
	if (!v || !st || !ms)
		return false;
	*verify_end = (long)(v - head) + 6;
	*status_col = (long)(st - head);
	*ms_end = (long)(ms - row) + 3;
	return true;
}

START_TEST(status_table_plain_without_color)
{
	struct ctl_device d;
	char *out;

	fill_device(&d, "otattest0", "ready");
	out = capture(status_table, &d);
	ck_assert_ptr_null(strchr(out, '\033'));
	ck_assert_ptr_nonnull(strstr(out, "otattest0  ready\n"));
	ck_assert_ptr_nonnull(strstr(out, "tag boot         enabled, key version 4"));
	ck_assert_ptr_nonnull(strstr(out, "bl0      a    tag"));
	{
		/* The columns line up: VERIFY over the times, STATUS over the statuses. */
		long verify_end, status_col, ms_end;

		ck_assert(stage_columns(out, &verify_end, &status_col, &ms_end));
		ck_assert_int_eq(verify_end, ms_end);
		ck_assert_int_eq(status_col, ms_end + 2);
	}
	free(out);
}
END_TEST

/* The same table on a terminal: the state in its colour, nothing else changed. */
START_TEST(status_table_colored_on_a_terminal)
{
	static const struct {
		const char *state, *color;
	} cases[] = { { "ready", "\033[32mready" }, { "failed", "\033[1;31mfailed" },
		      { "rotating", "\033[33mrotating" } };
	struct ctl_device d;
	char *out;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fill_device(&d, "otattest0", cases[i].state);
		out = capture(status_table_color, &d);
		ck_assert_msg(strstr(out, cases[i].color) != NULL, "%s not coloured: %s",
			      cases[i].state, out);
		ck_assert_ptr_nonnull(strstr(out, "tag boot         enabled, key version 4"));
		free(out);
	}
	/* When: a terminal with a real TERM, and neither --json nor --no-color/NO_COLOR. */
	ck_assert(ctl_want_color(false, false, true, "xterm-256color"));
	ck_assert(!ctl_want_color(true, false, true, "xterm"));
	ck_assert(!ctl_want_color(false, true, true, "xterm"));
	ck_assert(!ctl_want_color(false, false, false, "xterm"));
	ck_assert(!ctl_want_color(false, false, true, "dumb"));
	ck_assert(!ctl_want_color(false, false, true, ""));
	ck_assert(!ctl_want_color(false, false, true, NULL));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ctl_format");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, record_json_decodes_fields);
	tcase_add_test(tc, record_invalid_is_refused_unprinted);
	tcase_add_test(tc, json_escaping_and_commas);
	tcase_add_test(tc, json_misuse_detected);
	tcase_add_test(tc, metrics_exposition_format);
	tcase_add_test(tc, metrics_label_escaping);
	tcase_add_test(tc, atomic_write_replaces);
	tcase_add_test(tc, hex_round_trip_and_refusals);
	tcase_add_test(tc, status_table_plain_without_color);
	tcase_add_test(tc, status_table_colored_on_a_terminal);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
