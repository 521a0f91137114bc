// SPDX-License-Identifier: MIT
/*
 * Fixtures for the stage images on the emulated core (tu_device.h):
 * apart from tu_device.c, so only the tests that sign rv32 executables
 * link otimage's ELF reader (libelf).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>

#include "tu_device.h"

struct tu_blob tu_read_blob(const char *path)
{
	struct tu_blob b = { 0 };
	uint8_t *p = NULL;

	ck_assert_int_eq(otu_read_file(path, 1u << 20, &p, &b.len), 0);
	b.data = p;
	return b;
}

struct tu_blob tu_stage_image(const struct tu_blob *elf, uint32_t stage, uint32_t svn,
			      uint32_t load)
{
	struct oti_image_params p;
	struct tu_image_spec s;
	struct oti_diag d;
	bool is_elf = false;

	memset(&p, 0, sizeof(p));
	ck_assert_uint_eq(oti_payload_elf(elf->data, elf->len, &p, &is_elf, &d), OTA_OK);
	ck_assert(is_elf);
	tu_image_spec_init(&s, stage, svn);
	s.code = p.payload;
	s.payload_len = p.payload_len;
	s.has_load = true;
	s.load_address = load ? load : p.load.load_address;
	s.entry = p.load.entry - p.load.load_address + s.load_address;
	return tu_image(&s);
}

struct tu_blob tu_bl0_stage(const struct tu_blob *elf, uint32_t depth, bool hybrid, uint32_t pad_to)
{
	struct oti_image_params p;
	struct oti_cert chain[2];
	struct tu_image_spec s;
	struct tu_blob out;
	struct oti_diag d;
	bool is_elf = false;
	uint8_t *code;
	size_t len;

	memset(&p, 0, sizeof(p));
	ck_assert_uint_eq(oti_payload_elf(elf->data, elf->len, &p, &is_elf, &d), OTA_OK);
	ck_assert(is_elf);
	len = pad_to > p.payload_len ? pad_to : p.payload_len;
	code = calloc(1, len);
	ck_assert_ptr_nonnull(code);
	memcpy(code, p.payload, p.payload_len);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.code = code;
	s.payload_len = len;
	s.has_load = true;
	s.load_address = p.load.load_address;
	s.entry = p.load.entry;
	tu_bl0_chain(&s, depth, hybrid, chain);
	out = tu_image(&s);
	free(code);
	return out;
}

void tu_device_stages(struct tu_device *d, const struct tu_blob *rom_ext_elf,
		      const struct tu_blob *bl0_elf)
{
	tu_device_init(d);
	tu_blob_free(&d->slot[OTI_ROM_EXT_A]);
	tu_blob_free(&d->slot[OTI_BL0_A]);
	d->slot[OTI_ROM_EXT_A] = tu_stage_image(rom_ext_elf, OTA_STAGE_ROM_EXT, 1, 0);
	d->slot[OTI_BL0_A] = tu_stage_image(bl0_elf, OTA_STAGE_BL0, 5, 0);
	tu_device_power_on(d);
}
