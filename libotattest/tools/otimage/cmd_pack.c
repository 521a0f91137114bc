// SPDX-License-Identifier: MIT
/* otimage pack: build a whole flash image. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otimage_internal.h"

static const char pack_help[] =
	"NAME\n"
	"    otimage pack - build a flash image\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage pack --out FLASH [--rom-ext-a IMAGE] [--rom-ext-b IMAGE]\n"
	"                 [--bl0-a IMAGE] [--bl0-b IMAGE] [--owner-config FILE]\n"
	"                 [--identity-cert DER] [--flash-size N] [--rom-ext-slot-size N]\n"
	"                 [--bl0-slot-size N] [--primary-slot a|b] [--tag-key-version N]\n"
	"                 [--floor-rom-ext N] [--floor-bl0 N] [--force] [--json]\n"
	"\n"
	"DESCRIPTION\n"
	"    Writes the device's whole flash: the layout header in page 0, two boot data\n"
	"    copies, two empty tag tables, the owner config, the identity certificate\n"
	"    region and the four image slots (ROM_EXT A and B, BL0 A and B). A slot with\n"
	"    no image, like every byte nothing was written to, is left erased (0xff).\n"
	"\n"
	"    Each image must pass the device's manifest parser and carry its slot's\n"
	"    stage identifier. The owner config must pass its check; remember that the\n"
	"    device only accepts it if its digest was provisioned into OTP.\n"
	"\n"
	"    Default layout (1 MiB): pages 1-6 hold boot data 0/1, tag table 0/1, owner\n"
	"    config and identity certificate; slots start at 64 KiB: ROM_EXT A and B of\n"
	"    128 KiB, then BL0 A and B of 256 KiB. Sizes are multiples of 2048.\n"
	"\n"
	"OPTIONS\n"
	"    --rom-ext-a, --rom-ext-b, --bl0-a, --bl0-b IMAGE\n"
	"                          signed images (otimage sign) for each slot.\n"
	"    --owner-config FILE   owner config (otimage owner-config).\n"
	"    --identity-cert DER   a DER X.509 device identity certificate, at most 1024\n"
	"                          bytes (otimage ca-sign), stored as an identity\n"
	"                          certificate blob. A device only ever takes one that\n"
	"                          certifies its own identity key; personalization\n"
	"                          stores it through the mailbox instead\n"
	"                          (docs/otimage.md).\n"
	"    --flash-size N        bytes of flash (default 1048576).\n"
	"    --rom-ext-slot-size N, --bl0-slot-size N\n"
	"                          slot sizes (default 131072 and 262144).\n"
	"    --primary-slot a|b    the BL0 slot preferred when SVNs tie (default a).\n"
	"    --tag-key-version N   initial tag key version (default 0).\n"
	"    --floor-rom-ext N, --floor-bl0 N\n"
	"                          initial soft anti-rollback floors (default 0).\n"
	"    --out FLASH           where to write the flash image.\n"
	"    --force               replace FLASH if it exists.\n"
	"    --json                print the flash layout as one JSON object.\n"
	"    -h, --help            show this help.\n"
	"\n"
	OTI_HELP_EXIT_WRITES
	"\n"
	"EXAMPLES\n"
	"    otimage pack --rom-ext-a rom_ext.img --bl0-a bl0.img --bl0-b bl0.img \\\n"
	"                 --owner-config owner.cfg --out flash.bin\n";

int oti_cmd_pack(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rom-ext-a", required_argument, NULL, 0 + 1000 },
		{ "rom-ext-b", required_argument, NULL, 1 + 1000 },
		{ "bl0-a", required_argument, NULL, 2 + 1000 },
		{ "bl0-b", required_argument, NULL, 3 + 1000 },
		{ "owner-config", required_argument, NULL, 'O' },
		{ "identity-cert", required_argument, NULL, 'I' },
		{ "flash-size", required_argument, NULL, 'S' },
		{ "rom-ext-slot-size", required_argument, NULL, 'R' },
		{ "bl0-slot-size", required_argument, NULL, 'B' },
		{ "primary-slot", required_argument, NULL, 'p' },
		{ "tag-key-version", required_argument, NULL, 't' },
		{ "floor-rom-ext", required_argument, NULL, 'r' },
		{ "floor-bl0", required_argument, NULL, 'b' },
		{ "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *slot_path[OTI_SLOTS] = { NULL }, *owner = NULL, *idcert = NULL, *out = NULL;
	uint8_t *slot_buf[OTI_SLOTS] = { NULL }, *der = NULL, *flash = NULL;
	size_t der_len = 0, flash_len = 0;
	bool force = false, json = false;
	struct oti_flash_params p;
	struct ota_owner_config oc;
	struct ota_identity_cert_blob blob;
	struct oti_diag d;
	ota_status_t st = OTA_OK;
	int c, i, rc;

	oti_diag_clear(&d);
	memset(&p, 0, sizeof(p));
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		const char *opt = NULL;
		uint32_t *u32 = NULL, max = UINT32_MAX;

		switch (c) {
		case 1000: case 1001: case 1002: case 1003:
			slot_path[c - 1000] = optarg;
			continue;
		case 'O': owner = optarg; continue;
		case 'I': idcert = optarg; continue;
		case 'S': opt = "--flash-size"; u32 = &p.flash_size; max = OTI_MAX_FLASH; break;
		case 'R': opt = "--rom-ext-slot-size"; u32 = &p.rom_ext_slot_size; break;
		case 'B': opt = "--bl0-slot-size"; u32 = &p.bl0_slot_size; break;
		case 't': opt = "--tag-key-version"; u32 = &p.tag_key_version; break;
		case 'r': opt = "--floor-rom-ext"; u32 = &p.floor_rom_ext; max = OTA_SVN_LIMIT; break;
		case 'b': opt = "--floor-bl0"; u32 = &p.floor_bl0; max = OTA_SVN_LIMIT; break;
		case 'p':
			if (strcmp(optarg, "a") == 0)
				p.primary_slot = OTA_SLOT_A;
			else if (strcmp(optarg, "b") == 0)
				p.primary_slot = OTA_SLOT_B;
			else
				return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, "--primary-slot",
								 "'%s', expected a or b", optarg));
			continue;
		case 'o': out = optarg; continue;
		case 'f': force = true; continue;
		case 'j': json = true; continue;
		case 'h': return oti_print_help(pack_help);
		default: return oti_usage_error("pack", "unknown option");
		}
		if (oti_parse_u32(optarg, max, u32) != OTA_OK || (*u32 == 0 && max != OTA_SVN_LIMIT &&
								 c != 't'))
			return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_BAD_VALUE, NULL, opt,
							 "'%s', expected a number up to %u", optarg,
							 max));
	}
	if (optind != argc)
		return oti_usage_error("pack", "unexpected argument '%s'", argv[optind]);
	if (!out)
		return oti_usage_error("pack", "--out is required");

	for (i = 0; i < OTI_SLOTS && st == OTA_OK; i++) {
		if (!slot_path[i])
			continue;
		st = oti_file_read(slot_path[i], OTI_MAX_IMAGE, &slot_buf[i], &p.slot_len[i], &d);
		p.slot[i] = slot_buf[i];
		/* Checked here too so that a bad image is blamed on its own file. */
		if (st == OTA_OK) {
			st = oti_slot_image_check((enum oti_slot_index)i, p.slot[i], p.slot_len[i], &d);
			if (st != OTA_OK)
				oti_diag_set(&d, st, slot_path[i], NULL, NULL);
		}
	}
	if (st == OTA_OK && owner) {
		st = oti_owner_config_load(owner, &oc, &d);
		p.owner = &oc;
	}
	if (st == OTA_OK && idcert) {
		st = oti_file_read(idcert, OTI_MAX_SMALL_FILE, &der, &der_len, &d);
		if (st == OTA_OK) {
			st = oti_idcert_blob(der, der_len, &blob, &d);
			if (st != OTA_OK)
				oti_diag_set(&d, st, idcert, NULL, NULL);
		}
		p.idcert = &blob;
	}
	if (st == OTA_OK)
		st = oti_flash_build(&p, &flash, &flash_len, &d);
	if (st == OTA_OK) {
		struct oti_output o = { out, flash, flash_len, 0644 };

		st = oti_files_write(&o, 1, force, &d);
	}
	if (st == OTA_OK)
		st = oti_inspect(out, flash, flash_len, json, stdout, &d);
	rc = st == OTA_OK ? 0 : oti_fail(&d, st);
	for (i = 0; i < OTI_SLOTS; i++)
		free(slot_buf[i]);
	free(der);
	free(flash);
	return rc;
}
