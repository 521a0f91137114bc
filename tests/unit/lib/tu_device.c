// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/sha256.h>

#include "fw_run.h"
#include "fwlib.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"

static struct oti_key keys[TU_KEY_COUNT];
static bool key_made[TU_KEY_COUNT];

static bool key_is_hybrid(enum tu_key_id id)
{
	return id >= TU_OWNER_H;
}

const struct oti_key *tu_key(enum tu_key_id id)
{
	struct oti_diag d;

	ota_status_t st;

	/* Also called from main(), outside any test: no ck_assert here. */
	if (id >= TU_KEY_COUNT)
		abort();
	if (!key_made[id]) {
		st = oti_key_generate(key_is_hybrid(id) ? OTA_KEY_ALG_HYBRID : OTA_KEY_ALG_ECDSA_P256,
				      &keys[id], &d);
		if (st != OTA_OK) {
			fprintf(stderr, "tu_key: %s\n", ota_status_name(st));
			abort();
		}
		key_made[id] = true;
	}
	return &keys[id];
}

void tu_keys_warm(bool hybrid)
{
	int i;

	for (i = 0; i < TU_KEY_COUNT; i++)
		if (hybrid || !key_is_hybrid((enum tu_key_id)i))
			(void)tu_key((enum tu_key_id)i);
}

struct ota_usage tu_usage_all(void)
{
	struct ota_usage u;

	memset(&u, 0, sizeof(u));
	u.slot_mask = OTA_SLOT_MASK_ALL;
	u.lifecycle_mask = OTA_LC_MASK_ALL;
	u.flags = OTA_CAP_ALL;
	u.device_binding = OTA_BINDING_ANY;
	return u;
}

struct ota_constraints tu_constraints(uint32_t svn_min, uint32_t svn_max)
{
	struct ota_constraints c;

	memset(&c, 0, sizeof(c));
	c.svn_min = svn_min;
	c.svn_max = svn_max;
	c.usage = tu_usage_all();
	return c;
}

void tu_blob_free(struct tu_blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

struct tu_blob tu_blob_dup(const struct tu_blob *b)
{
	struct tu_blob c = { NULL, 0 };

	if (b->data) {
		c.data = malloc(b->len);
		ck_assert_ptr_nonnull(c.data);
		memcpy(c.data, b->data, b->len);
		c.len = b->len;
	}
	return c;
}

/*
 * Fixtures build what the boot tests need the device to judge, refusals
 * included, so otimage's own device checks are off here (they are
 * compared with the device's verdict in test_otimage_device.c); a
 * "checked" fixture is held to the chain's structure and containment.
 */
struct oti_cert tu_cert(enum tu_key_id parent, const struct oti_cert *parent_cert,
			enum tu_key_id delegate, uint32_t cert_type,
			const struct ota_constraints *c, bool unchecked)
{
	struct oti_cert out;
	struct oti_diag d;

	ck_assert_uint_eq(oti_cert_issue(tu_key(parent), parent_cert, tu_key(delegate), cert_type, c,
					 OTI_UNCHECKED, &out, &d), OTA_OK);
	if (!unchecked) {
		ck_assert_uint_eq(ota_dlgc_check(&out.dlgc), OTA_OK);
		if (parent_cert)
			ck_assert_uint_eq(ota_constraints_contained(&parent_cert->dlgc.constraints,
								    &out.dlgc.constraints), OTA_OK);
	}
	return out;
}

void tu_image_spec_init(struct tu_image_spec *s, uint32_t stage, uint32_t svn)
{
	memset(s, 0, sizeof(*s));
	s->stage = stage;
	s->svn = svn;
	s->max_key_version = 16;
	s->usage = tu_usage_all();
	s->payload_len = 4096;
	s->payload_seed = (uint8_t)(stage * 16 + svn);
	s->signer = stage == OTA_STAGE_ROM_EXT ? TU_CREATOR0 : TU_OWNER0;
}

struct tu_blob tu_image(const struct tu_image_spec *s)
{
	struct oti_image_params p;
	struct tu_blob out = { NULL, 0 };
	struct oti_diag d;
	uint8_t *payload = malloc(s->payload_len ? s->payload_len : 1);
	size_t i;

	ck_assert_ptr_nonnull(payload);
	for (i = 0; i < s->payload_len; i++)
		payload[i] = s->code ? s->code[i] : (uint8_t)(s->payload_seed + i * 131u + (i >> 8));
	memset(&p, 0, sizeof(p));
	p.has_load = s->has_load;
	p.load.load_address = s->load_address;
	p.load.entry = s->entry;
	p.identifier = s->stage == OTA_STAGE_ROM_EXT ? OTA_ID_ROM_EXT : OTA_ID_BL0;
	p.security_version = s->svn;
	p.max_key_version = s->max_key_version;
	p.usage = s->usage;
	if (s->version_string) {
		ck_assert_uint_le(strlen(s->version_string), sizeof(p.version_string));
		memcpy(p.version_string, s->version_string, strlen(s->version_string));
	}
	p.has_salt = s->salt;
	if (s->salt)
		memset(p.salt, 0x5a, sizeof(p.salt));
	p.payload = payload;
	p.payload_len = s->payload_len;
	p.flags = OTI_UNCHECKED;
	ck_assert_uint_eq(oti_image_build(&p, tu_key(s->signer), s->chain, s->chain_len, &out.data,
					  &out.len, &d), OTA_OK);
	free(payload);
	if (!s->unchecked) {
		struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
		struct ota_image_view v;
		uint32_t k;

		ck_assert_uint_eq(ota_image_parse(out.data, (uint32_t)out.len, &v), OTA_OK);
		for (k = 0; k < v.cert_count; k++)
			ck_assert_uint_eq(ota_dlgc_read(&v, k, &certs[k]), OTA_OK);
		ck_assert_uint_eq(ota_chain_check(&v.manifest,
						  ota_chain_root_id(&v.manifest, certs, v.cert_count),
						  certs, v.cert_count, NULL), OTA_OK);
	}
	return out;
}

void tu_bl0_chain(struct tu_image_spec *s, uint32_t depth, bool hybrid, struct oti_cert chain[2])
{
	enum tu_key_id root = hybrid ? TU_OWNER_H : TU_OWNER0;
	enum tu_key_id inter = hybrid ? TU_INTER_H : TU_INTER;
	enum tu_key_id leaf = hybrid ? TU_LEAF_H : TU_LEAF;
	struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);

	s->signer = root;
	if (depth == 1) {
		chain[0] = tu_cert(root, NULL, leaf, OTA_CERT_LEAF, &all, false);
		s->signer = leaf;
	} else if (depth == 2) {
		chain[0] = tu_cert(root, NULL, inter, OTA_CERT_INTERMEDIATE, &all, false);
		chain[1] = tu_cert(inter, &chain[0], leaf, OTA_CERT_LEAF, &all, false);
		s->signer = leaf;
	}
	s->chain = chain;
	s->chain_len = depth;
}

struct tu_blob tu_bl0(uint32_t depth, uint32_t svn, bool hybrid)
{
	struct oti_cert chain[2];
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	tu_bl0_chain(&s, depth, hybrid, chain);
	return tu_image(&s);
}

void tu_device_init(struct tu_device *d)
{
	struct tu_image_spec s;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	d->slot[OTI_ROM_EXT_A] = tu_image(&s);
	d->slot[OTI_BL0_A] = tu_bl0(1, 5, false);
	d->owner_keys[0] = TU_OWNER0;
	d->owner_keys[1] = TU_OWNER1;
	d->owner_key_count = 2;
	d->max_depth = OTA_MAX_DELEGATION_DEPTH;
	d->owner_flags = OTA_OWNER_F_DIRECT_BOOT;
	d->creator_keys[0] = TU_CREATOR0;
	d->creator_keys[1] = TU_CREATOR1;
	d->creator_key_count = 2;
	d->lifecycle = OTA_LC_DEV;
	d->features = OTA_OTP_F_TAG_BOOT;
	d->chain_max_svn = OTA_CHAIN_DEFAULT_MAX_SVN;
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++)
		d->device_id[i] = (uint8_t)(0xd0 + i);
	for (i = 0; i < sizeof(d->secret); i++)
		d->secret[i] = (uint8_t)(0x40 + 3 * i);
	d->primary_slot = OTA_SLOT_A;
	/* Room for the benchmark-sized images too. */
	d->flash_size = 4u << 20;
	d->rom_ext_slot_size = 128u << 10;
	d->bl0_slot_size = 1152u << 10;
}

void tu_device_free(struct tu_device *d)
{
	uint32_t i;

	for (i = 0; i < OTI_SLOTS; i++)
		tu_blob_free(&d->slot[i]);
}

void tu_device_boot_default(struct tu_device *d)
{
	tu_device_init(d);
	tu_device_power_on(d);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}

void tu_device_close(struct tu_device *d)
{
	tu_device_free(d);
	swhal_close();
}

static uint32_t lc_or_all(uint32_t mask)
{
	return mask ? mask : OTA_LC_MASK_ALL;
}

void tu_device_power_on(const struct tu_device *d)
{
	struct ota_owner_config oc;
	struct oti_owner_params op;
	struct oti_flash_params fp;
	struct oti_otp_params pp;
	struct ota_otp otp;
	struct swhal_options so;
	struct oti_diag diag;
	uint8_t *flash;
	size_t flash_len;
	uint32_t i;

	memset(&op, 0, sizeof(op));
	for (i = 0; i < d->owner_key_count; i++) {
		oti_key_root_entry(tu_key(d->owner_keys[i]), lc_or_all(d->owner_key_lifecycle[i]),
				   &op.keys[i]);
		if (d->owner_key_ecdsa_only[i]) {
			op.keys[i].algorithm = OTA_KEY_ALG_ECDSA_P256;
			memset(op.keys[i].spx_pubkey, 0, sizeof(op.keys[i].spx_pubkey));
		}
	}
	op.key_count = d->owner_key_count;
	op.max_delegation_depth = d->max_depth;
	op.flags = d->owner_flags;
	ck_assert_uint_eq(oti_owner_config_build(&op, &oc, &diag), OTA_OK);

	memset(&pp, 0, sizeof(pp));
	memcpy(pp.device_id, d->device_id, sizeof(pp.device_id));
	pp.lifecycle = d->lifecycle;
	pp.features = d->features;
	pp.chain_max_svn = d->chain_max_svn;
	ota_sha256(&oc, sizeof(oc), pp.owner_config_digest);
	for (i = 0; i < d->creator_key_count; i++)
		oti_key_root_entry(tu_key(d->creator_keys[i]),
				   lc_or_all(d->creator_key_lifecycle[i]), &pp.creator_keys[i]);
	pp.creator_key_count = d->creator_key_count;
	memcpy(pp.device_secret, d->secret, sizeof(pp.device_secret));
	pp.epoch = d->epoch;
	pp.floor_rom_ext = d->otp_floor_rom_ext;
	pp.floor_bl0 = d->otp_floor_bl0;
	memcpy(pp.creator_key_revoked, d->creator_revoked, sizeof(pp.creator_key_revoked));
	memcpy(pp.owner_key_revoked, d->owner_revoked, sizeof(pp.owner_key_revoked));
	ck_assert_uint_eq(oti_otp_build(&pp, &otp, &diag), OTA_OK);

	memset(&fp, 0, sizeof(fp));
	fp.flash_size = d->flash_size;
	fp.rom_ext_slot_size = d->rom_ext_slot_size;
	fp.bl0_slot_size = d->bl0_slot_size;
	for (i = 0; i < OTI_SLOTS; i++) {
		fp.slot[i] = d->slot[i].data;
		fp.slot_len[i] = d->slot[i].len;
	}
	fp.owner = &oc;
	fp.primary_slot = d->primary_slot;
	fp.tag_key_version = d->tag_key_version;
	fp.floor_rom_ext = d->bd_floor_rom_ext;
	fp.floor_bl0 = d->bd_floor_bl0;
	fp.flags = OTI_UNCHECKED; /* refusal tests place images the device must refuse */
	ck_assert_uint_eq(oti_flash_build(&fp, &flash, &flash_len, &diag), OTA_OK);

	memset(&so, 0, sizeof(so));
	so.flash_size = (uint32_t)flash_len;
	ck_assert_int_eq(swhal_open(NULL, &so), 0);
	ck_assert_int_eq(swhal_load_flash(flash, (uint32_t)flash_len), 0);
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	free(flash);
}

static struct ota_flash_layout layout;

const struct ota_flash_region *tu_region(uint32_t type)
{
	ck_assert_int_eq(swhal_peek_flash(0, &layout, sizeof(layout)), 0);
	ck_assert_uint_eq(ota_flash_layout_check(&layout, hal_flash_size()), OTA_OK);
	return ota_flash_layout_region(&layout, type);
}

static const uint32_t slot_region[OTI_SLOTS] = {
	OTA_REGION_ROM_EXT_A, OTA_REGION_ROM_EXT_B, OTA_REGION_BL0_A, OTA_REGION_BL0_B,
};

uint32_t tu_slot_offset(enum oti_slot_index slot)
{
	return tu_region(slot_region[slot])->offset;
}

void tu_device_write_slot(enum oti_slot_index slot, const struct tu_blob *img)
{
	const struct ota_flash_region *r = tu_region(slot_region[slot]);
	uint8_t *bytes = malloc(r->size);

	ck_assert_ptr_nonnull(bytes);
	memset(bytes, 0xff, r->size);
	if (img && img->data) {
		ck_assert_uint_le(img->len, r->size);
		memcpy(bytes, img->data, img->len);
	}
	ck_assert_int_eq(swhal_poke_flash(r->offset, bytes, r->size), 0);
	free(bytes);
}

void tu_flash_xor(uint32_t addr, uint8_t mask)
{
	uint8_t b;

	ck_assert_int_eq(swhal_peek_flash(addr, &b, 1), 0);
	b ^= mask;
	ck_assert_int_eq(swhal_poke_flash(addr, &b, 1), 0);
}

/* Whole-OTP edits computed by otimage, programmed as counters through the HAL. */
static void otp_program_counters(const struct ota_otp *next)
{
	/* The test is the fuse programmer, outside the chip: ROM_EXT's lock is not for it. */
	swhal_external_programmer(true);
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START,
					  (const uint8_t *)next + OTA_OTP_COUNTERS_START,
					  sizeof(*next) - OTA_OTP_COUNTERS_START), OTA_OK);
	swhal_external_programmer(false);
}

static void otp_current(struct ota_otp *otp)
{
	ck_assert_int_eq(swhal_peek_otp(0, otp, sizeof(*otp)), 0);
}

void tu_otp_raise_floor(uint32_t stage, uint32_t floor)
{
	struct ota_otp otp;

	otp_current(&otp);
	ck_assert_uint_eq(oti_otp_raise_floor(&otp, stage, floor), OTA_OK);
	otp_program_counters(&otp);
}

void tu_otp_revoke(bool owner, uint32_t index)
{
	struct ota_otp otp;

	otp_current(&otp);
	ck_assert_uint_eq(oti_otp_revoke(&otp, owner, index), OTA_OK);
	otp_program_counters(&otp);
}

void tu_otp_bump_epoch(void)
{
	struct ota_otp otp;
	uint32_t e;

	otp_current(&otp);
	ck_assert_uint_eq(oti_otp_bump_epoch(&otp, &e), OTA_OK);
	otp_program_counters(&otp);
}

static struct ota_record last;

const struct ota_record *tu_record(void)
{
	uint32_t n;

	memset(&last, 0, sizeof(last));
	n = swhal_last_record(&last, sizeof(last));
	ck_assert_uint_ge(n, sizeof(last.hdr));
	ck_assert_uint_eq(ota_record_validate(&last, n), OTA_OK);
	return &last;
}

const struct ota_stage_record *tu_attempt(uint32_t stage, uint32_t slot)
{
	const struct ota_record *r = tu_record();
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == stage && r->stage[i].slot == slot)
			return &r->stage[i];
	return NULL;
}

const struct ota_stage_record *tu_booted(uint32_t stage)
{
	const struct ota_record *r = tu_record();
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == stage && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	return NULL;
}

void tu_measurement(const struct tu_blob *img, uint8_t out[OTA_SHA256_BYTES])
{
	struct ota_manifest m;

	ck_assert_uint_ge(img->len, sizeof(m));
	memcpy(&m, img->data, sizeof(m));
	ck_assert_uint_le(m.signed_end, img->len);
	tu_sha256(img->data + OTA_MANIFEST_SIGNED_START, m.signed_end - OTA_MANIFEST_SIGNED_START,
		  out);
}

void tu_boot_data_write(const struct ota_boot_data *bd)
{
	struct ota_boot_data b = *bd;
	uint8_t page[OTA_FLASH_PAGE_SIZE];
	uint32_t type;
	hal_key_t key;

	/* The device's own copy: MAC'd under the key ROM derives (after a power-on). */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(boot_data_key(&key), OTA_OK);
	ck_assert_uint_eq(boot_data_mac(key, &b, b.mac), OTA_OK);
	hal_key_destroy(key);
	ota_boot_data_seal(&b);
	memset(page, 0xff, sizeof(page));
	memcpy(page, &b, sizeof(b));
	for (type = OTA_REGION_BOOT_DATA_0; type <= OTA_REGION_BOOT_DATA_1; type++)
		ck_assert_int_eq(swhal_poke_flash(tu_region(type)->offset, page, sizeof(page)), 0);
}

struct ota_boot_data tu_boot_data(void)
{
	struct ota_boot_data c[2];
	int i;

	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_BOOT_DATA_0)->offset, &c[0], sizeof(c[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_BOOT_DATA_1)->offset, &c[1], sizeof(c[1])), 0);
	i = ota_boot_data_pick(c, NULL);
	ck_assert_int_ge(i, 0);
	return c[i];
}

struct ota_tag_table tu_tag_table(void)
{
	struct ota_tag_table t[2], none;
	int i;

	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, &t[0], sizeof(t[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, &t[1], sizeof(t[1])), 0);
	i = ota_tag_table_pick(t, NULL);
	if (i < 0) {
		memset(&none, 0, sizeof(none));
		return none;
	}
	return t[i];
}

void tu_rom_ext_attest(uint8_t out[32])
{
	const struct ota_record *r = tu_record();
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == OTA_STAGE_ROM_EXT && (r->stage[i].flags & OTA_STAGE_F_BOOTED)) {
			boot_binding_attest(OTA_STAGE_ROM_EXT, r->stage[i].key_ids[0], out);
			return;
		}
	ck_abort_msg("no ROM_EXT booted in the last record");
}

ota_status_t tu_verify(const uint8_t *img, size_t len, const struct ota_root_key *root)
{
	struct oti_device dev;
	struct oti_verdict v;

	memset(&dev, 0, sizeof(dev));
	dev.root = *root;
	dev.has_root = true;
	return oti_device_check(&dev, img, len, 0, &v, NULL);
}

void tu_rom_ext_signed_by(enum tu_key_id k)
{
	struct tu_image_spec s;
	struct tu_blob img;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = k;
	img = tu_image(&s);
	tu_device_write_slot(OTI_ROM_EXT_A, &img);
	tu_blob_free(&img);
}
