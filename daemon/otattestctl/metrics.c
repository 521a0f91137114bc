// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format (version 0.0.4) for node_exporter's
 * textfile collector: HELP and TYPE once per metric family, label values
 * escaped, one sample per line. The collector reads whatever file is in
 * its directory at scrape time, so cmd-metrics.c replaces it atomically.
 */
#include <string.h>

#include <otattest/shm.h>
#include <otu/hex.h>

#include "ctl.h"

/* Label values: backslash, double quote and newline must be escaped. */
static void label(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", out);
		else if (*v == '"')
			fputs("\\\"", out);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void dev_sample(FILE *out, const char *name, const struct ctl_device *d, uint64_t v)
{
	fprintf(out, "%s{device=\"", name);
	label(out, d->name);
	fprintf(out, "\"} %llu\n", (unsigned long long)v);
}

static void stage_labels(FILE *out, const struct ctl_device *d, const struct ctl_stage *s)
{
	fputs("{device=\"", out);
	label(out, d->name);
	fputs("\",stage=\"", out);
	label(out, s->stage);
	fputs("\",slot=\"", out);
	label(out, s->slot);
	fputc('"', out);
}

void ctl_metrics_format(FILE *out, const struct ctl_device *devs, size_t n, uint64_t now_sec)
{
	/* Device states (shm.h), the driver's own (genl.h), the daemon's. */
	static const char *const states[] = { "off", "booting", "ready", "failed", "resetting",
					      "rotating", "record_invalid", "info_invalid",
					      "unresponsive", OTA_STATE_ABSENT, OTA_STATE_UNREACHABLE };
	size_t i, s, k;

	family(out, "otattest_device_up", "gauge", "1 when the device is present and ready.");
	for (i = 0; i < n; i++)
		dev_sample(out, "otattest_device_up", &devs[i], !strcmp(devs[i].state, "ready"));
	/* No device at all is a device down too: one sample, no device label, for the alert. */
	if (n == 0)
		fputs("otattest_device_up 0\n", out);

	family(out, "otattest_device_state", "gauge", "Device state: 1 for the current state.");
	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
			fputs("otattest_device_state{device=\"", out);
			label(out, devs[i].name);
			fputs("\",state=\"", out);
			label(out, states[k]);
			fprintf(out, "\"} %d\n", !strcmp(devs[i].state, states[k]));
		}

#define DEV_FAMILY(name, type, help, expr)                               \
	family(out, name, type, help);                                   \
	for (i = 0; i < n; i++)                                          \
		if (devs[i].record_valid)                                \
			dev_sample(out, name, &devs[i], (uint64_t)(expr));
	DEV_FAMILY("otattest_record_generation", "gauge", "Boot record generation.", devs[i].generation)
	DEV_FAMILY("otattest_epoch", "gauge", "Identity epoch.", devs[i].epoch)
	DEV_FAMILY("otattest_min_svn", "gauge", "Minimum runtime SVN since cold boot.", devs[i].min_svn)
	DEV_FAMILY("otattest_tag_boot_enabled", "gauge", "1 when tag boot is enabled in OTP.",
		   devs[i].tag_boot_enabled)
	DEV_FAMILY("otattest_tag_key_version", "gauge", "Current boot tag key version.",
		   devs[i].tag_key_version)
	DEV_FAMILY("otattest_boot_ok", "gauge", "1 when the last boot brought up a runtime.",
		   devs[i].boot_status == OTA_OK)
#undef DEV_FAMILY

	/* What `otattestctl status` exits 3 for, one sample per finding (the alert rules' input). */
	family(out, "otattest_attention", "gauge",
	       "1 for each finding of the last boot an operator must act on (otattestctl status exits 3).");
	for (i = 0; i < n; i++) {
		struct ctl_attention att[CTL_ATTENTION_MAX];
		size_t a, n_att = ctl_device_attention(&devs[i], att, CTL_ATTENTION_MAX);

		for (a = 0; a < n_att; a++) {
			fputs("otattest_attention{device=\"", out);
			label(out, devs[i].name);
			fputs("\",finding=\"", out);
			label(out, att[a].kind);
			fputs("\"} 1\n", out);
		}
	}

	family(out, "otattest_svn_floor", "gauge", "Effective anti-rollback floor per stage.");
	for (i = 0; i < n; i++) {
		if (!devs[i].record_valid)
			continue;
		fputs("otattest_svn_floor{device=\"", out);
		label(out, devs[i].name);
		fprintf(out, "\",stage=\"rom_ext\"} %u\n", devs[i].floor_rom_ext);
		fputs("otattest_svn_floor{device=\"", out);
		label(out, devs[i].name);
		fprintf(out, "\",stage=\"bl0\"} %u\n", devs[i].floor_bl0);
	}

	family(out, "otattest_boot_time_seconds", "gauge", "Time from ROM start to runtime start.");
	for (i = 0; i < n; i++) {
		if (!devs[i].record_valid)
			continue;
		fputs("otattest_boot_time_seconds{device=\"", out);
		label(out, devs[i].name);
		fprintf(out, "\"} %.9f\n", (double)devs[i].boot_time_ns / 1e9);
	}

	family(out, "otattest_stage_svn", "gauge", "Security version of each verified stage.");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			fputs("otattest_stage_svn", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fprintf(out, "} %u\n", devs[i].stages[s].svn);
		}

	family(out, "otattest_stage_verify_seconds", "gauge", "Time each stage's check took.");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			fputs("otattest_stage_verify_seconds", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fprintf(out, "} %.9f\n", (double)devs[i].stages[s].verify_time_ns / 1e9);
		}

	family(out, "otattest_stage_tag_path", "gauge",
	       "1 when the stage was accepted by its boot tag (fast path).");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			fputs("otattest_stage_tag_path", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fprintf(out, "} %d\n", !strcmp(devs[i].stages[s].path, "tag"));
		}

	family(out, "otattest_stage_ok", "gauge", "1 when the stage's check passed.");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			fputs("otattest_stage_ok", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fprintf(out, "} %d\n", devs[i].stages[s].status == OTA_OK);
		}

	family(out, "otattest_stage_path_reason", "gauge",
	       "1 with the reason the stage did not take the tag path (none on the tag path).");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			const char *why = ctl_stage_path_reason(&devs[i], s);

			if (!*why)
				continue; /* an otattestd that does not say */
			fputs("otattest_stage_path_reason", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fputs(",reason=\"", out);
			label(out, why);
			fputs("\"} 1\n", out);
		}

	family(out, "otattest_stage_debug", "gauge",
	       "1 when the stage's image carries the DEBUG usage flag.");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++) {
			fputs("otattest_stage_debug", out);
			stage_labels(out, &devs[i], &devs[i].stages[s]);
			fprintf(out, "} %d\n", ctl_stage_debug(&devs[i], s));
		}

	/*
	 * A counter: otattestd counts the boots' tag mismatches it has seen;
	 * it restarts at 0 with the daemon, which rate() and increase() take
	 * for a counter reset.
	 */
	family(out, "otattest_tag_mismatches_total", "counter",
	       "Boot tags that did not match their image (tamper signal), seen by otattestd.");
	for (i = 0; i < n; i++)
		dev_sample(out, "otattest_tag_mismatches_total", &devs[i], devs[i].tag_mismatches);
	family(out, "otattest_trial_reverts_total", "counter",
	       "Update trials the device reverted (not committed in time), seen by otattestd.");
	for (i = 0; i < n; i++)
		dev_sample(out, "otattest_trial_reverts_total", &devs[i], devs[i].trial_reverts);

	/*
	 * Which keys signed each stage: an info metric (always 1) whose labels
	 * carry the key id and its name from the key names file, or its short
	 * hex (docs/keynames.md), to join on or to show in a dashboard.
	 */
	family(out, "otattest_stage_key_info", "gauge",
	       "Keys of each stage's chain: position 0 the root key, then each delegate.");
	for (i = 0; i < n; i++)
		for (s = 0; s < devs[i].n_stages; s++)
			for (k = 0; k < devs[i].stages[s].n_keys; k++) {
				const uint8_t *id = devs[i].stages[s].key_ids[k];
				char hex[2 * OTA_KEY_ID_BYTES + 1], buf[OTU_KEYID_SHORT_HEX + 1];

				otu_hex_encode(hex, id, OTA_KEY_ID_BYTES);
				fputs("otattest_stage_key_info", out);
				stage_labels(out, &devs[i], &devs[i].stages[s]);
				fprintf(out, ",position=\"%zu\",key_id=\"%s\",key=\"", k, hex);
				label(out, otu_keynames_display(devs[i].names, id, buf, sizeof(buf)));
				fputs("\"} 1\n", out);
			}

	family(out, "otattest_scrape_timestamp_seconds", "gauge", "When otattestctl wrote this file.");
	fprintf(out, "otattest_scrape_timestamp_seconds %llu\n", (unsigned long long)now_sec);
}
