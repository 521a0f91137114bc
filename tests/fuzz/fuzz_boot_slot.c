// SPDX-License-Identifier: MIT
/*
 * The whole boot flow on a hostile BL0 slot. The input is the content of
 * BL0 slot A on a provisioned emulated device (ROM_EXT and owner config
 * valid, keys fixed below so a seed image stays valid from run to run);
 * the device is cold-booted twice (slow path, then tag path) and must:
 *  - answer OTA_OK or NO_BOOTABLE_SLOT, never crash or read out of bounds;
 *  - publish a record that passes ota_record_validate;
 *  - accept slot A only with exactly the measurement of the image the
 *    owner signed (nothing the fuzzer makes can be forged into a boot);
 *  - decide the same way on the second boot, on the tag path if the first
 *    re-tagged;
 *  - boot the signed image itself (so the target is not vacuous).
 * FUZZ_BOOT_WRITE_SEED=<file> writes that signed image (the seed corpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/sha256.h>

#include "hal.h"
#include "otimage.h"
#include "swhal.h"
#include "fw_run.h"
#include "handoff.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Test keys, generated once for this target; they protect nothing. */
static const char creator_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnbVcssruB14SZz0G\n"
	"AX2kUg752/QEJZ/AJnmdxOjOOWihRANCAATaQ+W1Evh9Z0F7mmlnMyUj/UgOZMqa\n"
	"CVafgxzwl8Z7RsvtLB9mOu4/rCjv73rxcjFlPgXQHgG8glW+xEnukk+E\n"
	"-----END PRIVATE KEY-----\n";
static const char owner_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5bsCeyUcRaP4MA1b\n"
	"C2MwJjGX+dMied8hFOx/VkjV6TKhRANCAASZCjr+U++r+3kOnpKK5LiFAFIyRYw0\n"
	"RscqXEXlLdkSOL8k8GJ+LzVpjg8b2v7eiKj7x6dYkanBs7BMY1Q1g7vv\n"
	"-----END PRIVATE KEY-----\n";
static const char leaf_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgKx5RZsOiohtakgSv\n"
	"QH2bPEDIWhB1HNOSZYPNsl00uWWhRANCAARPnX+LHsRajnl5G1agv0TLT7Gu/4J3\n"
	"EwaKaGMI3sYDzB6qcuCKt1mbTMacE4LjJ857UlAzYH84QTo0RsD0K98B\n"
	"-----END PRIVATE KEY-----\n";

#define BL0_SLOT (64u << 10)

static uint8_t *flash;
static size_t flash_len;
static uint32_t bl0_offset;
static uint8_t good_measurement[OTA_SHA256_BYTES];
static uint8_t *good_image;
static size_t good_len;
/*
 * OTP as settle() left it. A boot advances OTP too (the boot data's
 * anchor thermometer), so each input starts from this and the flash of
 * the same moment, not from a device whose OTP says its flash was rolled
 * back.
 */
static struct ota_otp otp;

static void die(const char *what, ota_status_t st)
{
	fprintf(stderr, "fuzz_boot_slot: %s: %s\n", what, ota_status_name(st));
	abort();
}

static void key(const char *pem, struct oti_key *k)
{
	struct oti_diag d;
	ota_status_t st = oti_key_parse((const uint8_t *)pem, strlen(pem), NULL, 0, k, &d);

	if (st != OTA_OK)
		die("key", st);
}

static struct ota_usage usage_all(void)
{
	struct ota_usage u;

	memset(&u, 0, sizeof(u));
	u.slot_mask = OTA_SLOT_MASK_ALL;
	u.lifecycle_mask = OTA_LC_MASK_ALL;
	u.flags = OTA_CAP_ALL;
	return u;
}

static void image(uint32_t id, const struct oti_key *signer, const struct oti_cert *chain,
		  uint32_t n, uint8_t **out, size_t *len)
{
	uint8_t payload[512];
	struct oti_image_params p;
	struct oti_diag d;
	ota_status_t st;

	memset(payload, 0x5c, sizeof(payload));
	memset(&p, 0, sizeof(p));
	p.identifier = id;
	p.security_version = 3;
	p.max_key_version = 4;
	p.usage = usage_all();
	p.payload = payload;
	p.payload_len = sizeof(payload);
	st = oti_image_build(&p, signer, chain, n, out, len, &d);
	if (st != OTA_OK)
		die("image", st);
}

static const struct ota_stage_record *boot(ota_status_t *st, struct ota_record *rec);

/*
 * The device as it is in service: one boot of the owner's image, which
 * tags ROM_EXT and BL0, so every input starts from flash and OTP after
 * it. ROM_EXT is then checked on the tag path at each boot, as on a
 * device, and the cost of an input is what its own slot makes the boot
 * do (a full ROM_EXT signature check per boot was a third of it).
 */
static void settle(void)
{
	static struct ota_record rec;
	const struct ota_stage_record *a;
	ota_status_t st;

	memset(flash + bl0_offset, 0xff, BL0_SLOT);
	memcpy(flash + bl0_offset, good_image, good_len);
	if (swhal_load_flash(flash, (uint32_t)flash_len) != 0)
		abort();
	a = boot(&st, &rec);
	if (st != OTA_OK || !a || a->status != OTA_OK)
		die("the owner's image did not boot", a ? a->status : st);
	if (swhal_peek_flash(0, flash, (uint32_t)flash_len) != 0 ||
	    swhal_peek_otp(0, &otp, sizeof(otp)) != 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct oti_key creator, owner, leaf;
	struct ota_constraints all;
	struct oti_owner_params op;
	struct oti_flash_params fp;
	struct oti_otp_params pp;
	struct ota_owner_config oc;
	struct oti_cert cert;
	struct oti_diag d;
	struct swhal_options so = { .no_fsync = true };
	struct ota_flash_layout layout;
	uint8_t *rom_ext, *bl0;
	size_t rom_ext_len, bl0_len;
	const char *seed = getenv("FUZZ_BOOT_WRITE_SEED");
	ota_status_t st;
	unsigned int i;

	(void)argc;
	(void)argv;
	key(creator_pem, &creator);
	key(owner_pem, &owner);
	key(leaf_pem, &leaf);
	memset(&all, 0, sizeof(all));
	all.svn_max = OTA_SVN_LIMIT;
	all.usage = usage_all();
	st = oti_cert_issue(&owner, NULL, &leaf, OTA_CERT_LEAF, &all, 0, &cert, &d);
	if (st != OTA_OK)
		die("cert", st);
	image(OTA_ID_ROM_EXT, &creator, NULL, 0, &rom_ext, &rom_ext_len);
	image(OTA_ID_BL0, &leaf, &cert, 1, &bl0, &bl0_len);
	ota_sha256(bl0 + OTA_MANIFEST_SIGNED_START,
		   ((const struct ota_manifest *)bl0)->signed_end - OTA_MANIFEST_SIGNED_START,
		   good_measurement);
	if (seed) {
		FILE *f = fopen(seed, "wb");

		if (!f || fwrite(bl0, 1, bl0_len, f) != bl0_len || fclose(f) != 0)
			abort();
	}

	memset(&op, 0, sizeof(op));
	oti_key_root_entry(&owner, OTA_LC_MASK_ALL, &op.keys[0]);
	op.key_count = 1;
	op.max_delegation_depth = 2;
	op.flags = OTA_OWNER_F_DIRECT_BOOT;
	if ((st = oti_owner_config_build(&op, &oc, &d)) != OTA_OK)
		die("owner config", st);
	memset(&pp, 0, sizeof(pp));
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++)
		pp.device_id[i] = (uint8_t)i;
	pp.lifecycle = OTA_LC_DEV;
	pp.features = OTA_OTP_F_TAG_BOOT;
	ota_sha256(&oc, sizeof(oc), pp.owner_config_digest);
	oti_key_root_entry(&creator, OTA_LC_MASK_ALL, &pp.creator_keys[0]);
	pp.creator_key_count = 1;
	memset(pp.device_secret, 0x42, sizeof(pp.device_secret));
	if ((st = oti_otp_build(&pp, &otp, &d)) != OTA_OK)
		die("otp", st);
	memset(&fp, 0, sizeof(fp));
	fp.flash_size = 512u << 10;
	fp.rom_ext_slot_size = 64u << 10;
	fp.bl0_slot_size = BL0_SLOT;
	fp.slot[OTI_ROM_EXT_A] = rom_ext;
	fp.slot_len[OTI_ROM_EXT_A] = rom_ext_len;
	fp.owner = &oc;
	if ((st = oti_flash_build(&fp, &flash, &flash_len, &d)) != OTA_OK)
		die("flash", st);
	memcpy(&layout, flash, sizeof(layout));
	if ((st = ota_flash_layout_check(&layout, (uint32_t)flash_len)) != OTA_OK)
		die("layout", st);
	bl0_offset = ota_flash_layout_region(&layout, OTA_REGION_BL0_A)->offset;

	so.flash_size = (uint32_t)flash_len;
	if (swhal_open(NULL, &so) != 0 || swhal_load_otp(&otp, sizeof(otp)) != 0)
		abort();
	free(rom_ext);
	good_image = bl0;
	good_len = bl0_len;
	settle();
	oti_key_free(&creator);
	oti_key_free(&owner);
	oti_key_free(&leaf);
	return 0;
}

/* One cold boot; returns the slot A attempt (NULL when not tried). */
static const struct ota_stage_record *boot(ota_status_t *st, struct ota_record *rec)
{
	uint32_t len, i;

	if (swhal_power_on() != 0)
		abort();
	*st = ota_fw_boot(OTA_RESET_COLD);
	if (*st != OTA_OK && *st != OTA_NO_BOOTABLE_SLOT)
		die("boot", *st);
	len = swhal_last_record(rec, sizeof(*rec));
	if (len > sizeof(*rec) || ota_record_validate(rec, len) != OTA_OK)
		die("record", OTA_RECORD_BAD_FIELD);
	for (i = 0; i < rec->hdr.stage_count; i++)
		if (rec->stage[i].stage == OTA_STAGE_BL0 && rec->stage[i].slot == OTA_SLOT_A)
			return &rec->stage[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ota_record r1, r2;
	const struct ota_stage_record *a1, *a2;
	ota_status_t st1, st2;

	if (size > BL0_SLOT)
		return 0;
	memset(flash + bl0_offset, 0xff, BL0_SLOT);
	memcpy(flash + bl0_offset, data, size);
	if (swhal_load_flash(flash, (uint32_t)flash_len) != 0 || swhal_load_otp(&otp, sizeof(otp)) != 0)
		abort();
	a1 = boot(&st1, &r1);
	a2 = boot(&st2, &r2);
	if (st1 != st2 || !a1 || !a2 || a1->status != a2->status)
		die("second boot decided differently", a2 ? a2->status : st2);
	if (size == good_len && memcmp(data, good_image, size) == 0 &&
	    (a1->status != OTA_OK || a2->path != OTA_PATH_TAG))
		die("the signed image did not boot", a1->status);
	if (a1->status == OTA_OK) {
		if (memcmp(a1->measurement, good_measurement, OTA_SHA256_BYTES) != 0)
			die("accepted an image nobody signed", a1->status);
		if (a1->path == OTA_PATH_SIGNATURE_RETAGGED && a2->path != OTA_PATH_TAG)
			die("re-tagged image not on the tag path", a2->status);
	}
	return 0;
}
