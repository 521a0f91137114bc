// SPDX-License-Identifier: MIT
/* Fault knobs: parsing, application, description; see fault.h. */
#include "fault.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <otattest/flash.h>
#include <otattest/shm.h>
#include <otu/num.h>


const char *const fault_names[] = {
	"delay",           "drop",           "corrupt-record",     "corrupt-response",
	"record-length",   "response-length", "irq-storm",         "die-at-flash-write",
	"flash-tear",      "flash-latency",  NULL,
};

static int __attribute__((format(printf, 3, 4)))
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_off(const char *value)
{
	return strcmp(value, "off") == 0;
}

/* "OFF[:XOR]" with XOR a non-zero byte, 0xff by default. */
static bool parse_corrupt(const char *value, struct fault_corrupt *out)
{
	char buf[32];
	char *colon;
	uint32_t off, mask = 0xff;

	if (strlen(value) >= sizeof(buf))
		return false;
	strcpy(buf, value);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		if (otu_parse_u32(colon + 1, OTU_DEC_OR_HEX, 1, 0xff, &mask) < 0)
			return false;
	}
	if (otu_parse_u32(buf, OTU_DEC_OR_HEX, 0, OTA_SHM_SIZE - 1u, &off) < 0)
		return false;
	out->offset = off;
	out->xor_mask = (uint8_t)mask;
	return true;
}

/* "COUNT[,HZ[,VECTOR]]", VECTOR 0, 1 or "all". */
static bool parse_storm(const char *value, uint32_t *count, uint32_t *hz, uint32_t *vector)
{
	char buf[48];
	char *fields[3] = { NULL, NULL, NULL };
	char *p, *save = NULL;
	unsigned n = 0;

	if (strlen(value) >= sizeof(buf))
		return false;
	strcpy(buf, value);
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (n == 3)
			return false;
		fields[n++] = p;
	}
	if (n == 0 || otu_parse_u32(fields[0], OTU_DEC_OR_HEX, 1, FAULT_STORM_MAX_COUNT, count) < 0)
		return false;
	*hz = 1000;
	if (fields[1] && otu_parse_u32(fields[1], OTU_DEC_OR_HEX, 1, FAULT_STORM_MAX_HZ, hz) < 0)
		return false;
	*vector = FAULT_STORM_ALL_VECTORS;
	if (fields[2] && strcmp(fields[2], "all") != 0 &&
	    otu_parse_u32(fields[2], OTU_DEC_OR_HEX, 0, OTA_VEC_COUNT - 1u, vector) < 0)
		return false;
	return true;
}

/* The named tears, as fault_describe prints them; any other is a byte count. */
static const struct {
	const char *name;
	enum fault_tear tear;
	uint32_t bytes;
} tear_names[] = {
	{ "half", FAULT_TEAR_HALF, 0 },   { "none", FAULT_TEAR_BYTES, 0 },
	{ "byte", FAULT_TEAR_BYTES, 1 },  { "word", FAULT_TEAR_BYTES, 4 },
	{ "all-but-word", FAULT_TEAR_ALL_BUT_WORD, 0 }, { "all", FAULT_TEAR_ALL, 0 },
};

/* "half" ("off"), "none", "byte", "word", "all-but-word", "all" or BYTES up to a page. */
static bool parse_tear(const char *value, enum fault_tear *tear, uint32_t *bytes)
{
	for (size_t i = 0; i < sizeof(tear_names) / sizeof(tear_names[0]); i++)
		if (strcmp(value, tear_names[i].name) == 0) {
			*tear = tear_names[i].tear;
			*bytes = tear_names[i].bytes;
			return true;
		}
	if (is_off(value)) {
		*tear = FAULT_TEAR_HALF;
		*bytes = 0;
		return true;
	}
	if (otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_FLASH_PAGE_SIZE, bytes) < 0)
		return false;
	*tear = FAULT_TEAR_BYTES;
	return true;
}

static void describe_tear(char *out, size_t len, enum fault_tear tear, uint32_t bytes)
{
	for (size_t i = 0; i < sizeof(tear_names) / sizeof(tear_names[0]); i++)
		if (tear_names[i].tear == tear &&
		    (tear != FAULT_TEAR_BYTES || tear_names[i].bytes == bytes)) {
			snprintf(out, len, "%s", tear_names[i].name);
			return;
		}
	snprintf(out, len, "%u", bytes);
}

int fault_set(struct faults *f, const char *name, const char *value, char *err, size_t errlen)
{
	uint32_t v32;
	uint64_t v64;

	if (!value)
		return fail(err, errlen, "fault %s needs a value", name);
	if (strcmp(name, "delay") == 0) {
		if (is_off(value)) {
			f->delay_ms = 0;
			return 0;
		}
		if (otu_parse_u32(value, OTU_DEC_OR_HEX, 0, FAULT_DELAY_MAX_MS, &v32) < 0)
			return fail(err, errlen, "fault %s: '%s' is not 0..600000 milliseconds",
				    name, value);
		f->delay_ms = v32;
		return 0;
	}
	if (strcmp(name, "drop") == 0) {
		if (strcmp(value, "on") == 0)
			f->drop = true;
		else if (is_off(value))
			f->drop = false;
		else
			return fail(err, errlen, "fault %s: '%s' is not on or off", name, value);
		return 0;
	}
	if (strcmp(name, "corrupt-record") == 0 || strcmp(name, "corrupt-response") == 0) {
		bool rec = strcmp(name, "corrupt-record") == 0;
		uint32_t *n = rec ? &f->n_corrupt_record : &f->n_corrupt_response;
		struct fault_corrupt *list = rec ? f->corrupt_record : f->corrupt_response;
		struct fault_corrupt c;

		if (is_off(value)) {
			*n = 0;
			return 0;
		}
		if (!parse_corrupt(value, &c))
			return fail(err, errlen, "fault %s: '%s' is not OFFSET[:XOR] (XOR 1..0xff)",
				    name, value);
		if (*n >= FAULT_MAX_CORRUPT)
			return fail(err, errlen, "fault %s: at most %u bytes at a time", name,
				    FAULT_MAX_CORRUPT);
		list[(*n)++] = c;
		return 0;
	}
	if (strcmp(name, "record-length") == 0 || strcmp(name, "response-length") == 0) {
		bool rec = strcmp(name, "record-length") == 0;
		bool *set = rec ? &f->record_length_set : &f->response_length_set;
		uint32_t *len = rec ? &f->record_length : &f->response_length;

		if (is_off(value)) {
			*set = false;
			return 0;
		}
		if (otu_parse_u32(value, OTU_DEC_OR_HEX, 0, UINT32_MAX, &v32) < 0)
			return fail(err, errlen, "fault %s: '%s' is not a 32-bit length", name, value);
		*set = true;
		*len = v32;
		return 0;
	}
	if (strcmp(name, "irq-storm") == 0) {
		uint32_t count, hz, vector;

		if (is_off(value)) {
			f->storm_count = 0;
			return 0;
		}
		if (!parse_storm(value, &count, &hz, &vector))
			return fail(err, errlen,
				    "fault %s: '%s' is not COUNT[,HZ[,VECTOR]] "
				    "(COUNT 1..1000000, HZ 1..100000, VECTOR 0, 1 or all)",
				    name, value);
		f->storm_count = count;
		f->storm_hz = hz;
		f->storm_vector = vector;
		return 0;
	}
	if (strcmp(name, "die-at-flash-write") == 0) {
		if (is_off(value)) {
			f->die_at_flash_write = 0;
			return 0;
		}
		if (otu_parse_u64(value, OTU_DEC_OR_HEX, 1, UINT64_MAX, &v64) < 0)
			return fail(err, errlen, "fault %s: '%s' is not a count of 1 or more",
				    name, value);
		f->die_at_flash_write = v64;
		return 0;
	}
	if (strcmp(name, "flash-tear") == 0) {
		enum fault_tear tear;
		uint32_t bytes;

		if (!parse_tear(value, &tear, &bytes))
			return fail(err, errlen,
				    "fault %s: '%s' is not half, none, byte, word, all-but-word, all "
				    "or a byte count 0..%u",
				    name, value, OTA_FLASH_PAGE_SIZE);
		f->flash_tear = tear;
		f->flash_tear_bytes = bytes;
		return 0;
	}
	if (strcmp(name, "flash-latency") == 0) {
		uint32_t us = 0;

		if (!is_off(value) &&
		    otu_parse_u32(value, OTU_DEC_OR_HEX, 0, FAULT_FLASH_LATENCY_MAX_US, &us) < 0)
			return fail(err, errlen, "fault %s: '%s' is not microseconds 0..%u", name,
				    value, FAULT_FLASH_LATENCY_MAX_US);
		f->flash_latency_us = us;
		return 0;
	}
	return fail(err, errlen, "no fault knob called '%s'", name);
}

void fault_clear_all(struct faults *f)
{
	memset(f, 0, sizeof(*f));
}

void fault_corrupt_bytes(const struct fault_corrupt *c, uint32_t n, uint8_t *buf, uint32_t len)
{
	for (uint32_t i = 0; i < n; i++)
		if (c[i].offset < len)
			buf[c[i].offset] ^= c[i].xor_mask;
}

static void describe_corrupt(char *out, size_t len, const struct fault_corrupt *c, uint32_t n)
{
	size_t used = 0;

	if (n == 0) {
		snprintf(out, len, "off");
		return;
	}
	out[0] = '\0';
	for (uint32_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%u:0x%02x", i ? "," : "",
					 c[i].offset, c[i].xor_mask);
}

void fault_describe(const struct faults *f, char *buf, size_t len)
{
	char rec[160], resp[160], rl[16], sl[16], storm[48], die[24], tear[16];

	describe_corrupt(rec, sizeof(rec), f->corrupt_record, f->n_corrupt_record);
	describe_corrupt(resp, sizeof(resp), f->corrupt_response, f->n_corrupt_response);
	if (f->record_length_set)
		snprintf(rl, sizeof(rl), "%u", f->record_length);
	else
		snprintf(rl, sizeof(rl), "off");
	if (f->response_length_set)
		snprintf(sl, sizeof(sl), "%u", f->response_length);
	else
		snprintf(sl, sizeof(sl), "off");
	if (f->storm_count == 0)
		snprintf(storm, sizeof(storm), "off");
	else if (f->storm_vector == FAULT_STORM_ALL_VECTORS)
		snprintf(storm, sizeof(storm), "%u,%u,all", f->storm_count, f->storm_hz);
	else
		snprintf(storm, sizeof(storm), "%u,%u,%u", f->storm_count, f->storm_hz,
			 f->storm_vector);
	if (f->die_at_flash_write)
		snprintf(die, sizeof(die), "%llu", (unsigned long long)f->die_at_flash_write);
	else
		snprintf(die, sizeof(die), "off");
	describe_tear(tear, sizeof(tear), f->flash_tear, f->flash_tear_bytes);
	snprintf(buf, len,
		 "delay=%u drop=%s corrupt-record=%s corrupt-response=%s record-length=%s "
		 "response-length=%s irq-storm=%s die-at-flash-write=%s flash-tear=%s "
		 "flash-latency=%u",
		 f->delay_ms, f->drop ? "on" : "off", rec, resp, rl, sl, storm, die, tear,
		 f->flash_latency_us);
}
