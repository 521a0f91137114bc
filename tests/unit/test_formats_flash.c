// SPDX-License-Identifier: MIT
/*
 * Flash formats: the layout header, boot data and tag table (two copies,
 * sequence numbers, digests, fallback from a torn or corrupt copy), the
 * owner config and the identity certificate blob; and whole flash images
 * built by libotimage, parsed back region by region.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/flash.h>

#include "../../libotattest/tools/otimage/otimage.h"
#include "testutil.h"
#include "tu_check.h"
#include "tu_main.h"

static struct oti_key creator, owner, owner2, howner;
static struct ota_owner_config owner_cfg;
static uint8_t *rom_ext_img, *bl0_img;
static size_t rom_ext_len, bl0_len;
static uint8_t payload[3000];

/* A tiny DER SEQUENCE standing in for a certificate (its contents are not judged). */
static const uint8_t der[] = { 0x30, 0x81, 0x82, [3 ... 132] = 0x04 };

static void build_fixtures(void)
{
	struct oti_image_params p;
	struct oti_owner_params op;

	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &creator, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &owner, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &owner2, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &howner, NULL));
	memset(payload, 0x42, sizeof(payload));
	memset(&p, 0, sizeof(p));
	p.identifier = OTA_ID_ROM_EXT;
	p.security_version = 1;
	p.usage.slot_mask = OTA_SLOT_MASK_ALL;
	p.usage.lifecycle_mask = OTA_LC_MASK_ALL;
	p.payload = payload;
	p.payload_len = sizeof(payload);
	FIX(oti_image_build(&p, &creator, NULL, 0, &rom_ext_img, &rom_ext_len, NULL));
	p.identifier = OTA_ID_BL0;
	p.security_version = 4;
	FIX(oti_image_build(&p, &owner, NULL, 0, &bl0_img, &bl0_len, NULL));

	memset(&op, 0, sizeof(op));
	oti_key_root_entry(&owner, OTA_LC_MASK_ALL, &op.keys[0]);
	oti_key_root_entry(&owner2, 1u << OTA_LC_PROD, &op.keys[1]);
	op.key_count = 2;
	op.max_delegation_depth = 1;
	op.flags = OTA_OWNER_F_DIRECT_BOOT;
	FIX(oti_owner_config_build(&op, &owner_cfg, NULL));
}

static struct ota_flash_layout default_layout(void)
{
	struct ota_flash_layout l;

	ck_assert_uint_eq(oti_flash_layout_default(OTI_FLASH_DEFAULT_SIZE, OTI_ROM_EXT_SLOT_DEFAULT,
						   OTI_BL0_SLOT_DEFAULT, &l, NULL),
			  OTA_OK);
	return l;
}

/* ---- layout --------------------------------------------------------------- */

START_TEST(test_layout_default_valid)
{
	struct ota_flash_layout l = default_layout();
	uint32_t t;

	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), OTA_OK);
	EXPECT(ota_flash_layout_check(&l, 2 * OTI_FLASH_DEFAULT_SIZE), OTA_OK);
	/* Every type, the optional staging region too (8 KiB: a hybrid revocation, 8000 bytes). */
	for (t = 1; t <= OTA_REGION_OPTIONAL_MAX; t++) {
		const struct ota_flash_region *r = ota_flash_layout_region(&l, t);

		ck_assert_ptr_nonnull(r);
		ck_assert_uint_eq(r->type, t);
		ck_assert_uint_ge(r->offset, OTA_FLASH_PAGE_SIZE);
	}
	ck_assert_ptr_null(ota_flash_layout_region(&l, 0));
	ck_assert_uint_ge(ota_flash_layout_region(&l, OTA_REGION_REVOCATION)->size,
			  sizeof(struct ota_revocation_hybrid));
	ck_assert_ptr_null(ota_flash_layout_region(&l, OTA_REGION_OPTIONAL_MAX + 1));
	ck_assert_uint_eq(ota_region_for_slot(OTA_STAGE_BL0, OTA_SLOT_B), OTA_REGION_BL0_B);
	ck_assert_uint_eq(ota_region_for_slot(OTA_STAGE_ROM_EXT, OTA_SLOT_A), OTA_REGION_ROM_EXT_A);
}
END_TEST

START_TEST(test_layout_header_fields)
{
	struct ota_flash_layout l;

#define LAYOUT(stmt, want)                                                \
	l = default_layout();                                             \
	stmt;                                                             \
	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), want)

	LAYOUT(l.magic ^= 1, OTA_LAYOUT_BAD_MAGIC);
	LAYOUT(l.version = 2, OTA_LAYOUT_BAD_VERSION);
	LAYOUT(l.size = 223, OTA_LAYOUT_BAD_SIZE);
	LAYOUT(l.reserved = 1, OTA_LAYOUT_RESERVED_NONZERO);
	LAYOUT(l.reserved2[7] = 1, OTA_LAYOUT_RESERVED_NONZERO);
	LAYOUT(l.page_size = 4096, OTA_LAYOUT_BAD_PAGE_SIZE);
	LAYOUT(l.page_size = 0, OTA_LAYOUT_BAD_PAGE_SIZE);
	LAYOUT(l.flash_size = 0, OTA_LAYOUT_BAD_FLASH_SIZE);
	LAYOUT(l.flash_size += 1, OTA_LAYOUT_BAD_FLASH_SIZE);
	LAYOUT(l.flash_size += OTA_FLASH_PAGE_SIZE, OTA_LAYOUT_BAD_FLASH_SIZE); /* > device */
	LAYOUT(l.region_count = 9, OTA_LAYOUT_REGION_MISSING);
	LAYOUT(l.region_count = 13, OTA_LAYOUT_REGION_MISSING);
	LAYOUT(l.region_count = 0xffffffffu, OTA_LAYOUT_REGION_MISSING);
	/* Without the optional regions (the last two): a layout as before them. */
	LAYOUT((l.region_count = 10, memset(&l.region[10], 0, 2 * sizeof(l.region[10]))), OTA_OK);
	/* Without the identity log alone: one that never hands over (keychain.md). */
	LAYOUT((l.region_count = 11, memset(&l.region[11], 0, sizeof(l.region[11]))), OTA_OK);
	LAYOUT(l.region_count = 11, OTA_LAYOUT_RESERVED_NONZERO);
	LAYOUT((l.region_count = 10, memset(&l.region[11], 0, sizeof(l.region[11]))),
	       OTA_LAYOUT_RESERVED_NONZERO);
	/* An identity log too small for its header and every entry. */
	LAYOUT(l.region[11].size = OTA_FLASH_PAGE_SIZE, OTA_LAYOUT_REGION_OUT_OF_RANGE);
#undef LAYOUT
}
END_TEST

START_TEST(test_layout_regions)
{
	struct ota_flash_layout l;

#define REGION(stmt, want)                                                \
	l = default_layout();                                             \
	stmt;                                                             \
	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), want)

	REGION(l.region[3].reserved = 5, OTA_LAYOUT_RESERVED_NONZERO);
	REGION(l.region[3].type = 0, OTA_LAYOUT_REGION_MISSING);
	REGION(l.region[3].type = OTA_REGION_OPTIONAL_MAX + 1, OTA_LAYOUT_REGION_MISSING);
	REGION(l.region[3].type = OTA_REGION_REVOCATION, OTA_LAYOUT_REGION_MISSING); /* repeated */
	/* Ten regions, the optional one in place of a required one. */
	REGION((l.region[3] = l.region[10], l.region_count = 10,
		memset(&l.region[10], 0, 2 * sizeof(l.region[10]))),
	       OTA_LAYOUT_REGION_MISSING);
	REGION(l.region[3].type = l.region[2].type, OTA_LAYOUT_REGION_MISSING); /* repeated */
	REGION(l.region[3].offset += 1, OTA_LAYOUT_REGION_MISALIGNED);
	REGION(l.region[3].size += 512, OTA_LAYOUT_REGION_MISALIGNED);
	REGION(l.region[3].size = 0, OTA_LAYOUT_REGION_OUT_OF_RANGE);
	REGION(l.region[9].size += OTA_FLASH_PAGE_SIZE * 200, OTA_LAYOUT_REGION_OUT_OF_RANGE);
	/* offset + size wrapping past 2^32 is out of range, not small. */
	REGION((l.region[9].offset = 0xfffff800u, l.region[9].size = 0x1000), OTA_LAYOUT_REGION_OUT_OF_RANGE);
	REGION(l.region[0].offset = 0, OTA_LAYOUT_REGION_OVERLAP); /* page 0 is the layout */
	REGION(l.region[1].offset = l.region[0].offset, OTA_LAYOUT_REGION_OVERLAP);
	REGION(l.region[7].size += OTA_FLASH_PAGE_SIZE, OTA_LAYOUT_REGION_OVERLAP); /* into the next slot */
	REGION(l.region[5].size = 32 * OTA_FLASH_PAGE_SIZE, OTA_LAYOUT_REGION_OVERLAP);
#undef REGION
}
END_TEST

/*
 * The layout page and the regions ROM_EXT locks at every hand-off must fit
 * the flash controller's protection ranges with two left for the running
 * slots (issue 27: the identity certificate's region was the ninth and
 * went unprotected). Touching regions share a range.
 */
START_TEST(test_layout_lock_ranges)
{
	struct ota_flash_range r[OTA_FLASH_MAX_REGIONS + 1];
	struct ota_flash_layout l = default_layout();
	uint32_t types[OTA_FLASH_LOCKED_REGION_COUNT + 3], locked[OTA_FLASH_LOCKED_REGION_COUNT + 1];
	uint32_t i, n;

	/* The default layout: pages 0 to 8 (the identity log last) in one range, each slot in its own. */
	for (i = 0; i < OTA_FLASH_LOCKED_REGION_COUNT; i++)
		locked[i] = ota_flash_locked_regions[i];
	locked[i] = OTA_FLASH_LOCKED_OPTIONAL;
	n = ota_flash_lock_ranges(&l, locked, OTA_FLASH_LOCKED_REGION_COUNT + 1, r);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0].offset, 0);
	ck_assert_uint_eq(r[0].size, 9 * OTA_FLASH_PAGE_SIZE);
	for (i = 0; i <= OTA_FLASH_LOCKED_REGION_COUNT; i++)
		types[i] = locked[i];
	types[i++] = OTA_REGION_BL0_B;
	types[i++] = OTA_REGION_ROM_EXT_A;
	n = ota_flash_lock_ranges(&l, types, i, r);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(r[1].offset, ota_flash_layout_region(&l, OTA_REGION_ROM_EXT_A)->offset);
	ck_assert_uint_eq(r[2].offset, ota_flash_layout_region(&l, OTA_REGION_BL0_B)->offset);
	ck_assert_uint_eq(r[2].size, ota_flash_layout_region(&l, OTA_REGION_BL0_B)->size);

	/* One region apart from the others costs one range: still fine. */
	for (i = 0; i < l.region_count; i++)
		if (l.region[i].type == OTA_REGION_IDENTITY_LOG)
			l.region[i].offset = 20 * OTA_FLASH_PAGE_SIZE;
	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), OTA_OK);
	ck_assert_uint_eq(ota_flash_lock_ranges(&l, locked, OTA_FLASH_LOCKED_REGION_COUNT + 1, r), 2);

	/* Every locked region apart, gaps between: 8 ranges with the layout page, 6 allowed. */
	n = 0;
	for (i = 0; i < l.region_count; i++)
		if (l.region[i].size == OTA_FLASH_PAGE_SIZE ||
		    l.region[i].type == OTA_REGION_IDENTITY_LOG)
			l.region[i].offset = (8 + 3 * n++) * OTA_FLASH_PAGE_SIZE;
	ck_assert_uint_eq(n, OTA_FLASH_LOCKED_REGION_COUNT + 1);
	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), OTA_LAYOUT_LOCKS_SCATTERED);
	/* Two of them touching the layout page again: 6 ranges, it fits. */
	for (i = 0; i < l.region_count; i++) {
		if (l.region[i].type == OTA_REGION_IDENTITY_CERT)
			l.region[i].offset = 1 * OTA_FLASH_PAGE_SIZE;
		if (l.region[i].type == OTA_REGION_OWNER_CONFIG)
			l.region[i].offset = 2 * OTA_FLASH_PAGE_SIZE;
	}
	EXPECT(ota_flash_layout_check(&l, OTI_FLASH_DEFAULT_SIZE), OTA_OK);
}
END_TEST

START_TEST(test_layout_builder_refusals)
{
	struct ota_flash_layout l;

	EXPECT(oti_flash_layout_default(64 * 1024, OTI_ROM_EXT_SLOT_DEFAULT, OTI_BL0_SLOT_DEFAULT, &l,
					NULL),
	       OTA_TOOL_TOO_LARGE);
	EXPECT(oti_flash_layout_default(OTI_FLASH_DEFAULT_SIZE, 1000, OTI_BL0_SLOT_DEFAULT, &l, NULL),
	       OTA_LAYOUT_REGION_MISALIGNED);
	EXPECT(oti_flash_layout_default(OTI_FLASH_DEFAULT_SIZE + 1, OTI_ROM_EXT_SLOT_DEFAULT,
					OTI_BL0_SLOT_DEFAULT, &l, NULL),
	       OTA_LAYOUT_BAD_FLASH_SIZE);
}
END_TEST

/* ---- boot data ------------------------------------------------------------ */

static struct ota_boot_data boot_data(uint32_t counter)
{
	struct ota_boot_data bd;

	memset(&bd, 0, sizeof(bd));
	bd.magic = OTA_BOOT_DATA_MAGIC;
	bd.version = OTA_BOOT_DATA_VERSION;
	bd.size = sizeof(bd);
	bd.counter = counter;
	bd.primary_slot = OTA_SLOT_B;
	bd.tag_key_version = 3;
	bd.floor_rom_ext = 2;
	bd.floor_bl0 = 5;
	ota_boot_data_seal(&bd);
	return bd;
}

START_TEST(test_boot_data_seal_and_check)
{
	struct ota_boot_data bd = boot_data(7);
	uint8_t want[32];

	EXPECT(ota_boot_data_check(&bd), OTA_OK);
	tu_sha256(&bd, OTA_BOOT_DATA_DIGESTED_BYTES, want);
	ck_assert_mem_eq(bd.digest, want, 32);
}
END_TEST

START_TEST(test_boot_data_refusals)
{
	struct ota_boot_data bd;

#define BD(stmt, reseal, want)                                   \
	bd = boot_data(1);                                       \
	stmt;                                                    \
	if (reseal)                                              \
		ota_boot_data_seal(&bd);                          \
	EXPECT(ota_boot_data_check(&bd), want)

	BD(bd.magic = 0xffffffffu, true, OTA_BOOT_DATA_BAD_MAGIC);
	BD(bd.version = 0, true, OTA_BOOT_DATA_BAD_VERSION);
	BD(bd.size = 32, true, OTA_BOOT_DATA_BAD_SIZE);
	BD(bd.floor_bl0 = 6, false, OTA_BOOT_DATA_DIGEST_MISMATCH);
	BD(bd.digest[31] ^= 1, false, OTA_BOOT_DATA_DIGEST_MISMATCH);
	BD(bd.anchor_counter = OTA_OTP_BOOT_DATA_ANCHOR_BITS + 1, true, OTA_BOOT_DATA_BAD_FIELD);
	BD(bd.primary_slot = 2, true, OTA_BOOT_DATA_BAD_FIELD);
	BD(bd.floor_rom_ext = OTA_SVN_LIMIT + 1, true, OTA_BOOT_DATA_BAD_FIELD);
	BD(bd.floor_bl0 = 0xffffffffu, true, OTA_BOOT_DATA_BAD_FIELD);
	/* An erased page. */
	memset(&bd, 0xff, sizeof(bd));
	EXPECT(ota_boot_data_check(&bd), OTA_BOOT_DATA_BAD_MAGIC);
#undef BD
}
END_TEST

START_TEST(test_boot_data_pick)
{
	struct ota_boot_data c[2];
	ota_status_t why;

	c[0] = boot_data(4);
	c[1] = boot_data(5);
	ck_assert_int_eq(ota_boot_data_pick(c, &why), 1);
	ck_assert_uint_eq(why, OTA_OK);
	c[0] = boot_data(6);
	ck_assert_int_eq(ota_boot_data_pick(c, &why), 0);
	/* Equal counters: copy 0, deterministically. */
	c[1] = boot_data(6);
	ck_assert_int_eq(ota_boot_data_pick(c, NULL), 0);
	/* Serial-number arithmetic across the wrap. */
	c[0] = boot_data(0xffffffffu);
	c[1] = boot_data(0);
	ck_assert_int_eq(ota_boot_data_pick(c, NULL), 1);
}
END_TEST

START_TEST(test_boot_data_torn_copy_falls_back)
{
	struct ota_boot_data c[2];
	uint8_t *p = (uint8_t *)&c[1];
	size_t torn;
	ota_status_t why;

	/*
	 * A power cut while programming copy 1 with counter 8: erased, then
	 * any prefix of the new record programmed. Copy 0 must always win.
	 */
	for (torn = 0; torn < sizeof(c[1]); torn++) {
		struct ota_boot_data next = boot_data(8);

		c[0] = boot_data(7);
		memset(&c[1], 0xff, sizeof(c[1]));
		memcpy(p, &next, torn);
		ck_assert_int_eq(ota_boot_data_pick(c, &why), 0);
		ck_assert_uint_ne(why, OTA_OK);
	}
	/* Finished: the new copy wins. */
	c[1] = boot_data(8);
	ck_assert_int_eq(ota_boot_data_pick(c, &why), 1);
}
END_TEST

START_TEST(test_boot_data_both_corrupt)
{
	struct ota_boot_data c[2];
	ota_status_t why;

	c[0] = boot_data(3);
	c[1] = boot_data(9);
	c[0].digest[0] ^= 1;
	c[1].version = 7;
	ck_assert_int_eq(ota_boot_data_pick(c, &why), -1);
	/* The newer-looking copy's reason. */
	ck_assert_uint_eq(why, OTA_BOOT_DATA_BAD_VERSION);
	/* The good copy 0 and a corrupt copy 1: why names copy 1's failure. */
	c[0] = boot_data(3);
	ck_assert_int_eq(ota_boot_data_pick(c, &why), 0);
	ck_assert_uint_eq(why, OTA_BOOT_DATA_BAD_VERSION);
}
END_TEST

/* ---- tag table ------------------------------------------------------------ */

static struct ota_tag_table tag_table(uint32_t seq, bool with_tag)
{
	struct ota_tag_table t;

	memset(&t, 0, sizeof(t));
	t.magic = OTA_TAG_TABLE_MAGIC;
	t.version = OTA_TAG_TABLE_VERSION;
	t.size = sizeof(t);
	t.sequence = seq;
	if (with_tag) {
		struct ota_tag_entry *e = &t.entry[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_B)];

		e->stage = OTA_STAGE_BL0;
		e->slot = OTA_SLOT_B;
		e->key_version = 2;
		e->state = OTA_TAG_STATE_VALID;
		memset(e->tag, 0x77, sizeof(e->tag));
	}
	ota_tag_table_seal(&t);
	return t;
}

START_TEST(test_tag_table_seal_and_check)
{
	struct ota_tag_table t = tag_table(1, true);
	uint8_t want[32];

	EXPECT(ota_tag_table_check(&t), OTA_OK);
	tu_sha256(&t, OTA_TAG_TABLE_DIGESTED_BYTES, want);
	ck_assert_mem_eq(t.digest, want, 32);
	ck_assert_uint_eq(ota_tag_index(OTA_STAGE_ROM_EXT, OTA_SLOT_A), 0);
	ck_assert_uint_eq(ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_B), 3);
}
END_TEST

START_TEST(test_tag_table_refusals)
{
	struct ota_tag_table t;
	const uint32_t i = ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_B);

#define TT(stmt, reseal, want)                                   \
	t = tag_table(1, true);                                  \
	stmt;                                                    \
	if (reseal)                                              \
		ota_tag_table_seal(&t);                          \
	EXPECT(ota_tag_table_check(&t), want)

	TT(t.magic = 0, true, OTA_TAG_TABLE_BAD_MAGIC);
	TT(t.version = 2, true, OTA_TAG_TABLE_BAD_VERSION);
	TT(t.size = 0, true, OTA_TAG_TABLE_BAD_SIZE);
	TT(t.entry[i].tag[0] ^= 1, false, OTA_TAG_TABLE_DIGEST_MISMATCH);
	TT(t.reserved = 1, true, OTA_TAG_TABLE_RESERVED_NONZERO);
	/* An empty entry with anything left in it. */
	TT(t.entry[0].key_version = 1, true, OTA_TAG_TABLE_RESERVED_NONZERO);
	TT(t.entry[0].tag[31] = 1, true, OTA_TAG_TABLE_RESERVED_NONZERO);
	/* A valid entry at the wrong index, or with an unknown state. */
	TT(t.entry[i].slot = OTA_SLOT_A, true, OTA_TAG_TABLE_BAD_ENTRY);
	TT(t.entry[i].stage = OTA_STAGE_ROM_EXT, true, OTA_TAG_TABLE_BAD_ENTRY);
	TT(t.entry[i].state = OTA_TAG_STATE_VALID + 1, true, OTA_TAG_TABLE_BAD_ENTRY);
#undef TT
}
END_TEST

START_TEST(test_tag_table_pick_and_fallback)
{
	struct ota_tag_table c[2];
	ota_status_t why;
	size_t torn;

	c[0] = tag_table(10, false);
	c[1] = tag_table(11, true);
	ck_assert_int_eq(ota_tag_table_pick(c, &why), 1);
	ck_assert_uint_eq(why, OTA_OK);
	/* Rewriting copy 0 with sequence 12, cut at every byte. */
	for (torn = 0; torn < sizeof(c[0]); torn++) {
		struct ota_tag_table next = tag_table(12, true);

		memset(&c[0], 0xff, sizeof(c[0]));
		memcpy(&c[0], &next, torn);
		ck_assert_int_eq(ota_tag_table_pick(c, &why), 1);
	}
	c[0] = tag_table(12, true);
	ck_assert_int_eq(ota_tag_table_pick(c, &why), 0);
	memset(&c[0], 0xff, sizeof(c[0]));
	memset(&c[1], 0x00, sizeof(c[1]));
	ck_assert_int_eq(ota_tag_table_pick(c, &why), -1);
	ck_assert_uint_eq(why, OTA_TAG_TABLE_BAD_MAGIC);
}
END_TEST

/* ---- owner config --------------------------------------------------------- */

START_TEST(test_owner_config_roundtrip)
{
	ck_assert_uint_eq(owner_cfg.magic, OTA_OWNER_MAGIC);
	ck_assert_uint_eq(owner_cfg.key_count, 2);
	ck_assert_uint_eq(owner_cfg.max_delegation_depth, 1);
	ck_assert_uint_eq(owner_cfg.flags, OTA_OWNER_F_DIRECT_BOOT);
	ck_assert_mem_eq(owner_cfg.keys[0].ecdsa_pubkey, owner.pub, 64);
	ck_assert_uint_eq(owner_cfg.keys[1].lifecycle_mask, 1u << OTA_LC_PROD);
	ck_assert_uint_eq(owner_cfg.keys[1].algorithm, OTA_KEY_ALG_ECDSA_P256);
	ck_assert(ota_all_zero(&owner_cfg.keys[2], 2 * sizeof(owner_cfg.keys[2])));
	EXPECT(ota_owner_config_check(&owner_cfg), OTA_OK);
}
END_TEST

START_TEST(test_owner_config_refusals)
{
	struct ota_owner_config oc;

#define OC(stmt, want)                        \
	oc = owner_cfg;                       \
	stmt;                                 \
	EXPECT(ota_owner_config_check(&oc), want)

	OC(oc.magic = 0, OTA_OWNER_BAD_MAGIC);
	OC(oc.version = 3, OTA_OWNER_BAD_VERSION);
	OC(oc.size = 479, OTA_OWNER_BAD_SIZE);
	OC(oc.reserved = 1, OTA_OWNER_RESERVED_NONZERO);
	OC(oc.reserved2[0] = 1, OTA_OWNER_RESERVED_NONZERO);
	OC(oc.max_delegation_depth = 3, OTA_OWNER_BAD_DEPTH);
	OC(oc.flags = 4, OTA_OWNER_UNKNOWN_FLAGS);
	OC(oc.key_count = 0, OTA_OWNER_BAD_KEYS);
	OC(oc.key_count = 5, OTA_OWNER_BAD_KEYS);
	OC(oc.key_count = 3, OTA_OWNER_BAD_KEYS);            /* entry 2 is empty */
	OC(oc.key_count = 1, OTA_OWNER_RESERVED_NONZERO);    /* entry 1 is not */
	OC(oc.keys[0].state = 0, OTA_OWNER_BAD_KEYS);
	OC(oc.keys[0].algorithm = 0, OTA_OWNER_BAD_KEYS);
	OC(oc.keys[0].lifecycle_mask = 0, OTA_OWNER_BAD_KEYS);
	OC(oc.keys[0].lifecycle_mask = 0x20, OTA_OWNER_BAD_KEYS);
	OC(oc.keys[0].reserved = 1, OTA_OWNER_BAD_KEYS);
	OC(memset(oc.keys[0].ecdsa_pubkey, 0, 64), OTA_OWNER_BAD_KEYS);
	OC(oc.keys[0].spx_pubkey[0] = 1, OTA_OWNER_BAD_KEYS);           /* ECDSA key with SLH-DSA bytes */
	OC(oc.keys[0].algorithm = OTA_KEY_ALG_HYBRID, OTA_OWNER_BAD_KEYS); /* hybrid without them */
	OC(oc.keys[1] = oc.keys[0], OTA_OWNER_BAD_KEYS);                  /* the same key twice */
	OC(oc.flags |= OTA_OWNER_F_HYBRID_REQUIRED, OTA_OWNER_BAD_KEYS);  /* with ECDSA-only keys */
	OC(oc.keys[3].reserved = 1, OTA_OWNER_RESERVED_NONZERO);
#undef OC
}
END_TEST

START_TEST(test_owner_config_builder)
{
	struct oti_owner_params p;
	struct ota_owner_config oc;

	memset(&p, 0, sizeof(p));
	oti_key_root_entry(&howner, OTA_LC_MASK_ALL, &p.keys[0]);
	p.key_count = 1;
	p.max_delegation_depth = 2;
	p.flags = OTA_OWNER_F_ALL;
	EXPECT(oti_owner_config_build(&p, &oc, NULL), OTA_OK);
	ck_assert_mem_eq(oc.keys[0].spx_pubkey, howner.spx_pk, 32);
	p.key_count = 5;
	EXPECT(oti_owner_config_build(&p, &oc, NULL), OTA_TOOL_TOO_MANY_KEYS);
	p.key_count = 0;
	EXPECT(oti_owner_config_build(&p, &oc, NULL), OTA_OWNER_BAD_KEYS);
}
END_TEST

/* ---- identity certificate blob -------------------------------------------- */

START_TEST(test_idcert)
{
	struct ota_identity_cert_blob b;

	EXPECT(oti_idcert_blob(der, sizeof(der), &b, NULL), OTA_OK);
	ck_assert_uint_eq(b.magic, OTA_IDCERT_MAGIC);
	ck_assert_uint_eq(b.der_length, sizeof(der));
	ck_assert_mem_eq(b.der, der, sizeof(der));
	EXPECT(ota_identity_cert_check(&b), OTA_OK);

	EXPECT(oti_idcert_blob(der, 0, &b, NULL), OTA_IDCERT_BAD_LENGTH);
	EXPECT(oti_idcert_blob(der, OTA_IDCERT_MAX_DER + 1, &b, NULL), OTA_IDCERT_BAD_LENGTH);
	/* The stated length must be the SEQUENCE's own. */
	EXPECT(oti_idcert_blob(der, sizeof(der) - 1, &b, NULL), OTA_IDCERT_BAD_DER);
	{
		uint8_t longer[sizeof(der) + 1];

		memcpy(longer, der, sizeof(der));
		longer[sizeof(der)] = 0;
		EXPECT(oti_idcert_blob(longer, sizeof(longer), &b, NULL), OTA_IDCERT_BAD_DER);
	}
	oti_idcert_blob(der, sizeof(der), &b, NULL);
	b.der[0] = 0x31;
	EXPECT(ota_identity_cert_check(&b), OTA_IDCERT_BAD_DER);
	b.der[0] = 0x30;
	b.der[1] = 0x83; /* a length longer than any blob holds */
	EXPECT(ota_identity_cert_check(&b), OTA_IDCERT_BAD_DER);
	{
		/* DER lengths are minimal: 16 bytes in the long form is refused, short form is fine. */
		static const uint8_t short_form[18] = { 0x30, 0x10 };
		static const uint8_t long_form[19] = { 0x30, 0x81, 0x10 };
		static const uint8_t long2_form[20] = { 0x30, 0x82, 0x00, 0x10 };
		struct ota_identity_cert_blob t;

		EXPECT(oti_idcert_blob(short_form, sizeof(short_form), &t, NULL), OTA_OK);
		EXPECT(oti_idcert_blob(long_form, sizeof(long_form), &t, NULL), OTA_IDCERT_BAD_DER);
		EXPECT(oti_idcert_blob(long2_form, sizeof(long2_form), &t, NULL), OTA_IDCERT_BAD_DER);
	}
	oti_idcert_blob(der, sizeof(der), &b, NULL);
	b.der[sizeof(der) + 5] = 1;
	EXPECT(ota_identity_cert_check(&b), OTA_IDCERT_RESERVED_NONZERO);
	memset(&b, 0xff, sizeof(b)); /* erased region */
	EXPECT(ota_identity_cert_check(&b), OTA_IDCERT_BAD_MAGIC);
	oti_idcert_blob(der, sizeof(der), &b, NULL);
	b.der_length = 0xffffffffu;
	EXPECT(ota_identity_cert_check(&b), OTA_IDCERT_BAD_LENGTH);
}
END_TEST

/* ---- whole flash images ----------------------------------------------------- */

static const struct ota_flash_region *region(const uint8_t *flash, uint32_t type)
{
	static struct ota_flash_layout l;

	memcpy(&l, flash, sizeof(l));
	return ota_flash_layout_region(&l, type);
}

START_TEST(test_flash_roundtrip)
{
	struct oti_flash_params p;
	struct ota_flash_layout l;
	struct ota_boot_data bd[2];
	struct ota_tag_table tt[2];
	struct ota_owner_config oc;
	struct ota_identity_cert_blob blob, back;
	const struct ota_flash_region *r;
	struct ota_image_view v;
	uint8_t *flash;
	size_t len, i;

	ck_assert_uint_eq(oti_idcert_blob(der, sizeof(der), &blob, NULL), OTA_OK);
	memset(&p, 0, sizeof(p));
	p.slot[OTI_ROM_EXT_A] = rom_ext_img;
	p.slot_len[OTI_ROM_EXT_A] = rom_ext_len;
	p.slot[OTI_BL0_B] = bl0_img;
	p.slot_len[OTI_BL0_B] = bl0_len;
	p.owner = &owner_cfg;
	p.idcert = &blob;
	p.primary_slot = OTA_SLOT_B;
	p.tag_key_version = 6;
	p.floor_rom_ext = 1;
	p.floor_bl0 = 3;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_OK);
	ck_assert_uint_eq(len, OTI_FLASH_DEFAULT_SIZE);
	memcpy(&l, flash, sizeof(l));
	EXPECT(ota_flash_layout_check(&l, (uint32_t)len), OTA_OK);
	/* Page 0 past the header is erased. */
	for (i = sizeof(l); i < OTA_FLASH_PAGE_SIZE; i++)
		ck_assert_uint_eq(flash[i], 0xff);

	r = region(flash, OTA_REGION_ROM_EXT_A);
	EXPECT(ota_image_parse(flash + r->offset, r->size, &v), OTA_OK);
	ck_assert_mem_eq(flash + r->offset, rom_ext_img, rom_ext_len);
	for (i = rom_ext_len; i < r->size; i++)
		ck_assert_uint_eq(flash[r->offset + i], 0xff);
	r = region(flash, OTA_REGION_BL0_B);
	ck_assert_mem_eq(flash + r->offset, bl0_img, bl0_len);
	/* Empty slots are erased. */
	r = region(flash, OTA_REGION_BL0_A);
	for (i = 0; i < r->size; i++)
		ck_assert_uint_eq(flash[r->offset + i], 0xff);
	EXPECT(ota_image_parse(flash + r->offset, r->size, &v), OTA_MANIFEST_BAD_MAGIC);

	/* Both boot data copies valid, the newer picked, fields as given. */
	for (i = 0; i < 2; i++) {
		memcpy(&bd[i], flash + region(flash, OTA_REGION_BOOT_DATA_0 + i)->offset, sizeof(bd[i]));
		EXPECT(ota_boot_data_check(&bd[i]), OTA_OK);
		memcpy(&tt[i], flash + region(flash, OTA_REGION_TAG_TABLE_0 + i)->offset, sizeof(tt[i]));
		EXPECT(ota_tag_table_check(&tt[i]), OTA_OK);
		ck_assert(ota_all_zero(tt[i].entry, sizeof(tt[i].entry)));
	}
	ck_assert_int_eq(ota_boot_data_pick(bd, NULL), 1);
	ck_assert_int_eq(ota_tag_table_pick(tt, NULL), 1);
	ck_assert_uint_eq(bd[1].primary_slot, OTA_SLOT_B);
	ck_assert_uint_eq(bd[1].tag_key_version, 6);
	ck_assert_uint_eq(bd[1].floor_rom_ext, 1);
	ck_assert_uint_eq(bd[1].floor_bl0, 3);

	memcpy(&oc, flash + region(flash, OTA_REGION_OWNER_CONFIG)->offset, sizeof(oc));
	ck_assert_mem_eq(&oc, &owner_cfg, sizeof(oc));
	memcpy(&back, flash + region(flash, OTA_REGION_IDENTITY_CERT)->offset, sizeof(back));
	EXPECT(ota_identity_cert_check(&back), OTA_OK);
	ck_assert_mem_eq(back.der, der, sizeof(der));
	free(flash);
}
END_TEST

START_TEST(test_flash_builder_refusals)
{
	struct oti_flash_params p;
	struct ota_owner_config bad = owner_cfg;
	uint8_t *flash, *broken;
	size_t len;
	struct oti_diag d;

	memset(&p, 0, sizeof(p));
	/* An image in the other stage's slot. */
	p.slot[OTI_BL0_A] = rom_ext_img;
	p.slot_len[OTI_BL0_A] = rom_ext_len;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_MANIFEST_WRONG_IDENTIFIER);
	/* ...which a fixture may still want. */
	p.flags = OTI_UNCHECKED;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_OK);
	free(flash);
	p.flags = 0;
	/* A malformed image, blamed on its field. */
	broken = malloc(bl0_len);
	memcpy(broken, bl0_img, bl0_len);
	broken[70] = 0; /* header_size */
	p.slot[OTI_BL0_A] = broken;
	p.slot_len[OTI_BL0_A] = bl0_len;
	oti_diag_clear(&d);
	EXPECT(oti_flash_build(&p, &flash, &len, &d), OTA_MANIFEST_BAD_HEADER_SIZE);
	ck_assert_str_eq(d.field, "manifest.header_size");
	/* Trailing bytes after the image. */
	p.slot[OTI_BL0_A] = bl0_img;
	p.slot_len[OTI_BL0_A] = bl0_len - 1;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_MANIFEST_BAD_LENGTH);
	/* An image larger than its slot. */
	p.slot_len[OTI_BL0_A] = bl0_len;
	p.bl0_slot_size = OTA_FLASH_PAGE_SIZE;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_TOOL_TOO_LARGE);
	p.bl0_slot_size = 0;
	/* Boot data values out of range. */
	p.primary_slot = 2;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_BOOT_DATA_BAD_FIELD);
	p.primary_slot = 0;
	p.floor_bl0 = 256;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_BOOT_DATA_BAD_FIELD);
	p.floor_bl0 = 0;
	bad.max_delegation_depth = 9;
	p.owner = &bad;
	EXPECT(oti_flash_build(&p, &flash, &len, NULL), OTA_OWNER_BAD_DEPTH);
	free(broken);
}
END_TEST

static Suite *flash_suite(void)
{
	Suite *s = suite_create("formats_flash");
	TCase *lay = tcase_create("layout");
	TCase *rec = tcase_create("records");
	TCase *own = tcase_create("owner_idcert");
	TCase *img = tcase_create("flash_image");

	tcase_add_test(lay, test_layout_default_valid);
	tcase_add_test(lay, test_layout_header_fields);
	tcase_add_test(lay, test_layout_regions);
	tcase_add_test(lay, test_layout_lock_ranges);
	tcase_add_test(lay, test_layout_builder_refusals);
	suite_add_tcase(s, lay);
	tcase_add_test(rec, test_boot_data_seal_and_check);
	tcase_add_test(rec, test_boot_data_refusals);
	tcase_add_test(rec, test_boot_data_pick);
	tcase_add_test(rec, test_boot_data_torn_copy_falls_back);
	tcase_add_test(rec, test_boot_data_both_corrupt);
	tcase_add_test(rec, test_tag_table_seal_and_check);
	tcase_add_test(rec, test_tag_table_refusals);
	tcase_add_test(rec, test_tag_table_pick_and_fallback);
	suite_add_tcase(s, rec);
	tcase_add_test(own, test_owner_config_roundtrip);
	tcase_add_test(own, test_owner_config_refusals);
	tcase_add_test(own, test_owner_config_builder);
	tcase_add_test(own, test_idcert);
	suite_add_tcase(s, own);
	tcase_add_test(img, test_flash_roundtrip);
	tcase_add_test(img, test_flash_builder_refusals);
	suite_add_tcase(s, img);
	return s;
}

OTA_TEST_MAIN_PREPARED(build_fixtures(), flash_suite)
