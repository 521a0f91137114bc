// SPDX-License-Identifier: MIT
/* otimage corim: a release's signed images as signed CoRIM reference values. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/hex.h>

#include "corim_build.h"
#include "otimage_internal.h"

static const char corim_help[] =
	"NAME\n"
	"    otimage corim - the reference values of a release as a signed CoRIM\n"
	"\n"
	"SYNOPSIS\n"
	"    otimage corim --key KEY --id ID [--signer NAME] [--tag-form FORM] --out FILE\n"
	"                  [--force] IMAGE...\n"
	"\n"
	"DESCRIPTION\n"
	"    Reads each signed ROM_EXT or BL0 image (otimage sign) with the device's\n"
	"    parsers and writes a CoRIM (draft-ietf-rats-corim) listing, for each\n"
	"    image, one CoMID: the stage's environment class (vendor \"otattest\",\n"
	"    model rom_ext or bl0) and the measurement the device will report for it:\n"
	"    the SHA-256 of its signed region, its exact SVN and the key ids of its\n"
	"    signer chain (root key first). The CoRIM is signed as a COSE_Sign1 with\n"
	"    ES256 by KEY (its P-256 half); a verifier takes it with\n"
	"    otattest-verify --corim FILE --corim-key KEY.pub, and Veraison's cocli\n"
	"    reads it. The profile is docs/corim.md.\n"
	"\n"
	"    The images' signatures are not checked here: otimage inspect --root-key\n"
	"    does that; this command only reads what they are.\n"
	"\n"
	"OPTIONS\n"
	"    --key KEY      the signing key (PEM private key; otimage keygen).\n"
	"    --id ID        the CoRIM id, naming the release (1 to 128 bytes); each\n"
	"                   CoMID's tag id is ID/STAGE.\n"
	"    --signer NAME  the signer name in the CoRIM's meta (default \"otattest\").\n"
	"    --tag-form FORM  how each CoMID sits in the CoRIM's tags: draft (the\n"
	"                   default) writes 506(<< CoMID >>), tag 506 around a byte\n"
	"                   string, as draft-ietf-rats-corim's CDDL says; veraison\n"
	"                   writes << 506(CoMID) >>, the only form Veraison's corim\n"
	"                   library v1.1.x and its cocli read. otattest-verify and\n"
	"                   otattest's Veraison scheme read both.\n"
	"    --out FILE     where to write the signed CoRIM.\n"
	"    --force        replace FILE if it exists.\n"
	"    -h, --help     show this help.\n"
	"\n"
	"OUTPUT\n"
	"    One line per image on standard output: file, stage, SVN, measurement.\n"
	"\n"
	"EXIT STATUS\n"
	"    0 on success, 2 for a usage error, otherwise the class code of the failure\n"
	"    (see otimage --help): 11 for an image that does not parse, 21 for more\n"
	"    than 16 images. Nothing is written on failure.\n"
	"\n"
	"EXAMPLES\n"
	"    otimage corim --key release.pem --id release-2025.1 --out release.corim \\\n"
	"                  rom_ext.img bl0.img\n"
	"    otattest-verify --ca ca.pem --corim release.corim --corim-key release.pub \\\n"
	"                    --nonce HEX evidence.cose\n";

static ota_status_t read_stage(const char *path, struct oti_corim_stage *s, struct oti_diag *d)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	ota_status_t st;

	st = oti_file_read(path, OTI_MAX_IMAGE, &buf, &len, d);
	if (st == OTA_OK) {
		st = oti_corim_stage_from_image(buf, len, s, d);
		if (st != OTA_OK && d->file[0] == '\0')
			snprintf(d->file, sizeof(d->file), "%s", path);
	}
	free(buf);
	return st;
}

int oti_cmd_corim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' }, { "id", required_argument, NULL, 'i' },
		{ "signer", required_argument, NULL, 's' }, { "out", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },        { "help", no_argument, NULL, 'h' },
		{ "tag-form", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *key_path = NULL, *id = NULL, *signer = "otattest", *out_path = NULL;
	struct oti_corim_stage stages[OTI_CORIM_MAX_IMAGES];
	char hex[2 * OTA_SHA256_BYTES + 1];
	struct oti_output out;
	struct oti_key key = { 0 };
	struct oti_diag d;
	uint8_t *corim = NULL;
	size_t corim_len = 0;
	enum oti_corim_form form = OTI_CORIM_FORM_DRAFT;
	bool force = false;
	ota_status_t st;
	uint32_t i, count;
	int c;

	oti_diag_clear(&d);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': key_path = optarg; break;
		case 'i': id = optarg; break;
		case 's': signer = optarg; break;
		case 'o': out_path = optarg; break;
		case 'f': force = true; break;
		case 't':
			if (strcmp(optarg, "draft") == 0)
				form = OTI_CORIM_FORM_DRAFT;
			else if (strcmp(optarg, "veraison") == 0)
				form = OTI_CORIM_FORM_VERAISON;
			else
				return oti_usage_error("corim", "--tag-form is draft or veraison");
			break;
		case 'h': return oti_print_help(corim_help);
		default: return oti_usage_error("corim", "unknown option");
		}
	}
	if (!key_path || !id || !out_path)
		return oti_usage_error("corim", "--key, --id and --out are required");
	if (optind == argc)
		return oti_usage_error("corim", "no image given");
	if (strlen(id) == 0 || strlen(id) > OTA_CORIM_MAX_TEXT)
		return oti_usage_error("corim", "--id must be 1 to %u bytes", OTA_CORIM_MAX_TEXT);
	if (strlen(signer) == 0 || strlen(signer) > OTA_CORIM_MAX_TEXT)
		return oti_usage_error("corim", "--signer must be 1 to %u bytes",
				       OTA_CORIM_MAX_TEXT);
	if ((size_t)(argc - optind) > OTI_CORIM_MAX_IMAGES)
		return oti_fail(&d, oti_diag_set(&d, OTA_TOOL_TOO_LARGE, NULL, "corim",
						 "%d images; a CoRIM holds at most %u",
						 argc - optind, OTI_CORIM_MAX_IMAGES));
	count = (uint32_t)(argc - optind);
	for (i = 0; i < count; i++) {
		st = read_stage(argv[optind + (int)i], &stages[i], &d);
		if (st != OTA_OK)
			return oti_fail(&d, st);
	}
	st = oti_key_load(key_path, true, &key, &d);
	if (st != OTA_OK)
		return oti_fail(&d, st);
	st = oti_corim_build(id, signer, stages, count, form, &key, &corim, &corim_len);
	if (st != OTA_OK) {
		oti_diag_set(&d, st, out_path, "corim", NULL);
	} else {
		out = (struct oti_output){ out_path, corim, corim_len, 0644 };
		st = oti_files_write(&out, 1, force, &d);
	}
	if (st == OTA_OK)
		for (i = 0; i < count; i++) {
			otu_hex_encode(hex, stages[i].measurement, OTA_SHA256_BYTES);
			printf("%s: %s SVN %u measurement %s\n", argv[optind + (int)i],
			       ota_stage_name(stages[i].stage), stages[i].svn, hex);
		}
	free(corim);
	oti_key_free(&key);
	return st == OTA_OK ? 0 : oti_fail(&d, st);
}
