// SPDX-License-Identifier: MIT
/*
 * The boot tag table in flash: read once per boot, changed in RAM by the
 * stage checks, written (at most once per stage) as the newest of its two
 * copies. A torn write damages only the copy being written; the other
 * still holds every tag it held before.
 */
#include <string.h>

#include "fwlib.h"

static void empty_table(struct ota_tag_table *t)
{
	memset(t, 0, sizeof(*t));
	t->magic = OTA_TAG_TABLE_MAGIC;
	t->version = OTA_TAG_TABLE_VERSION;
	t->size = sizeof(*t);
}

void boot_tags_load(struct boot_ctx *b)
{
	struct ota_tag_table copy[2];
	int pick = -1;

	b->tags_dirty = false;
	if (hal_flash_read(boot_region(b, OTA_REGION_TAG_TABLE_0)->offset, &copy[0],
			   sizeof(copy[0])) == OTA_OK &&
	    hal_flash_read(boot_region(b, OTA_REGION_TAG_TABLE_1)->offset, &copy[1],
			   sizeof(copy[1])) == OTA_OK)
		pick = ota_tag_table_pick(copy, NULL);
	b->tags_index = pick;
	if (pick >= 0)
		b->tags = copy[pick];
	else
		empty_table(&b->tags); /* no tags: every stage takes the slow path */
}

const struct ota_tag_entry *boot_tag_entry(const struct boot_ctx *b, uint32_t stage, uint32_t slot)
{
	return &b->tags.entry[ota_tag_index(stage, slot)];
}

void boot_tag_set(struct boot_ctx *b, uint32_t stage, uint32_t slot, uint32_t key_version,
		  const uint8_t tag[OTA_TAG_BYTES])
{
	struct ota_tag_entry *e = &b->tags.entry[ota_tag_index(stage, slot)];

	if (e->state == OTA_TAG_STATE_VALID && e->key_version == key_version &&
	    memcmp(e->tag, tag, OTA_TAG_BYTES) == 0)
		return;
	e->stage = stage;
	e->slot = slot;
	e->key_version = key_version;
	e->state = OTA_TAG_STATE_VALID;
	memcpy(e->tag, tag, OTA_TAG_BYTES);
	b->tags_dirty = true;
}

ota_status_t boot_tags_flush(struct boot_ctx *b)
{
	int target = b->tags_index == 0 ? 1 : 0;
	uint32_t type = target ? OTA_REGION_TAG_TABLE_1 : OTA_REGION_TAG_TABLE_0;
	struct ota_tag_table next;
	ota_status_t st;

	if (!b->tags_dirty)
		return OTA_OK;
	next = b->tags;
	next.sequence = b->tags_index >= 0 ? b->tags.sequence + 1u : 1u;
	ota_tag_table_seal(&next);
	st = boot_flash_store(boot_region(b, type)->offset, &next, sizeof(next));
	if (st != OTA_OK)
		return st; /* the copy in use is untouched; retried at the next write */
	b->tags = next;
	b->tags_index = target;
	b->tags_dirty = false;
	return OTA_OK;
}
