// SPDX-License-Identifier: MIT
/*
 * Retention RAM: the data vault the boot stages hand across warm and
 * update resets (handoff.h), locked before the runtime runs, and the
 * runtime's one-shot reset request beside it. Contents that fail magic,
 * version or digest read as absent: for the vault a cold boot's view and,
 * on a non-cold reset, no key chain until the next cold boot (keychain.c);
 * for the request, no request.
 */
#include <string.h>

#include <otattest/sha256.h>

#include "fwlib.h"

static void digest_of(const void *r, uint8_t out[OTA_SHA256_BYTES])
{
	/* Both layouts put their digest over the first 32 bytes at byte 32. */
	ota_sha256(r, 32u, out);
}

static bool digest_ok(const void *r, const uint8_t *digest)
{
	uint8_t d[OTA_SHA256_BYTES];

	digest_of(r, d);
	return ota_ct_equal(d, digest, sizeof(d));
}

bool boot_retention_read(struct ota_retention *out)
{
	if (hal_retention_read(0, out, sizeof(*out)) != OTA_OK)
		return false;
	if (out->magic != OTA_RETENTION_MAGIC || out->version != OTA_RETENTION_VERSION ||
	    !digest_ok(out, out->digest))
		return false;
	/* A valid digest over nonsense values is still nonsense. */
	if (out->min_svn > OTA_SVN_LIMIT || out->running_bl0_slot >= OTA_SLOT_COUNT ||
	    (out->chain_valid != OTA_HARDENED_TRUE && out->chain_valid != OTA_HARDENED_FALSE) ||
	    out->trial_boots > OTA_TRIAL_MAX_BOOTS || out->revert_reason > OTA_REVERT_REASON_MAX ||
	    (out->revert_reason == OTA_REVERT_NONE ? out->reverted_slot != 0
						   : out->reverted_slot >= OTA_SLOT_COUNT))
		return false;
	return true;
}

bool boot_request_read(struct ota_reset_request *out)
{
	if (hal_retention_read(OTA_RESET_REQUEST_OFFSET, out, sizeof(*out)) != OTA_OK)
		return false;
	if (out->magic != OTA_RESET_REQUEST_MAGIC || out->version != OTA_RESET_REQUEST_VERSION ||
	    !digest_ok(out, out->digest))
		return false;
	if ((out->next_bl0_slot >= OTA_SLOT_COUNT && out->next_bl0_slot != OTA_NEXT_SLOT_NONE) ||
	    (out->rotate_requested != OTA_HARDENED_TRUE &&
	     out->rotate_requested != OTA_HARDENED_FALSE) ||
	    !ota_all_zero(out->reserved, sizeof(out->reserved)))
		return false;
	return true;
}

void boot_retention_load(struct boot_ctx *b)
{
	b->ret_valid = boot_retention_read(&b->ret);
	if (!b->ret_valid)
		memset(&b->ret, 0, sizeof(b->ret));
	b->svc_req_valid = boot_svc_read(&b->svc_req);
	if (!b->svc_req_valid)
		memset(&b->svc_req, 0, sizeof(b->svc_req));
	b->req_valid = boot_request_read(&b->req);
	if (!b->req_valid) {
		memset(&b->req, 0, sizeof(b->req));
		b->req.next_bl0_slot = OTA_NEXT_SLOT_NONE;
		b->req.rotate_requested = OTA_HARDENED_FALSE;
	}
}

ota_status_t boot_retention_store(struct ota_retention *r)
{
	r->magic = OTA_RETENTION_MAGIC;
	r->version = OTA_RETENTION_VERSION;
	digest_of(r, r->digest);
	return hal_retention_write(0, r, sizeof(*r));
}

ota_status_t boot_request_store(uint32_t next_bl0_slot, bool rotate)
{
	struct ota_reset_request q;

	memset(&q, 0, sizeof(q));
	q.magic = OTA_RESET_REQUEST_MAGIC;
	q.version = OTA_RESET_REQUEST_VERSION;
	q.next_bl0_slot = next_bl0_slot;
	q.rotate_requested = rotate ? OTA_HARDENED_TRUE : OTA_HARDENED_FALSE;
	digest_of(&q, q.digest);
	return hal_retention_write(OTA_RESET_REQUEST_OFFSET, &q, sizeof(q));
}

/* ---- the boot services request (handoff.h) ---------------------------------- */

bool boot_svc_read(struct ota_boot_svc_request *out)
{
	uint8_t d[OTA_SHA256_BYTES];

	if (hal_retention_read(OTA_BOOT_SVC_OFFSET, out, sizeof(*out)) != OTA_OK)
		return false;
	if (out->magic != OTA_BOOT_SVC_MAGIC || out->version != OTA_BOOT_SVC_VERSION)
		return false;
	ota_sha256(out, OTA_BOOT_SVC_DIGESTED_BYTES, d);
	/* Integrity only: ROM_EXT judges every field again before acting on it. */
	return ota_ct_equal(d, out->digest, sizeof(d));
}

ota_status_t boot_svc_store(struct ota_boot_svc_request *q)
{
	q->magic = OTA_BOOT_SVC_MAGIC;
	q->version = OTA_BOOT_SVC_VERSION;
	ota_sha256(q, OTA_BOOT_SVC_DIGESTED_BYTES, q->digest);
	return hal_retention_write(OTA_BOOT_SVC_OFFSET, q, sizeof(*q));
}

ota_status_t boot_svc_clear(void)
{
	struct ota_boot_svc_request none;

	memset(&none, 0, sizeof(none));
	return hal_retention_write(OTA_BOOT_SVC_OFFSET, &none, sizeof(none));
}
