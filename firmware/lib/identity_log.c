// SPDX-License-Identifier: MIT
/*
 * The identity hand-over log in flash (handover.h, OTA_REGION_IDENTITY_LOG):
 * ROM reads who holds the identity at the version OTP holds, to name the
 * predecessor to the key manager; ROM_EXT writes the header once and
 * appends one entry per hand-over. Entries are read one at a time (the
 * ROM's RAM is small) and written once into erased flash, never
 * rewritten: a torn entry fails its digest and is passed over.
 */
#include <string.h>

#include "fwlib.h"

static const struct ota_flash_region *log_region(const struct boot_ctx *b)
{
	const struct ota_flash_region *r = b->layout_ok ? boot_region(b, OTA_REGION_IDENTITY_LOG)
							: NULL;

	return r != NULL && r->size >= OTA_IDLOG_BYTES ? r : NULL;
}

static bool erased(const void *p, uint32_t n)
{
	const uint8_t *c = p;
	uint8_t acc = 0xff;

	while (n--)
		acc &= *c++;
	return acc == 0xff;
}

bool boot_identity_holder(const struct boot_ctx *b, uint32_t version,
			  uint8_t holder[OTA_SHA256_BYTES])
{
	const struct ota_flash_region *r = log_region(b);
	struct ota_identity_log_entry e;
	struct ota_identity_log l;
	bool found = false;
	uint32_t i;

	if (r == NULL || hal_flash_read(r->offset, &l, sizeof(l)) != OTA_OK)
		return false;
	if (ota_identity_log_check(&l) && l.base_version == version) {
		memcpy(holder, l.holder, OTA_SHA256_BYTES);
		found = true;
	}
	/* The last intact entry that reached this version wins: it is the one committed after it. */
	for (i = 0; i < OTA_IDLOG_ENTRIES; i++) {
		if (hal_flash_read(r->offset + OTA_IDLOG_ENTRY_OFFSET(i), &e, sizeof(e)) != OTA_OK)
			break;
		if (ota_identity_log_entry_check(&e) && e.handover.to_version == version) {
			memcpy(holder, e.holder, OTA_SHA256_BYTES);
			found = true;
		}
	}
	return found;
}

/* Program `len` bytes into erased flash and read them back. */
static ota_status_t program(uint32_t offset, const void *data, uint32_t len)
{
	uint8_t back[sizeof(struct ota_identity_log_entry)];

	if (len > sizeof(back))
		return OTA_HAL_BAD_ARGUMENT;
	OTA_TRY(hal_flash_program(offset, data, len));
	OTA_TRY(hal_flash_read(offset, back, len));
	return memcmp(back, data, len) == 0 ? OTA_OK : OTA_HAL_FLASH_WRITE_FAILED;
}

ota_status_t boot_identity_log_start(const struct boot_ctx *b, uint32_t version,
				     const uint8_t holder[OTA_SHA256_BYTES])
{
	const struct ota_flash_region *r = log_region(b);
	struct ota_identity_log l;

	struct ota_identity_log_entry e;

	if (r == NULL)
		return OTA_OK; /* a layout without a log never hands over */
	OTA_TRY(hal_flash_read(r->offset, &l, sizeof(l)));
	if (ota_identity_log_check(&l))
		return OTA_OK; /* written once, never again */
	if (!erased(&l, sizeof(l))) {
		/* Torn by a power cut before any hand-over: the first page holds nothing else yet. */
		OTA_TRY(hal_flash_read(r->offset + OTA_IDLOG_ENTRY_OFFSET(0), &e, sizeof(e)));
		if (!erased(&e, sizeof(e)))
			return OTA_OK;
		OTA_TRY(hal_flash_erase_page(r->offset));
	}
	memset(&l, 0, sizeof(l));
	l.magic = OTA_IDLOG_MAGIC;
	l.version = OTA_IDLOG_VERSION;
	l.size = sizeof(l);
	l.base_version = version;
	memcpy(l.holder, holder, OTA_SHA256_BYTES);
	ota_identity_log_seal(&l);
	return program(r->offset, &l, sizeof(l));
}

ota_status_t boot_identity_log_append(const struct boot_ctx *b,
				      const struct ota_identity_handover *h,
				      const uint8_t holder[OTA_SHA256_BYTES])
{
	const struct ota_flash_region *r = log_region(b);
	struct ota_identity_log_entry e;
	uint32_t i, next = OTA_IDLOG_ENTRIES;
	bool same = false;

	if (r == NULL)
		return OTA_HAL_FLASH_BAD_ADDRESS;
	for (i = 0; i < OTA_IDLOG_ENTRIES; i++) {
		OTA_TRY(hal_flash_read(r->offset + OTA_IDLOG_ENTRY_OFFSET(i), &e, sizeof(e)));
		if (erased(&e, sizeof(e))) {
			next = i;
			break;
		}
		/* Written before a power cut took the OTP commit: the same step is there. */
		same = ota_identity_log_entry_check(&e) &&
		       e.handover.to_version == h->to_version &&
		       !memcmp(e.handover.to_pubkey, h->to_pubkey, OTA_P256_PUBKEY_BYTES) &&
		       !memcmp(e.holder, holder, OTA_SHA256_BYTES);
	}
	if (same)
		return OTA_OK;
	if (next == OTA_IDLOG_ENTRIES)
		return OTA_HAL_FLASH_BAD_ADDRESS; /* full */
	memset(&e, 0, sizeof(e));
	e.handover = *h;
	memcpy(e.holder, holder, OTA_SHA256_BYTES);
	ota_identity_log_entry_seal(&e);
	return program(r->offset + OTA_IDLOG_ENTRY_OFFSET(next), &e, sizeof(e));
}

uint32_t boot_identity_chain(const struct ota_flash_layout *layout,
			     const uint8_t pubkey[OTA_P256_PUBKEY_BYTES], uint32_t version,
			     struct ota_identity_handover out[OTA_IDLOG_ENTRIES])
{
	const struct ota_flash_region *r = ota_flash_layout_region(layout, OTA_REGION_IDENTITY_LOG);
	struct ota_identity_log_entry e;
	const uint8_t *want = pubkey;
	uint32_t n = 0, i, k;
	bool found = true;

	if (r == NULL || r->size < OTA_IDLOG_BYTES)
		return 0;
	/* Backwards from the identity in force: the step that reached it, then the one before. */
	while (found && n < OTA_IDLOG_ENTRIES && version > 0) {
		found = false;
		for (i = OTA_IDLOG_ENTRIES; i-- > 0;) {
			if (hal_flash_read(r->offset + OTA_IDLOG_ENTRY_OFFSET(i), &e, sizeof(e)) != OTA_OK ||
			    !ota_identity_log_entry_check(&e) || e.handover.to_version != version ||
			    memcmp(e.handover.to_pubkey, want, OTA_P256_PUBKEY_BYTES))
				continue;
			out[n++] = e.handover;
			want = out[n - 1].from_pubkey;
			version = e.handover.from_version;
			found = true;
			break;
		}
	}
	/* Oldest first. */
	for (i = 0, k = n; i + 1 < k; i++, k--) {
		struct ota_identity_handover t = out[i];

		out[i] = out[k - 1];
		out[k - 1] = t;
	}
	return n;
}
