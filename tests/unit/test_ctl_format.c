// SPDX-License-Identifier: MIT
/*
 * otattestctl's output without a bus: the record decoder (validated before
 * it prints anything), JSON (parsed back strictly, and whole documents
 * compared), Prometheus metrics.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../daemon/otattestctl/ctl.h"
#include "tu_json.h"
#include "tu_main.h"
#include "tu_record.h"

static void build_record(struct ota_record *r, uint32_t *len)
{
	*len = tu_record_one_stage(r, 0xab, 9);
	r->hdr.reset_reason = OTA_RESET_UPDATE;
	r->hdr.lifecycle = OTA_LC_DEV;
	r->hdr.min_svn = 5;
	r->stage[0].slot = OTA_SLOT_B;
	r->stage[0].status = OTA_SIG_ECDSA_INVALID;
	r->stage[0].path = OTA_PATH_NONE;
	r->stage[0].delegation_depth = 2;
	memset(r->stage[0].key_ids, 0x42, sizeof(r->stage[0].key_ids));
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

static void assert_valid_json(const char *doc)
{
	json_object_put(tu_json_parse_strict(doc));
}

struct rec_arg {
	const uint8_t *buf;
	size_t len;
	ota_status_t s;
};

static void print_json(FILE *f, void *arg)
{
	struct rec_arg *a = arg;

	a->s = ctl_print_record_json(f, a->buf, a->len, NULL);
}

static void print_text(FILE *f, void *arg)
{
	struct rec_arg *a = arg;

	a->s = ctl_print_record(f, a->buf, a->len, NULL);
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
	ck_assert_ptr_nonnull(strstr(out, "  why not tag        none\n"));
	ck_assert_ptr_nonnull(strstr(out, "  usage flags        none\n"));
	free(out);

	/* A forged tag refused on the signature path, image with DEBUG. */
	r.stage[0].path_reason = OTA_REASON_TAG_MISMATCH;
	r.stage[0].effective.usage.flags = OTA_CAP_ALL;
	out = capture(print_text, &a);
	ck_assert_uint_eq(a.s, OTA_OK);
	ck_assert_ptr_nonnull(strstr(out, "  why not tag        tag-mismatch\n"));
	ck_assert_ptr_nonnull(strstr(out, "  usage flags        tag-boot,debug\n"));
	free(out);
	out = capture(print_json, &a);
	ck_assert_ptr_nonnull(strstr(out, "\"path_reason\":\"tag-mismatch\",\"debug\":true}"));
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
	d->boot_status = OTA_OK;
	d->n_stages = 1;
	snprintf(d->stages[0].stage, sizeof(d->stages[0].stage), "bl0");
	snprintf(d->stages[0].slot, sizeof(d->stages[0].slot), "a");
	snprintf(d->stages[0].path, sizeof(d->stages[0].path), "tag");
	d->stages[0].svn = 3;
	d->stages[0].status = OTA_OK;
	d->stages[0].verify_time_ns = 250000;
	d->stages[0].verify_cycles = 25000;
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
	snprintf(a.d[0].stages[0].path_reason, sizeof(a.d[0].stages[0].path_reason), "tag-mismatch");
	a.d[0].stages[0].debug = true;
	a.d[0].tag_mismatches = 3;
	out = capture(metrics, &a);
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_up{device=\"otattest0\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_up{device=\"otattest1\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_attention{device=\"otattest0\",finding=\"tag-mismatch\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_device_state{device=\"otattest1\",state=\"absent\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_tag_key_version{device=\"otattest0\"} 4\n"));
	ck_assert_ptr_null(strstr(out, "otattest_tag_key_version{device=\"otattest1\""));
	ck_assert_ptr_nonnull(strstr(out, "otattest_boot_time_seconds{device=\"otattest0\"} 1.500000000\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_tag_path{device=\"otattest0\",stage=\"bl0\",slot=\"a\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_verify_seconds{device=\"otattest0\",stage=\"bl0\",slot=\"a\"} 0.000250000\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_path_reason{device=\"otattest0\",stage=\"bl0\",slot=\"a\",reason=\"tag-mismatch\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_stage_debug{device=\"otattest0\",stage=\"bl0\",slot=\"a\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_tag_mismatches_total{device=\"otattest0\"} 3\n"));
	ck_assert_ptr_nonnull(strstr(out, "otattest_tag_mismatches_total{device=\"otattest1\"} 0\n"));
	/* A daemon that sends no reasons: no reason sample, not a made-up one. */
	ck_assert_ptr_null(strstr(out, "otattest_stage_path_reason{device=\"otattest1\""));
	/* Every line is a comment or "name{labels} value"; each family has HELP and TYPE. */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "# HELP otattest_", 16))
			helps++;
		else if (!strncmp(line, "# TYPE otattest_", 16)) {
			types++;
			/* Counters end in _total (Prometheus naming); the rest are gauges. */
			if (strstr(line, "_total "))
				ck_assert_ptr_nonnull(strstr(line, "_total counter"));
			else
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

static void status_table(FILE *f, void *arg)
{
	ctl_print_status(f, arg, false);
}

static void status_table_color(FILE *f, void *arg)
{
	ctl_print_status(f, arg, true);
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
	ck_assert_ptr_nonnull(strstr(out, "\n  bl0     a    tag                -                       3  OK\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n    , depth 0, 0.250 ms\n    device cycles 25000\n"));
	ck_assert_ptr_null(strstr(out, "attention"));
	/* The runtime's version unknown (an older daemon): no line. */
	ck_assert_ptr_null(strstr(out, "runtime version"));
	free(out);
	snprintf(d.runtime_version, sizeof(d.runtime_version), "2.0.0");
	out = capture(status_table, &d);
	ck_assert_ptr_nonnull(strstr(out, "  boot status      OK\n  runtime version  2.0.0\n"));
	free(out);
}
END_TEST

/* Every line of the table within 80 columns, at the widest a row gets (it was 120). */
START_TEST(status_table_fits_80_columns)
{
	struct ctl_device d;
	char *out, *line, *save;

	fill_device(&d, "otattest0", "ready");
	snprintf(d.stages[0].stage, sizeof(d.stages[0].stage), "rom_ext");
	snprintf(d.stages[0].path, sizeof(d.stages[0].path), "signature-retagged");
	snprintf(d.stages[0].path_reason, sizeof(d.stages[0].path_reason), "key-version-above-max");
	snprintf(d.stages[0].scheme, sizeof(d.stages[0].scheme), "ecdsa-p256+slh-dsa-sha2-128s");
	d.stages[0].svn = 255;
	d.stages[0].depth = 2;
	d.stages[0].status = OTA_SIG_ECDSA_INVALID;
	d.stages[0].verify_time_ns = 999999999ull; /* checks take milliseconds */
	d.stages[0].booted = d.stages[0].fallback = d.stages[0].debug = true;
	out = capture(status_table, &d);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(strlen(line) <= 80, "%zu columns: '%s'", strlen(line), line);
	free(out);
}
END_TEST

/* Why a stage took the slow path, its DEBUG flag and the mismatch count, in the table. */
START_TEST(status_table_reasons_debug_mismatches)
{
	struct ctl_device d;
	char *out;

	fill_device(&d, "otattest0", "ready");
	out = capture(status_table, &d);
	ck_assert_ptr_null(strstr(out, "tag mismatches"));
	ck_assert_ptr_nonnull(strstr(out, "bl0     a    tag                -                     "));
	free(out);

	snprintf(d.stages[0].path, sizeof(d.stages[0].path), "signature-retagged");
	snprintf(d.stages[0].path_reason, sizeof(d.stages[0].path_reason), "tag-mismatch");
	d.stages[0].debug = true;
	d.tag_mismatches = 2;
	out = capture(status_table, &d);
	ck_assert_ptr_nonnull(strstr(out, "  tag mismatches   2 seen by otattestd\n"));
	ck_assert_ptr_nonnull(strstr(out, "  attention        bl0 slot a: its boot tag did not match the image\n"));
	ck_assert_ptr_nonnull(strstr(out, "bl0     a    signature-retagged tag-mismatch            3  OK\n"));
	ck_assert_ptr_nonnull(strstr(out, ", debug\n"));
	free(out);
	out = capture(status_table_color, &d);
	ck_assert_ptr_nonnull(strstr(out, "\033[1;31mtag-mismatch"));
	ck_assert_ptr_nonnull(strstr(out, "\033[1;31m2 seen by otattestd"));
	free(out);
}
END_TEST

/*
 * What `status` exits 3 for (CTL_EXIT_ATTENTION): one rule per finding; a
 * tag-mismatch boot said "boot status OK" and exited 0.
 */
START_TEST(attention_rule)
{
	struct ctl_attention att[CTL_ATTENTION_MAX];
	struct ctl_device d;

	fill_device(&d, "otattest0", "ready");
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 0);
	snprintf(d.stages[0].path_reason, sizeof(d.stages[0].path_reason), "tag-mismatch");
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 1);
	ck_assert_str_eq(att[0].text, "bl0 slot a: its boot tag did not match the image");
	snprintf(d.stages[0].path_reason, sizeof(d.stages[0].path_reason), "none");
	d.stages[0].fallback = true;
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 1);
	ck_assert_str_eq(att[0].text, "bl0 slot a: booted as fallback, the other was refused");
	d.stages[0].fallback = false;
	d.boot_status = OTA_SIG_ECDSA_INVALID;
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 1);
	ck_assert_str_eq(att[0].text, "no runtime booted: SIG_ECDSA_INVALID");
	d.boot_status = OTA_OK;
	/* A trial the device reverted: a finding until the record stops saying it (issue 28). */
	snprintf(d.revert_reason, sizeof(d.revert_reason), "none");
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 0);
	snprintf(d.revert_reason, sizeof(d.revert_reason), "watchdog");
	snprintf(d.reverted_slot, sizeof(d.reverted_slot), "b");
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 1);
	ck_assert_str_eq(att[0].kind, "reverted-trial");
	ck_assert_str_eq(att[0].text, "the update trial of bl0 slot b was reverted (watchdog): not committed");
	/* A device without a record: its state says it (19), not this rule. */
	d.record_valid = false;
	ck_assert_uint_eq(ctl_device_attention(&d, att, CTL_ATTENTION_MAX), 0);
}
END_TEST

/* With otattestd or the driver missing, the CLI says what to do next (it said nothing). */
START_TEST(missing_daemon_and_driver_hints)
{
	struct ctl_device d;
	char buf[256], *out;

	ck_assert_ptr_nonnull(strstr(ctl_error_hint("GetDevice", SD_BUS_ERROR_SERVICE_UNKNOWN, buf, sizeof(buf)),
				     "systemctl status otattestd"));
	ck_assert_ptr_nonnull(strstr(ctl_error_hint("Devices", SD_BUS_ERROR_NAME_HAS_NO_OWNER, buf, sizeof(buf)),
				     "journalctl -u otattestd"));
	ck_assert_ptr_null(ctl_error_hint("GetDevice", OTA_BUS_ERROR_PREFIX "NoSuchDevice", buf, sizeof(buf)));
	ck_assert_str_eq(ctl_error_hint("InstallImage", SD_BUS_ERROR_ACCESS_DENIED, buf, sizeof(buf)),
			 "InstallImage needs root, membership in group " OTA_UPDATE_GROUP
			 ", or polkit authorization for " OTA_POLKIT_ACTION_INSTALL);
	fill_device(&d, "otattest0", OTA_STATE_UNREACHABLE);
	d.record_valid = false;
	out = capture(status_table, &d);
	ck_assert_ptr_nonnull(strstr(out, "modprobe otattest"));
	free(out);
}
END_TEST

/* watch shows status codes by name (it printed BootStatus=1849). */
START_TEST(watch_names_status_codes)
{
	char buf[16];

	ck_assert_str_eq(ctl_u32_property_text("BootStatus", OTA_OK, buf, sizeof(buf)), "OK");
	ck_assert_str_eq(ctl_u32_property_text("BootStatus", OTA_SIG_ECDSA_INVALID, buf, sizeof(buf)),
			 "SIG_ECDSA_INVALID");
	ck_assert_str_eq(ctl_u32_property_text("StateDetail", 0, buf, sizeof(buf)), "none");
	ck_assert_str_eq(ctl_u32_property_text("Generation", 1849, buf, sizeof(buf)), "1849");
}
END_TEST

/* With no device at all, metrics still says a device is down (it said nothing). */
START_TEST(metrics_without_devices_says_down)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	ctl_metrics_format(f, NULL, 0, 1700000000);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "\notattest_device_up 0\n"));
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

/*
 * The whole documents, byte for byte: scripts parse them, so keys, types
 * and order stay what they were when the hand-written writer made them.
 */
START_TEST(record_json_document_unchanged)
{
	static const char want[] = 
		"{\"version\":1,\"length\":352,\"generation\":9,\"reset_reason\":\"update\","
		"\"lifecycle\":\"dev\",\"device_id\":\"abababababababababababababababab\",\"epoch\":0,"
		"\"min_svn\":5,\"chain_max_svn\":0,\"floor_rom_ext\":0,\"floor_bl0\":0,"
		"\"tag_boot_enabled\":false,\"tag_key_version\":0,\"boot_status\":\"OK\","
		"\"boot_data_counter\":0,"
		"\"rom_identity\":\"0000000000000000000000000000000000000000000000000000000000000000\","
		"\"boot_time_ns\":0,\"stages\":[{\"stage\":\"bl0\",\"slot\":\"b\","
		"\"status\":\"SIG_ECDSA_INVALID\",\"path\":\"none\",\"scheme\":\"none\","
		"\"delegation_depth\":2,\"svn\":0,\"tag_key_version\":0,"
		"\"measurement\":\"0000000000000000000000000000000000000000000000000000000000000000\","
		"\"key_ids\":[\"4242424242424242424242424242424242424242424242424242424242424242\","
		"\"4242424242424242424242424242424242424242424242424242424242424242\","
		"\"4242424242424242424242424242424242424242424242424242424242424242\"],"
		"\"key_chain\":[{\"key_id\":\"4242424242424242424242424242424242424242424242424242424242424242\",\"name\":null},"
		"{\"key_id\":\"4242424242424242424242424242424242424242424242424242424242424242\",\"name\":null},"
		"{\"key_id\":\"4242424242424242424242424242424242424242424242424242424242424242\",\"name\":null}],"
		"\"effective\":{\"svn_min\":0,\"svn_max\":0,\"slot_mask\":0,\"lifecycle_mask\":0,"
		"\"flags\":0,\"device_binding\":0,\"device_id\":\"00000000000000000000000000000000\"},"
		"\"verify_time_ns\":18446744073709551615,\"verify_cycles\":0,\"booted\":false,"
		"\"fallback\":false,\"path_reason\":\"none\",\"debug\":false}]}\n";
	struct ota_record r;
	struct rec_arg a;
	uint32_t len;
	char *out;

	build_record(&r, &len);
	r.stage[0].verify_time_ns = UINT64_MAX; /* a hostile device's value, exactly */
	a.buf = (const uint8_t *)&r;
	a.len = len;
	out = capture(print_json, &a);
	ck_assert_uint_eq(a.s, OTA_OK);
	ck_assert_msg(strcmp(out, want) == 0, "got:\n%s", out);
	assert_valid_json(out);
	free(out);
}
END_TEST

static void status_json(FILE *f, void *arg)
{
	ctl_print_status_json(f, arg, 2);
}

START_TEST(status_json_document_unchanged)
{
	static const char want[] = 
		"{\"devices\":[{\"name\":\"otattest0\",\"state\":\"ready\",\"state_detail\":\"OK\","
		"\"state_detail_code\":1849,\"state_message\":\"caf\xc3\xa9 \\\"ok\\\"\","
		"\"record_valid\":true,\"device_id\":\"00ff\",\"lifecycle\":\"\",\"reset_reason\":\"\","
		"\"epoch\":0,\"min_svn\":3,\"chain_max_svn\":0,\"floor_rom_ext\":0,\"floor_bl0\":2,"
		"\"tag_boot_enabled\":true,\"tag_key_version\":4,\"generation\":7,"
		"\"boot_status\":\"OK\",\"boot_data_counter\":0,\"boot_time_ns\":1500000000,"
		"\"rom_identity\":\"\",\"runtime_version\":\"2.0.0\","
		"\"stages\":[{\"stage\":\"bl0\",\"slot\":\"a\",\"path\":\"tag\","
		"\"scheme\":\"\",\"status\":\"OK\",\"svn\":3,\"delegation_depth\":0,"
		"\"tag_key_version\":0,"
		"\"measurement\":\"0000000000000000000000000000000000000000000000000000000000000000\","
		"\"key_ids\":[\"4200000000000000000000000000000000000000000000000000000000000000\"],"
		"\"verify_time_ns\":250000,\"verify_cycles\":25000,\"booted\":false,\"fallback\":false,"
		"\"path_reason\":\"\",\"debug\":false,"
		"\"key_chain\":[{\"key_id\":\"4200000000000000000000000000000000000000000000000000000000000000\",\"name\":null}]}],"
		"\"tag_mismatches\":0,\"trial_boots\":0,\"revert_reason\":\"\",\"reverted_slot\":\"\","
		"\"trial_reverts\":0,\"attention\":[]},"
		"{\"name\":\"otattest1\",\"state\":\"absent\",\"state_detail\":\"OK\","
		"\"state_detail_code\":0,\"state_message\":\"\",\"record_valid\":false}]}\n";
	struct ctl_device d[2];
	char *out;

	fill_device(&d[0], "otattest0", "ready");
	d[0].state_detail = OTA_OK;
	snprintf(d[0].state_message, sizeof(d[0].state_message), "caf\xc3\xa9 \"ok\"");
	d[0].device_id_len = 2;
	d[0].device_id[1] = 0xff;
	d[0].stages[0].n_keys = 1;
	d[0].stages[0].key_ids[0][0] = 0x42;
	snprintf(d[0].runtime_version, sizeof(d[0].runtime_version), "2.0.0");
	fill_device(&d[1], "otattest1", "absent");
	d[1].record_valid = false;
	out = capture(status_json, d);
	ck_assert_msg(strcmp(out, want) == 0, "got:\n%s", out);
	assert_valid_json(out);
	free(out);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ctl_format");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, record_json_decodes_fields);
	tcase_add_test(tc, record_invalid_is_refused_unprinted);
	tcase_add_test(tc, record_json_document_unchanged);
	tcase_add_test(tc, status_json_document_unchanged);
	tcase_add_test(tc, metrics_exposition_format);
	tcase_add_test(tc, metrics_label_escaping);
	tcase_add_test(tc, status_table_plain_without_color);
	tcase_add_test(tc, status_table_fits_80_columns);
	tcase_add_test(tc, attention_rule);
	tcase_add_test(tc, missing_daemon_and_driver_hints);
	tcase_add_test(tc, watch_names_status_codes);
	tcase_add_test(tc, metrics_without_devices_says_down);
	tcase_add_test(tc, status_table_reasons_debug_mismatches);
	tcase_add_test(tc, status_table_colored_on_a_terminal);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
