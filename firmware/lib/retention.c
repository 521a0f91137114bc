// SPDX-License-Identifier: MIT
/*
 * Retention RAM: what the boot stages hand across warm and update resets
 * (firmware.h). Contents that fail magic, version or digest are "no
 * retained state": a cold boot's view, and for the key chain on a
 * non-cold reset, no chain until the next cold boot (keychain.c).
 */
#include <string.h>

#include <otattest/sha256.h>

#include "fwlib.h"

OTA_STATIC_ASSERT(sizeof(struct ota_retention) <= HAL_RETENTION_BYTES, "retention fits");

static void retention_digest(const struct ota_retention *r, uint8_t out[OTA_SHA256_BYTES])
{
	ota_sha256(r, offsetof(struct ota_retention, digest), out);
}

bool boot_retention_read(struct ota_retention *out)
{
	uint8_t d[OTA_SHA256_BYTES];

	if (hal_retention_read(0, out, sizeof(*out)) != OTA_OK)
		return false;
	if (out->magic != OTA_RETENTION_MAGIC || out->version != OTA_RETENTION_VERSION)
		return false;
	retention_digest(out, d);
	if (!ota_ct_equal(d, out->digest, sizeof(d)))
		return false;
	/* A valid digest over nonsense values is still nonsense. */
	if (out->min_svn > OTA_SVN_LIMIT || out->running_bl0_slot >= OTA_SLOT_COUNT ||
	    (out->next_bl0_slot >= OTA_SLOT_COUNT && out->next_bl0_slot != OTA_NEXT_SLOT_NONE) ||
	    (out->chain_valid != OTA_HARDENED_TRUE && out->chain_valid != OTA_HARDENED_FALSE) ||
	    (out->rotate_requested != OTA_HARDENED_TRUE &&
	     out->rotate_requested != OTA_HARDENED_FALSE) ||
	    out->reserved != 0)
		return false;
	return true;
}

void boot_retention_load(struct boot_ctx *b)
{
	b->ret_valid = boot_retention_read(&b->ret);
	if (!b->ret_valid)
		memset(&b->ret, 0, sizeof(b->ret));
}

ota_status_t boot_retention_store(struct ota_retention *r)
{
	r->magic = OTA_RETENTION_MAGIC;
	r->version = OTA_RETENTION_VERSION;
	r->reserved = 0;
	retention_digest(r, r->digest);
	return hal_retention_write(0, r, sizeof(*r));
}
