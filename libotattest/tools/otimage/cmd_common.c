// SPDX-License-Identifier: MIT
/* What every subcommand does on failure and for --help. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <otattest/record.h>

#include <otu/usage.h>

#include "otimage_internal.h"

int oti_fail(const struct oti_diag *d, ota_status_t st)
{
	oti_diag_print(stderr, d, st);
	return oti_exit_code(st);
}

int oti_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "otimage%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'otimage %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return OTA_EXIT_USAGE;
}

int oti_print_help(const char *text)
{
	fputs(text, stdout);
	return 0;
}

void oti_key_spec(const char *arg, char *path, size_t path_size, uint32_t *lifecycle_mask)
{
	const char *colon = strrchr(arg, ':');
	uint32_t mask;

	*lifecycle_mask = OTA_LC_MASK_ALL;
	/* "KEY:MASK" only when what follows the last colon is a lifecycle mask. */
	if (colon && oti_parse_lifecycle_mask(colon + 1, &mask) == OTA_OK &&
	    (size_t)(colon - arg) < path_size) {
		memcpy(path, arg, (size_t)(colon - arg));
		path[colon - arg] = '\0';
		*lifecycle_mask = mask;
		return;
	}
	snprintf(path, path_size, "%s", arg);
}

void oti_print_root_key(struct oti_out *o, const struct ota_root_key *k)
{
	uint8_t id[OTA_KEY_ID_BYTES];

	ota_key_id(k->ecdsa_pubkey, id);
	oti_out_str(o, "algorithm", k->algorithm == OTA_KEY_ALG_HYBRID ? "hybrid" : "ecdsa-p256");
	oti_out_hex(o, "key_id", id, sizeof(id));
	oti_out_str(o, "lifecycle_mask", oti_lifecycle_mask_str(k->lifecycle_mask));
	oti_out_hex(o, "ecdsa_public_key", k->ecdsa_pubkey, sizeof(k->ecdsa_pubkey));
	if (k->algorithm == OTA_KEY_ALG_HYBRID)
		oti_out_hex(o, "slhdsa_public_key", k->spx_pubkey, sizeof(k->spx_pubkey));
}

const char *oti_lifecycle_mask_str(uint32_t mask)
{
	static char buf[96];
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < OTA_LC_COUNT; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (buf[0])
			strcat(buf, ",");
		strcat(buf, ota_lifecycle_name(i));
	}
	if (mask & ~OTA_LC_MASK_ALL)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s0x%x", buf[0] ? "," : "",
			 (unsigned int)(mask & ~OTA_LC_MASK_ALL));
	return buf[0] ? buf : "none";
}

const char *oti_slot_mask_str(uint32_t mask)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%s%s%s", (mask & 1u) ? "a" : "",
		 (mask & 3u) == 3u ? "," : "", (mask & 2u) ? "b" : "");
	if (mask & ~OTA_SLOT_MASK_ALL)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s0x%x", buf[0] ? "," : "",
			 (unsigned int)(mask & ~OTA_SLOT_MASK_ALL));
	return buf[0] ? buf : "none";
}

const char *oti_caps_str(uint32_t caps)
{
	static char buf[OTU_USAGE_FLAGS_STR_MAX];

	return otu_usage_flags_str(caps, buf);
}
