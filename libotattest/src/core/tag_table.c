// SPDX-License-Identifier: MIT
/*
 * The boot tag table: one entry per (stage, slot), two copies with a
 * sequence number (see flash.h).
 */
#include "otattest/flash.h"
#include "otattest/sha256.h"

#include "parse_util.h"

OTA_STATIC_ASSERT(OTA_TAG_TABLE_DIGESTED_BYTES == offsetof(struct ota_tag_table, digest),
		  "the tag table digest covers everything before it");

static ota_status_t tag_entry_check(const struct ota_tag_entry *e, uint32_t index)
{
	switch (e->state) {
	case OTA_TAG_STATE_EMPTY:
		/* Empty means empty: no stale tag or key version left behind. */
		return ota_all_zero(e, sizeof(*e)) ? OTA_OK : OTA_TAG_TABLE_RESERVED_NONZERO;
	case OTA_TAG_STATE_VALID:
		if (e->stage != index / OTA_SLOT_COUNT + 1u || e->slot != index % OTA_SLOT_COUNT)
			return OTA_TAG_TABLE_BAD_ENTRY;
		return OTA_OK;
	}
	return OTA_TAG_TABLE_BAD_ENTRY;
}

ota_status_t ota_tag_table_check(const struct ota_tag_table *tt)
{
	uint8_t digest[OTA_SHA256_BYTES];
	uint32_t i;

	if (tt->magic != OTA_TAG_TABLE_MAGIC)
		return OTA_TAG_TABLE_BAD_MAGIC;
	if (tt->version != OTA_TAG_TABLE_VERSION)
		return OTA_TAG_TABLE_BAD_VERSION;
	if (tt->size != sizeof(*tt))
		return OTA_TAG_TABLE_BAD_SIZE;
	ota_sha256(tt, OTA_TAG_TABLE_DIGESTED_BYTES, digest);
	if (!ota_ct_equal(digest, tt->digest, sizeof(digest)))
		return OTA_TAG_TABLE_DIGEST_MISMATCH;
	if (tt->reserved != 0)
		return OTA_TAG_TABLE_RESERVED_NONZERO;
	for (i = 0; i < OTA_TAG_ENTRIES; i++)
		OTA_TRY(tag_entry_check(&tt->entry[i], i));
	return OTA_OK;
}

void ota_tag_table_seal(struct ota_tag_table *tt)
{
	ota_sha256(tt, OTA_TAG_TABLE_DIGESTED_BYTES, tt->digest);
}

int ota_tag_table_pick(const struct ota_tag_table copy[2], ota_status_t *why)
{
	return ota_pick_newest(ota_tag_table_check(&copy[0]), ota_tag_table_check(&copy[1]),
			       copy[0].sequence, copy[1].sequence, why);
}
