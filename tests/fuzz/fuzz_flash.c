// SPDX-License-Identifier: MIT
/*
 * The flash records on hostile bytes. The first input byte picks what the
 * rest is:
 *   0  a whole flash image: layout check, then every region as a boot
 *      stage reads it (slot images, both boot data and tag table copies
 *      and the pick, owner config, identity certificate)
 *   1  two boot data copies     2  two tag table copies
 *   3  an owner config          4  an identity certificate blob
 * Records are checked as given and once more after sealing, so the
 * fuzzer also explores what lies behind the digest check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/flash.h"
#include "otattest/manifest.h"
#include "fuzz_require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void boot_data_pair(const uint8_t *p)
{
	struct ota_boot_data c[2];
	ota_status_t why;
	int pick;

	memcpy(c, p, sizeof(c));
	pick = ota_boot_data_pick(c, &why);
	REQUIRE(pick >= -1 && pick <= 1);
	if (pick >= 0)
		REQUIRE(ota_boot_data_check(&c[pick]) == OTA_OK);
	else
		REQUIRE(ota_boot_data_check(&c[0]) != OTA_OK && ota_boot_data_check(&c[1]) != OTA_OK);
	/* Sealed, a record can still be refused, but never for its digest. */
	ota_boot_data_seal(&c[0]);
	REQUIRE(ota_boot_data_check(&c[0]) != OTA_BOOT_DATA_DIGEST_MISMATCH);
	ota_boot_data_seal(&c[1]);
	pick = ota_boot_data_pick(c, &why);
	if (pick >= 0)
		REQUIRE(c[pick].primary_slot < OTA_SLOT_COUNT && c[pick].floor_bl0 <= OTA_SVN_LIMIT);
}

static void tag_table_pair(const uint8_t *p)
{
	struct ota_tag_table c[2];
	ota_status_t why;
	int pick, i;

	memcpy(c, p, sizeof(c));
	pick = ota_tag_table_pick(c, &why);
	if (pick >= 0)
		REQUIRE(ota_tag_table_check(&c[pick]) == OTA_OK);
	ota_tag_table_seal(&c[0]);
	ota_tag_table_seal(&c[1]);
	REQUIRE(ota_tag_table_check(&c[0]) != OTA_TAG_TABLE_DIGEST_MISMATCH);
	pick = ota_tag_table_pick(c, &why);
	if (pick >= 0) {
		for (i = 0; i < (int)OTA_TAG_ENTRIES; i++) {
			const struct ota_tag_entry *e = &c[pick].entry[i];

			if (e->state == OTA_TAG_STATE_VALID)
				REQUIRE(ota_tag_index(e->stage, e->slot) == (uint32_t)i);
		}
	}
}

static void owner_config(const uint8_t *p)
{
	struct ota_owner_config oc;
	uint32_t i;

	memcpy(&oc, p, sizeof(oc));
	if (ota_owner_config_check(&oc) != OTA_OK)
		return;
	REQUIRE(oc.key_count >= 1 && oc.key_count <= OTA_OWNER_MAX_KEYS);
	REQUIRE(oc.max_delegation_depth <= OTA_MAX_DELEGATION_DEPTH);
	for (i = 0; i < oc.key_count; i++)
		REQUIRE(oc.keys[i].state == OTA_KEY_STATE_PROVISIONED);
}

static void identity_cert(const uint8_t *p)
{
	struct ota_identity_cert_blob c;

	memcpy(&c, p, sizeof(c));
	if (ota_identity_cert_check(&c) == OTA_OK)
		REQUIRE(c.der_length >= 2 && c.der_length <= OTA_IDCERT_MAX_DER && c.der[0] == 0x30);
}

static void flash_image(const uint8_t *flash, size_t size)
{
	struct ota_flash_layout l;
	uint8_t pair[2 * sizeof(struct ota_tag_table)];
	uint32_t t;

	if (size < sizeof(l))
		return;
	memcpy(&l, flash, sizeof(l));
	if (ota_flash_layout_check(&l, (uint32_t)size) != OTA_OK)
		return;
	for (t = 1; t <= OTA_REGION_TYPE_MAX; t++) {
		const struct ota_flash_region *r = ota_flash_layout_region(&l, t);

		REQUIRE(r != NULL && r->offset >= l.page_size && r->offset + r->size <= size);
		REQUIRE(r->offset % OTA_FLASH_PAGE_SIZE == 0 && r->size % OTA_FLASH_PAGE_SIZE == 0);
	}
	for (t = 0; t < OTA_SLOT_COUNT * OTA_STAGE_COUNT; t++) {
		const struct ota_flash_region *r = ota_flash_layout_region(
			&l, ota_region_for_slot(t / 2 + 1, t % 2));
		struct ota_image_view v;

		if (ota_image_parse(flash + r->offset, r->size, &v) == OTA_OK)
			REQUIRE(v.length <= r->size);
	}
	/* Each copy lives in its own region; gather them as the firmware does. */
	memcpy(pair, flash + ota_flash_layout_region(&l, OTA_REGION_BOOT_DATA_0)->offset,
	       sizeof(struct ota_boot_data));
	memcpy(pair + sizeof(struct ota_boot_data),
	       flash + ota_flash_layout_region(&l, OTA_REGION_BOOT_DATA_1)->offset,
	       sizeof(struct ota_boot_data));
	boot_data_pair(pair);
	memcpy(pair, flash + ota_flash_layout_region(&l, OTA_REGION_TAG_TABLE_0)->offset,
	       sizeof(struct ota_tag_table));
	memcpy(pair + sizeof(struct ota_tag_table),
	       flash + ota_flash_layout_region(&l, OTA_REGION_TAG_TABLE_1)->offset,
	       sizeof(struct ota_tag_table));
	tag_table_pair(pair);
	owner_config(flash + ota_flash_layout_region(&l, OTA_REGION_OWNER_CONFIG)->offset);
	identity_cert(flash + ota_flash_layout_region(&l, OTA_REGION_IDENTITY_CERT)->offset);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;
	size_t n;

	if (size < 1 || size > 2u * 1024 * 1024)
		return 0;
	n = size - 1;
	/* Exactly sized, so reading past what was given is an ASan report. */
	buf = malloc(n ? n : 1);
	if (!buf)
		abort();
	memcpy(buf, data + 1, n);
	switch (data[0]) {
	case 0:
		flash_image(buf, n);
		break;
	case 1:
		if (n >= 2 * sizeof(struct ota_boot_data))
			boot_data_pair(buf);
		break;
	case 2:
		if (n >= 2 * sizeof(struct ota_tag_table))
			tag_table_pair(buf);
		break;
	case 3:
		if (n >= sizeof(struct ota_owner_config))
			owner_config(buf);
		break;
	case 4:
		if (n >= sizeof(struct ota_identity_cert_blob))
			identity_cert(buf);
		break;
	}
	free(buf);
	return 0;
}
